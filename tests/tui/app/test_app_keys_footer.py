"""The footer of keys: a move re-dims its keys in place; it is built again only when what
the keys say changes (Textual pilot, one small level)."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from fewest.tui.app.keys_footer import KeysFooter
from tests.app_support import SIZE, make_app, wait_for


def _keys(app) -> dict[str, FooterKey]:
    return {key.action: key for key in app.screen.query_one(KeysFooter).query(FooterKey)}


async def test_a_move_re_dims_the_keys_in_place_and_a_new_key_rebuilds_them(tmp_path):
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "undo" in _keys(app))
        keys = _keys(app)
        assert keys["undo"].has_class("-disabled") and keys["undo"]._disabled
        await pilot.press("left")
        await wait_for(pilot, lambda: not _keys(app)["undo"].has_class("-disabled"))
        assert _keys(app) == keys and not keys["undo"]._disabled  # (the same widgets, lit)
        await pilot.press("u")
        await wait_for(pilot, lambda: _keys(app)["undo"].has_class("-disabled"))
        assert _keys(app) == keys
        app.update_keymap({"undo": "f5"})  # (what the undo key says changes: built again)
        await wait_for(pilot, lambda: _keys(app)["undo"].key == "f5")
        assert _keys(app)["undo"] is not keys["undo"] and _keys(app)["undo"].has_class("-disabled")

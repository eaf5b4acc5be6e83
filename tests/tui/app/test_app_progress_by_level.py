"""Progress follows the level, not the file it came in: a bundled pack opened by its path is
the bundled pack, and progress kept by file and level before moves over, merged."""

from __future__ import annotations

import json
from importlib import resources

from fewest.levels import read_file
from fewest.levels.bundled import bundled_packs
from fewest.tui.app.app import FewestApp
from fewest.tui.app.browser import BrowserScreen
from fewest.tui.services.progress import ProgressStore
from tests.app_support import SIZE, board_screen, quiet_app, wait_for


async def test_a_bundled_pack_opened_by_its_path_is_the_bundled_pack(tmp_path):
    pack = next(p for p in bundled_packs() if p.name == "rotation_classic")
    path = str(resources.files("fewest.levels.packs") / "rotation_classic.fewest")
    copy = tmp_path / "mine.fewest"  # (a copy of it counts as it too)
    copy.write_text(open(path, encoding="utf-8").read(), encoding="utf-8")
    app = quiet_app(FewestApp(read_file(str(copy)), 0, data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE) as pilot:
        board = board_screen(app)
        assert board.entry.source == pack.entries[0].source and board.sub_title.startswith(pack.title)
        await pilot.press("G")  # (Easy 1's one move)
        await wait_for(pilot, lambda: app.store.level(pack.entries[0].key).solved)
        await pilot.press("escape", "q")
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        assert [s.title for s in browser.shelves].count(pack.title) == 1
        assert not any(s.path for s in browser.shelves)  # (no file of its own in the list)
        assert browser.current_shelf.title == pack.title
        assert str(browser._shelf_label(browser.current_shelf)).endswith(f"1/{len(pack.entries)}")
    assert app.store.recent == []


def test_progress_kept_by_file_and_level_moves_to_the_level_merged(tmp_path):
    pack = next(p for p in bundled_packs() if p.name == "rotation_classic")
    entry = pack.entries[1]
    old = {f"{entry.source}#{entry.fingerprint}": {"solved": True, "assisted": True},
           f"/home/me/rot.fewest#{entry.fingerprint}": {"solved": True, "best_moves": 7, "best_plan": "A"},
           "elsewhere#lv0123456789abcdef": {"solved": True, "best_moves": 3}}
    games = {f"/a.fewest#{entry.fingerprint}": {"record": {"entries": []}, "when": 5.0},
             f"/b.fewest#{entry.fingerprint}": {"record": {"entries": [["move", "A"]]}, "when": 9.0}}
    (tmp_path / "progress.json").write_text(json.dumps({"levels": old}), encoding="utf-8")
    (tmp_path / "games.json").write_text(json.dumps({"games": games}), encoding="utf-8")
    store = ProgressStore(str(tmp_path))
    record = store.level(entry.key)
    assert entry.key == entry.fingerprint
    assert record.solved and not record.assisted and record.best_moves == 7 and record.best_plan == "A"
    assert store.level("lv0123456789abcdef").best_moves == 3  # (a level no pack has now: kept too)
    assert store.saved_game(entry.key).when == 9.0  # (the newer of the two games)
    on_disk = json.loads((tmp_path / "progress.json").read_text(encoding="utf-8"))["levels"]
    assert sorted(on_disk) == sorted([entry.key, "lv0123456789abcdef"])
    assert list(json.loads((tmp_path / "games.json").read_text(encoding="utf-8"))["games"]) == [entry.key]

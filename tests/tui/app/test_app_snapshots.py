"""SVG snapshots of every board, the browser and the cards, at 80x24 (pytest-textual-snapshot).

Regenerate after a deliberate change to the look: pytest tests/test_app_snapshots.py --snapshot-update
The clock is frozen and the par search is off, so nothing in a snapshot depends on time.
"""

from __future__ import annotations

import pytest

from fewest.tui.services import catalog
from fewest.tui.services.catalog import Shelf
from fewest.tui.services.progress import ProgressStore, SavedGame
from tests.app_support import entries, idle, make_app, quiet_app, wait_for

SIZE = (80, 24)


def _keys(*keys: str):
    """A run_before that presses keys and lets any hint search finish."""

    async def run(pilot) -> None:
        for key in keys:
            await pilot.press(key)
            await idle(pilot)
        await pilot.pause()

    return run


@pytest.mark.parametrize("family, keys", [
    ("sokoban", ("left", "up", "up", "right", "down")),  # a push (no hint: ties could pick another)
    ("traffic", ("tab", "right")),
    ("rotation", ("B", "h", "h")),  # the hinted move is unique: the lexicographically first
    ("shift", ("right", "space", "down")),  # a piece picked up, the cursor below it
    ("password", ("down", "right", "right_square_bracket", "space")),
])
def test_board(snap_compare, tmp_path, family, keys):
    assert snap_compare(make_app(tmp_path, family), terminal_size=SIZE, run_before=_keys(*keys))


def test_board_in_the_light_theme(snap_compare, tmp_path):
    async def light(pilot) -> None:
        pilot.app.theme = "textual-light"
        await _keys("tab", "tab", "left")(pilot)

    assert snap_compare(make_app(tmp_path, "traffic"), terminal_size=SIZE, run_before=light)


def test_board_in_ascii(snap_compare, tmp_path):
    app = make_app(tmp_path, "sokoban")
    app.ascii_only = True
    assert snap_compare(app, terminal_size=SIZE, run_before=_keys("left", "up", "up"))


def test_help_screen(snap_compare, tmp_path):
    assert snap_compare(make_app(tmp_path, "sokoban"), terminal_size=SIZE, press=["question_mark"])


def test_solved_card(snap_compare, tmp_path):
    async def solve(pilot) -> None:
        await pilot.press("A", "C")
        await wait_for(pilot, lambda: pilot.app.screen.is_modal)

    assert snap_compare(make_app(tmp_path, "rotation"), terminal_size=SIZE, run_before=solve)


def test_browser(snap_compare, tmp_path, monkeypatch):
    shelves = [Shelf(f, entries(f)[0].source, tuple(entries(f))) for f in ("sokoban", "traffic", "rotation")]
    monkeypatch.setattr(catalog, "bundled_shelves", lambda: (shelves, []))
    store = ProgressStore(str(tmp_path / "data"))
    first, second = entries("sokoban")
    store.record_solve(first.key, 14, 4, assisted=False)
    store.remember_par(first.key, 12)
    store.record_solve(second.key, 1, 1, assisted=True)
    store.save_game(entries("traffic")[0].key, SavedGame({"entries": [], "position": 0}))
    from fewest.tui.app.app import FewestApp

    app = quiet_app(FewestApp(data_dir=str(tmp_path / "data")))
    assert snap_compare(app, terminal_size=SIZE)

"""Coming back: the game left unfinished last is offered first, one key away (Textual pilot)."""

from __future__ import annotations

from fewest.engine.game import Game
from fewest.engine.registry import rules_for
from fewest.levels.bundled import bundled_packs
from fewest.tui.app.app import FewestApp
from fewest.tui.app.browser import BrowserScreen
from fewest.tui.services.progress import ProgressStore, SavedGame
from tests.app_support import SIZE, board_screen, quiet_app


def _saved(entry, moves: str, when: float) -> SavedGame:
    game = Game(rules_for(entry.family), entry.level)
    for move in moves:
        game.play(move)
    return SavedGame(game.to_record(), 5.0, 0, when=when)


async def test_the_game_left_last_is_offered_and_c_or_enter_continues_it(tmp_path):
    rotation = next(p for p in bundled_packs() if p.family == "rotation")
    older, newer = rotation.entries[4], rotation.entries[2]
    store = ProgressStore(str(tmp_path))
    store.save_game(older.key, _saved(older, "A", when=100.0))
    store.save_game(newer.key, _saved(newer, "BC", when=200.0))
    app = quiet_app(FewestApp(data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        browser = app.screen
        assert isinstance(browser, BrowserScreen) and browser.current_shelf.title == rotation.title
        assert browser.query_one("#levels").cursor_row == 2  # (not the first pack's next unsolved)
        assert "unfinished game" in str(browser.query_one("#browser-message").render())
        await pilot.press("enter")
        board = board_screen(app)
        assert board.entry.key == newer.key and board.game.counters.moves == 2
        await pilot.press("A", "q")  # (saved again, now the newest)
        await pilot.press("shift+tab", "up", "c")  # c continues from anywhere in the browser
        board = board_screen(app)
        assert board.entry.key == newer.key and board.game.counters.moves == 3
    assert ProgressStore(str(tmp_path)).last_saved([older.key, newer.key]) == newer.key

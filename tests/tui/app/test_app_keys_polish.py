"""Keys a new player tried (#70): escape dismisses and never leaves, lowercase rotation
letters, ... (Textual pilot, one small level each)."""

from __future__ import annotations

from fewest.tui.app.browser import BrowserScreen
from tests.app_support import SIZE, board_screen, make_app


def _message(app) -> str:
    return str(app.screen.query_one("#message").render())


async def test_escape_dismisses_the_message_and_never_leaves_the_board(tmp_path):
    app = make_app(tmp_path, "rotation")
    async with app.run_test(size=SIZE) as pilot:
        board = board_screen(app)
        await pilot.press("p")
        assert _message(app) == "This is the first level."
        await pilot.press("escape")
        assert app.screen is board and _message(app) == ""
        await pilot.press("escape")
        assert app.screen is board and "q goes back" in _message(app)
        await pilot.press("q")
        assert isinstance(app.screen, BrowserScreen)

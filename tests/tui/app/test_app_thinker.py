"""The board's thinker and its screen: what the thinker tells comes as messages the screen
handles (the message line, the hinted move, a proven par, the status line), and it reaches
the screen only through BoardHost, never through the screen's private parts."""

from __future__ import annotations

import ast
import inspect

from fewest.tui.app.boards import thinking
from fewest.tui.app.boards.screen import BoardScreen
from fewest.tui.app.boards.host import BoardHost
from fewest.tui.app.boards.thinking import Thinker
from tests.app_support import SIZE, board_screen, idle, make_app, wait_for


def _message(app) -> str:
    return str(app.screen.query_one("#message").render())


def _status(app) -> str:
    return str(app.screen.query_one("#status").render())


async def test_a_line_the_thinker_says_reaches_the_message_line(tmp_path):
    app = make_app(tmp_path, "rotation")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        screen.thinker.post_message(Thinker.Said("Thinking it over"))
        await wait_for(pilot, lambda: _message(app) == "Thinking it over")
        assert screen.message == "Thinking it over"  # (shown again after the next change)


async def test_a_hint_shown_as_a_message_lights_its_move_unless_the_player_moved_on(tmp_path):
    app = make_app(tmp_path, "rotation")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        game = screen.game
        move = game.legal_moves()[0]
        screen.thinker.post_message(Thinker.HintShown(game.start, move, "Next: this one"))
        await wait_for(pilot, lambda: screen.board.hint_move == move)
        assert _message(app) == "Next: this one"
        await pilot.press("escape")  # (the hinted move goes)
        assert screen.board.hint_move is None
        screen.thinker.post_message(Thinker.HintShown("another position", move, "Next: stale"))
        await pilot.pause()
        assert screen.board.hint_move is None and _message(app) != "Next: stale"


async def test_a_par_proven_as_a_message_is_kept_and_shown_on_the_status_line(tmp_path):
    app = make_app(tmp_path, "traffic", index=1)  # "Free road": no par in its file
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await idle(pilot)
        key = screen.entry.key
        screen.thinker.post_message(Thinker.ParProven("some other level", "moves", 5))
        await pilot.pause()
        assert app.store.level(key).par is None  # (proven for a level left since: dropped)
        screen.thinker.post_message(Thinker.ParProven(key, "moves", 1, tuple(screen.game.legal_moves()[:1])))
        await wait_for(pilot, lambda: "Par 1" in _status(app))
        assert app.store.level(key).par == 1 and app.store.level(key).par_plan
        screen.thinker.post_message(Thinker.ParProven(key, "moves", None))  # (no solution at all)
        await wait_for(pilot, lambda: "Par none" in _status(app))
        assert screen.unsolvable


def _spy(monkeypatch, handler: str) -> list:
    """The messages BoardScreen's `handler` is given, as it handles them."""
    seen: list = []
    original = getattr(BoardScreen, handler)

    def spy(self, message) -> None:
        seen.append(message)
        original(self, message)

    monkeypatch.setattr(BoardScreen, handler, spy)  # (Textual finds handlers on the class)
    return seen


async def test_a_hint_from_a_search_comes_back_as_messages_and_counts(tmp_path, monkeypatch):
    said = _spy(monkeypatch, "on_thinker_said")
    app = make_app(tmp_path, "traffic")  # "Short jam": par 2
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("h")
        await idle(pilot)
        assert said and said[-1].text == _message(app) and _message(app).startswith("2 moves to solve from here")
        assert "Hints 1" in _status(app) and screen.hints == 1
        assert not screen.thinker.busy and screen.thinker.answer.plan is not None


async def test_the_meter_reading_comes_back_as_a_message_that_redraws_the_status_line(tmp_path, monkeypatch):
    changed = _spy(monkeypatch, "on_thinker_activity_changed")
    app = make_app(tmp_path, "password")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("m")
        await wait_for(pilot, lambda: screen.thinker.meter_value is not None)
        await wait_for(pilot, lambda: bool(changed))
        assert f"To go: {screen.thinker.meter_value}" in _status(app)


def test_the_thinker_touches_the_screen_only_through_board_host():
    host_face = {name for name, _ in inspect.getmembers(BoardHost) if not name.startswith("_")}
    host_face |= set(BoardHost.__annotations__)
    assert host_face == {"game", "store", "entry", "metric", "board", "play"}
    tree = ast.parse(inspect.getsource(thinking))
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute):
            if node.value.attr == "host" and isinstance(node.value.value, ast.Name) and node.value.value.id == "self":
                used.add(node.attr)  # self.host.<attr>
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "host":
            used.add(node.attr)  # host = self.host; host.<attr>
        if isinstance(node, ast.Attribute) and node.attr == "screen":
            raise AssertionError("the thinker reaches for self.screen: go through BoardHost")
    assert used and used <= host_face, used - host_face

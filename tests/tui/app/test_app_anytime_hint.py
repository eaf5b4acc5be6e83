"""A hint that answers before its proof: the plan found at once, then a shorter one, then
the proof, each said on the message line with its stage while the player may play on."""

from __future__ import annotations

import threading
import time

from fewest.levels.bundled import find_pack
from fewest.solvers import api
from fewest.solvers.common.solution import Solution, Stats, Status
from fewest.tui.app.app import FewestApp
from fewest.tui.app.boards import thinking
from fewest.tui.services import hints
from fewest.tui.services.hints import HintAnswer
from tests.app_support import SIZE, board_screen, idle, make_app, quiet_app, wait_for


def _message(app) -> str:
    return str(app.screen.query_one("#message").render())


def _status(app) -> str:
    return str(app.screen.query_one("#status").render())


async def test_the_hint_says_found_then_improved_then_proven(tmp_path, monkeypatch):
    go_on = [threading.Event(), threading.Event()]

    def staged(family, level, state, history, book, should_stop, on_progress=None, budget=None, last=None,
               on_plan=None):
        # (the search's stages, each when the test says: a plan from the real solver throughout)
        plan = tuple(api.solve(family, level, state).moves)
        on_plan(HintAnswer(state, plan, Status.FOUND, at_least=2, stage="found", last=last))
        go_on[0].wait(10)
        on_plan(HintAnswer(state, plan, Status.FOUND, at_least=3, stage="improved", last=last))
        go_on[1].wait(10)
        return HintAnswer(state, plan, last=last)

    monkeypatch.setattr(thinking, "hint_for", staged)
    app = make_app(tmp_path, "sokoban")
    app.clock = time.monotonic  # (the spinner, with the stage, shows after a while)
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await idle(pilot)
        await pilot.press("h")
        await wait_for(pilot, lambda: "found, not proven shortest; at least 2; still searching" in _message(app))
        assert screen.thinker.busy  # (the search goes on; the keys do not wait for it)
        await wait_for(pilot, lambda: "found" in _status(app))  # the spinner's line: ", plan N found"
        go_on[0].set()
        await wait_for(pilot, lambda: "improved, not proven shortest; at least 3" in _message(app))
        go_on[1].set()
        await idle(pilot)
        await wait_for(pilot, lambda: "(proven shortest)" in _message(app))
        assert screen.hints == 1


async def test_escape_stops_the_search_and_the_plan_found_stays(tmp_path, monkeypatch):
    release = threading.Event()

    def found_then_waits(family, level, state, history, book, should_stop, on_progress=None, budget=None,
                         last=None, on_plan=None):
        plan = tuple(api.solve(family, level, state).moves)
        on_plan(HintAnswer(state, plan, Status.FOUND, stage="found", last=last))
        while not should_stop() and not release.is_set():
            release.wait(0.01)
        return HintAnswer(state, None, Status.CANCELLED, last=last)

    monkeypatch.setattr(thinking, "hint_for", found_then_waits)
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await idle(pilot)
        await pilot.press("h")
        await wait_for(pilot, lambda: "still searching" in _message(app))
        await pilot.press("escape")
        await idle(pilot)
        release.set()
        await pilot.press("h")  # (the plan found answers: its next move, no new search)
        await wait_for(pilot, lambda: _message(app).startswith("Next:"))
        assert not screen.thinker.busy and screen.thinker.answer.stage is None


async def test_a_bundled_level_with_a_saved_solution_and_no_par_answers_at_once(tmp_path, monkeypatch):
    searching = threading.Event()

    def waits(*args, should_stop, **options):  # (a search that finds nothing until stopped)
        searching.set()
        while not should_stop():
            time.sleep(0.005)
        return Solution(Status.CANCELLED)

    monkeypatch.setattr(hints.api, "solve", waits)
    entry = find_pack("sokoban_grigr2001").entries[8]  # (#9: no par, a solution found saved under it)
    assert entry.par is None and len(entry.solutions) == 1
    moves = len(entry.solutions[0])
    app = quiet_app(FewestApp([entry], 0, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("h")
        await wait_for(pilot, lambda: "still searching" in _message(app))
        assert _message(app).startswith(f"{moves} moves (")
        assert "(found, not proven shortest; the level file's solution; still searching)" in _message(app)
        assert searching.wait(5) and screen.thinker.busy  # (its search goes on, from the solution)
        await pilot.press("escape")
        await idle(pilot)


async def test_h_again_after_a_search_ran_out_of_time_searches_twice_as_long(tmp_path, monkeypatch):
    asked = []

    def runs_out(family, level, state=None, *, budget, should_stop, reason="time", **options):
        asked.append(budget)
        return Solution(Status.BUDGET, stats=Stats(reason=reason), at_least=9)

    monkeypatch.setattr(hints.api, "solve", runs_out)
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await idle(pilot)
        await pilot.press("right")
        for minutes in (2, 4, 8):
            await pilot.press("h")
            await idle(pilot)
            assert _message(app).endswith(f"(h again searches for {minutes} minutes)")
        await pilot.press("h")
        await idle(pilot)
        assert "ran out of time (at least 9 moves from here)." in _message(app) and "h again" not in _message(app)
        hints_counted = screen.hints
        await pilot.press("h")  # (the longest ran: asking again tells and counts nothing new)
        await idle(pilot)
        assert [budget.seconds for budget in asked] == [60, 120, 240, 480] and screen.hints == hints_counted
        assert all(budget.memory_bytes == asked[0].memory_bytes for budget in asked)
        monkeypatch.setattr(hints.api, "solve", lambda *args, **options: runs_out(*args, reason="memory", **options))
        # (back at the start, not searched yet: a search that runs out of memory is not tried again)
        await pilot.press("left", "h")
        await idle(pilot)
        await pilot.press("h")
        await idle(pilot)
        assert "ran out of room" in _message(app) and "h again" not in _message(app) and len(asked) == 5

"""Thinking in the app: spinner, cancel within 0.2 s, keys while solving, dead positions, the meter."""

from __future__ import annotations

import dataclasses
import json
import time
from contextlib import asynccontextmanager

import pytest
from rich.console import Console

from fewest.engine import sokoban, traffic
from fewest.engine.base import format_plan, parse_plan, replay
from fewest.levels import read_text
from fewest.levels.bundled import find_pack
from fewest.levels.sokoban_grid import xsb_rows
from fewest.solvers import api
from fewest.solvers.common.control import Budget, Progress
from fewest.solvers.sokoban.plans.box_route import box_route
from fewest.solvers.common.solution import Solution, Stats, Status
from fewest.tui.services import hints
from fewest.tui.app.app import FewestApp
from fewest.tui.services.hints import PlanBook, hint_for, meter_reading, undos_out_of_deadlock
from fewest.tui.services.level_summary import short_count
from fewest.tui.services.progress import ProgressStore
from tests.app_support import SIZE, app_on_text, board_screen, entries, idle, make_app, quiet_app, wait_for
from tests.oracle import fewest_counted, shortest_plan


class SlowSolver:
    """A fake solver that thinks until told to stop, reporting progress like a real one."""

    def __init__(self, expanded: int = 12345) -> None:
        self.calls = 0
        self.stopped_at: list[float] = []
        self.expanded = expanded

    def __call__(self, family, level, state=None, *, should_stop=None, on_progress=None, **_):
        self.calls += 1
        while not should_stop():
            if on_progress is not None:
                on_progress(Progress(self.expanded, 100, 17, 0.5))
            time.sleep(0.002)
        self.stopped_at.append(time.monotonic())
        return Solution(Status.CANCELLED)


def _status(app) -> str:
    return str(app.screen.query_one("#status").render())


def _message(app) -> str:
    return str(app.screen.query_one("#message").render())


async def test_escape_cancels_a_long_search_within_a_fifth_of_a_second(tmp_path, monkeypatch):
    slow = SlowSolver()
    monkeypatch.setattr(hints.api, "solve", slow)
    app = make_app(tmp_path, "rotation")
    app.clock = time.monotonic  # the spinner waits 0.3 s of real time
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("S")
        await wait_for(pilot, lambda: "thinking" in _status(app))
        assert "12,345 nodes" in _status(app) and "bound 17" in _status(app)
        pressed = time.monotonic()
        await pilot.press("escape")
        await wait_for(pilot, lambda: bool(slow.stopped_at), timeout=2)
        assert slow.stopped_at[0] - pressed < 0.2
        assert not screen.thinker.busy and _message(app) == "Cancelled."
        assert app.screen is screen  # escape cancelled; it did not leave the board
        await pilot.press("escape")  # (then the message goes; escape never leaves, q does)
        assert app.screen is screen and _message(app) == ""
        await pilot.press("q")
        assert app.screen is not screen


async def test_a_big_node_count_stays_short_enough_to_read(tmp_path, monkeypatch):
    assert [short_count(n) for n in (999, 12_345, 678_901, 3_714_784)] == ["999", "12,345", "678k", "3.7M"]
    slow = SlowSolver(expanded=3_714_784)
    monkeypatch.setattr(hints.api, "solve", slow)
    app = make_app(tmp_path, "sokoban")
    app.clock = time.monotonic
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.press("S")
        await wait_for(pilot, lambda: "thinking" in _status(app))
        status = _status(app)  # (at 80 columns the bound gives way, so the line is whole)
        assert status.endswith("⠴ thinking 3.7M nodes"[1:]) and len(status) <= 78
        await pilot.press("escape")
        await wait_for(pilot, lambda: bool(slow.stopped_at), timeout=2)


async def test_leaving_a_level_stops_its_warm_up(tmp_path, monkeypatch):
    started, stopped = [], []

    def warm_up(family, level, should_stop=None):  # (a big board's tables: seconds)
        started.append(1)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not should_stop():
            time.sleep(0.002)
        stopped.append(should_stop())

    monkeypatch.setattr(api, "warm_up", warm_up)
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await wait_for(pilot, lambda: bool(started), timeout=2)
        await pilot.press("q")
        assert app.screen is not screen
        await wait_for(pilot, lambda: bool(stopped), timeout=2)
        assert stopped == [True]


@asynccontextmanager
async def thinking_on_a_hint(tmp_path, monkeypatch, family: str):
    """An app on `family`'s first test level, a hint's (fake) search running: (app, pilot, solver)."""
    slow = SlowSolver()
    monkeypatch.setattr(hints.api, "solve", slow)
    app = make_app(tmp_path, family)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await wait_for(pilot, lambda: slow.calls == 1)
        yield app, pilot, slow


async def test_keys_keep_working_while_the_solver_thinks(tmp_path, monkeypatch):
    async with thinking_on_a_hint(tmp_path, monkeypatch, "rotation") as (app, pilot, slow):
        screen = board_screen(app)
        await pilot.press("B")  # a move: played at once, and the stale search is dropped
        assert screen.game.counters.moves == 1
        await wait_for(pilot, lambda: bool(slow.stopped_at), timeout=2)
        assert not screen.thinker.busy
        await pilot.press("u", "question_mark")
        assert screen.game.counters.moves == 0 and app.screen.query_one("#help-card")


async def test_a_real_sokoban_search_stops_promptly_when_cancelled(tmp_path, monkeypatch):
    finished: list[float] = []
    real = api.solve

    def timed(*args, **kwargs):
        try:
            return real(*args, **kwargs)
        finally:
            finished.append(time.monotonic())

    monkeypatch.setattr(hints.api, "solve", timed)
    hardest = max(find_pack("sokoban_grigr2001").entries, key=lambda e: len(e.level.boxes))
    app = quiet_app(FewestApp([hardest], 0, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("S")
        await pilot.pause(0.5)
        assert not finished, "pick a level the solver can't finish in half a second"
        pressed = time.monotonic()
        await pilot.press("escape")
        await wait_for(pilot, lambda: bool(finished), timeout=5)
        assert finished[0] - pressed < 1.0  # the solver's own ticks see the cancel (real time: ~0.15 s)


async def test_hint_in_a_dead_sokoban_position_counts_the_undos_back(tmp_path):
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("up")  # pushes a box against the top wall: no goal there
        assert screen.game.counters.pushes == 1
        await pilot.press("h")
        await idle(pilot)
        assert "can't be solved from here" in _message(app).lower() and "undo 1 move" in _message(app)
        assert "(h again takes it back)" in _message(app)
        await pilot.press("h")  # takes the move back (not counted as a hint), redo brings it again
        assert screen.hints == 1 and screen.game.counters.moves == 0 and "Took back 1 move" in _message(app)
        await pilot.press("y")
        assert screen.game.counters.pushes == 1
        await pilot.press("left")
        await pilot.press("h")
        await idle(pilot)
        assert "undo 2 moves" in _message(app)
        assert screen.board.hint_move is None and screen.game.counters.moves == 2


@pytest.mark.parametrize("earlier", [Status.FOUND, Status.BUDGET])
async def test_undos_out_of_a_dead_position_count_a_plan_not_proven_and_never_guess(tmp_path, monkeypatch, earlier):
    real = api.solve

    def solve(family, level, state=None, **options):
        if earlier is Status.BUDGET:
            return Solution(Status.BUDGET, stats=Stats(reason="time"))
        solution = real(family, level, state, **options)
        return Solution(Status.FOUND, solution.moves, solution.stats, solution.extra)

    monkeypatch.setattr(hints.api, "solve", solve)
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("up")  # pushes a box against the top wall: no goal there
        await pilot.press("h")
        await idle(pilot)
        if earlier is Status.FOUND:  # a plan from the start, proven shortest or not: it can be solved
            assert "undo 1 move" in _message(app)
        else:  # no word on the start: no claim that the level has no solution
            assert "ran out before it found how many undos lead back" in _message(app)
            assert "no solution" not in _message(app)


async def test_a_push_into_a_deadlock_is_flagged_at_once_with_the_undos_back(tmp_path):
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("right")  # a step: nothing wrong
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "Deadlock" not in _message(app)
        await pilot.press("left", "up")  # pushes a box against the top wall: no goal there
        await wait_for(pilot, lambda: "Deadlock" in _message(app))
        assert "Undo 1 move " in _message(app) and screen.hints == 0  # no hint asked for
        await pilot.press("left")  # walking on inside it: still flagged, one more undo
        await wait_for(pilot, lambda: "Undo 2 moves " in _message(app))
        await pilot.press("u", "u")  # back before the push
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "Deadlock" not in _message(app) and screen.game.counters.pushes == 0


def test_the_deadlock_watch_counts_back_to_the_push_and_remembers_its_verdicts():
    level = read_text("#####\n#$@.#\n#####\n", "dead.xsb")[0].level  # the box is in a corner already
    state = sokoban.initial_state(level)
    known: dict = {}
    assert undos_out_of_deadlock("sokoban", level, state, [], known, lambda: False) == 0
    assert known == {state: True}
    room = read_text("######\n#    #\n# $  #\n#  @.#\n######\n", "room.xsb")[0].level
    start = sokoban.initial_state(room)
    history = [start]
    for letter in "uLu":  # up, push the box into the left wall (no goal in that column), up
        history.append(sokoban.apply(room, history[-1], sokoban.parse_move(letter)))
    now = history.pop()
    assert undos_out_of_deadlock("sokoban", room, now, history, {}, lambda: False) == 2
    assert undos_out_of_deadlock("sokoban", room, history[1], history[:1], {}, lambda: False) is None
    assert undos_out_of_deadlock("sokoban", room, now, history, {}, lambda: True) is None  # cancelled
    assert undos_out_of_deadlock("traffic", room, now, history, {}, lambda: False) is None  # no such tests


async def test_an_unsolvable_level_says_so(tmp_path):
    text = "Family: traffic\n\nTitle: Stuck\ngoal: clear-row 2\n....\n....\nAA..\n....\n"
    level = read_text(text, "stuck.fewest")  # a horizontal car can never leave its row
    app = quiet_app(FewestApp(level, 0, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await idle(pilot)
        assert "no solution" in _message(app)


@pytest.mark.parametrize("family", ["traffic", "password"])
async def test_the_meter_shows_the_exact_distance_live(tmp_path, family):
    app = make_app(tmp_path, family)
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        game = screen.game
        await pilot.press("m")
        await wait_for(pilot, lambda: screen.thinker.meter_value is not None)
        assert screen.thinker.meter_value == len(shortest_plan(game.rules, game.level, game.state))
        assert f"To go: {screen.thinker.meter_value}" in _status(app)
        await pilot.press("h", "h", "h")
        await idle(pilot)
        await wait_for(pilot, lambda: screen.thinker.meter_value is not None)
        assert screen.thinker.meter_value == len(shortest_plan(game.rules, game.level, game.state))


async def test_sokoban_has_no_meter_and_clicks_walk(tmp_path):
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        assert screen.check_action("meter", ()) is False
        level = screen.game.level
        target = 1 * level.width + 1  # the top-left floor cell
        x, y = screen.board.cell_origin(target)
        await pilot.click("#board-sokoban", offset=(1 + x, y))
        assert screen.game.state.player == target
        assert screen.game.counters.moves == 3 and screen.game.counters.pushes == 0
        await pilot.press("question_mark")  # the help lists no meter either
        console = Console(width=100, record=True)
        console.print(app.screen.query(".help-table")[1].content)
        keys = console.export_text()
        assert "Undo a move" in keys and "moves to go" not in keys


async def test_sokoban_a_clicked_box_goes_where_the_next_click_says(tmp_path):
    app = make_app(tmp_path, "sokoban")  # "Small room": boxes at row 2 cols 2-3, goals row 3 cols 1 and 4
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        board, game = screen.board, screen.game
        width = game.level.width

        async def click(row: int, col: int) -> None:
            x, y = board.cell_origin(row * width + col)
            await pilot.click("#board-sokoban", offset=(1 + x, y))
            await app.workers.wait_for_complete()  # (a route is worked out in a thread)
            await pilot.pause()
            await idle(pilot)

        await click(2, 3)
        assert board.picked == 2 * width + 3 and "should go" in _message(app)
        await click(2, 3)  # again: let go
        assert board.picked is None
        await click(2, 3)
        await click(1, 0)  # a wall: not a cell, nothing happens
        await click(2, 4)  # against the right wall: no way to push it there
        assert board.picked == 2 * width + 3 and "can't get there" in _message(app)
        assert game.counters.moves == 0
        await click(3, 4)  # the goal below and to the right
        expected = box_route(game.level, sokoban.initial_state(game.level), 2 * width + 3, 3 * width + 4)
        assert 3 * width + 4 in game.state.boxes and 2 * width + 3 not in game.state.boxes
        assert game.counters.moves == len(expected) and game.counters.pushes == 2
        assert board.picked is None
        await click(2, 2)
        await pilot.press("u")  # a move lets go of it
        await idle(pilot)
        assert board._picked_box() is None


async def test_a_box_clicked_while_a_solve_plays_stops_it_and_stays_picked(tmp_path):
    app = make_app(tmp_path, "sokoban")
    app.animation_speed = 2.0  # slow enough to click halfway
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        board, game = screen.board, screen.game
        await pilot.press("S")
        await wait_for(pilot, lambda: game.counters.moves >= 1 and screen.thinker.playing)
        row, col = divmod(min(game.state.boxes), game.level.width)
        x, y = board.cell_origin(min(game.state.boxes))
        await pilot.click("#board-sokoban", offset=(1 + x, y))
        played = game.counters.moves
        await pilot.pause(0.5)
        assert not screen.thinker.playing and game.counters.moves == played  # the solve stopped
        assert board._picked_box() == row * game.level.width + col and "should go" in _message(app)


async def test_escape_stops_a_solve_halfway_and_its_moves_undo(tmp_path):
    app = make_app(tmp_path, "sokoban")
    app.animation_speed = 2.0  # slow enough to stop halfway
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        game = screen.game
        await pilot.press("S")
        await wait_for(pilot, lambda: game.counters.moves >= 2)
        await pilot.press("escape")
        played = game.counters.moves
        await pilot.pause(0.5)
        assert game.counters.moves == played and not game.is_solved() and not screen.thinker.playing
        assert {e.kind.value for e in game.entries} == {"solve"}
        await pilot.press("u")
        assert game.counters.moves == played - 1


@pytest.mark.parametrize("reason, short", [(None, "room"), ("time", "time")])
async def test_a_hint_out_of_budget_says_what_the_proof_reached(tmp_path, monkeypatch, reason, short):
    answers = [Solution(Status.BUDGET, stats=Stats(reason=reason), at_least=57)]

    def stopped(family, level, state=None, **options):
        return answers[0]

    monkeypatch.setattr(hints.api, "solve", stopped)
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await idle(pilot)
        assert f"No plan found: the search ran out of {short} (at least 57 moves from here)." in _message(app)
        answers[0] = Solution(Status.BUDGET, stats=Stats(reason=reason))  # nothing proven: nothing claimed
        await pilot.press("right")
        await pilot.press("h")
        await idle(pilot)
        assert _message(app).startswith(f"No plan found: the search ran out of {short}.")
        assert "at least" not in _message(app)


async def test_a_plan_not_proven_shortest_says_so_in_hints_and_solves(tmp_path, monkeypatch):
    real = api.solve

    def unproven(family, level, state=None, **options):
        solution = real(family, level, state, **options)  # proven, but reported as merely found
        if not solution.solved:
            return solution
        return Solution(Status.FOUND, solution.moves, solution.stats, solution.extra, at_least=3)

    monkeypatch.setattr(hints.api, "solve", unproven)
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("h")
        await idle(pilot)
        assert "(not proven shortest; at least 3)" in _message(app)
        await pilot.press("S")
        await wait_for(pilot, lambda: screen.game.is_solved(), timeout=10)
        await idle(pilot)
        message = str(screen.query_one("#message").render())  # (the solved card is on top)
        assert "Solved by the solver, by a plan not proven shortest" in message


async def test_following_a_plan_not_proven_shortest_needs_no_new_search(tmp_path, monkeypatch):
    real = api.solve
    calls = []

    def unproven(family, level, state=None, **options):
        calls.append(state)
        solution = real(family, level, state, **options)
        return Solution(Status.FOUND, solution.moves, solution.stats, solution.extra, at_least=3)

    monkeypatch.setattr(hints.api, "solve", unproven)
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("h", "h", "h")  # how many, which move, then play it
        await idle(pilot)
        assert screen.game.counters.moves == 1
        await pilot.press("h")
        await idle(pilot)
        assert "(not proven shortest; at least 2)" in _message(app)  # one move in: one less
        assert len(calls) == 1
        await pilot.press("u", "h")  # back to the start: the book's again
        await idle(pilot)
        assert "(not proven shortest; at least 3)" in _message(app)
        assert len(calls) == 1


TRAFFIC_CHECKED = [("traffic_get_out", "Get out 1"), ("traffic_get_out", "Get out 3"),
                   ("traffic_rush_hour", "Beginner 1"), ("traffic_rush_hour", "Beginner 3"),
                   ("traffic_rush_hour", "Beginner 6")]


@pytest.mark.parametrize("pack,title", TRAFFIC_CHECKED)
def test_traffic_hints_count_as_the_counter_does_after_the_car_just_moved(pack, title):
    # A run of one car's slides is one move, so the car just moved may go on for free:
    # the hint, the meter and a solve must count that (checked against an exhaustive search).
    entry = next(e for e in find_pack(pack).entries if e.title == title)
    rules, level = traffic, entry.level
    start = rules.initial_state(level)
    book = PlanBook(rules, level)
    cheaper = 0
    for first in rules.legal_moves(level, start):
        state = rules.apply(level, start, first)
        analysis = hint_for("traffic", level, state, [start], book, lambda: False, last=first)
        expected = fewest_counted(rules, level, state, first)
        assert analysis.status is Status.OPTIMAL and analysis.moves_to_go == expected
        line = [first, *analysis.plan]
        assert rules.is_solved(level, replay(rules, level, analysis.plan, state))
        assert rules.tally(line).moves == 1 + expected
        assert meter_reading("traffic", level, state, book, lambda: False, Budget(seconds=5.0), first) == expected
        cheaper += expected < len(shortest_plan(rules, level, state))
    assert cheaper  # (each level has a first move the same car may go on from for free)


async def test_a_traffic_solve_goes_on_with_the_car_just_moved_and_ends_on_par(tmp_path):
    app = make_app(tmp_path, "traffic")  # "Short jam": B must leave A's row; par 2
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        game = screen.game
        par = len(shortest_plan(game.rules, game.level, game.state))
        screen.board.pick(traffic.Move("B", "U", 1))  # not far enough
        await wait_for(pilot, lambda: game.counters.moves == 1)
        await pilot.press("h")
        await idle(pilot)
        assert _message(app).startswith(f"{par - 1} move to solve from here")  # B goes on for free
        await pilot.press("S")
        await wait_for(pilot, lambda: game.is_solved())
        assert game.counters.moves == par


WRONG_PAR = """\
Family: traffic
Title: A claim

Title: Free road, said to be hard
Par: 9
goal: exit A
......
......
AA....
......
......
......
"""


async def test_a_par_the_solver_disproves_gives_way_to_the_proven_one(tmp_path):
    app = app_on_text(tmp_path, WRONG_PAR, str(tmp_path / "claim.fewest"))
    app.learn_par = True  # (the background proof of the par, on opening)
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await wait_for(pilot, lambda: app.store.level(screen.entry.key).par is not None)
        assert app.store.level(screen.entry.key).par == 1 == len(shortest_plan(screen.game.rules, screen.game.level))
        assert len(parse_plan(screen.game.rules, app.store.level(screen.entry.key).par_plan)) == 1  # (kept with it)
        assert _message(app) == "Par 1, proven by the solver: the level's file says 9."
        assert "Par 1" in _status(app)


async def test_a_par_for_a_level_with_no_solution_is_said_to_be_wrong(tmp_path):
    # The box in a corner off the goal: no plan at all, whatever the file says.
    app = app_on_text(tmp_path, "Par: 4\n#####\n#$ .#\n# @ #\n#####\n", str(tmp_path / "stuck.xsb"))
    app.learn_par = True
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await wait_for(pilot, lambda: screen.unsolvable)
        assert shortest_plan(screen.game.rules, screen.game.level) is None
        assert _message(app) in (  # (whichever of the two checks ends last)
            "This level has no solution, proven by the solver: the level's file says par 4.",
            "Deadlock: this level can't be solved, not even from its start (its file's par 4 is wrong).")
        assert "Par none" in _status(app)


def test_the_plan_book_keeps_proven_plans_over_plans_not_proven():
    level = read_text("#####\n#@$.#\n#####\n", "corridor.xsb")[0].level
    start = sokoban.initial_state(level)
    right = sokoban.parse_move("R")
    book = PlanBook(sokoban, level)
    book.learn_found(start, (right,), at_least=1)
    assert book.get(start) is None  # (the meter shows proven counts only)
    found = book.known(start)
    assert (found.plan, found.status, found.at_least) == ((right,), Status.FOUND, 1)
    solved = sokoban.apply(level, start, right)
    assert book.known(solved).plan == () and book.known(solved).at_least is None
    book.learn(start, (right,))
    assert book.known(start).status is Status.OPTIMAL and book.get(start) == (right,)
    book.learn_found(start, (right,), at_least=1)  # a proof is never displaced
    assert book.known(start).status is Status.OPTIMAL


ROOM = "######\n#    #\n#    #\n#@$ .#\n#    #\n######\n"  # 2 moves at best: RR
DETOUR = "RdrUruulDldR"  # a solution, not the shortest: the box up a row and back down


@pytest.mark.parametrize("search, expected", [
    (Solution(Status.BUDGET, at_least=2), "saved"),  # ran out, no plan: the known solution's rest
    (Solution(Status.FOUND, tuple(parse_plan(sokoban, "RR")), at_least=2), "searched"),  # shorter
    (Solution(Status.FOUND, tuple(parse_plan(sokoban, "urrddlUluRRurD")), at_least=2), "saved"),  # longer
    (Solution(Status.OPTIMAL, tuple(parse_plan(sokoban, "RR"))), "searched"),
    (Solution(Status.CANCELLED), "searched"),  # (the player stopped it: asked again, it searches)
])
def test_a_known_solution_serves_where_the_search_finds_no_plan_as_short(monkeypatch, search, expected):
    level = read_text(ROOM, "room.xsb")[0].level
    start = sokoban.initial_state(level)
    saved = tuple(parse_plan(sokoban, DETOUR))
    monkeypatch.setattr(hints.api, "solve", lambda *args, **options: search)
    # (the faked search's plans are from the start; with none, also from a position on the way)
    for moves_in in (0, 3) if search.moves == () else (0,):
        book = PlanBook(sokoban, level)
        book.learn_saved(start, saved, "the level file's solution")
        here = replay(sokoban, level, saved[:moves_in])
        answer = hint_for("sokoban", level, here, [], book, lambda: False)
        if expected == "saved":
            assert answer.plan == saved[moves_in:] and answer.status is Status.FOUND
            assert (answer.at_least, answer.origin) == (2, "the level file's solution")
            assert book.known(here).plan == saved[moves_in:]  # (asked again: no new search)
        else:
            assert answer.plan == (search.moves or None) and answer.status is search.status
            assert answer.origin is None
            known = book.known(here)  # (the search's plan, if it had one; never the saved one)
            assert (() if known is None else known.plan) == search.moves
        if answer.plan is not None:
            assert sokoban.is_solved(level, replay(sokoban, level, answer.plan, here))


def test_a_known_solution_answers_before_the_search_which_starts_from_it_on_or_off_its_way(monkeypatch):
    level = read_text(ROOM, "room.xsb")[0].level
    start = sokoban.initial_state(level)
    saved = tuple(parse_plan(sokoban, DETOUR))
    told: list = []
    searched: list = []

    def search(*args, near_plan=None, **options):
        searched.append((len(told), near_plan))
        return Solution(Status.BUDGET, stats=Stats(reason="time"), at_least=2)

    monkeypatch.setattr(hints.api, "solve", search)
    for moves_in in (0, 3):
        told.clear(), searched.clear()
        book = PlanBook(sokoban, level)
        book.learn_saved(start, saved, "the level file's solution")
        here = replay(sokoban, level, saved[:moves_in])
        hint_for("sokoban", level, here, [], book, lambda: False, on_plan=told.append)
        assert [(answer.plan, answer.stage, answer.origin) for answer in told] == [
            (saved[moves_in:], "found", "the level file's solution")]
        assert searched == [(1, (here, saved[moves_in:]))]  # (told first; the search starts from it)
        assert book.known(here).plan == saved[moves_in:]  # (and its tails: following it needs no search)
        away = next(after for after in (sokoban.apply(level, here, move) for move in sokoban.legal_moves(level, here))
                    if book.saved(after) is None)  # (a step off its way: the detour crosses itself)
        told.clear(), searched.clear()
        hint_for("sokoban", level, away, [start, here], book, lambda: False, on_plan=told.append)
        assert told == [] and searched == [(0, (here, saved[moves_in:]))]  # (a step off: the search starts near)


def test_a_players_own_way_from_a_known_solutions_start_searches_near_that_solution(monkeypatch):
    level = read_text(ROOM, "room.xsb")[0].level
    start = sokoban.initial_state(level)
    saved = tuple(parse_plan(sokoban, DETOUR))
    searched: list = []

    def search(*args, near_plan=None, **options):
        searched.append(near_plan)
        return Solution(Status.BUDGET, stats=Stats(reason="time"), at_least=2)

    monkeypatch.setattr(hints.api, "solve", search)
    book = PlanBook(sokoban, level)
    book.learn_saved(start, saved, "the level file's solution")
    positions = [start]
    for move in parse_plan(sokoban, "urrrddl"):  # (seven steps of one's own, none on the solution's way)
        positions.append(sokoban.apply(level, positions[-1], move))
    assert all(book.saved(position) is None for position in positions[1:])
    hint_for("sokoban", level, positions[-1], positions[:-1], book, lambda: False)
    assert searched == [(start, saved)]  # (from the latest position with a plan known: the start)


@pytest.mark.parametrize("whose", ["the level file's solution", "your best solution", "too long"])
async def test_a_hint_the_search_cannot_give_comes_from_a_known_solution(tmp_path, monkeypatch, whose):
    monkeypatch.setattr(hints.api, "solve",
                        lambda *args, **options: Solution(Status.BUDGET, stats=Stats(reason="time"), at_least=2))
    if whose == "too long":  # (a solution longer than that is not replayed as the level opens)
        from fewest.tui.services import known_plans

        monkeypatch.setattr(known_plans, "SAVED_MOST", len(DETOUR) - 1)
    entry = read_text(f"{ROOM}Solution: {DETOUR}\n", "room.xsb")[0]
    if whose == "your best solution":
        entry = dataclasses.replace(entry, solutions=())
        ProgressStore(str(tmp_path)).record_solve(entry.key, 12, 4, assisted=False, plan=DETOUR)
    app = quiet_app(FewestApp([entry], 0, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("h")
        await idle(pilot)
        if whose == "too long":
            assert _message(app).startswith("No plan found: the search ran out of time (at least 2")
            return
        assert _message(app).startswith(
            f"12 moves (4 pushes) to solve from here (not proven shortest; at least 2; {whose}).")
        await pilot.press("S")
        await wait_for(pilot, lambda: screen.game.is_solved(), timeout=10)
        assert [str(m) for m in screen.game.line_moves] == list(DETOUR)


async def test_a_level_solved_by_hand_serves_its_rest_after_undos_where_the_search_runs_out(tmp_path, monkeypatch):
    from fewest.tui.app.solved_screen import SolvedScreen

    monkeypatch.setattr(hints.api, "solve",
                        lambda *args, **options: Solution(Status.BUDGET, stats=Stats(reason="time"), at_least=2))
    app = app_on_text(tmp_path, ROOM, "room.xsb")
    keys = {"l": "left", "r": "right", "u": "up", "d": "down"}
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press(*(keys[move.lower()] for move in DETOUR))
        await wait_for(pilot, lambda: isinstance(app.screen, SolvedScreen))
        await pilot.press("escape")  # stay on the solved board
        await pilot.press(*["u"] * 9, "h")
        await idle(pilot)
        assert _message(app).startswith(
            "9 moves (3 pushes) to solve from here (not proven shortest; at least 2; your best solution).")


async def test_a_bump_into_a_wall_leaves_the_search_running(tmp_path, monkeypatch):
    async with thinking_on_a_hint(tmp_path, monkeypatch, "sokoban") as (app, pilot, slow):
        screen = board_screen(app)
        await pilot.press("down")  # the wall below the player: nothing moves
        assert "wall" in _message(app) and screen.game.counters.moves == 0
        await pilot.pause(0.1)
        assert not slow.stopped_at and screen.thinker.busy
        await pilot.press("left")  # a step: the search was for the position it left
        await wait_for(pilot, lambda: bool(slow.stopped_at), timeout=2)
        assert screen.game.counters.moves == 1


async def test_a_hint_back_at_the_start_after_moves_teaches_no_par(tmp_path):
    app = make_app(tmp_path, "traffic")  # "Short jam": par 2, B first
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        game = screen.game
        for move in ("BU1", "BD1"):  # B up and back: the start again, B the car just moved
            screen.board.pick(traffic.parse_move(move))
        assert game.state == game.start and game.counters.moves == 1
        await pilot.press("h")
        await idle(pilot)
        assert _message(app).startswith("1 move to solve from here")  # (B goes on for free)
        assert app.store.level(screen.entry.key).par is None  # 1 is no par: the level's is 2


@pytest.mark.parametrize("family", ["sokoban", "traffic", "rotation", "shift", "password"])
async def test_a_plan_proven_from_the_start_serves_the_level_met_again(tmp_path, monkeypatch, family):
    app = make_app(tmp_path, family)
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("h")
        await idle(pilot)
        par = len(shortest_plan(screen.game.rules, screen.game.level))
        kept = app.store.level(screen.entry.key)
        assert kept.par == par and len(parse_plan(screen.game.rules, kept.par_plan)) == par
    slow = SlowSolver()  # (a search would never end: the answers must come from the kept plan)
    monkeypatch.setattr(hints.api, "solve", slow)
    again = make_app(tmp_path, family)
    async with again.run_test(size=SIZE) as pilot:
        screen = board_screen(again)
        await pilot.press("h")
        assert _message(again).startswith(f"{par} move{'s' if par != 1 else ''} ")
        await pilot.press("S")
        await wait_for(pilot, screen.game.is_solved)
        assert screen.game.counters.moves == par and slow.calls == 0


@pytest.mark.parametrize("kept, best, more, searched", [
    ("plan", None, 0, False),
    ("up", None, 0, True),  # par's length in pushes up: not legal here (an edited file)
    (None, "plan", 0, False),  # the player's own solve, as short as the par
    ("plan", None, 1, True),  # a plan not of the par's length is no shortest plan
])
async def test_a_kept_plan_serves_only_if_it_solves_the_level_in_par_moves(tmp_path, monkeypatch, kept, best, more, searched):
    entry = entries("sokoban")[0]
    plan = shortest_plan(sokoban, entry.level)
    text = format_plan(sokoban, plan)
    store = ProgressStore(str(tmp_path / "data"))
    kept = {"plan": text, "up": "U" * len(plan)}.get(kept)
    store.remember_par(entry.key, len(plan) + more, kept)
    if best:
        store.record_solve(entry.key, len(plan), sokoban.tally(plan).pushes, assisted=False, plan=text)
    slow = SlowSolver()
    monkeypatch.setattr(hints.api, "solve", slow)
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        if searched:
            await wait_for(pilot, lambda: slow.calls == 1)
        else:  # (answered from the book at the key, before any worker could start)
            assert _message(app).startswith(f"{len(plan)} moves")
            await pilot.pause(0.1)
            assert slow.calls == 0


@pytest.mark.parametrize("source", ["best", "file"])
@pytest.mark.parametrize("bundled", [True, False])
async def test_a_plan_as_short_as_the_par_serves_where_the_par_is_trusted(tmp_path, monkeypatch, bundled, source):
    # A bundled pack's par is proven; a user's file may state any par, so a plan of its
    # length (the player's best, or a solution saved in the file) proves nothing until the
    # solver has proven the par itself.
    entry = find_pack("sokoban_learning").entries[1]  # "Get behind it", par 2
    if not bundled:
        entry = read_text("Par: 2\n" + "\n".join(xsb_rows(entry.level)), "mine.xsb")[0]
    plan = shortest_plan(sokoban, entry.level)
    assert len(plan) == entry.par
    if source == "best":
        entry = dataclasses.replace(entry, solutions=())  # (the pack's own would serve)
        ProgressStore(str(tmp_path)).record_solve(
            entry.key, len(plan), sokoban.tally(plan).pushes, assisted=False, plan=format_plan(sokoban, plan))
    else:
        entry = dataclasses.replace(entry, solutions=("U" * 5, format_plan(sokoban, plan)))  # (the first fails)
    slow = SlowSolver()
    monkeypatch.setattr(hints.api, "solve", slow)
    app = quiet_app(FewestApp([entry], 0, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        if bundled:
            assert _message(app).startswith(f"{len(plan)} moves")
            await pilot.pause(0.1)
        await wait_for(pilot, lambda: slow.calls == (0 if bundled else 1))


@pytest.mark.parametrize("tampered", [False, True])
async def test_a_resumed_game_keeps_the_plan_proven_from_where_it_stands(tmp_path, monkeypatch, tampered):
    app = make_app(tmp_path, "sokoban")  # "Small room"
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("left", "h")  # (a step onto the goal beside the player, then a hint)
        await idle(pilot)
        told, key = _message(app), screen.entry.key
        assert told.endswith("to solve from here.  (h again shows the next move)")
        screen.save_game()
    games = tmp_path / "data" / "games.json"
    kept = json.loads(games.read_text(encoding="utf-8"))
    assert kept["games"][key]["plan"]
    if tampered:  # (moves that do not solve it from there: passed over, and searched again)
        kept["games"][key]["plan"] = "U" * len(kept["games"][key]["plan"])
        games.write_text(json.dumps(kept), encoding="utf-8")
    slow = SlowSolver()
    monkeypatch.setattr(hints.api, "solve", slow)
    again = make_app(tmp_path, "sokoban")
    async with again.run_test(size=SIZE) as pilot:
        assert _message(again).startswith("Welcome back")
        await pilot.press("h")
        if tampered:
            await wait_for(pilot, lambda: slow.calls == 1)
        else:
            assert _message(again) == told
            await pilot.pause(0.1)
            assert slow.calls == 0


def test_a_long_activity_gives_way_a_whole_part_at_a_time():
    from fewest.tui.app.status_bar import _shortened

    assert _shortened("⠇ thinking 2,720 nodes, bound 144  (esc cancels)") == [
        "⠇ thinking 2,720 nodes, bound 144  (esc cancels)", "⠇ thinking 2,720 nodes, bound 144",
        "⠇ thinking 2,720 nodes", "⠇ thinking"]  # (never cut mid-word, or on a comma)
    assert _shortened("To go: 5") == ["To go: 5"]

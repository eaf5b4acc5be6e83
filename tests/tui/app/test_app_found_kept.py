"""A plan a search found but did not prove shortest is kept with the level: the next
visit's hint answers with it at once and searches on from it, the Par shows it as a
bound ("Par ≤N") until a par is proven, and a solve by hand is weighed against it."""

from __future__ import annotations

import time

from fewest.engine import sokoban
from fewest.engine.base import format_plan, parse_plan
from fewest.levels import read_text
from fewest.levels.bundled import find_pack
from fewest.solvers import api
from fewest.solvers.common.solution import Solution, Status
from fewest.tui.app.app import FewestApp
from fewest.tui.app.solved_screen import SolvedScreen
from fewest.tui.services.progress import ProgressStore
from fewest.tui.services import hints
from tests.app_support import SIZE, app_on_text, board_screen, idle, quiet_app, wait_for

LEVEL = "#######\n#@ $ .#\n#  $ .#\n#######\n"  # (no par in the file)
REAL_SOLVE = api.solve
KEYS = {"l": "left", "u": "up", "r": "right", "d": "down"}


def _message(app) -> str:
    return str(app.screen.query_one("#message").render())


def _status(app) -> str:
    return str(app.screen.query_one("#status").render())


def _found_only(family, level, state=None, **options):
    """The real solver's plan, given as a plan found and not proven shortest (as on a big level)."""
    solution = REAL_SOLVE(family, level, state)
    return Solution(Status.FOUND, solution.moves, at_least=1)


def _searches_until_stopped(*args, should_stop, **options):
    while not should_stop():
        time.sleep(0.005)
    return Solution(Status.CANCELLED)


async def test_a_plan_found_mid_level_is_kept_and_answers_the_next_visit_at_once(tmp_path, monkeypatch):
    monkeypatch.setattr(hints.api, "solve", _found_only)
    app = app_on_text(tmp_path, LEVEL, "two.xsb")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await idle(pilot)
        assert "Par ?" in _status(app)
        await pilot.press("down")  # (a move of the player's own first)
        await pilot.press("h")
        await wait_for(pilot, lambda: "not proven shortest" in _message(app))
        rest = len(screen.thinker.answer.plan)
        entry = screen.entry
        record = app.store.level(entry.key)
        # kept: the move played, then the plan found from there, a solution of the level
        assert record.found_moves == 1 + rest and f"Par ≤{1 + rest}" in _status(app)
        state = sokoban.initial_state(entry.level)
        for move in parse_plan(sokoban, record.found_plan):
            state = sokoban.apply(entry.level, state, move)
        assert sokoban.is_solved(entry.level, state)
    monkeypatch.setattr(hints.api, "solve", _searches_until_stopped)
    again = app_on_text(tmp_path, LEVEL, "two.xsb")  # (the next visit: its search finds nothing)
    async with again.run_test(size=SIZE) as pilot:
        screen = board_screen(again)
        assert f"Par ≤{1 + rest}" in _status(again)
        await pilot.press("h")
        await wait_for(pilot, lambda: "still searching" in _message(again))
        # (the game goes on where it was left, after that first move: the plan's rest from there)
        assert screen.game.counters.moves == 1 and _message(again).startswith(f"{rest} moves (")
        assert "a plan found on an earlier visit" in _message(again) and screen.thinker.busy
        await pilot.press("escape")
        await idle(pilot)


async def test_no_plan_is_kept_where_the_par_is_known(tmp_path, monkeypatch):
    monkeypatch.setattr(hints.api, "solve", _found_only)
    app = app_on_text(tmp_path, LEVEL.rstrip("\n") + "\nPar: 12\n", "par.xsb")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await idle(pilot)
        await pilot.press("down", "h")
        await wait_for(pilot, lambda: "not proven shortest" in _message(app))
        await pilot.pause(0.1)
        assert app.store.level(screen.entry.key).found_plan is None and "Par 12" in _status(app)


async def test_the_chooser_shows_the_bound_of_a_bundled_solution_not_proven_shortest(tmp_path):
    pack = find_pack("sokoban_grigr2001")
    first = pack.entries[0]  # (#1: no par, a found solution saved under it)
    assert first.par is None and first.solutions
    moves = min(len(parse_plan(sokoban, text)) for text in first.solutions)
    app = quiet_app(FewestApp(None, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen.query("#levels"))
        browser = app.screen
        browser.show_shelf(next(i for i, shelf in enumerate(browser.shelves) if shelf.title == pack.title))
        await pilot.pause()
        table = browser.query_one("#levels")
        columns = [c.label.plain for c in table.columns.values()]
        par = next(i for i, label in enumerate(columns) if label.startswith("Par"))
        rows = {str(table.get_row_at(i)[columns.index("#")]): str(table.get_row_at(i)[par])
                for i in range(table.row_count)}
        assert rows["1"] == f"≤{moves}" and rows["4"] == str(pack.entries[3].par) and rows["2"] == "?"


async def test_a_solve_shorter_than_the_plan_the_solver_found_is_said_so(tmp_path):
    entry = read_text(LEVEL, "two.xsb")[0]
    plan = list(REAL_SOLVE("sokoban", entry.level).moves)
    # a plan found on an earlier visit that walks down and up first: two moves longer than the solve below
    found = "du" + format_plan(sokoban, plan)
    ProgressStore(str(tmp_path / "data")).remember_found(entry.key, "moves", len(plan) + 2, 0, found)
    app = app_on_text(tmp_path, LEVEL, "two.xsb")
    async with app.run_test(size=SIZE) as pilot:
        await idle(pilot)
        assert f"Par ≤{len(plan) + 2}" in _status(app)
        await pilot.press(*[KEYS[move.direction] for move in plan])
        await wait_for(pilot, lambda: isinstance(app.screen, SolvedScreen))
        said = str(app.screen.query_one("#solved-verdict").render())
        assert said.startswith(f"Shorter than any solution known before ({len(plan) + 2}); no par is proven here.")


def test_the_solved_card_weighs_a_solve_against_the_shortest_known_where_no_par_is():
    from fewest.tui.app.solved_screen import SolvedFacts, verdict

    def said(moves: int, known: int | None, assisted: bool = False) -> str:
        facts = SolvedFacts(moves=moves, pushes=3, par=None, best_before=None, new_best=not assisted,
                            assisted=assisted, seconds=None, has_next=True, known=known)
        return verdict(facts).splitlines()[0]

    assert said(40, 40) == "As short as the shortest solution known (40); no par is proven here."
    assert said(43, 40) == "3 more than the shortest solution known (40); no par is proven here."
    assert said(40, None) == "New personal best." and said(30, 40, assisted=True).startswith("Solved with help")

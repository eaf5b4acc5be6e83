"""Traffic solver: every reference answer, the oracle on random boards, tables, cancel, budgets."""

import random
from dataclasses import replace
from pathlib import Path

import pytest

from fewest.engine import traffic as T
from fewest.levels import read_file, read_text
from fewest.levels.bundled import find_pack
from fewest.solvers import Budget, Control, Status, solve, warm_up
from fewest.solvers.traffic import TrafficSolver, solver
from fewest.solvers.traffic import table as traffic_table
from fewest.solvers.traffic.random_levels import random_level
from fewest.solvers.traffic.tuning import TUNING
from tests import oracle
from tests.paths import DATA_DIR

DATA = DATA_DIR
SAMPLE = read_file(DATA / "traffic" / "database_sample.txt")
CONTEST_SAMPLE = "5 4\n2 2 4\n0\n1 2\n0\n0\n1 3\n0\n1 4\n1 3\n0\n"


def check_plan(level, solution, state=None):
    """The plan replays through the engine, solves, and never moves one car twice in a row."""
    length = oracle.replay_length(T, level, list(solution.moves), state)
    cars = [m.car for m in solution.moves]
    assert all(a != b for a, b in zip(cars, cars[1:]))
    return length


def test_every_database_line_solves_to_its_number_with_its_cluster():
    for entry in SAMPLE:
        solution = solve("traffic", entry.level)
        assert solution.status is Status.OPTIMAL
        assert check_plan(entry.level, solution) == entry.par, entry.line
        assert solution.extra["cluster"] == int(entry.metadata["Cluster"])


def test_rule_book_lines_51_and_60():
    for line, moves in [("51 GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo 4780", 51),
                        ("60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332", 60)]:
        (entry,) = read_text(line + "\n", "rush.txt")
        assert check_plan(entry.level, solve("traffic", entry.level)) == moves


def test_contest_sample_needs_4_and_a_car_in_the_row_makes_it_impossible():
    (entry,) = read_text(CONTEST_SAMPLE, "getout.in")
    solution = solve("traffic", entry.level)
    assert solution.optimal and check_plan(entry.level, solution) == 4
    blocked = "4 2\n0\n1 1\n0\n0\n0\n0\n0\n0\n"  # a horizontal car in row 2
    (entry,) = read_text(blocked, "impossible.in")
    assert solve("traffic", entry.level).status is Status.UNSOLVABLE


def test_solver_matches_the_oracle_on_random_small_boards():
    rng = random.Random(2024)
    solved = unsolvable = 0
    for case in range(400):
        n = rng.randint(3, 5)
        goal = "exit" if case % 2 else "clear-row"
        level = random_level(rng, n, rng.randint(1, 2 * n), goal=goal, walls=rng.randint(0, 2),
                             lengths=(2, 3) if n > 3 else (2,))
        state = T.initial_state(level)
        if case % 3 == 0 and T.legal_moves(level, state):  # start somewhere else in the cluster
            state = T.apply(level, state, rng.choice(T.legal_moves(level, state)))
        expected = oracle.shortest_plan(T, level, state)
        solution = solver.solve(level, state, Control(), "moves")
        if expected is None:
            assert solution.status is Status.UNSOLVABLE
            unsolvable += 1
        else:
            assert solution.status is Status.OPTIMAL
            assert check_plan(level, solution, state) == len(expected)
            solved += 1
    assert solved > 150 and unsolvable > 30  # both outcomes are exercised


def test_a_hint_after_warm_up_is_a_lookup_from_any_position():
    entry = next(e for e in SAMPLE if e.par == 51)
    warm_up("traffic", entry.level)
    state = T.initial_state(entry.level)
    for step in range(51):
        solution = solve("traffic", entry.level, state)
        assert solution.stats.expanded == 0  # no search: the cluster's table answered
        assert len(solution.moves) == 51 - step
        state = T.apply(entry.level, state, solution.moves[0])
    assert T.is_solved(entry.level, state)


def tuned(**changes) -> TrafficSolver:
    """The traffic solver with some of its tuning changed."""
    return TrafficSolver(replace(TUNING, **changes))


def tuned_solve(solver_: TrafficSolver, level: T.Level, state: T.State | None = None):
    return solver_.solve(level, T.initial_state(level) if state is None else state, Control())


def test_a_warm_up_leaves_a_cluster_too_large_for_a_table_at_once(monkeypatch):
    searched = []
    monkeypatch.setattr(traffic_table, "best_first", lambda *args: searched.append(args))
    (entry,) = read_text(CONTEST_SAMPLE, "getout.in")
    solver._cache.clear()
    tuned(edge_limit=0).warm_up(entry.level)  # no cluster fits
    assert searched == [] and solver._cached_table(entry.level, T.initial_state(entry.level)) is None
    # a solve of the same board goes on without a table: by A*, here stubbed out
    layout = traffic_table.Layout(entry.level, T.initial_state(entry.level))
    traffic_table.explore(layout, layout.encode(T.initial_state(entry.level)), Control(), None,
                          tuning=replace(TUNING, edge_limit=0))
    assert len(searched) == 1
    warm_up("traffic", entry.level)  # and one that fits gets its table
    assert solver._cached_table(entry.level, T.initial_state(entry.level)) is not None
    solver._cache.clear()


def test_positions_off_the_optimal_line():
    level = T.level_from_rows(["......", "......", "AAB.C.", "..B.C.", "......", "......"], ("exit", "A"))
    assert len(solve("traffic", level).moves) == 3
    state = T.apply(level, T.initial_state(level), T.parse_move("BD2"))
    assert [str(m) for m in solve("traffic", level, state).moves] == ["CU2", "AR4"]
    state = T.apply(level, state, T.parse_move("AR1"))
    solution = solve("traffic", level, state)
    assert solution.stats.expanded == 0 and check_plan(level, solution, state) == 2


def test_cars_in_one_line_met_in_another_order_get_their_own_table():
    level = T.level_from_rows(["BB.CC.", "......", "AA....", "......", "......", "......"],
                              ("exit", "A"))
    swapped = T.State((0, 3, 0))  # C left of B: a position of another cluster
    for state in (T.initial_state(level), swapped):
        solution = solve("traffic", level, state)
        assert solution.optimal and check_plan(level, solution, state) == 1
    assert solve("traffic", level, swapped).stats.expanded == 0  # both tables are cached


def test_unsolvable_exit_and_rows_that_can_never_clear():
    walled = T.level_from_rows(["....", "AA.x", "....", "...."], ("exit", "A"))
    assert solve("traffic", walled).status is Status.UNSOLVABLE
    stuck = T.level_from_rows(["B...", "B...", "x...", "...."], ("clear-row", 0))
    assert solve("traffic", stuck).status is Status.UNSOLVABLE
    assert oracle.shortest_plan(T, stuck) is None
    done = T.level_from_rows(["....", "AA..", "....", "...."], ("clear-row", 0))
    assert solve("traffic", done).moves == () and solve("traffic", done).optimal


def test_large_clusters_are_searched_without_a_table(monkeypatch):
    # "Get out" boards too: no plain-Python search
    small_tables = tuned(edge_limit=50, small_states=0)
    monkeypatch.setattr(solver, "settle", lambda *args: None)  # nor fewer cars (test_relaxed.py)
    solver._cache.clear()
    rng = random.Random(5)
    for _ in range(60):
        level = random_level(rng, 4, rng.randint(2, 6), goal=rng.choice(("exit", "clear-row")))
        expected = oracle.shortest_plan(T, level)
        solution = tuned_solve(small_tables, level)
        if expected is None:
            assert solution.status is Status.UNSOLVABLE
        else:
            assert check_plan(level, solution) == len(expected)
    solver._cache.clear()


@pytest.mark.parametrize("chunk", [64, TUNING.chunk_entries])  # many expansion steps / one
def test_get_out_boards_too_large_for_a_table_go_to_best_first_search(monkeypatch, chunk):
    # every solve past the first layer turns to A*, and the plain-Python search gives way at once
    a_star = tuned(solve_table_states=0, chunk_entries=chunk, small_states=0)
    monkeypatch.setattr(solver, "settle", lambda *args: None)  # and so do boards with fewer cars
    solver._cache.clear()
    rng = random.Random(99)
    outcomes = set()
    for _ in range(100):
        n = rng.randint(3, 5)
        level = random_level(rng, n, rng.randint(2, 2 * n), goal="clear-row", walls=rng.randint(0, 2),
                             lengths=(2,))
        expected = oracle.shortest_plan(T, level)
        solution = tuned_solve(a_star, level)
        assert "cluster" not in solution.extra  # no table was built
        if expected is None:
            assert solution.status is Status.UNSOLVABLE
        else:
            assert solution.optimal and check_plan(level, solution) == len(expected)
        outcomes.add((expected is None, len(expected or []) > 2))
    assert outcomes == {(True, False), (False, False), (False, True)}
    solver._cache.clear()


def test_small_chunks_and_the_solve_table_limit_change_nothing():
    small = tuned(chunk_entries=64, solve_table_states=30)
    solver._cache.clear()
    for entry in SAMPLE[::9]:
        assert check_plan(entry.level, tuned_solve(small, entry.level)) == entry.par
    solver._cache.clear()


def test_cancel_and_budgets_stop_the_search():
    entry = max(SAMPLE, key=lambda e: int(e.metadata["Cluster"]))
    solver._cache.clear()
    assert solve("traffic", entry.level, should_stop=lambda: True).status is Status.CANCELLED
    stopped = solve("traffic", entry.level, budget=Budget(nodes=1000))
    assert stopped.status is Status.BUDGET and stopped.stats.reason == "nodes"
    assert solve("traffic", entry.level).length == entry.par  # nothing half-built was cached


def test_baseline_agrees_with_the_solver():
    for entry in SAMPLE[:12]:
        base = solver.baseline(entry.level, T.initial_state(entry.level), Control())
        assert base.optimal and check_plan(entry.level, base) == entry.par


def test_bench_cases_are_seeded_and_solvable():
    first = solver.bench_cases(quick=True)
    again = solver.bench_cases(quick=True)
    assert [(name, level) for name, level, _ in first] == [(name, level) for name, level, _ in again]
    assert len(solver.bench_cases(quick=False)) > len(first)
    for name, level, state in first:
        solution = solver.solve(level, state, Control(Budget(seconds=60)), "moves")
        assert solution.status in (Status.OPTIMAL, Status.UNSOLVABLE), name
        if solution.solved:
            check_plan(level, solution, state)
    assert first[0][0].startswith("database 51")


def test_get_out_pack_pars_are_proven_by_the_solver():
    bundled = find_pack("traffic_get_out")
    assert len(bundled.entries) >= 10
    for entry in bundled.entries:
        assert entry.level.goal.kind == "clear-row"
        assert check_plan(entry.level, solve("traffic", entry.level)) == entry.par


def test_unknown_metric_is_refused():
    with pytest.raises(ValueError):
        solver.solve(SAMPLE[0].level, T.initial_state(SAMPLE[0].level), Control(), "pushes")


def test_a_warm_up_asked_to_stop_builds_no_table():
    entry = next(e for e in SAMPLE if e.par == 51)
    asked = []
    solver._cache.clear()
    warm_up("traffic", entry.level, should_stop=lambda: asked.append(1) or True)
    assert asked and solver._cached_table(entry.level, T.initial_state(entry.level)) is None

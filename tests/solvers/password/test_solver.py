"""The password solver: rule-book answers, agreement with exhaustive search, both exact methods, Par."""

import random
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from fewest.engine import password
from fewest.levels.bundled import find_pack
from fewest.solvers.password import solver
from fewest.solvers.api import solve, warm_up
from fewest.solvers.common.control import Budget, Control
from fewest.solvers.password.astar import Bound, astar_order
from fewest.solvers.password.heldkarp import HELD_KARP_LIMIT, held_karp, value_type
from fewest.solvers.password.tour import tour_of
from fewest.solvers.common.solution import Status
from tests.oracle import replay_length, shortest_plan

REFERENCES = [
    (["____", "____", "____", "___S"], 4),
    (["_H__", "_Y__", "_Y__", "_SH_"], 15),
    (["HYSH", "SYHY", "YSHS", "HSYH"], 41),
]
# A*'s bound is 3 short at the start here: it expands thousands of nodes, Held-Karp a fixed 2^16 x 16^2.
STUBBORN = ["SHHH", "SYHY", "HSYH", "SYHY"]


@pytest.mark.parametrize("code, length", REFERENCES)
def test_rulebook_answers(code, length):
    level = password.make_level(code)
    solution = solve("password", level)
    assert solution.status is Status.OPTIMAL and solution.length == length
    assert replay_length(password, level, list(solution.moves)) == length


def test_solved_code_needs_no_commands():
    level = password.make_level(["H_"], start=["H_"])
    assert solve("password", level).moves == ()


def _random_case(rng: random.Random):
    """A small grid (so exhaustive search is quick), any rail, and a random position in play."""
    rows, cols = rng.choice([(1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)])
    cells = rows * cols
    rail = "_HYSXZ"[: rng.randint(1, 5)] if rng.random() < 0.4 else password.DEFAULT_RAIL
    figures = len(rail)
    wrong_at_most = 4 if cells <= 6 else 3
    start = [rng.randrange(figures) if rng.random() < 0.3 else 0 for _ in range(cells)]
    code = list(start)
    for cell in rng.sample(range(cells), rng.randint(0, min(cells, wrong_at_most))):
        code[cell] = rng.randrange(figures)
    level = password.Level(rows, cols, tuple(code), rail, tuple(start))
    if rng.random() < 0.5:
        return level, password.initial_state(level)
    grid = list(start)
    for cell in rng.sample(range(cells), rng.randint(0, cells)):
        grid[cell] = code[cell] if rng.random() < 0.6 else rng.randrange(figures)
    if sum(a != b for a, b in zip(grid, code)) > wrong_at_most:
        grid = list(code)
    return level, password.State(tuple(grid), rng.randrange(cells), rng.randrange(figures))


@pytest.mark.parametrize("seed", range(4))
def test_matches_exhaustive_search_on_small_grids(seed):
    rng = random.Random(seed)
    for _ in range(100):
        level, state = _random_case(rng)
        expected = len(shortest_plan(password, level, state))
        solution = solve("password", level, state)
        assert solution.status is Status.OPTIMAL
        assert replay_length(password, level, list(solution.moves), state) == expected
        tour = tour_of(level, state)  # the fallback method too, on the same positions
        by_dp = solver.commands(tour, held_karp(tour, Control()))
        assert replay_length(password, level, list(by_dp), state) == expected


def _plain_held_karp(tour) -> int:
    """The textbook dictionary Held-Karp, as an independent check of both fast methods."""
    n = len(tour.cells)
    if n == 0:
        return 0
    best = {(1 << j, j): tour.write_cost(tour.cursor, tour.rail, j) for j in range(n)}
    for mask in range(1, 1 << n):
        for j in range(n):
            if (mask, j) not in best:
                continue
            for k in range(n):
                if not mask >> k & 1:
                    key = (mask | 1 << k, k)
                    cost = best[mask, j] + tour.write_cost(tour.cells[j], tour.figures[j], k)
                    best[key] = min(best.get(key, cost), cost)
    return min(best[(1 << n) - 1, j] for j in range(n))


def test_held_karp_and_astar_agree_with_the_textbook_programme():
    rng = random.Random(41)
    for _ in range(40):
        rows, cols = rng.randint(2, 5), rng.randint(2, 5)
        level = solver.random_code(rng, rng.randint(0, min(9, rows * cols)), rows, cols)
        state = password.State(level.start, rng.randrange(rows * cols), rng.randrange(4))
        tour = tour_of(level, state)
        expected = _plain_held_karp(tour)
        by_dp = solver.commands(tour, held_karp(tour, Control()))
        found = astar_order(tour, Control())
        by_astar = solver.commands(tour, found.moves)
        assert found.optimal
        assert replay_length(password, level, list(by_dp), state) == expected
        assert replay_length(password, level, list(by_astar), state) == expected


def test_bound_never_overestimates_along_optimal_plans():
    rng = random.Random(5)
    for _ in range(30):
        level = solver.random_code(rng, rng.randint(1, 9))
        tour = tour_of(level, password.initial_state(level))
        bound = Bound(tour)
        order = held_karp(tour, Control())
        remaining = len(solver.commands(tour, order))
        state, spent = (0, tour.cursor, tour.rail), 0
        for j in order:
            assert bound(state) <= remaining - spent
            spent += tour.write_cost(state[1], state[2], j)
            state = (state[0] | 1 << j, tour.cells[j], tour.figures[j])
        assert bound(state) == 0 and spent == remaining


def test_stubborn_code_matches_astar_and_stops_on_request():
    level = password.make_level(STUBBORN)
    tour = tour_of(level, password.initial_state(level))
    found = astar_order(tour, Control())
    assert found.optimal and found.stats.expanded > 1000
    solution = solve("password", level)
    assert solution.optimal and solution.length == len(solver.commands(tour, found.moves)) == 43
    assert replay_length(password, level, list(solution.moves)) == solution.length
    cancelled = solve("password", level, should_stop=lambda: True)
    assert cancelled.status is Status.CANCELLED and cancelled.moves == ()
    assert solve("password", level, budget=Budget(nodes=2000)).status is Status.BUDGET


def test_full_codes_match_astar():
    """Full 4x4 codes (16 cells: uint8 layers, the widest tables) against the independent A*."""
    for seed in range(25):
        level = solver.random_code(random.Random(seed), 16)
        state = password.initial_state(level)
        tour = tour_of(level, state)
        found = astar_order(tour, Control())
        assert found.optimal
        solution = solve("password", level, state)
        assert solution.optimal
        assert replay_length(password, level, list(solution.moves), state) == solution.length
        assert solution.length == len(solver.commands(tour, found.moves)), seed


def test_long_rails_use_wider_values_and_agree_with_the_textbook_programme():
    """6x6 boards with long rails: the largest steps, on both sides of the uint8 / uint16 choice."""
    rng = random.Random(8)
    wide = 0
    for _ in range(20):
        rail = "_ABCDEFGHIJKLMNO"[: rng.randint(12, 16)]
        level = solver.random_code(rng, rng.randint(1, 8), 6, 6, rail)
        state = password.State(level.start, rng.randrange(36), rng.randrange(len(rail)))
        tour = tour_of(level, state)
        # 18 steps of up to 3 + 3 + 7 + 1 (a rail of 14 or 15) no longer fit below uint8's "unreachable" mark
        assert (value_type(tour) == np.uint16) == (len(rail) >= 14)
        wide += len(rail) >= 14
        by_dp = solver.commands(tour, held_karp(tour, Control()))
        assert replay_length(password, level, list(by_dp), state) == _plain_held_karp(tour)
    assert 0 < wide < 20


def test_threads_share_the_scratch_safely():
    """Hints may solve from several threads at once; the shared scratch arrays are locked."""
    levels = [solver.random_code(random.Random(seed), 10 + seed % 7) for seed in range(12)]
    expected = [solve("password", level).length for level in levels]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for _ in range(3):
            assert list(pool.map(lambda level: solve("password", level).length, levels)) == expected


def test_many_cells_use_astar_alone():
    level = password.make_level(["HHHH"] * 5)  # 20 cells: above HELD_KARP_LIMIT
    assert 20 > HELD_KARP_LIMIT
    solution = solve("password", level)
    # One rail step, 20 places, 19 grid steps along a snake: nothing can do better.
    assert solution.optimal and replay_length(password, level, list(solution.moves)) == 40


def test_bundled_pack_par_is_the_optimum():
    pack = find_pack("password_castlevania")
    assert len(pack.entries) >= 20
    titles = [e.title for e in pack.entries]
    assert {"Rule book: hearts", "Rule book: full grid"} <= set(titles)
    for entry in pack.entries:
        level = entry.level
        solution = solve("password", level)
        assert solution.optimal and entry.par == solution.length, entry.title
        assert replay_length(password, level, list(solution.moves)) == entry.par
        if level.cells <= 9:
            assert len(shortest_plan(password, level)) == entry.par, entry.title
    pars = [e.par for e in pack.entries]
    assert pars == sorted(pars)  # easy to hard


def test_baseline_bench_cases_and_warm_up():
    cases = solver.bench_cases(quick=True)
    assert cases == solver.bench_cases(quick=True)  # seeded
    assert any(sum(1 for v in level.code if v) == 16 for _, level, _ in cases)
    for name, level, state in cases[:4]:
        assert solver.baseline(level, state, Control()).length == solve("password", level, state).length
    warm_up("password", cases[-1][1])


def test_a_warm_up_asked_to_stop_prepares_nothing(monkeypatch):
    prepared = []
    monkeypatch.setattr(solver, "prepare", lambda n, dtype: prepared.append(n))
    level = solver.bench_cases(quick=True)[-1][1]
    warm_up("password", level, should_stop=lambda: len(prepared) >= 2)
    assert prepared == [1, 2]

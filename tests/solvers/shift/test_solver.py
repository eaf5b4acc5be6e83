"""The shift solver: rule-book answers, agreement with exhaustive search, the bundled pack's Par."""

import itertools
import random

import pytest

from fewest.engine import shift
from fewest.levels.bundled import find_pack
from fewest.solvers.shift import solver
from fewest.solvers.api import solve
from fewest.solvers.common.control import Budget, Control
from fewest.solvers.common.solution import Status
from tests.oracle import replay_length, shortest_plan

REFERENCES = [
    (["1111", "0000", "1110", "0010"], ["1010", "0101", "1010", "0101"], 4),
    (["1111", "1110", "1000", "0000"], ["0001", "0011", "0011", "0111"], 20),
]


@pytest.mark.parametrize("start, target, length", REFERENCES)
def test_rulebook_answers(start, target, length):
    level = shift.make_level(start, target)
    solution = solve("shift", level)
    assert solution.status is Status.OPTIMAL and solution.length == length
    assert replay_length(shift, level, list(solution.moves)) == length


def test_solved_level_needs_no_moves():
    level = shift.make_level(["10", "01"], ["10", "01"])
    solution = solve("shift", level)
    assert solution.optimal and solution.moves == ()


def _random_case(rng: random.Random, max_rows: int, max_cols: int):
    rows, cols = rng.randint(1, max_rows), rng.randint(1, max_cols)
    pieces = rng.randint(0, rows * cols)
    level = solver.random_level(rng, rows, cols, pieces)
    # Half the time solve from a position other than the start (hints come from mid-game).
    if rng.random() < 0.5:
        state = shift.State(solver.random_level(rng, rows, cols, pieces).start)
    else:
        state = shift.initial_state(level)
    return level, state


@pytest.mark.parametrize("seed", range(4))
def test_matches_exhaustive_search_on_small_boards(seed):
    rng = random.Random(seed)
    for _ in range(150):
        level, state = _random_case(rng, 3, 4)
        expected = shortest_plan(shift, level, state)
        solution = solve("shift", level, state)
        assert solution.status is Status.OPTIMAL
        assert replay_length(shift, level, list(solution.moves), state) == len(expected)


def test_matches_exhaustive_search_on_contest_boards():
    rng = random.Random(96)
    for _ in range(4):
        level = solver.random_level(rng, 4, 4, 8)
        solution = solve("shift", level)
        assert replay_length(shift, level, list(solution.moves)) == len(shortest_plan(shift, level))


def _brute_force_bound(level: shift.Level, pieces: int) -> int:
    """The cheapest matching of misplaced pieces to empty targets, by trying every permutation."""
    cols = level.cols
    movers = [c for c in range(level.cells) if pieces >> c & 1 and not level.target >> c & 1]
    holes = [c for c in range(level.cells) if level.target >> c & 1 and not pieces >> c & 1]
    return min(
        (sum(abs(s // cols - t // cols) + abs(s % cols - t % cols) for s, t in zip(movers, perm))
         for perm in itertools.permutations(holes)),
        default=0,
    )


def test_large_boards_meet_the_matching_bound():
    """No plan can beat the matching bound, so a replayed plan of that length is optimal."""
    rng = random.Random(7)
    checked = 0
    while checked < 60:
        rows, cols = rng.randint(4, 8), rng.randint(4, 8)
        level = solver.random_level(rng, rows, cols, rng.randint(1, 12))
        pieces = level.start
        if (pieces & ~level.target).bit_count() > 6:
            continue  # keep the brute force small
        solution = solve("shift", level)
        assert solution.optimal
        assert replay_length(shift, level, list(solution.moves)) == _brute_force_bound(level, pieces)
        checked += 1


def test_crowded_boards_replay():
    rng = random.Random(11)
    for _ in range(30):
        level = solver.random_level(rng, 8, 8, rng.randint(20, 63))
        solution = solve("shift", level)
        assert solution.optimal and replay_length(shift, level, list(solution.moves)) == solution.length


def test_bundled_pack_par_is_the_optimum():
    pack = find_pack("shift_classic")
    assert len(pack.entries) >= 20
    titles = [e.title for e in pack.entries]
    assert "Rule book: four moves" in titles and "Rule book: the longest 4x4" in titles
    for entry in pack.entries:
        level = entry.level
        solution = solve("shift", level)
        assert solution.optimal and entry.par == solution.length, entry.title
        assert replay_length(shift, level, list(solution.moves)) == entry.par
        if level.cells <= 12:
            assert len(shortest_plan(shift, level)) == entry.par, entry.title
    pars = [e.par for e in pack.entries]
    assert pars[0] <= pars[len(pars) // 2] <= pars[-1]  # easy to hard


def test_baseline_agrees_and_can_be_cancelled():
    cases = solver.bench_cases(quick=True)
    assert len(cases) >= 20 and cases == solver.bench_cases(quick=True)  # seeded
    for name, level, state in cases[:3]:
        assert solver.baseline(level, state, Control()).length == solve("shift", level, state).length
    hard = shift.make_level(*REFERENCES[1][:2])
    cancelled = solver.baseline(hard, shift.initial_state(hard), Control(should_stop=lambda: True))
    assert cancelled.status is Status.CANCELLED and cancelled.moves == ()
    limited = solver.baseline(hard, shift.initial_state(hard), Control(Budget(nodes=600)))
    assert limited.status is Status.BUDGET


def test_bench_cases_are_valid_and_include_larger_boards():
    cases = solver.bench_cases(quick=False)
    sizes = {(level.rows, level.cols) for _, level, _ in cases}
    assert (4, 4) in sizes and (8, 8) in sizes
    for name, level, state in cases:
        assert state == shift.initial_state(level)
        assert (level.rows, level.cols, level.pieces) == (4, 4, 8) or not name.startswith("4x4")

"""The plain-Python traffic A*: the same answers as the numpy search and the oracle."""

import itertools
import random
import subprocess
import sys
from dataclasses import replace

import pytest

from fewest.engine import traffic as T
from fewest.levels import read_text
from fewest.solvers import Control, Status, solve, warm_up
from fewest.solvers.traffic import solver
from fewest.solvers.common.control import Budget, Stopped
from fewest.solvers.traffic.random_levels import random_level
from fewest.solvers.traffic.small import TooLarge, forward_search, goal_unreachable
from fewest.solvers.traffic.tuning import TUNING

from tests import oracle

UNLIMITED = 10**9
SAMPLE = "5 4\n2 2 4\n0\n1 2\n0\n0\n1 3\n0\n1 4\n1 3\n0\n"  # the rule book's, 4 moves


def _plain_length(level, state):
    """Length of the plain-Python plan (replayed through the engine), None when unsolvable."""
    moves = forward_search(level, state, Control(), UNLIMITED)
    if moves is None:
        return None
    cars = [m.car for m in moves]
    assert all(a != b for a, b in itertools.pairwise(cars))
    return oracle.replay_length(T, level, moves, state)


def _boards(seed, count, sizes, dense=False):
    """Seeded boards, exit and "Get out" in turn; `dense` ones (more cars, a row that can
    be cleared) need longer plans."""
    rng = random.Random(seed)
    for case in range(count):
        n = rng.choice(sizes)
        goal = ("exit", "clear-row")[case % 2]
        cars = rng.randint(n, 2 * n + 2) if dense else rng.randint(1, 2 * n)
        level = random_level(rng, n, cars, goal=goal, walls=rng.randint(0, 2),
                             lengths=(2, 3) if n > 3 else (2,), spare_goal_row=dense)
        state = T.initial_state(level)
        if case % 3 == 0 and T.legal_moves(level, state):  # start somewhere else in the cluster
            state = T.apply(level, state, rng.choice(T.legal_moves(level, state)))
        yield level, state


def test_plain_search_agrees_with_the_numpy_search():
    numpy_only = replace(TUNING, small_states=0)  # solve() always takes the numpy path
    solver._cache.clear()
    outcomes, longest = set(), 0
    for level, state in _boards(7, 300, (4, 5, 6), dense=True):
        expected = solver.solve(level, state, Control(), "moves", numpy_only)
        length = _plain_length(level, state) if not goal_unreachable(level, state) else None
        if expected.status is Status.UNSOLVABLE:
            assert length is None
        else:
            assert expected.optimal and length == len(expected.moves)
        outcomes.add((level.goal.kind, length is None))
        longest = max(longest, length or 0)
    assert len(outcomes) == 4 and longest >= 5  # both goal kinds, solvable and not, long plans
    solver._cache.clear()


def test_plain_search_agrees_with_the_oracle_on_small_boards():
    for level, state in _boards(11, 200, (3, 4, 5)):
        expected = oracle.shortest_plan(T, level, state)
        assert _plain_length(level, state) == (None if expected is None else len(expected))


def test_get_out_solves_use_it_and_fall_back_past_the_limit():
    (entry,) = read_text(SAMPLE, "getout.in")
    start = T.initial_state(entry.level)
    with pytest.raises(TooLarge):
        forward_search(entry.level, start, Control(), 1)
    for limit in (0, 1, TUNING.small_states):
        solution = solver.solve(entry.level, start, Control(), "moves", replace(TUNING, small_states=limit))
        assert solution.optimal and oracle.replay_length(T, entry.level, list(solution.moves)) == 4


def test_after_warm_up_a_get_out_hint_is_a_table_lookup():
    (entry,) = read_text(SAMPLE, "getout.in")
    solver._cache.clear()
    assert "cluster" not in solve("traffic", entry.level).extra  # a one-off solve: no table
    warm_up("traffic", entry.level)
    solution = solve("traffic", entry.level)
    assert solution.stats.expanded == 0 and "cluster" in solution.extra and solution.length == 4
    solver._cache.clear()


def test_cancel_and_budgets_stop_the_plain_search():
    # no plan: the search visits the whole cluster, about 3300 positions
    level = random_level(random.Random(3), 6, 10, goal="clear-row", lengths=(2,), spare_goal_row=True)
    start = T.initial_state(level)
    with pytest.raises(Stopped):
        forward_search(level, start, Control(should_stop=lambda: True), UNLIMITED)
    with pytest.raises(Stopped):
        forward_search(level, start, Control(Budget(nodes=1000)), UNLIMITED)
    assert solve("traffic", level, should_stop=lambda: True).status is Status.CANCELLED
    control = Control()
    assert forward_search(level, start, control, UNLIMITED) is None and control.expanded > 3000
    assert solve("traffic", level).status is Status.UNSOLVABLE


def test_a_small_get_out_solve_never_imports_numpy():
    code = (
        "import sys\n"
        "from fewest.levels import read_text\n"
        "from fewest.solvers import solve\n"
        f"(e,) = read_text({SAMPLE!r}, 'g.in')\n"
        "assert solve('traffic', e.level).length == 4\n"
        "print('numpy' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"

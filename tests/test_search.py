"""Generic BFS / A* / IDA*: exactness against the oracle, lexicographic order, budgets, cancel."""

import random

import pytest

from fewest.solvers import Budget, Control, Status
from fewest.solvers.search import RulesProblem, astar, bfs, idastar
from tests import toy_rules as toy
from tests.oracle import replay_length, shortest_plan


def zero(_state):
    return 0


def halving_bound(level):
    # Admissible: each move at most doubles, so reaching target from s needs >= log2(target/s) moves.
    def h(state):
        steps, value = 0, state
        while value < level.target:
            value *= 2
            steps += 1
        return steps if state <= level.target else float("inf")

    return h


@pytest.mark.parametrize("seed", range(40))
def test_all_algorithms_match_oracle(seed):
    rng = random.Random(seed)
    level = toy.Level(rng.randint(1, 20), rng.randint(20, 400))
    expected = shortest_plan(toy, level)
    problem = RulesProblem(toy, level)
    for solution in (
        bfs(problem),
        astar(problem, halving_bound(level)),
        idastar(problem, halving_bound(level)),
    ):
        assert solution.status is Status.OPTIMAL
        assert solution.length == len(expected)
        assert replay_length(toy, level, list(solution.moves)) == len(expected)


def test_bfs_and_idastar_give_lexicographically_smallest():
    level = toy.Level(1, 6)  # two shortest plans, "*+*" and "++*": moves are listed "*" first
    expected = shortest_plan(toy, level)
    problem = RulesProblem(toy, level)
    assert list(bfs(problem).moves) == expected
    assert list(idastar(problem, zero).moves) == expected


def test_unsolvable_is_reported_not_guessed():
    level = toy.Level(toy.LIMIT, 3)  # already past the target: no move can go down
    problem = RulesProblem(toy, level)
    assert bfs(problem).status is Status.UNSOLVABLE
    assert astar(problem, zero).status is Status.UNSOLVABLE
    assert idastar(problem, halving_bound(level)).status is Status.UNSOLVABLE


def test_node_budget_stops_with_honest_status():
    problem = RulesProblem(toy, toy.Level(1, 9_999))
    solution = bfs(problem, Control(Budget(nodes=600)))
    assert solution.status is Status.BUDGET and not solution.optimal and solution.length is None
    assert solution.stats.reason == "nodes"


def test_cancel_is_seen():
    calls = []

    def should_stop():
        calls.append(1)
        return len(calls) > 1

    solution = bfs(RulesProblem(toy, toy.Level(1, 9_999)), Control(should_stop=should_stop))
    assert solution.status is Status.CANCELLED


def test_progress_is_reported():
    seen = []
    control = Control(Budget(nodes=5_000), on_progress=seen.append, progress_interval=0.0)
    solution = idastar(RulesProblem(toy, toy.Level(1, 9_999)), zero, control)
    assert solution.status is Status.BUDGET
    assert seen and seen[-1].expanded > 0 and seen[-1].bound is not None

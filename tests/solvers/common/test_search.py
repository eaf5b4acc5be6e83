"""Generic BFS / A* / IDA*: exactness against the oracle, lexicographic order, budgets, cancel."""

import random
import threading

import pytest

from fewest.solvers import Budget, Control, Status, Stopped
from fewest.solvers.common import control as control_module
from fewest.solvers.common.control import release_gradually
from fewest.solvers.common.search import RulesProblem, astar, bfs, idastar
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


def test_a_call_asked_for_runs_once_in_the_middle_and_may_end_the_search():
    calls = []
    control = Control()
    control.call_at(2_000, lambda: calls.append(control.expanded))
    for _ in range(10_000):
        control.tick()
    # from the first check with the count reached, once
    assert len(calls) == 1 and 2_000 <= calls[0] < 2_000 + Control.CHECK_EVERY

    def stop() -> None:
        raise Stopped("cancelled")

    control = Control()
    control.call_at(1_000, stop)
    assert bfs(RulesProblem(toy, toy.Level(1, 9_999)), control).status is Status.CANCELLED
    control.call_at(0, None)  # withdrawn: nothing runs
    control.tick(10_000)


def test_off_the_main_thread_a_search_s_containers_are_emptied_in_steps(monkeypatch):
    monkeypatch.setattr(control_module, "RELEASE_STEP", 3)
    queue = {k: [(k, i) for i in range(k)] for k in range(12)}  # buckets, some longer than a step
    buckets = list(queue.values())
    table = {k: (k, None) for k in range(50)}
    rows = list(range(40))
    worker = threading.Thread(target=release_gradually, args=([queue, table, rows],))
    worker.start()
    worker.join()
    assert not queue and not table and not rows
    assert [len(bucket) for bucket in buckets] == [0, 1, 2, 3] + [0] * 8  # long ones emptied too
    held = [queue, table]
    release_gradually(held)  # on the main thread: let go of at once
    assert held == []


def test_a_search_stops_in_time_to_let_go_of_its_tables():
    control = Control(Budget(seconds=5.0))
    control.check()  # (well within 5 s)
    with control.metered() as meter, pytest.raises(Stopped) as stopped:
        meter.release_seconds = 5.0  # letting go would take the rest
        control.check()
    assert stopped.value.reason == "time"

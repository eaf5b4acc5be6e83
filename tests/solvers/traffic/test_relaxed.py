"""Get out boards settled from the same board with fewer cars, checked against the oracle."""

import random
from dataclasses import replace

import pytest

from fewest.engine import traffic as T
from fewest.levels import read_text
from fewest.solvers import Control, Status
from fewest.solvers.common.control import Stopped
from fewest.solvers.traffic import solver
from fewest.solvers.traffic import relaxed as traffic_relaxed
from fewest.solvers.traffic.tuning import TUNING
from fewest.solvers.traffic.random_levels import random_level
from tests import oracle


def dense_boards(seed: int, count: int):
    """Crowded "Get out" boards, where a few cars often decide the answer."""
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(4, 5)
        yield random_level(rng, n, rng.randint(n + 2, 2 * n + 2), goal="clear-row", lengths=(2,),
                           spare_goal_row=True, walls=rng.randint(0, 1))


def counting(sizes: list[int]):
    """The solver's search of a smaller board, noting in `sizes` how many cars each had."""

    def counted(level, control):
        sizes.append(len(level.cars))
        return solver._smaller_plan(level, control)

    return counted


def test_what_fewer_cars_settle_is_what_the_whole_board_needs():
    every_subset = replace(TUNING, kept_share=0.99)  # every proper subset may be tried
    sizes: list[int] = []
    none = plans = 0
    for level in dense_boards(7, 250):
        sizes.clear()
        settled = traffic_relaxed.settle(level, Control(), counting(sizes), every_subset)
        if settled is None:
            continue
        expected = oracle.shortest_plan(T, level)
        assert max(sizes) < len(level.cars)  # only smaller boards were searched
        if settled.moves is None:
            assert expected is None
            none += 1
        else:  # a plan of the full board, as short as the oracle's
            assert oracle.replay_length(T, level, settled.moves) == len(expected)
            plans += 1
    assert none > 10 and plans > 10  # both answers come from smaller boards


def test_the_solver_with_the_rounds_matches_the_oracle(monkeypatch):
    # past the start every board goes to numpy, and the rounds run at its first check,
    tuning = replace(TUNING, small_states=0, midway_nodes=0, kept_share=0.99)
    monkeypatch.setattr(Control, "CHECK_EVERY", 1)  # after its first position
    settled = []
    settle = solver.settle

    def watched(level, control, solve_smaller, tuning):
        settled.append(settle(level, control, solve_smaller, tuning))
        return settled[-1]

    monkeypatch.setattr(solver, "settle", watched)
    solver._cache.clear()
    for level in dense_boards(11, 150):
        expected = oracle.shortest_plan(T, level)
        solution = solver.solve(level, T.initial_state(level), Control(), tuning=tuning)
        if expected is None:
            assert solution.status is Status.UNSOLVABLE
        else:
            assert solution.optimal and oracle.replay_length(T, level, list(solution.moves)) == len(expected)
    answered = [s for s in settled if s is not None]
    assert len(answered) > 20 and len(answered) < len(settled)  # both ways through solve
    solver._cache.clear()


# Rows from the top: .LHHII. / .LGGOPQ / .FF.OPQ / .KMN... (to clear) / .KMNEE. / J.CC.DD /
# J.AA.BB. Its cluster holds about 22 million positions and none clears the row, which the
# whole board's search took more than half a minute to prove; 10 of its 17 cars prove it
# in 110,000.
CROWDED = "7 4\n2 3 6\n2 3 6\n1 5\n0\n1 2\n1 3\n2 3 5\n1 1\n2 3 6\n1 3\n1 3\n1 5\n1 5\n1 5\n"


def test_a_crowded_board_is_proven_hopeless_by_fewer_cars_within_the_budget():
    (entry,) = read_text(CROWDED, "crowded.in")
    sizes: list[int] = []
    seen = []
    control = Control(on_progress=seen.append, progress_interval=0)
    control.expanded = 5000  # the caller's figures: reports go on from there
    with control.metered() as meter:
        meter.bound = 14
        assert traffic_relaxed.settle(entry.level, control, counting(sizes)) == traffic_relaxed.Relaxed(None)
    assert sizes[-1] == 10 and control.expanded < TUNING.round_nodes
    counts = [progress.expanded for progress in seen]
    assert len(counts) > 10 and counts == sorted(counts)
    assert 5000 < counts[0] <= counts[-1] <= control.expanded
    assert {progress.bound for progress in seen} == {14}
    solution = solver.solve(entry.level, T.initial_state(entry.level), Control())
    assert solution.status is Status.UNSOLVABLE

    short_rounds = replace(TUNING, round_nodes=20_000)  # the last round needs more
    assert traffic_relaxed.settle(entry.level, Control(), solver._smaller_plan, short_rounds) is None
    with pytest.raises(Stopped) as stop:
        traffic_relaxed.settle(entry.level, Control(should_stop=lambda: True), solver._smaller_plan)
    assert stop.value.reason == "cancelled"

"""Pushes with a spare core: the proof of the pushes alone in a child process beside the
proof of (pushes, moves). A first proof is the answer (Microban's counts with the child:
test_switch_matrix.py); the child's tie-break, proven, is the answer too and stops
the first proof; when the first proof runs out and the tie-break does too, the child's
plan comes back FOUND with its pushes proven fewest (replayed); a child still asleep, or
given no room, gives way to the pushes alone searched here; both running out keep the
higher bound; a cancel stops both."""

import multiprocessing
import threading
import time

import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control, Status, Stopped
from fewest.solvers.sokoban import solver
from fewest.solvers.common.held_bytes import resident_bytes
from fewest.solvers.common.processes import spare_core
from fewest.solvers.sokoban.tuning import TUNING
from tests import oracle
from tests.sokoban_support import (
    REACHED, checked, children_made, climbing, idle, lexicographic_optimum, microban, reports_until_reached, tuned,
)

pytestmark = pytest.mark.skipif(not spare_core(), reason="the pushes alone go apart only with two cores")

real_push_search = solver.push_search


# The budgets' memory: a child is forked only when its share holds a copy of this process,
# which after a long run of the suite in one worker is a few hundred MB (1 GiB was too little)
MEMORY = 4 << 30


def waking(at: float, base=TUNING):
    """`base` with the child of the pushes alone awake at `at` of the proofs' time at the
    latest (it wakes at the pull table child's share plus a margin: the margin set so)."""
    return tuned(base, alone={"after_margin": at - base.pulls.apart_share})


# The child forked at once and awake at once (the tests with the `children` fixture).
AT_ONCE = waking(0.0, tuned(beside={"apart_after": 0.0}))


def run(lvl: S.Level, seconds: float = 30.0, should_stop=None, tuning=AT_ONCE) -> "solver.Solution":
    control = Control(Budget(seconds=seconds, memory_bytes=MEMORY), should_stop=should_stop)
    return solver.solve(lvl, S.initial_state(lvl), control, "pushes", best_effort=False, tuning=tuning)


def first_proof(behaviour, alone=real_push_search):
    """push_search with the proof of (pushes, moves) replaced by `behaviour(control)` and
    the proof of the pushes alone (the child's) by `alone`."""

    def search(tables, boxes, player, control, metric, *args, pushes_only=False, **kwargs):
        if pushes_only:
            return alone(tables, boxes, player, control, metric, *args, pushes_only=True, **kwargs)
        with control.metered():  # (its figures on a meter of its own, as a search's)
            return behaviour(control)

    return search


def endless(control):
    while True:  # ticks until it is stopped
        control.tick()
        time.sleep(0)


def runs_out(bound: int, after: float = 0.0, stored: int = 0):
    """A first proof that reaches `bound`, holds `stored` entries, looks at its control
    for `after` seconds (the child forks and wakes meanwhile), then runs out of memory."""

    def behaviour(control):
        control.meter.bound, control.meter.stored = bound, stored
        ends = control.seconds + after
        while control.seconds < ends:
            control.check()
            time.sleep(0.01)
        runs_out.budget = control.budget.memory_bytes  # (what it was left with)
        raise Stopped("memory")

    return behaviour


@pytest.fixture
def children(monkeypatch):
    """The children made (solved with AT_ONCE: the child forked at once, awake at once)."""
    return children_made(monkeypatch)


@pytest.fixture
def tie_break_runs_out(monkeypatch):
    """The tie-break after the pushes alone (sokoban_tie_break.py) out of time at once: the
    plan of the pushes alone comes back FOUND, as where that tie-break takes too long."""

    def runs_out(*args, **kwargs):
        raise Stopped("time")

    monkeypatch.setattr(solver, "fewest_moves_of_fewest_pushes", runs_out)


def pushes_found(lvl, row, solution) -> None:
    assert solution.status is Status.FOUND
    oracle.replay_length(S, lvl, list(solution.moves))  # a real plan, that solves
    assert solution.extra["pushes"] == S.tally(solution.moves).pushes == int(row["min_pushes"])
    assert solution.at_least == solution.stats.bound == int(row["min_pushes"])


def test_a_first_proof_that_runs_out_gets_the_child_s_pushes(monkeypatch, children, tie_break_runs_out):
    monkeypatch.setattr(solver, "push_search", first_proof(endless))
    lvl, row = microban(66)[65]
    solution = run(lvl, seconds=3.0)
    pushes_found(lvl, row, solution)
    assert solution.stats.reason == "time" and children[0].expanded > 0
    assert solution.stats.expanded > children[0].expanded  # both searches' states counted


def test_the_child_s_tie_break_ends_the_first_proof_with_the_answer(monkeypatch, children):
    """The child proves the pushes alone, then the fewest moves among those plans: that is
    the answer, and the first proof (here one that would never end) stops for it."""
    monkeypatch.setattr(solver, "push_search", first_proof(endless))
    lvl = microban(66)[65][0]
    started = time.monotonic()
    solution = run(lvl)
    assert time.monotonic() - started < 10 and solution.stats.reason is None
    moves, pushes = checked(lvl, solution)
    assert (pushes, moves) == lexicographic_optimum(lvl, "pushes")
    assert children[0].finished and 0 < children[0].expanded < solution.stats.expanded
    assert not multiprocessing.active_children()


def test_the_child_s_tie_break_runs_past_the_proofs_end_into_the_best_effort_s_time(monkeypatch, children, tmp_path):
    """With a best effort after the proofs, the child's pushes alone must be proven by the
    proofs' end, but its tie-break may go on: no best effort is needed once they are. Here
    the tie-break runs until its time is up; the plan comes back FOUND, within the budget."""
    stopped_at = tmp_path / "stopped at"

    def until_the_time_is_up(tables, boxes, player, pushes, control, table=None, tuning=TUNING):
        try:
            while True:
                control.check()
                time.sleep(0.01)
        finally:
            stopped_at.write_text(repr(time.perf_counter()))

    monkeypatch.setattr(solver, "push_search", first_proof(endless))
    monkeypatch.setattr(solver, "fewest_moves_of_fewest_pushes", until_the_time_is_up)
    tuning = tuned(AT_ONCE, alone={"reorder_share": 0.01})
    lvl, row = microban(66)[65]
    started = time.perf_counter()
    seconds = 5.0
    control = Control(Budget(seconds=seconds, memory_bytes=MEMORY))
    solution = solver.solve(lvl, S.initial_state(lvl), control, "pushes", tuning=tuning)
    ended = time.perf_counter()
    pushes_found(lvl, row, solution)
    assert float(stopped_at.read_text()) - started > seconds * (1 - tuning.best_effort.share)
    assert ended - started < seconds


def test_the_child_s_pushes_alone_stop_at_the_proofs_end(monkeypatch, children, tmp_path):
    """The child's pushes alone still stop at the proofs' end, so the best effort has its
    share when they run out too (it finds a plan)."""
    stopped_at = tmp_path / "stopped at"

    def pushes_alone_endless(tables, boxes, player, control, metric, *args, **kwargs):
        try:
            endless(control)
        finally:
            stopped_at.write_text(repr(time.perf_counter()))

    monkeypatch.setattr(solver, "push_search", first_proof(endless, alone=pushes_alone_endless))
    lvl = microban(66)[65][0]
    started = time.perf_counter()
    seconds = 5.0
    control = Control(Budget(seconds=seconds, memory_bytes=MEMORY))
    solution = solver.solve(lvl, S.initial_state(lvl), control, "pushes", tuning=AT_ONCE)
    assert float(stopped_at.read_text()) - started <= seconds * (1 - AT_ONCE.best_effort.share) + 0.1
    assert solution.status is Status.FOUND and solution.stats.reason == "time"
    oracle.replay_length(S, lvl, list(solution.moves))


def test_a_first_proof_out_of_memory_waits_for_the_child(monkeypatch, children, tie_break_runs_out):
    monkeypatch.setattr(solver, "push_search", first_proof(runs_out(5, after=0.2)))
    lvl, row = microban(66)[65]
    held = resident_bytes()  # (this process's own size, off what the first proof keeps)
    solution = run(lvl)
    pushes_found(lvl, row, solution)
    assert solution.stats.reason == "memory" and children[0].finished
    share = 1 - AT_ONCE.alone.memory_share  # (the rest given up to the child)
    beside = AT_ONCE.beside
    kept = max(share * beside.held_floor, share - beside.check_room - held / (MEMORY)) * (MEMORY)
    assert abs(runs_out.budget - kept) < 32 << 20


def test_a_first_proof_stopped_before_the_child_wakes_proves_the_pushes_alone_here(monkeypatch, children, tie_break_runs_out):
    monkeypatch.setattr(solver, "push_search", first_proof(runs_out(5, after=0.2)))
    lvl, row = microban(66)[65]
    started = time.monotonic()
    pushes_found(lvl, row, run(lvl, tuning=waking(0.5, AT_ONCE)))  # (at 15 of 30 s)
    assert time.monotonic() - started < 10
    assert children[0].started and not children[0].finished and not multiprocessing.active_children()


def test_the_child_wakes_once_the_pull_table_s_child_is_done(monkeypatch, children, tie_break_runs_out):

    def helped_then_runs_out(control):
        control.meter.helpers = 1  # (a pull table's child, for a while)
        control.check()
        control.meter.helpers = 0
        runs_out(5, after=1.0)(control)

    monkeypatch.setattr(solver, "push_search", first_proof(helped_then_runs_out))
    lvl, row = microban(66)[65]
    started = time.monotonic()
    pushes_found(lvl, row, run(lvl, tuning=waking(0.9, AT_ONCE)))  # (the child's, woken early, not at 27 of 30 s)
    assert time.monotonic() - started < 10 and children[0].finished


def test_a_first_proof_holding_too_much_lets_the_child_go(monkeypatch, children, tie_break_runs_out):
    full = int((MEMORY) * (1 - AT_ONCE.alone.memory_share) * AT_ONCE.alone.room / 200) + 1  # (200 bytes an entry)
    monkeypatch.setattr(solver, "push_search", first_proof(runs_out(5, after=0.2, stored=full)))
    lvl, row = microban(66)[65]
    pushes_found(lvl, row, run(lvl))  # (proven here, after)
    assert runs_out.budget == MEMORY and not children[0].finished and children[0].expanded == 0


@pytest.mark.parametrize("first, second, expected", [(5, 9, 9), (9, 7, 9)])
def test_when_both_run_out_the_higher_bound_stands(monkeypatch, children, first, second, expected):
    def alone_runs_out(tables, boxes, player, control, *args, **kwargs):
        with control.metered() as meter:
            meter.bound = second
            raise Stopped("memory")

    monkeypatch.setattr(solver, "push_search", first_proof(runs_out(first, after=0.2), alone_runs_out))
    solution = run(microban(66)[65][0])
    assert solution.status is Status.BUDGET and solution.at_least == expected and not solution.moves


def test_a_cancel_stops_both(monkeypatch, children):
    def alone_endless(tables, boxes, player, control, *args, **kwargs):
        endless(control)

    monkeypatch.setattr(solver, "push_search", first_proof(endless, alone_endless))
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    started = time.monotonic()
    solution = run(microban(66)[65][0], should_stop=cancel.is_set)
    assert solution.status is Status.CANCELLED and time.monotonic() - started < 2
    assert children[0].started and not multiprocessing.active_children()


def test_a_level_proven_before_the_child_wakes_leaves_no_child():
    lvl, row = microban(66)[65]
    solution = run(lvl, tuning=TUNING)
    assert checked(lvl, solution)[1] == int(row["min_pushes"]) and not multiprocessing.active_children()


@pytest.fixture
def no_processes(monkeypatch):
    """Every fork refused, as at a system's process limit (solved with PULLS_AT_ONCE)."""

    def refused(self):
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(multiprocessing.context.ForkProcess, "start", refused)


PULLS_AT_ONCE = tuned(AT_ONCE, pulls={"apart_after": 1})  # (the pull table's child asked for at once too)


@pytest.mark.parametrize("metric", solver.METRICS)
def test_with_no_process_to_be_had_the_proof_goes_on_alone(monkeypatch, children, no_processes, metric):
    lvl, row = microban(66)[65]
    control = Control(Budget(seconds=30.0, memory_bytes=MEMORY))
    solution = solver.solve(lvl, S.initial_state(lvl), control, metric, best_effort=False, tuning=PULLS_AT_ONCE)
    expected = int(row["min_pushes"]) if metric == "pushes" else (int(row["min_moves"]), int(row["pushes_in_min_moves"]))
    assert (checked(lvl, solution)[1] if metric == "pushes" else checked(lvl, solution)) == expected
    assert children and all(child.started and not child.solved for child in children)


def test_with_no_process_to_be_had_the_pushes_alone_come_after(monkeypatch, children, no_processes, tie_break_runs_out):
    monkeypatch.setattr(solver, "push_search", first_proof(runs_out(5, after=0.2)))
    lvl, row = microban(66)[65]
    pushes_found(lvl, row, run(lvl, tuning=PULLS_AT_ONCE))  # (searched here: the child died before a word)
    assert children[0].started and not children[0].searched


def test_progress_tells_what_the_child_has_reached_while_it_searches(monkeypatch, children):
    alone = lambda tables, boxes, player, control, *_, **__: climbing(control)  # noqa: E731
    monkeypatch.setattr(solver, "push_search", first_proof(idle, alone=alone))
    solution, reports = reports_until_reached(microban(66)[65][0], "pushes", AT_ONCE)
    assert solution.status is Status.CANCELLED  # (stopped by the reports, long before its 10 s)
    assert reports[0].bound is None and reports[-1].bound == REACHED and reports[-1].expanded >= 100
    assert not multiprocessing.active_children()

"""Moves with a spare core: the search from both ends in a child process beside the push
search. The first proof wins (plans replayed; Microban's counts with the child:
test_switch_matrix.py), the other
search is stopped; both running out keep the higher bound; a cancel and a proof that
there is no plan come through."""

import io
import multiprocessing
import sys
import threading
import time

import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control, Status, Stopped
from fewest.solvers.sokoban import solver
from fewest.solvers.common.held_bytes import resident_bytes
from fewest.solvers.common.processes import spare_core
from fewest.solvers.sokoban.tuning import TUNING
from tests.sokoban_support import (
    REACHED, checked, children_made, climbing, idle, level, microban, reports_until_reached, tuned,
)

pytestmark = pytest.mark.skipif(not spare_core(), reason="the search from both ends goes apart only with two cores")

HOPELESS = "#####\n#@ .#\n#$  #\n#####"  # the box is in a corner
AT_ONCE = tuned(beside={"apart_after": 0.0})  # the child starts at the push search's first look


def run(lvl: S.Level, seconds: float = 30.0, should_stop=None, tuning=TUNING) -> "solver.Solution":
    # (4 GiB: the child's share must hold a copy of this process, big after a long run of tests)
    control = Control(Budget(seconds=seconds, memory_bytes=4 << 30), should_stop=should_stop)
    return solver.solve(lvl, S.initial_state(lvl), control, "moves", best_effort=False, tuning=tuning)


def endless_push_search(stops: list):
    """A push search that never finds anything: it ticks until it is stopped."""

    def search(tables, boxes, player, control, metric, *args, **kwargs):
        try:
            while True:
                control.tick()
                time.sleep(0)
        except Stopped as stop:
            stops.append((stop.reason, control.expanded))
            raise

    return search


def endless_meet_search(tables, boxes, player, control, tuning=TUNING):
    while True:  # (in the child: killed when the push search answers first)
        time.sleep(0.01)


@pytest.fixture
def spy(monkeypatch):
    """The children made."""
    return children_made(monkeypatch)


def test_a_level_proven_at_once_forks_no_child(spy):
    lvl, row = microban(1)[0]
    assert checked(lvl, run(lvl)) == (int(row["min_moves"]), int(row["pushes_in_min_moves"]))
    assert len(spy) == 1 and not spy[0].started


def test_the_child_s_proof_stops_the_push_search(monkeypatch, spy):
    stops: list = []
    monkeypatch.setattr(solver, "push_search", endless_push_search(stops))
    lvl, row = microban(66)[65]
    solution = run(lvl)
    [(reason, ticked)] = stops
    assert solution.status is Status.OPTIMAL and reason == "cancelled"
    assert checked(lvl, solution) == (int(row["min_moves"]), int(row["pushes_in_min_moves"]))
    assert solution.stats.expanded > ticked + 1000  # the child's states are counted too


def test_the_push_search_s_proof_wins_and_the_child_is_stopped(monkeypatch, spy):
    monkeypatch.setattr(solver, "meet_search", endless_meet_search)
    lvl, row = microban(66)[65]
    started = time.monotonic()
    solution = run(lvl)
    assert checked(lvl, solution) == (int(row["min_moves"]), int(row["pushes_in_min_moves"]))
    assert time.monotonic() - started < 20 and len(spy) == 1
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("push_bound, expected", [(5, 7), (9, 9)])
def test_when_both_run_out_the_higher_bound_stands(monkeypatch, push_bound, expected):
    def meet_runs_out(tables, boxes, player, control, tuning):
        with control.metered() as meter:  # (as a search tells its bound)
            meter.bound = 7
            raise Stopped("memory")

    def push_runs_out(tables, boxes, player, control, metric, *args, **kwargs):
        with control.metered() as meter:
            meter.bound = push_bound
            time.sleep(TUNING.beside.apart_after)
            control.check()  # (the child starts here)
            raise Stopped("memory")

    monkeypatch.setattr(solver, "meet_search", meet_runs_out)
    monkeypatch.setattr(solver, "push_search", push_runs_out)
    solution = run(microban(66)[65][0])
    assert solution.status is Status.BUDGET and solution.at_least == expected


def test_each_process_s_share_covers_its_own_size(monkeypatch):
    """The searches count what they add; each process takes its own size (interpreter,
    numpy, tables) off its share first, so both together stay within the budget."""
    budgets = []

    def meet_tells_its_budget(tables, boxes, player, control, tuning):
        with control.metered() as meter:
            meter.bound = control.budget.memory_bytes
            raise Stopped("memory")

    def push_tells_its_budget(tables, boxes, player, control, metric, *args, **kwargs):
        budgets.append(control.budget.memory_bytes)
        time.sleep(TUNING.beside.apart_after)
        control.check()  # (the child starts here)
        raise Stopped("memory")

    monkeypatch.setattr(solver, "meet_search", meet_tells_its_budget)
    monkeypatch.setattr(solver, "push_search", push_tells_its_budget)
    held = resident_bytes()  # (a child forked from this process starts as large)
    whole, near = 4 << 30, 32 << 20  # (a share bigger than the test process, however big it grew)
    lvl = microban(66)[65][0]
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(seconds=30.0, memory_bytes=whole)), "moves",
                            best_effort=False)
    meet_share = int(whole * TUNING.meet.memory_share)
    push_share = whole - meet_share
    assert abs(solution.at_least - (meet_share - held)) < near
    [push_budget] = budgets
    beside = TUNING.beside
    assert abs(push_budget - max(push_share * beside.held_floor, push_share - whole * beside.check_room - held)) < near


def test_the_push_search_running_out_waits_for_the_child_s_proof(monkeypatch):
    def push_runs_out(tables, boxes, player, control, metric, *args, **kwargs):
        time.sleep(TUNING.beside.apart_after)
        control.check()  # (the child starts here)
        raise Stopped("memory")

    monkeypatch.setattr(solver, "push_search", push_runs_out)
    lvl, row = microban(66)[65]
    assert checked(lvl, run(lvl)) == (int(row["min_moves"]), int(row["pushes_in_min_moves"]))


def test_a_cancel_stops_both(monkeypatch):
    monkeypatch.setattr(solver, "meet_search", endless_meet_search)
    monkeypatch.setattr(solver, "push_search", endless_push_search([]))
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    started = time.monotonic()
    solution = run(microban(66)[65][0], should_stop=cancel.is_set)
    assert solution.status is Status.CANCELLED and time.monotonic() - started < 2
    assert not multiprocessing.active_children()


def test_progress_tells_what_the_child_has_reached_while_it_searches(monkeypatch):
    monkeypatch.setattr(solver, "meet_search", lambda tables, boxes, player, control, tuning: climbing(control))
    monkeypatch.setattr(solver, "push_search", lambda tables, boxes, player, control, *_, **__: idle(control))
    solution, reports = reports_until_reached(microban(66)[65][0], "moves", AT_ONCE)
    assert solution.status is Status.CANCELLED  # (stopped by the reports, long before its 10 s)
    assert reports[0].bound is None and reports[-1].bound == REACHED and reports[-1].expanded >= 100
    assert not multiprocessing.active_children()

def in_a_thread(work):
    """work(), run in a worker thread as the app's hints are: its result."""
    out = []
    thread = threading.Thread(target=lambda: out.append(work()))
    thread.start()
    thread.join()
    return out[0]


def test_off_the_main_thread_the_child_comes_from_a_server_process(monkeypatch, spy):
    # (a fork there could leave a lock of another thread's held for ever in the child)
    stops: list = []
    monkeypatch.setattr(solver, "push_search", endless_push_search(stops))
    lvl, row = microban(66)[65]
    solution = in_a_thread(lambda: run(lvl))
    assert solution.status is Status.OPTIMAL and [reason for reason, _ in stops] == ["cancelled"]
    assert checked(lvl, solution) == (int(row["min_moves"]), int(row["pushes_in_min_moves"]))
    assert [type(child._child).__name__ for child in spy] == ["ForkServerProcess"]


class CapturedStderr(io.StringIO):
    """sys.stderr as a Textual app has it: its fileno() is -1."""

    def fileno(self) -> int:
        return -1


def test_in_the_app_the_server_process_starts_though_stderr_is_captured(monkeypatch, spy):
    from multiprocessing import forkserver, resource_tracker

    forkserver._forkserver._stop()  # (started afresh, as in a new app; private, but the only way)
    resource_tracker._resource_tracker._stop()
    monkeypatch.setattr(sys, "stderr", CapturedStderr())
    monkeypatch.setattr(solver, "push_search", endless_push_search([]))
    lvl, row = microban(66)[65]
    solution = in_a_thread(lambda: run(lvl))
    assert checked(lvl, solution) == (int(row["min_moves"]), int(row["pushes_in_min_moves"]))
    assert [type(child._child).__name__ for child in spy] == ["ForkServerProcess"]


def test_off_the_main_thread_a_cancel_stops_both(monkeypatch, spy):
    monkeypatch.setattr(solver, "meet_search", endless_meet_search)  # (pickled over by name)
    monkeypatch.setattr(solver, "push_search", endless_push_search([]))
    cancel = threading.Event()
    threading.Timer(1.0, cancel.set).start()  # (the server process may take a while to start)
    started = time.monotonic()
    solution = in_a_thread(lambda: run(microban(66)[65][0], should_stop=cancel.is_set))
    assert solution.status is Status.CANCELLED and time.monotonic() - started < 3
    assert spy[0].started and not multiprocessing.active_children()


def test_the_child_s_proof_that_there_is_no_plan(monkeypatch):
    monkeypatch.setattr(solver, "push_search", endless_push_search([]))
    assert run(level(HOPELESS)).status is Status.UNSOLVABLE

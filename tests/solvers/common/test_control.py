"""The control: a budget passed in as a value, a search's figures on a meter of its own."""

import pytest

from fewest.solvers.common.control import Budget, Control, Progress, Report, Stopped
from fewest.solvers.common.solution import stats_of


def test_a_phase_runs_on_its_own_budget_and_leaves_the_caller_s_as_it_was():
    control = Control(Budget(seconds=10.0, nodes=1000, memory_bytes=4000))
    with control.share(0.5, memory=0.25) as phase:
        assert phase.budget == Budget(seconds=5.0, nodes=500, memory_bytes=1000)
        assert control.budget == Budget(seconds=10.0, nodes=1000, memory_bytes=4000)
        with pytest.raises(Stopped) as stopped:
            phase.tick(600)
        assert stopped.value.reason == "nodes"
    assert control.expanded == 600  # (the phase's nodes count for the caller too)
    control.check()  # (within the whole budget)
    with pytest.raises(AttributeError):
        control.budget = Budget()


def test_a_search_s_meter_is_read_while_it_runs_and_its_report_goes_to_its_caller():
    control = Control(Budget(memory_bytes=1000))
    with control.metered() as caller:
        caller.bound = 9
        with pytest.raises(Stopped) as stopped, control.metered(bytes_per_entry=10) as search:
            search.stored, search.bound = 50, 4
            assert control.memory_used() == 500
            search.stored = 101  # (1,010 bytes: over the budget)
            control.check()
        assert stopped.value.report == Report(stored=101, bound=4, peak_bytes=1010)
        assert control.meter is caller and control.memory_used() == 101 * 200  # (the caller's own estimate)
        assert (caller.stored, caller.bound) == (101, 9)  # (a bound never falls)
        with control.metered(tells=False) as reordering:
            reordering.stored = 3
        assert caller.stored == 101
        assert stats_of(control, caller).stored == 101 and stats_of(control, caller).bound == 9


def test_progress_tells_the_innermost_search_s_positions_and_the_highest_bound_reached():
    seen: list[Progress] = []
    control = Control(on_progress=seen.append, progress_interval=0.0)
    with control.metered() as solve:
        solve.bound = 12
        with control.share(1.0) as phase, phase.metered() as search:
            search.stored, search.bound, search.helpers = 7, 5, 1
            assert control.helpers == 1  # (the caller sees the helpers of the search it runs)
            phase.check()
    assert (seen[-1].stored, seen[-1].bound) == (7, 12)
    assert control.helpers == 0


def test_a_budget_for_the_process_stops_once_the_process_holds_more():
    """Budget.process_bytes is what the process (and its helpers) hold resident, looked at
    directly: a process already past it stops at the first check; a large one does not."""
    from fewest.solvers.common.held_bytes import resident_bytes

    held = resident_bytes()
    with pytest.raises(Stopped) as stopped:
        Control(Budget(process_bytes=held // 2)).check()
    assert stopped.value.reason == "memory"
    Control(Budget(process_bytes=4 * held)).check()


def test_slow_ticks_are_checked_sooner():
    """Where each tick takes long (a huge board's states), the budget is looked at about
    every CHECK_SECONDS, not only every CHECK_EVERY ticks: a cancel is seen in time."""
    import time

    from fewest.solvers.common import control as control_module

    asked = []
    control = Control(should_stop=lambda: asked.append(control.expanded) or False)
    for _ in range(40):
        time.sleep(2 * control_module.CHECK_SECONDS)  # (a tick that takes two check intervals)
        control.tick()
    assert len(asked) >= 20  # (at CHECK_EVERY ticks apart, none would have come yet)

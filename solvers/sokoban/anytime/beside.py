"""A second finder in a child process, beside the anytime solver's finders.

The FESS-like finder with FESS's own moves (a box anywhere it can go alone, the
tuning's packing.macro) finds plans the finders in line miss: on a level whose
start needs a box pushed far out of the way (XSokoban #33's opening: one box up
a corridor seven cells), single pushes pay a weight for each cell, and the
search never gets that deep. In line it would cost them their time: at 10 s a
level it lost 17 of their 54 first plans. On a spare core it costs them
nothing: forked once the finders have looked for FORK_AFTER seconds (most plans
come sooner), it searches until the finders' time ends, and its plan, when it
has one first, stops them as theirs would (should they end with none before the
time does, it is waited for). It moves every box anywhere for a few seconds,
then only the hotspot that blocks the most others (the rest by single pushes):
each way finds plans the other misses (macro_finder; the figures are the
tuning's, FessTuning.macro_hotspot).

Measured with the child's two turns, the finders' first plan, each level alone on 2
cores, at 24 s (their share of a 60 s solve), on the levels the finders in line miss:
XSokoban's 36, #26 (8.65 s), #33 (3.57 s), #35 (13.96 s); Sasquatch's 30, #17 (11.07 s).
(With every box anywhere all the time it was XSokoban #26 at 15.9 s and #33, Sasquatch
#16 and #17.) `fewest bench sokoban --anytime --timeout 60` on those 36 XSokoban levels:
plans for #12 (the search backwards in line, 4.08 s), #26, #33 and #35, none from the
proof's time after. The finders in line run as fast beside it (#6, #13, #20, #49: the
same times with and without it, to 0.1-1 s).
Why the opening: started 25% of the way along a published solution (those the
bench's known-solutions file counts), the finders in line find plans for 11 of those
36 levels within 10 s, from 50% for 28, from 75% for all 36; with that solution's own
filling order as the packing order, from the start, for 3.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import partial

from fewest.solvers.common.control import Control, Stopped
from fewest.solvers.common.processes import spare_core
from fewest.solvers.sokoban.anytime.fess import fess_search
from fewest.solvers.sokoban.board.tables import Tables
from fewest.solvers.sokoban.plans.packing_order import Push
from fewest.solvers.sokoban.searches.apart import SearchApart
from fewest.solvers.sokoban.tuning import SokobanTuning

FORK_AFTER = 0.5  # seconds of the finders in line before the child is forked


def macro_finder(
    tables: Tables, boxes: int, player: int, orders: dict[int, tuple[int, ...]], tuning: SokobanTuning,
    control: Control,
) -> list[Push] | None:
    """The FESS-like finder with moves of a box anywhere (the child's search): every box for
    the tuning's anytime.beside_all_seconds, then only the worst hotspot, on the rest of the
    time (None: neither has a plan). Raises Stopped as any search."""
    moving = replace(tuning, packing=replace(tuning.packing, macro=True))
    hotspot = replace(moving, fess=replace(moving.fess, macro_hotspot=True))
    budget = control.budget
    first = budget.seconds
    if first is not None:
        first = min(first, control.seconds + tuning.anytime.beside_all_seconds)
    try:
        with control.within(replace(budget, seconds=first)) as phase:
            plan = fess_search(tables, boxes, player, phase, orders, moving)
    except Stopped as stop:
        if stop.reason == "cancelled" or first == budget.seconds:  # (no time left for the second)
            raise
        plan = None
    return plan if plan is not None else fess_search(tables, boxes, player, control, orders, hotspot)


class FinderBeside:
    """The macro finder in a child, while the finders in line run (`watching`); `plan`
    is its plan once it sent one first (`child.expanded`: the positions it expanded, once it
    ended)."""

    def __init__(
        self, tables: Tables, boxes: int, player: int, orders: dict[int, tuple[int, ...]], tuning: SokobanTuning,
        memory_bytes: int | None,
    ) -> None:
        search = partial(macro_finder, tables, boxes, player, orders, tuning)
        self.child = SearchApart(search, memory_bytes)
        self.plan: list[Push] | None = None
        self.caller_stops: Callable[[], bool] = lambda: False  # (the caller's cancel, while watching)

    @contextmanager
    def watching(self, control: Control) -> Iterator[None]:
        """Within it, the control forks the child FORK_AFTER seconds on (to search until its
        time budget ends) and stops the finders as a cancel would once the child has a plan
        (then in `plan`; a cancel of the caller's still reads as one: see cancelled). The
        child is ended on the way out."""
        asked = control.should_stop
        caller_stops = self.caller_stops = asked or (lambda: False)
        fork_at = control.seconds + FORK_AFTER
        child = self.child

        def should_stop() -> bool:
            if caller_stops():
                return True
            if not child.started:
                left = control.budget.seconds - control.seconds  # type: ignore[operator]
                if control.seconds >= fork_at and left > FORK_AFTER:
                    child.start(left)
                return False
            if child.done() and child.answer is not None:
                self.plan = child.answer
                return True
            return False

        control.should_stop = should_stop
        try:
            yield
        finally:
            control.should_stop = asked
            child.close()

    def waited(self, control: Control) -> list[Push] | None:
        """Within `watching`, once the finders in line are through with no plan: the child's,
        waited for (forked now if it was not yet) until the control's time ends (None: it
        has none by then). Raises Stopped on the caller's cancel."""
        child = self.child
        while control.seconds < control.budget.seconds:  # type: ignore[operator]
            if not child.started:
                child.start(control.budget.seconds - control.seconds)  # type: ignore[operator]
            if self.caller_stops():
                raise Stopped("cancelled")
            if child.wait(0.05) and child.answer is not None:
                return child.answer
            if child.finished:
                return None
        return None

    def cancelled(self) -> bool:
        """Did the caller cancel (not the child's plan stop the finders)?"""
        return self.plan is None or self.caller_stops()


def beside_possible(control: Control) -> bool:
    """May the finders have the child beside them: a time budget, a spare core, and no other
    helper running now."""
    return control.budget.seconds is not None and not control.helpers and spare_core()

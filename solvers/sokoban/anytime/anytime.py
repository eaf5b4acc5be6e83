"""The anytime solver's first stages: a plan fast, then shorter ones.

The packing search (sokoban/plans/packing_order.py, on a goal-room level), the
search backwards (sokoban/searches/backward.py, briefly: it finds what it finds at
once) and the FESS-like finder (fess.py; goals side by side in no room get an order
found backwards, sokoban/plans/retrograde_order.py) look for a plan, each on a share of
the phase; each finds plans the others miss (XSokoban #58, #73, #82 against #37; #12
and #86 backwards only). The
first plan is given at once ("found"), then reordered between boxes
(sokoban/plans/interleave.py) and shortened by the vicinity improver (improve.py),
each shorter plan given as it comes ("improved"), while they gain and the
phase lasts. The proof comes after (solver.py): only it says a plan is shortest.

The finders run one after the other: one of them given the whole time in a child
beside them adds little (at 10 s a level these stages find XSokoban plans for 54
levels; each finder alone for all 10 s adds only #32, the packing search at 6.3 s, and
#12, backwards at 0.8 s; on Sasquatch at 24 s: 20 levels, none added). With a spare
core the child beside them runs another kind of finder instead, one that moves a box
anywhere in one step (beside.py): it finds what they miss on levels whose opening
needs boxes taken far out of the way.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from fewest.solvers.common.control import Control, Stopped
from fewest.solvers.sokoban.anytime.beside import FinderBeside, beside_possible
from fewest.solvers.sokoban.anytime.fess import fess_search
from fewest.solvers.sokoban.anytime.improve import improvements, plan_cost, vicinity_search
from fewest.solvers.sokoban.board.tables import Tables
from fewest.solvers.sokoban.plans.interleave import shortest_interleaving
from fewest.solvers.sokoban.plans.packing_order import Push, packed_search, packing_orders
from fewest.solvers.sokoban.plans.retrograde_order import with_part_orders
from fewest.solvers.sokoban.searches.backward import pulled_plan
from fewest.solvers.sokoban.tuning import TUNING, SokobanTuning

FOUND, IMPROVED = "found", "improved"


def anytime_plans(
    tables: Tables, boxes: int, player: int, control: Control, metric: str = "moves", tuning: SokobanTuning = TUNING,
    near: tuple[int, list[Push]] | None = None, improve_seconds: float | None = None,
) -> Iterator[tuple[str, list[Push]]]:
    """(stage, push plan) in turn, each shorter by `metric` than the one before: the first
    FOUND, the others IMPROVED. Ends when no finder finds one, or the improver gains no
    more; raises Stopped when the budget runs out (or on a cancel), the plans given standing.
    `near`: a plan known from a position near this one (its boxes, its pushes), as after a
    step off a hint's plan: the first plan is looked for through its positions first.
    `improve_seconds`: how long the improving goes on from the first plan, when not to the
    end of the budget (the finders may take all of it)."""
    orders = packing_orders(tables.board, boxes, player)
    if beside_possible(control):
        plan = _first_plan_beside(tables, boxes, player, control, orders, tuning, near)
    else:
        plan = _first_plan(tables, boxes, player, control, orders, tuning, near)
    if plan is None:
        return
    yield FOUND, plan
    cost = plan_cost(tables, boxes, player, plan, metric)
    whole = control.budget
    if improve_seconds is not None and whole.seconds is not None:
        whole = replace(whole, seconds=min(whole.seconds, control.seconds + improve_seconds))
    with control.within(whole) as phase:
        if metric == "moves":
            reordered = shortest_interleaving(tables.board, boxes, player, plan, phase, tuning)
            if plan_cost(tables, boxes, player, reordered, metric) < cost:
                plan = reordered
                yield IMPROVED, plan
        for better in improvements(tables, boxes, player, plan, phase, metric, tuning):
            yield IMPROVED, better


def _first_plan_beside(
    tables: Tables, boxes: int, player: int, control: Control, orders: dict[int, tuple[int, ...]],
    tuning: SokobanTuning, near: tuple[int, list[Push]] | None,
) -> list[Push] | None:
    """_first_plan with the macro finder in a child beside it (beside.py), each on half the
    memory: the first plan of either. Raises Stopped on the caller's cancel."""
    memory = control.budget.memory_bytes
    half = None if memory is None else memory // 2
    beside = FinderBeside(tables, boxes, player, orders, tuning, half)
    try:
        with control.within(replace(control.budget, memory_bytes=half)) as phase, beside.watching(phase):
            plan = _first_plan(tables, boxes, player, phase, orders, tuning, near)
            return plan if plan is not None else beside.waited(phase)
    except Stopped as stop:
        if stop.reason != "cancelled" or beside.cancelled():
            raise
        return beside.plan
    finally:
        control.expanded += beside.child.expanded


def _first_plan(
    tables: Tables, boxes: int, player: int, control: Control, orders: dict[int, tuple[int, ...]],
    tuning: SokobanTuning, near: tuple[int, list[Push]] | None,
) -> list[Push] | None:
    """The finders' first plan, each on its share of the phase in turn (see above; None:
    none found one). Raises Stopped on a cancel."""
    knobs = tuning.anytime
    start = control.seconds, 0  # (the phase's node budget counts the quick proof's too, as it always did)
    plan = None
    if near is not None:
        plan = _within(_near_plan, tables, boxes, player, control, start, knobs.packed_share, near, tuning)
        # (the finders' shares count from here: a plan near that was no help takes none of the
        # packing search's, the quickest finder on a goal-room level)
        start = control.seconds, control.expanded
    if plan is None and orders:
        plan = _within(packed_search, tables, boxes, player, control, start, knobs.packed_share, orders, tuning)
    if plan is None:
        until = (knobs.packed_share if orders else 0.0) + knobs.backward_share
        weight = tuning.best_effort.backward_weight
        plan = _within(_pulled, tables, boxes, player, control, start, until, weight, tuning)
    if plan is None:
        more = with_part_orders(tables.board, boxes, orders, control)  # (goals side by side in no room too)
        if more != orders:
            plan = _within(fess_search, tables, boxes, player, control, start, knobs.part_orders_share, more, tuning)
    if plan is None:
        plan = _within(fess_search, tables, boxes, player, control, start, 1.0, orders, tuning)
    return plan


def _near_plan(
    tables: Tables, boxes: int, player: int, control: Control, near: tuple[int, list[Push]], tuning: SokobanTuning
) -> list[Push] | None:
    """A plan through the positions of the plan `near` (its boxes, its pushes) with one box
    displaced, then more (as the improver's vicinity; None: none there)."""
    for radius, distance in enumerate(tuning.improve.distances, 1):
        plan = vicinity_search(tables, boxes, player, near[1], radius, distance, control, plan_from=near[0])
        if plan is not None:
            return plan
    return None


def _pulled(
    tables: Tables, boxes: int, player: int, control: Control, weight: int, tuning: SokobanTuning
) -> list[Push] | None:
    """The search backwards (sokoban/searches/backward.py) as a finder, `weight` its factor."""
    return pulled_plan(tables, boxes, player, control, weight)


def _within(
    finder: object, tables: Tables, boxes: int, player: int, control: Control, start: tuple[float, int], until: float,
    extra: object, tuning: SokobanTuning,
) -> list[Push] | None:
    """The `finder`'s plan on the phase's budgets up to `until` of them, its time counted
    from `start` (its seconds and positions expanded; None: it found none, or ran out), `extra`
    its fifth argument (the packing orders, or the plan near). Raises Stopped on a cancel."""
    whole = control.budget
    seconds = None if whole.seconds is None else start[0] + (whole.seconds - start[0]) * until
    nodes = None if whole.nodes is None else start[1] + int((whole.nodes - start[1]) * until)
    try:
        with control.within(replace(whole, seconds=seconds, nodes=nodes)) as phase:
            return finder(tables, boxes, player, phase, extra, tuning)  # type: ignore[operator]
    except Stopped as stop:
        if stop.reason == "cancelled":
            raise
        return None

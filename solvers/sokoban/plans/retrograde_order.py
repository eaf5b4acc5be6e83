"""Packing orders for goals in no goal room, found backwards as FESS finds them.

The goal-room orders (packing_order.py) need ROOM_GOALS goals side by side and a
room not yet holding boxes out of order; most of Sasquatch's levels have none
(goals scattered, in pairs, or a room with a box already in), and there the
FESS-like finder had nothing to pack by. Shoham and Schaeffer's FESS works an
order out for any level backwards: from a box on every goal, the goal box that
can leave most easily is taken out, again and again; the reverse of the removal
is the order to fill in.

Here a box leaves when it can be pulled alone, the goal boxes not yet out
standing as walls (a box that needs another out first waits for it), onto a cell
where some box starts; of those that can, the one needing the fewest pulls goes
first (it is filled last). A box that can only come off the goals goes next by
the same count. When none can come off, the removal stops: the goals left are in
no order. Each part of the goals (side by side) of at least PART_GOALS that has
no goal-room order gets the whole order's goals in it, in that order.

Measured with the FESS-like finder alone, 8 s a level, Sasquatch's odd levels
(25): plans for the same 10 levels as with goal-room orders alone (#1, #7, #9,
#11, #13, #15, #21, #23, #41, #49), most sooner (#9 1.5 s -> 0.2 s, #21 1.1 ->
0.1, #41 0.08 -> 0.02; #7 2.4 -> 7.8, #23 2.0 -> 7.1). One order over every goal
(lone goals too) found 9 (#23 lost, not in 24 s either): its next goal to fill is
one far off, and the first goals of the order stay empty a long time.
"""

from __future__ import annotations

from fewest.solvers.common.control import Control
from fewest.solvers.sokoban.board.board import Board, cells_of
from fewest.solvers.sokoban.plans.lone_box import pulls_to

# A part of fewer goals gets no order: a box pushed onto a lone goal of an order would be
# packed there for good, and boxes on their way elsewhere often cross such goals.
PART_GOALS = 2


def with_part_orders(
    board: Board, boxes: int, orders: dict[int, tuple[int, ...]], control: Control | None = None
) -> dict[int, tuple[int, ...]]:
    """`orders` (as packing_orders gives them) and, for each part of the goals (side by side)
    of at least PART_GOALS with no order there, its goals in the order found backwards.
    `control`: looked at once a box taken out (raises Stopped as any search)."""
    parts = [part for part in board.parts(board.goals) if part.bit_count() >= PART_GOALS
             and not any((part >> goal) & 1 for goal in orders)]
    if not parts:
        return orders
    order = retrograde_order(board, boxes, control)
    extended = dict(orders)
    for part in parts:
        mine = tuple(goal for goal in order if (part >> goal) & 1)
        if len(mine) == part.bit_count():
            extended.update((goal, mine) for goal in mine)
    return extended


def retrograde_order(board: Board, boxes: int, control: Control | None = None) -> tuple[int, ...]:
    """The goals, first to fill first (see above): those that can come off the goals,
    boxes on the others standing, in the reverse of their leaving. (Sasquatch #37, 30
    lone goals: 0.2 s; a search per goal a round.)"""
    inside = board.goals
    out: list[int] = []
    while inside:
        if control is not None:
            control.check()
        sources = boxes & ~inside
        best = None  # (tier: 0 to a start cell, 1 only off the goals; pulls; goal)
        for goal in cells_of(inside):
            others = inside & ~(1 << goal)
            regions = _regions_round(board, others, goal)
            for tier, targets in enumerate((sources, board.floor & ~inside)):
                if best is not None and tier > best[0]:
                    break
                pulls = pulls_to(board, others, goal, regions, targets) if targets else None
                if pulls is not None:
                    if best is None or (tier, pulls) < best[:2]:
                        best = (tier, pulls, goal)
                    break
        if best is None:
            break
        out.append(best[2])
        inside &= ~(1 << best[2])
    return tuple(reversed(out))


def _regions_round(board: Board, others: int, box: int) -> list[int]:
    """The player's regions beside a lone box on `box`, the `others` standing: after the
    box came there, the player stands beside it, anywhere."""
    free = board.floor & ~others & ~(1 << box)
    regions: list[int] = []
    for step in board.steps:
        beside = box + step
        if (free >> beside) & 1 and not any((region >> beside) & 1 for region in regions):
            regions.append(board.reach(beside, free))
    return regions

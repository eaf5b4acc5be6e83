"""A plan fast, by FESS's feature space: the packing search with four features.

Shoham and Schaeffer's FESS (Festival) files positions in cells of a feature space
and takes them from the cells in turn, so a search stuck in one kind of position
goes on from another. The packing search (sokoban/plans/packing_order.py) does that
with two features; here it gets FESS's four, each worked out from the boxes alone:

- packed: boxes on the goals of a packing order filled from its first with no gap
  (a goal room's, or one found backwards: plans/retrograde_order.py), and boxes on
  goals of no order, more first;
- connectivity: the pieces the boxes cut the free floor into, fewer first;
- room connectivity: boxes standing in a doorway (a floor cell whose loss splits
  the floor: between rooms, or in a tunnel), fewer first;
- out of plan: loose boxes on or beside the goals of a packing order still to be
  filled, in the way of the packing, fewer first.

Every position is taken from the cells (the tuning's fess.cell_turn; no greedy
turns between): the search goes where a feature is best and taken least often.
In a cell, positions come by FESS's weights: a move the packing advisor gives,
or one that betters a feature of the position it is made from, costs nothing,
any other one; the least weight first, then the newest (the matching alone: plans
for 9 of every third XSokoban level in 6,000 positions, by weight 18; the finders in
all, at 12,000: by weight then the least matching 21, by weight then the newest 22,
tuning.py's packing.newest_first).
Where the packing advisor has no advice, FESS's hotspot advisor (hotspots.py: the box
in the way of the most others goes where it is in nobody's) and opener (opener.py: a
box on the way of the box nearest the next goal of an order goes off it) give theirs,
weighed as any push (tuning.py has the figures: #13 found, fewer positions in all).
It finds plans the packing search does not (XSokoban #37), and misses some it
finds (#58, #73, #82): the anytime solver runs both. The deadlock tables, PI-corrals,
packing orders and the packing advisor are the packing search's own.

Its speed is spread thin: 1,400-4,500 positions a second on XSokoban #14, #16, #23, of
which the move generation (the player's region, the pushes, each child's key) is 5.3-7.4%;
the flood fills, the matching and the advisors' lone-box searches take the rest. A numba
spike of that move generation on cell arrays ran 5.3-7.7x faster alone, but 2.3-3.4x
called from here (each position's boxes to an array and back): under 7.4% of the whole,
so numba is not used; it would pay only with the whole search compiled.
Measured and dropped: pushes of the box pushed last costing no weight (FESS's moves of
a box anywhere, as weights): XSokoban's first plans within 10 s a level, 54 -> 48.

Where its time goes on the levels it misses: into dead positions. Of 30 positions drawn
from those it made in 8 s, the exact push search (1.5 s each) proved 27 dead on XSokoban
#11, 20 on #33, 14 on #47, 12 on #25, none alive (the rest: not known); most at once, by
the pair table (sokoban/bounds/pairs.py: two boxes that can never both reach goals): of
200 drawn, 185 on #11, 91 on #33, 89 on #47, 66 on #25. Leaving out the children the
pair table calls dead (13-70 us a child) did not pay: the finders' first plans at 10 s on
51 XSokoban levels against 54 (#45, #70, #82 much sooner; #20, #48, #49 lost; other
dead ends took their place: what is left is proven dead only by searching, 1-9,000
positions of the exact search), Sasquatch 19 and 19, and in the child beside
(beside.py) at 24 s XSokoban #26 and #33 against #26, #33 and #35, Sasquatch #17 either way.

The plan is any plan: the caller marks it not proven shortest.
"""

from __future__ import annotations

from dataclasses import replace

from fewest.solvers.common.control import Control
from fewest.solvers.sokoban.anytime.hotspots import Hotspots
from fewest.solvers.sokoban.anytime.opener import Opener
from fewest.solvers.sokoban.board.board import Board, cells_of
from fewest.solvers.sokoban.board.tables import Tables, sides_of
from fewest.solvers.sokoban.plans.packing_order import (
    Advisor, Features, Push, packed_in_order, packed_search, packing_orders,
)
from fewest.solvers.sokoban.tuning import TUNING, FessTuning, SokobanTuning


def fess_search(
    tables: Tables, boxes: int, player: int, control: Control, orders: dict[int, tuple[int, ...]] | None = None,
    tuning: SokobanTuning = TUNING,
) -> list[Push] | None:
    """Some push plan (any length), or None when the search went through every position
    it allows. `orders` as packing_orders gives them (None: worked out here). Raises
    Stopped as any search."""
    board = tables.board
    if orders is None:
        orders = packing_orders(board, boxes, player)
    fess = tuning.fess
    # (weights only with packing orders: on Sasquatch's levels with none, 5 of the 8 plans the
    # matching alone finds in 1,500-6,600 positions were not found in 4,000 by weight)
    weighted = fess.weighted and bool(orders)
    knobs = replace(tuning, packing=replace(tuning.packing, cell_turn=fess.cell_turn, weighted=weighted))
    hotspots = Hotspots(board) if fess.hotspot_advisor or fess.macro_hotspot else None
    advising = hotspots if fess.hotspot_advisor else None
    movers = hotspots.worst_mover if hotspots is not None and fess.macro_hotspot else None
    advisor = _advisors(board, orders, advising, fess)
    plan = packed_search(
        tables, boxes, player, control, orders, knobs, fess_features(board, orders), advisor, movers
    )
    if plan is None and orders:  # (the orders' boxes never move once packed: that may leave no plan)
        knobs = replace(knobs, packing=replace(knobs.packing, weighted=False))
        advisor = _advisors(board, {}, advising, fess)
        plan = packed_search(tables, boxes, player, control, {}, knobs, fess_features(board, {}), advisor, movers)
    return plan


def _advisors(
    board: Board, orders: dict[int, tuple[int, ...]], hotspots: Hotspots | None, fess: FessTuning
) -> Advisor | None:
    """FESS's advisors beside the packing advisor, as the tuning has them (None: none)."""
    chosen = []
    if hotspots is not None:
        chosen.append(hotspots.advice)
    if fess.opener and orders:
        chosen.append(Opener(board, orders).advice)
    if not chosen:
        return None

    def advice(walls: Tables, boxes: int, player: int) -> list:
        return [child for advisor in chosen for child in advisor(walls, boxes, player)]

    return advice


def fess_features(board: Board, orders: dict[int, tuple[int, ...]]) -> Features:
    """A position's FESS cell from its boxes (see above); `orders` as packing_orders."""
    packed_goals = sum(1 << goal for goal in orders)
    free_goals = board.goals & ~packed_goals  # (a box on a goal of no order counts as packed)
    order_list = list(set(orders.values()))
    doors = doorways(board)
    near_orders = board.spread(packed_goals) & board.floor & ~board.goals

    def features(boxes: int) -> tuple[int, int, int, int]:
        packed = packed_in_order(boxes, order_list) | (boxes & free_goals)
        loose = boxes & ~packed
        in_the_way = (loose & near_orders).bit_count() if orders and packed & packed_goals != packed_goals else 0
        pieces = len(board.parts(board.floor & ~boxes))
        return -packed.bit_count(), pieces, (boxes & doors).bit_count(), in_the_way

    return features


def doorways(board: Board) -> int:
    """The floor cells whose loss splits the floor (a box there cuts one part from another):
    those whose neighbours lie in two parts or more around it (sides_of: one walk over the
    floor, where a flood fill per cell took 3 s of a 2 s budget on a 100 x 100 room)."""
    sides = sides_of(board)
    found = 0
    for cell in cells_of(board.floor):
        if len(set(sides[cell]) - {-1}) > 1:
            found |= 1 << cell
    return found

"""A plan for goal-room levels: goals filled in a packing order, boxes sent in whole.

On a level whose goals lie together in a room (XSokoban #4, #5, #6, #8, #9, #10),
a search guided by box-to-goal distances fills the goals nearest the door first
and walls the rest in: weighted A* found no plan on those six in 15 s. Players
and solvers such as Festival fill such a room from the far end. This search
does the same, with no claim to be short:

- Each goal area (goals joined side by side, at least ROOM_GOALS of them) gets a
  packing order, found backwards: from the area full, a box is pulled out to
  the area's edge while the others stay, the nearest first; the last one out
  is the first one in. The edge is one some box from outside could be pushed
  to, where there is such an order (XSokoban #22 found in 1,200 positions,
  none in 12,000 with any edge); else any.
- A push that brings a box onto such an area's goal goes on, as one macro, to
  the next goal of the order that is still empty (the shortest push path of
  that box alone, the other boxes in place); it is also made alone (a box
  may cross the area on its way elsewhere). Boxes on an order's goals filled
  from its first with no gap are packed: they never move again. (With every
  box on the area's goals packed and no push alone, Sasquatch #30 had no
  plan after 76 positions; XSokoban #55 none in 10 s.)
- Best-first search over (boxes, player's region), taking positions in turn
  from two queues. One is greedy: the position whose loose boxes match the
  empty goals for the fewest pushes first (push distances with the packed
  boxes as walls; ties first in, first out). The other, after the feature
  space of Shoham and Schaeffer's FESS, files positions in cells by two
  features, boxes packed and the pieces the boxes cut the floor into, and
  takes from the cell taken from least often so far the newest position (the
  tuning's packing.newest_first; else the least matching): a greedy search
  stuck with a room half packed and the rest jammed goes on elsewhere. A
  position taken from the cells also gets, as FESS's packing advisor gives,
  a child for each loose box that can go alone (the others in place) all the
  way to the next empty goal of an order: a new cell with one more box packed,
  which the cells take from next. Pruned: dead squares, boxes frozen or never
  to move off goals, and, at a PI-corral, every push but those into it
  (sokoban/pruning/corrals.py; here only to cut positions).

Measured on XSokoban (5 s a level; 84 of its 90 levels have such an area),
levels with a plan:
- the greedy queue alone: 9 (#1, #3, #4, #6, #7, #17, #51, #78, #83);
- with the cells: 23 (#1-4, #6-8, #17, #34, #51, #53-56, #58, #60, #62, #68,
  #78-80, #82, #83);
- with the cells and the advisor: 29 (#1-4, #7-9, #17, #34, #37, #51, #53,
  #54, #56, #58, #60, #62-65, #67, #68, #73, #78-80, #82-84). #6 and #55
  (3.3 s and 4.9 s without it) are lost to the advisor's cost; most plans
  come 3 to 30 times sooner.
The weighted searches (6 s) find #1, #2, #3, #7, #17, #38, #78, #79 and #83.
On levels with no goal area (Grigoriev 2001 #54, #61, #84, #100) the cells
found nothing more, so the search stays with goal rooms.

The plan is any plan: the caller marks it not proven shortest.
"""

from __future__ import annotations

import heapq
from array import array
from typing import Callable

from fewest.solvers.common.control import Control
from fewest.solvers.common.assignment import Matching, assign, matching_cost, min_cost, reassign, warm_assign
from fewest.solvers.sokoban.board.board import Board, cells_of, open_pushes, pushable_to
from fewest.solvers.sokoban.pruning.corrals import corral_pushes
from fewest.solvers.sokoban.pruning.deadlock import frozen_group, immovable
from fewest.solvers.sokoban.board.tables import UNREACHABLE, Tables, with_walls
from fewest.solvers.sokoban.plans.lone_box import Push, lone_pushes, lone_reach, pulls_to
from fewest.solvers.sokoban.tuning import TUNING, PackingTuning, SokobanTuning

ROOM_GOALS = 4  # fewer goals side by side are not a room: their order hardly matters
# A position kept (its key, parent and pushes, its entry in both queues, the tables per set
# of packed boxes): 480-520 bytes measured (XSokoban #8 and #9, 8 s, peak resident size over
# positions kept; the greedy queue alone measures the same); with its matching kept for its
# expansion (_keep_matching), 893 bytes (Sasquatch #25, 19 boxes, 15,000 positions expanded;
# 583 without), counted as 900.
ENTRY_BYTES = 900
# A position's cell in the feature space, from its boxes: smaller tuples are taken first
# on ties of visits (the default: boxes packed, more first, then the pieces of free floor)
Features = Callable[[int], tuple]
# More advice for a position taken from the cells where the packing advisor has none: from the
# tables with the packed boxes as walls, the boxes and the player's cell, [(pushes, boxes
# after, player's cell after)] (sokoban/anytime/fess.py gives FESS's others)
Advisor = Callable[[Tables, int, int], list]
# Which boxes of a position (its boxes, those packed) move anywhere in one child where the
# tuning's packing.macro is on (a bit set; None: every box that can move)
Movers = Callable[[int, int], int]


def packing_orders(board: Board, boxes: int, player: int) -> dict[int, tuple[int, ...]]:
    """{goal cell: the area's goals in filling order} for each goal area that has one.
    An area whose boxes cannot all be pulled out, or holding the player, has none. Boxes on
    the area's goals already stay: when they are not the first goals of its order (a hint
    from a room filled that far keeps the order), the order goes round them (_around_filled),
    or there is none. Goals with no order are filled as any others."""
    orders: dict[int, tuple[int, ...]] = {}
    for area in _goal_areas(board):
        if (area >> player) & 1:
            continue
        outside = boxes & ~area
        order = _fill_order(board, area, player, outside)
        filled = area & boxes
        if order is None or filled != sum(1 << goal for goal in order[: filled.bit_count()]):
            order = _around_filled(board, area, filled, player, outside)
        if order is None:
            continue
        for goal in order:
            orders[goal] = order
    return orders


def _around_filled(board: Board, area: int, filled: int, player: int, outside: int) -> tuple[int, ...] | None:
    """An order for an area whose boxes on its goals are not the first of its own order (a
    level that starts so, or a player who filled the room another way): those boxes first,
    staying for good, then the other goals as _fill_order finds them round those boxes
    (None: no box there, or not every other box can be pulled out round them). Such areas
    are at the start of 7 of XSokoban's levels, 14 of Sasquatch's and 58 of the bundled
    Grigoriev packs' 140; 1, 3 and 18 of them get an order so (in the others the boxes in
    place stop the pulls), and the finders then find plans for 14 of Grigoriev 2001's 36
    such levels in 6,000 positions, against 11 with no order there."""
    if not filled:
        return None
    rest = area & ~filled
    order = _fill_order(board, rest, player, outside, filled, area)
    return None if order is None else tuple(cells_of(filled)) + order


def packed_search(
    tables: Tables, boxes: int, player: int, control: Control, orders: dict[int, tuple[int, ...]] | None = None,
    tuning: SokobanTuning = TUNING, features: Features | None = None, advisor: Advisor | None = None,
    movers: Movers | None = None,
) -> list[Push] | None:
    """Some push plan (packing orders kept, see above; `orders` as packing_orders gives
    them), or None when the greedy search went through every position it allows. Raises
    Stopped as any search. `features`: the cells' own (sokoban/anytime/fess.py gives
    FESS's four); None: boxes packed and floor pieces. `advisor`: more advice (Advisor).
    `movers`: with packing.macro, the boxes that move anywhere (Movers; None: all)."""
    if orders is None:
        orders = packing_orders(tables.board, boxes, player)
    return _PackingSearch(tables, orders, control, tuning.packing, features, advisor, movers).run(boxes, player)


class _PackingSearch:
    """The search above. A position (boxes, the player's region) is kept in `came` with its
    way back, and queued twice: in `queue`, the least matching first (ties first in, first
    out), and in `cells`, the same by cell (its features); `visits` counts the positions
    taken out of each cell."""

    def __init__(
        self, tables: Tables, orders: dict[int, tuple[int, ...]], control: Control, knobs: PackingTuning,
        features: Features | None = None, advisor: Advisor | None = None, movers: Movers | None = None,
    ) -> None:
        """`knobs`: cell_turn (every cell_turn-th position expanded comes from `cells`; 0:
        none does) and advise (such a position also gets the packing advisor's children).
        `features`: a position's cell (None: `_features`); `advisor`: more advice for it;
        `movers`: the boxes that move anywhere with knobs.macro (None: all)."""
        self.tables, self.orders, self.control = tables, orders, control
        self.cell_turn, self.advise, self.weighted = knobs.cell_turn, knobs.advise, knobs.weighted
        # (on ties of weight in a cell, the newest first where there are packing orders: see the tuning)
        self.newest_first = knobs.newest_first and bool(orders)
        self.advice_boxes = knobs.advice_boxes
        self.macro_states = knobs.macro_states if knobs.macro else 0
        self.board = board = tables.board
        self.order_list = list(set(orders.values()))
        self.shift = board.size.bit_length()
        self.walled: dict[int, Tables] = {0: tables}  # packed boxes -> tables with them as walls
        self.came: dict[int, tuple[int | None, list[Push]]] = {}
        self.queue: list = []
        self.cells: dict[tuple[int, int], list] = {}
        self.cell_heap: list = []  # (visits, cell) of each cell with entries: the least taken first
        self.visits: dict[tuple[int, int], int] = {}
        self.weights: dict[int, int] = {}
        self.matchings: dict[int, array] = {}  # a queued position's matching (see _keep_matching)
        self.parent_cell: tuple = ()  # the cell of the position being expanded
        self.count = 0  # positions queued (also keeps two entries from ever comparing their boxes)
        self.features = features or self._features
        self.advisor = advisor
        self.movers = movers

    def run(self, boxes: int, player: int) -> list[Push] | None:
        control, came, goals = self.control, self.came, self.board.goals
        start = self.region_key(boxes, player)
        came[start] = (None, [])
        first = (self.distance(boxes), 0, start, boxes, player)
        self.queue.append(first)
        self._in_cell(self.features(boxes), (0,) + first)
        self.weights[start] = 0
        done = set()  # positions expanded (each is in two queues)
        with control.metered(ENTRY_BYTES) as meter:
            turn = self.cell_turn
            while self.queue:
                # (turns by the positions this search expanded, not the control's count, which
                # carries earlier searches': by its parity alone, XSokoban #2's plan came after 54
                # positions or 1.77 M. The cells go first: the finders' first plan at 12,000
                # positions a level, XSokoban 52 levels either way, Sasquatch 15 (+#24) against 14.)
                from_cells = turn and self.cells and len(done) % turn == 0
                key, boxes, player, cell = self._take(from_cells)
                if key in done:
                    continue
                done.add(key)
                control.tick()
                if not control.expanded & 31:  # (a crowded level's expansion can take a millisecond)
                    meter.stored = len(came)
                    control.check()
                if boxes & goals == goals:
                    return _chain(came, key)
                self._expand(key, boxes, player, cell)
            return None

    def walls_of(self, packed: int) -> Tables:
        walls = self.walled.get(packed)
        if walls is None:
            walls = self.walled[packed] = with_walls(self.tables, packed)
        return walls

    def region_key(self, boxes: int, player: int) -> int:
        region = self.board.reach(player, self.board.floor & ~boxes)
        return (boxes << self.shift) | ((region & -region).bit_length() - 1)

    def distance(self, boxes: int) -> int:
        """The boxes not yet packed, matched to the goals not yet packed (push distances
        with the packed boxes as walls)."""
        packed = self.packed(boxes)
        rows = self.walls_of(packed).rows
        return min_cost([rows[box] for box in cells_of(boxes & ~packed)])

    def _features(self, boxes: int) -> tuple[int, int]:
        """The position's cell: its boxes packed (more first) and the pieces the boxes cut
        the free floor into (fewer first)."""
        return -self.packed(boxes).bit_count(), len(self.board.parts(self.board.floor & ~boxes))

    def enqueue(
        self, child: int, parent: int, pushes: list[Push], left: int, moved: int, at: int, advised: bool = False
    ) -> None:
        """Keep a new position: its way back, and its entry in both queues. In the cells it
        comes by its weight first: its parent's, plus one unless it was advised or betters
        one of the parent's features (FESS's weights: an advisor's move costs nothing); then
        the newest first (newest_first), else the least matching."""
        self.came[child] = (parent, pushes)
        self.count += 1
        entry = (left, self.count, child, moved, at)
        heapq.heappush(self.queue, entry)
        cell = self.features(moved)
        weight = self.weights[parent]
        if self.weighted and not advised and not any(now < before for now, before in zip(cell, self.parent_cell)):
            weight += 1
        self.weights[child] = weight
        if self.newest_first:
            entry = (-self.count, left) + entry[2:]  # (the same shape: _take reads the last three)
        self._in_cell(cell, (weight,) + entry)

    def _in_cell(self, cell: tuple, entry: tuple) -> None:
        """File an entry in its cell; a cell new or emptied before joins the heap of cells."""
        in_cell = self.cells.get(cell)
        if in_cell is None:
            in_cell = self.cells[cell] = []
            heapq.heappush(self.cell_heap, (self.visits.get(cell, 0), cell))
        heapq.heappush(in_cell, entry)

    def _take(self, from_cells: bool) -> tuple[int, int, int, tuple | None]:
        """The next position (key, boxes, player, its cell: None from the greedy queue), from
        the cells or the greedy queue."""
        if from_cells:
            # the cell taken from least often (ties: the most packed, the fewest pieces)
            cells, visits = self.cells, self.visits
            taken, cell_key = heapq.heappop(self.cell_heap)
            visits[cell_key] = taken + 1
            in_cell = cells[cell_key]
            _, _, _, key, boxes, player = heapq.heappop(in_cell)
            if in_cell:
                heapq.heappush(self.cell_heap, (taken + 1, cell_key))
            else:
                del cells[cell_key]
            return key, boxes, player, cell_key
        _, _, key, boxes, player = heapq.heappop(self.queue)
        return key, boxes, player, None

    def _expand(self, key: int, boxes: int, player: int, cell: tuple | None) -> None:
        """Queue the children of a position taken out, and the advisors' when it came from
        the cells (`cell`: its cell then; None from the greedy queue)."""
        board, goals = self.board, self.board.goals
        from_cells = cell is not None
        # (its cell, when it came from one: the features cost 16% of the finder's time on XSokoban #16)
        self.parent_cell = self.features(boxes) if cell is None else cell
        free = board.floor & ~boxes
        seen = board.reach(player, free)
        stuck = self.packed(boxes)
        walls = self.walls_of(stuck)
        live = walls.live
        loose = boxes & ~stuck
        candidates, movable, _ = open_pushes(board.steps, loose, seen, live & free)
        idle = loose & ~movable
        if idle and immovable(board, player, boxes, idle, movable, live) & ~goals:
            return  # a box off its goal that can never move
        inward = corral_pushes(board, boxes, seen, live, stuck)
        if inward is not None:  # (a corral's boxes must move first: the other pushes can wait)
            candidates = inward
        # A move that packs no box changes one row of the matching: re-solved from this
        # position's (O(n^2) against O(n^3); the matching was 60% of the time on XSokoban #8).
        order = list(cells_of(loose))
        rows = [walls.rows[box] for box in order]
        matching = self._matching_of(key, order, rows)
        # (only boxes with a push now can go anywhere: the others' searches were wasted)
        children = (
            _advised(board, walls, self.orders, boxes, movable, player, self.advice_boxes)
            if self.advise and from_cells else []
        )
        # (more advice where the packing advisor has none, weighed as any push: free, it led the
        # search astray, XSokoban #37 in 9,261 positions, not 182)
        more = self.advisor(walls, boxes, player) if self.advisor is not None and from_cells and not children else []
        for pushes, moved, at in children + more:
            child = self.region_key(moved, at)
            if child not in self.came:
                packs = self.packed(moved) != stuck
                left = self._left(child, moved, boxes & ~moved, moved & ~boxes, packs, walls, order, rows, matching)
                if left < UNREACHABLE:
                    self.enqueue(child, key, pushes, left, moved, at, not more)
        if self.macro_states and from_cells:
            pushable = 0  # (the boxes of the candidates: those of a corral's pushes, when it has any)
            for _, _, some in candidates:
                pushable |= some
            anywhere = pushable if self.movers is None else pushable & self.movers(boxes, stuck)
            self._moved_anywhere(key, boxes, walls, stuck, anywhere, seen, order, rows, matching)
            single = [(d, step, some & ~anywhere) for d, step, some in candidates if some & ~anywhere]
            if single:  # (the other boxes' single pushes)
                self._pushed(key, boxes, walls, stuck, single, seen, order, rows, matching)
        else:
            self._pushed(key, boxes, walls, stuck, candidates, seen, order, rows, matching)

    def _moved_anywhere(
        self, key: int, boxes: int, walls: Tables, stuck: int, anywhere: int, seen: int, order: list[int],
        rows: list, matching: Matching | None,
    ) -> None:
        """Queue a child for every place each box on `anywhere` (a bit set) can go alone, the
        others in place (FESS's moves, lone_reach), as _pushed queues single pushes; none that
        freezes the box off its goal."""
        board, came, goals = self.board, self.came, self.board.goals
        for box in cells_of(anywhere):
            others = boxes & ~(1 << box)
            for cell, region, pushes in lone_reach(board, walls.live, others, box, seen, self.macro_states):
                moved = others | (1 << cell)
                child = (moved << self.shift) | ((region & -region).bit_length() - 1)
                if child in came or frozen_group(walls, moved & ~stuck, cell) & ~goals:
                    continue
                packs = self.packed(moved) != stuck
                left = self._left(child, moved, 1 << box, 1 << cell, packs, walls, order, rows, matching)
                if left < UNREACHABLE:
                    self.enqueue(child, key, pushes, left, moved, pushes[-1][0])

    def _pushed(
        self, key: int, boxes: int, walls: Tables, stuck: int, candidates: list, seen: int, order: list[int],
        rows: list, matching: Matching | None,
    ) -> None:
        """Queue the children of the pushes `candidates` from the position `key` (_made),
        where the player reaches `seen`; its loose boxes `order`, their `rows` and `matching`
        as _matching_of gives them."""
        came = self.came
        for d, step, movable in candidates:
            for cell in cells_of(movable):
                for pushes, moved, at, packs in self._made(boxes, walls, stuck, cell, d, step):
                    if len(pushes) == 1:  # (the region after one push, from the one before: no flood fill mostly)
                        region = self.board.pushed_region(seen, self.board.floor & ~moved, cell, cell + step)
                        child = (moved << self.shift) | ((region & -region).bit_length() - 1)
                    else:
                        child = self.region_key(moved, at)
                    if child in came:
                        continue
                    left = self._left(child, moved, 1 << cell, 1 << (cell + step), packs, walls, order, rows, matching)
                    if left < UNREACHABLE:
                        self.enqueue(child, key, pushes, left, moved, at)

    def _left(
        self, child: int, moved: int, source: int, target: int, packs: bool, walls: Tables, order: list[int],
        rows: list, matching: Matching | None,
    ) -> int:
        """The matching of the child `child` (boxes `moved`): where one loose box went from
        the cell `source` to the cell `target` (bits) and no box was packed, re-solved from
        the parent's `matching` and kept for the child's expansion; else from scratch. (The
        hotspot and opener advisors' children, solved from scratch, took 20% of the finder's
        time on XSokoban #16.)"""
        if packs or matching is None or source.bit_count() != 1 or target.bit_count() != 1:
            return self.distance(moved)
        cell, to = source.bit_length() - 1, target.bit_length() - 1
        row = order.index(cell)
        moved_rows = rows[:]
        moved_rows[row] = walls.rows[to]
        solved = reassign(moved_rows, matching, row)
        left = matching_cost(moved_rows, solved)
        if left < UNREACHABLE:
            self._keep_matching(child, solved, order, row, to)
        return left

    def _keep_matching(self, child: int, solved: Matching, order: list[int], row: int, target: int) -> None:
        """Keep a child's matching (its column potentials and each goal's box cell) for its
        expansion, where it is re-solved warm instead of from scratch."""
        _, v, p = solved
        cells = order[:]
        cells[row] = target
        self.matchings[child] = array("q", v + [cells[i - 1] for i in p[1:]])  # (in one array: 45% less)

    def _matching_of(self, key: int, order: list[int], rows: list) -> Matching | None:
        """The matching of the position `key` (its loose boxes `order`, lowest cell first, and
        their `rows`): warm from the one kept when it was queued, else from scratch (None
        with fewer than 3 boxes: their children's are solved whole)."""
        kept = self.matchings.pop(key, None)
        if len(order) < 3:
            return None
        if kept is None:
            return assign(rows)
        n = len(order)
        index = {box: i for i, box in enumerate(order, 1)}
        return warm_assign(rows, [0] * (n + 1), list(kept[: n + 1]), [0] + [index[box] for box in kept[n + 1:]])

    def _made(self, boxes: int, walls: Tables, stuck: int, cell: int, d: int, step: int) -> list:
        """The children of pushing the box on `cell` in direction `d`, each (its pushes, the
        boxes after, the player's cell after, whether it packs a box): a push onto an ordered
        area's goal other than the order's next empty one goes on, as one macro, to that
        next goal; it is also made alone, the box left loose there (a box may need to cross
        the area on its way elsewhere), unless that freezes a box off its goal."""
        target = cell + step
        moved = boxes ^ (1 << cell) ^ (1 << target)
        packing = self.orders.get(target)
        made = []
        if packing is not None:
            goal = next(goal for goal in packing if not (moved >> goal) & 1 or goal == target)
            if goal == target:
                return [([(cell, d)], moved, cell, True)]
            more = lone_pushes(self.board, walls, moved & ~(1 << target), target, cell, goal)
            if more is not None:
                made.append(([(cell, d)] + more, moved ^ (1 << target) ^ (1 << goal), more[-1][0], True))
        if not frozen_group(walls, moved & ~stuck, target) & ~self.board.goals:
            made.append(([(cell, d)], moved, cell, False))
        return made

    def packed(self, boxes: int) -> int:
        """The boxes on the goals of an order filled from its first goal on, with no gap:
        in place for good (a box on an order's goal further on is loose)."""
        return packed_in_order(boxes, self.order_list)


def packed_in_order(boxes: int, orders: list[tuple[int, ...]]) -> int:
    """The boxes of `boxes` on the goals of each of the `orders` filled from its first goal
    on, with no gap."""
    packed = 0
    for order in orders:
        for goal in order:
            if not (boxes >> goal) & 1:
                break
            packed |= 1 << goal
    return packed


def _advised(
    board: Board, walls: Tables, orders: dict[int, tuple[int, ...]], boxes: int, loose: int, player: int,
    most: int,
) -> list[tuple[list[Push], int, int]]:
    """The packing advisor: (pushes, boxes after, player's cell after) for the `most` boxes of
    `loose` nearest the next empty goal of an order (by the lone box's push distance) that
    can go alone, the other boxes in place, all the way there (as FESS's packing advisor, a
    whole packing step as one child)."""
    advised = []
    for order in set(orders.values()):
        goal = next((goal for goal in order if not (boxes >> goal) & 1), None)
        if goal is None:
            continue
        at_goal = (walls.board.goals & ((1 << goal) - 1)).bit_count()
        found = 0
        for _, box in sorted((walls.rows[box][at_goal], box) for box in cells_of(loose)):
            pushes = lone_pushes(board, walls, boxes & ~(1 << box), box, player, goal)
            if pushes:
                advised.append((pushes, boxes ^ (1 << box) ^ (1 << goal), pushes[-1][0]))
                found += 1
                if found == most:
                    break
    return advised


def _chain(came: dict, key: int) -> list[Push]:
    links = []
    while key is not None:
        parent, pushes = came[key]
        links.append(pushes)
        key = parent
    return [push for pushes in reversed(links) for push in pushes]


def _goal_areas(board: Board) -> list[int]:
    """The goals in groups joined side by side, those of at least ROOM_GOALS."""
    return [area for area in board.parts(board.goals) if area.bit_count() >= ROOM_GOALS]


def _fill_order(
    board: Board, area: int, player: int, outside: int, standing: int = 0, whole: int | None = None
) -> tuple[int, ...] | None:
    """The area's goals, first to fill first (_pulled_out_order), each pulled out to a cell
    a box of `outside` could be pushed to; where no order has such edges, to any cell off
    the area. None if some box cannot be pulled out at all. (XSokoban #43: a box pulled up
    out of a corner no box can come down into from outside gave an order no plan could keep.)
    The second kind (any cell) can still wall goals in: on 17 XSokoban levels and 14 of
    Sasquatch's, once an order's first goals are packed no box can reach a later one (the
    push tables), and the finders stall short of it (#44: two packed, then 68,000
    positions). Tried on those levels, the finders' first plan at 10 s (Sasquatch 24 s),
    where they had plans for 2 XSokoban levels and 1 of Sasquatch's: such orders cut or
    left out, 1-2 and 1-2 (and Grigoriev 2001 #89 lost: a later goal may be filled, loose,
    before the first ones are packed); any cell only for boxes the first kind cannot pull
    out, 2 and 1; packed boxes free to move again in the FESS-like finder, 2 and 1. Such a
    room (#44's corners each need the player on another) needs a goal used as a stepping
    stone, which an order packed for good cannot express."""
    return (_pulled_out_order(board, area, player, outside, standing, whole)
            or _pulled_out_order(board, area, player, None, standing, whole))


def _pulled_out_order(
    board: Board, area: int, player: int, outside: int | None, standing: int, whole: int | None
) -> tuple[int, ...] | None:
    """The area's goals, first to fill first: boxes on all of them are pulled out one by
    one (the others staying), the fewest pulls first, each to a cell a box of `outside`
    could be pushed to, were the player anywhere and the others staying (None: to any cell
    off the area); None if some box cannot be. `standing`: boxes that stay where they are
    throughout, as walls; `whole`: the goals a box is pulled off (None: the area's)."""
    inside = area
    whole = area if whole is None else whole
    out = []
    while inside:
        best = None
        for box in cells_of(inside):
            others = (inside & ~(1 << box)) | standing
            reachable = board.floor if outside is None else pushable_to(board, outside, board.floor & ~others)
            pulls = _pulls_out(board, others, box, whole, player, reachable)
            if pulls is not None and (best is None or pulls < best[0]):
                best = (pulls, box)
        if best is None:
            return None
        out.append(best[1])
        inside &= ~(1 << best[1])
    return tuple(reversed(out))


def _pulls_out(board: Board, others: int, box: int, area: int, player: int, reachable: int) -> int | None:
    """Fewest pulls that take a lone box from `box` off the area's goals to a `reachable`
    cell, the `others` standing as walls and the player coming from where it starts;
    None: none do."""
    start_region = board.reach(player, board.floor & ~others & ~(1 << box))
    return pulls_to(board, others, box, [start_region], board.floor & ~area & reachable)

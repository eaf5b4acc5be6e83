"""Exact Sokoban search over pushes (A* on box positions, walks in between).

A node is the box set plus the player's exact cell right after a push (the
cell the pushed box just left), so the walking cost of the next push is
known exactly. An edge is one push: walk to the box by a shortest route
(boxes in the way), then push. Both metrics are lexicographic and are
folded into one integer cost, major * MAJOR + minor:
  moves:  (moves, pushes)  an edge costs (walk + 1) * MAJOR + 1
  pushes: (pushes, moves)  an edge costs MAJOR + walk + 1
The bound is the box-to-goal matching over push distances, h pushes, which
is also at least h moves (every push is a move): h * (MAJOR + 1) never
overestimates either metric. A box's distances are those for the side of it
the player is on (sokoban/board/tables.py: a box in a doorway, pushed from inside
the room, may have a long way round). When a node is taken out of the queue
the pair bound (sokoban/bounds/pairs.py) or, once the search is no longer small, the
goal room bounds (sokoban/bounds/rooms.py) and the pull table (sokoban/pulls/table.py: exact
pushes left near the goal) may raise h, and the node goes back in with it.
Under pushes a node whose pushes left the table gives exactly is a plan: the
table then leaves out positions no plan of as few pushes goes through
(sokoban/pulls/forward.py; the bound may overestimate there, never on an
optimal plan, which is all A* needs).
Under the moves metric f also counts the walking the boxes' way forces on the
player (sokoban/bounds/walks.py: back out for the next box), and a node taken
out goes back in when the walk to its nearest push, once known, is more (moves
spent before the next push whatever it is; mostly none, the player standing
behind the box just pushed). The bound is admissible but not always consistent
(those raise it on some nodes only), so a node whose cost improves is
re-opened; a goal is accepted only when it leaves the queue, which makes it
optimal. On a board with mirror symmetry (sokoban/board/symmetry.py) the table
keeps one entry for all images of a position.

Pruning never loses an optimal plan:
- certain deadlocks (sokoban/pruning/deadlock.py): pushes onto dead squares or into
  a freeze are not generated, and a node with a box that can never move off
  its goal is dropped; boxes that can never move again on their goals
  become walls for the distances and leave the matching;
- corral deadlocks (sokoban/pruning/corral_probe.py): when the box just pushed fences off
  floor the player cannot reach, a tiny search with only the fence's boxes
  may prove them stuck; the pattern then prunes every node that holds it;
- PI-corrals, for a proof of the pushes alone only (sokoban/pruning/corrals.py): when
  the player is shut out of a corral that must change and whose boxes can
  only be pushed into it, only those pushes are made (a plan with the fewest
  pushes is kept, not always one with the fewest moves among them);
- dead-end corridors (sokoban/pruning/tunnels.py): a box just inside the mouth of a
  straight one-wide corridor with more goals than boxes, the player behind it,
  is pushed on deeper and nothing else is tried (no plan is lost, under
  either metric: the reordering argument is in that module);
- dominance: a node is not expanded (nor stored, when the other player cell
  is one free step away) when the same boxes were reached with the player
  elsewhere in the same region so much cheaper that walking over costs no
  more (everything done from here can be done from there).
"""

from __future__ import annotations

import heapq
from array import array
from itertools import islice
from operator import is_, sub
from typing import Callable, NamedTuple

from fewest.solvers.common.control import Control, Meter, Stopped, collector_paused, release_gradually
from fewest.solvers.common.held_bytes import resident_bytes
from fewest.solvers.common.assignment import assign, matching_cost, reassign, warm_assign
from fewest.solvers.sokoban.board.board import cells_of, open_pushes
from fewest.solvers.sokoban.pruning.corrals import corral_pushes
from fewest.solvers.sokoban.pruning.deadlock import frozen_group, immovable, settle
from fewest.solvers.sokoban.bounds.pairs import pair_bound
from fewest.solvers.sokoban.pruning.corral_probe import CorralProbe
from fewest.solvers.sokoban.pulls.apart import PullsApart
from fewest.solvers.sokoban.pulls.policy import PullPolicy
from fewest.solvers.sokoban.bounds.rooms import room_bounds_within
from fewest.solvers.sokoban.board.symmetry import board_symmetry, key_maker, replay
from fewest.solvers.sokoban.board.tables import UNREACHABLE, Tables, side_row, with_walls
from fewest.solvers.sokoban.pruning.tunnels import Tunnels
from fewest.solvers.sokoban.bounds.walks import WalkBound
from fewest.solvers.sokoban.tuning import TUNING, SokobanTuning

MAJOR = 1 << 32  # weight of the first count; no level comes near 2**32 moves
LOW = 20  # a queue bucket id is f << LOW | pushes left (always < UNREACHABLE < 2**LOW)
LEFT_BITS = (1 << LOW) - 1
CHECK_EVERY = 31  # the budget is looked at (and told what is held) every 32 expansions
# Memory: a table entry ~270 bytes and a queued node ~400 + 26 per box were measured with
# the order and matching as a tuple and lists; as arrays a node holds at least 8 bytes
# a box less, less 40 (the sizes above: 40 less with 10 boxes, 200 with 26), so ~440 + 18;
# and 16 more since every queued node has all five fields (Node), most had three.
TABLE_ENTRY_BYTES = 270
QUEUED_BYTES, QUEUED_BOX_BYTES = 456, 18
Push = tuple[int, int]  # (cell the box leaves, direction index 0..3 = l u r d)
_new = tuple.__new__  # (a named tuple made so: ~170 ns, against ~400 ns through its class)


class Matching(NamedTuple):
    """A node's box-to-goal matching over push distances, as the queue keeps it.

    The boxes' order and the matching are arrays, not a tuple and lists: a child's copies
    take 224 bytes against 264 with 10 boxes, 320 against 520 with 26 (and no int objects
    for cells or potentials past 256). Grigoriev 2001 #1 (26 boxes), 60,000 expansions:
    372 MiB against 484, at the same speed. One is made for each child (`_new`: as a plain
    tuple, 0.8% fewer instructions in all on Microban #123 under pushes)."""

    order: array  # the loose boxes' cells, a row each
    rows: list | None  # each box's distances from the player's side of it (None: the tables' rows, all)
    u: array  # row potentials (1-based, as common/assignment.py gives them)
    v: array  # goal column potentials
    p: array  # p[j]: the row matched to goal column j
    stuck: int  # boxes frozen on goals: walls for the distances, out of the matching
    walls: Tables  # the tables with `stuck` as walls
    cost: int  # the matching's pushes: the pushes left, at least


class Node(NamedTuple):
    """How a queued node is laid out: a plain tuple of these five fields, always all five,
    unpacked in this order (`Node._make(node)` reads one by name). Made as a tuple literal:
    as a Node (through `_new`) the search took 1.8% more instructions on Microban #123
    under pushes, which queues 100,000 nodes in 19,000 expansions."""

    key: int  # the exact position: boxes << shift | the player's cell
    matching: Matching  # its boxes' matching when it was made (or its boxes froze)
    canonical: int  # its table key (one for all mirror images on a symmetric board)
    walked: int  # the walk to its nearest push, counted in when it was taken out before (0: not yet)
    raised_at: int  # the pull table's `grown` when that raised its bound (read only if it did)


def push_search(
    tables: Tables, boxes: int, player: int, control: Control, metric: str, weight: int = 1,
    pushes_only: bool = False, keep_pulls: list | None = None, *, tuning: SokobanTuning = TUNING,
) -> tuple[list[Push], int] | None:
    """An optimal push sequence and its folded cost, or None when no solution exists.

    With `weight` > 1 the bound counts that many times over (weighted A*): a plan comes
    much sooner but is not proven optimal (its cost is at most `weight` times the best).
    With `pushes_only` (metric "pushes") walks cost nothing and PI-corral pruning is on
    (sokoban/pruning/corrals.py): the fewest pushes, proven, but not the fewest moves among them.
    With a list `keep_pulls`, the pull table grown in this process, if one was (not in a
    child beside it), is put in it still able to grow (the tie-break grows on from it:
    sokoban/searches/tie_break.py), whether the search took it up or not. `tuning`: its
    knobs (push), the pull table's (pulls) and the goal rooms' (rooms).
    Raises `Stopped` when the control's budget runs out or it is cancelled.
    """
    helpers: list[PullsApart] = []  # a child process growing the pull table, if one was started
    big: list = []  # the search's big containers, freed a step at a time when it ends
    with control.metered() as meter, collector_paused():
        try:
            return _search(
                tables, boxes, player, control, metric, weight, pushes_only, helpers, big, keep_pulls, tuning
            )
        except Stopped as stop:
            reason = stop.reason  # leaving this block frees the traceback (the search's frame)
        finally:
            meter.release_seconds = 0.0
            meter.helpers -= len(helpers)
            for helper in helpers:
                helper.close()
            release_gradually(big)
        raise Stopped(reason, meter.report()) from None  # (the collector never has to walk that table)


def _search(
    tables: Tables, boxes: int, player: int, control: Control, metric: str, weight: int, pushes_only: bool,
    helpers: list, big: list, keep_pulls: list | None, tuning: SokobanTuning,
) -> tuple[list[Push], int] | None:
    # (the search's objects die with this frame, before the collector is back on: else its
    # first collection walks them all, 0.07 s after 19,000 expansions on Microban #93, 3%)
    search = _PushSearch(tables, control, metric, weight, pushes_only, tuning)
    settled = settle(tables, boxes)
    if settled is None:
        return None
    search.begin(boxes, player, settled, helpers, big, keep_pulls)
    return search.run()


class _PushSearch:
    """One search. `run` takes the nodes out of the queue, the least f first: a node that
    is superseded is dropped, one whose bound the lazy bounds raise goes back in, and the
    rest are expanded (`_expand`: pruned, or put back with the walk to their nearest push,
    or made children of, `_children`). The pull table is the policy's
    (sokoban/pulls/policy.py); what is held is told to its meter (`_Footprint`).

    The table of nodes reached: table[key] = (cost so far, parent key, push code = cell * 4
    + direction); on a symmetric board the table's keys are canonical (one for all mirror
    images), the queue's are not. A key is the exact position packed in one int (boxes,
    then the player's cell), not a Zobrist hash: CPython hashes a Microban key in ~40 ns,
    less than an incremental Zobrist update costs it (~80 ns), and a 64-bit hash alone
    could merge two positions in a proof.
    The open list: buckets of nodes by (f, pushes left), each a stack (deepest first on
    ties); `ids` is a heap of the bucket ids in use. The pushes left are the matching's
    when a node is made; the pair or room bound may raise them when it is taken out (then
    it goes back in: computed once per node taken out, not per child). A queued node also
    carries its table key (canonical on a symmetric board: taken out, a node whose entry
    was superseded or whose bound rose never needs its mirror images)."""

    def __init__(
        self, tables: Tables, control: Control, metric: str, weight: int, pushes_only: bool, tuning: SokobanTuning
    ) -> None:
        self.tables, self.control, self.metric, self.weight = tables, control, metric, weight
        self.pushes_only, self.tuning = pushes_only, tuning
        self.near_matching = tuning.push.near_matching  # (read per node taken out: an attribute of its own)
        self.board = board = tables.board
        self.floor, self.goals, self.steps, self.width = board.floor, board.goals, board.steps, board.width
        # edge cost = walk * per_step + per_push, in the folded cost
        self.per_step, self.per_push = (MAJOR, MAJOR + 1) if metric == "moves" else (1, MAJOR + 1)
        if pushes_only:  # (with walks counted, ties on pushes go by moves: Microban #153 64 s against 5)
            self.per_step = 0
        # Under the moves metric the walk to the nearest push raises the bound. Under pushes it
        # would only order ties, and measured it cost 5-30% (Microban #111, #145) for nothing.
        self.walk_first = metric == "moves"
        # So does the walking the boxes' way forces (sokoban/bounds/walks.py), on every node.
        # Under pushes it too would only order ties: XSokoban #38's proof took 1.36M
        # expansions with it, 1.40M without, each ~5% dearer (Microban #123: 51,335 in 5.3 s
        # against 5.1 s).
        self.walk_bound = WalkBound(board, tables.live, control.check) if self.walk_first else None
        control.check()  # (between the builds: each takes ~0.05 s on a 100 x 100 board)
        self.tunnels = Tunnels(board)
        control.check()
        self.lift = (MAJOR + 1) * weight  # what one push left adds to f
        self.shift = board.size.bit_length()
        self.player_bits = (1 << self.shift) - 1
        self.across, self.along = _static_blocks(tables)
        # A queued node's cells in an array: 16 bits each where the board allows
        self.cell_code = "H" if board.size <= 1 << 16 else "L"

    def begin(
        self, boxes: int, player: int, settled: tuple[int, Tables], helpers: list, big: list, keep_pulls: list | None
    ) -> None:
        """The bounds, the pull table's policy, the table and the queue, with the start in
        it (`settled`: its boxes frozen on goals and the tables with them as walls)."""
        tables, board, control, shift = self.tables, self.board, self.control, self.shift
        self.walled: dict = {0: tables}  # frozen boxes -> tables with them as walls
        self.never_moving: dict = {}  # (boxes, player's region) key -> boxes that can never move
        self.probe = CorralProbe(board.size)
        control.check()
        self.symmetry = symmetry = board_symmetry(board)
        control.check()
        pairs = pair_bound(board, check=control.check)
        self.lazy = [pairs.bound] if pairs is not None else []  # and the goal rooms' bounds, once built
        self.paired = len(self.lazy)
        # expansions before the room tables are built (small searches skip them)
        self.room_due = self.tuning.push.room_after
        self.start = (boxes << shift) | player
        self.walled[settled[0]] = settled[1]
        first = self._matched(boxes, *settled, player)
        self.pulls = PullPolicy(
            board, boxes, first.cost, control, self.metric, self.weight, helpers, big, keep_pulls, self.tuning.pulls
        )
        keyer = key_maker(symmetry, boxes, shift)
        self.table: dict = {keyer(player): (0, None, 0)}
        forced = 0  # (a node's walk forced is part of its f, not of its cost: worked out when taken out)
        if self.walk_bound is not None and boxes != self.goals:
            forced = self.walk_bound.walk(player, self.walk_bound.sums(first.order, first.stuck)) * self.per_step
        node = (self.start, first, keyer(player), 0, 0)  # (as Node lays it out)
        self.buckets: dict = {(first.cost * self.lift + forced) << LOW | first.cost: [node]}
        big += [self.table, self.buckets, self.never_moving]
        self.ids = list(self.buckets)
        # (what it holds goes on the meter push_search opened)
        self.footprint = _Footprint(control.meter, len(first.order), self.tuning.push.release_seconds)

    def run(self) -> tuple[list[Push], int] | None:
        """Take the nodes out, the least f first, until a goal comes out (proven optimal,
        see above) or none is left (no plan)."""
        control, table, buckets, ids, pulls = self.control, self.table, self.buckets, self.ids, self.pulls
        meter = self.footprint.meter
        walk_bound, lazy, goals, shift = self.walk_bound, self.lazy, self.goals, self.shift
        player_bits, lift, per_step = self.player_bits, self.lift, self.per_step
        near, grown, pulls_due, room_due = pulls.near, pulls.grown, pulls.due, self.room_due
        queued = 1
        while ids:
            bucket_id = ids[0]
            bucket = buckets[bucket_id]
            node = bucket.pop()
            key, matching, here, walked, raised_at = node
            queued -= 1
            if not bucket:
                heapq.heappop(ids)
                del buckets[bucket_id]
            pushes_left = bucket_id & LEFT_BITS
            boxes = key >> shift
            player = key & player_bits
            if walk_bound is not None and boxes != goals:
                sums = walk_bound.sums(matching.order, matching.stuck)
                forced = walk_bound.walk(player, sums) * per_step
            else:
                sums, forced = None, 0
            g = (bucket_id >> LOW) - pushes_left * lift - walked - forced
            entry = table[here]
            if entry[0] != g:
                continue  # superseded by a cheaper route to the same node
            if boxes == goals:
                return self._plan(key, here), g
            # Asked once, and again once the pull table has grown since it last raised the node
            # (a shallow table's bound taken for good cost up to 1.4x the expansions on
            # Grigoriev's special levels when the table was sent as it grew).
            if (lazy or near) and not walked and (pushes_left == matching.cost or raised_at != grown):
                left = self._bound(boxes, player, g, matching.cost)
                if left >= UNREACHABLE:
                    continue  # boxes that can never all reach goals (a pair, the room, the pulls)
                if left > pushes_left:
                    _enqueue(buckets, ids, (g + left * lift + forced) << LOW | left, (key, matching, here, 0, grown))
                    queued += 1
                    continue
            if not walked:  # (taken out again with its walk counted in: one expansion, not two)
                control.tick()
            if room_due and control.expanded >= room_due:
                self.lazy[self.paired:], room_due = rooms_in_step(
                    self.tables, bin(boxes).count("1"), control, self.tuning
                )
            if pulls_due and control.expanded >= pulls_due:
                pulls.build()
                near, grown, pulls_due = pulls.near, pulls.grown, pulls.due
            if not control.expanded & CHECK_EVERY:
                pulls.take_sent()
                near, grown = pulls.near, pulls.grown
                self.footprint.tell(len(table), queued, pulls.nbytes())
                if self.weight == 1:  # the least f open: no plan costs less (a weighted f proves nothing)
                    meter.bound = max(meter.bound or 0, (bucket_id >> LOW) // MAJOR)
                control.check()
            queued += self._expand(node, boxes, player, g, entry, bucket_id, forced, sums)
        return None

    def _bound(self, boxes: int, player: int, g: int, matched: int) -> int:
        """The pushes left by the pull table and the lazy bounds (pair, rooms), the node's
        cost so far `g` and its matching's pushes `matched` given."""
        pulls = self.pulls
        near = pulls.near
        left = near.bound(boxes, player) if near else 0  # boxes frozen on goals too
        if pulls.plans_known and near and left <= near.radius:
            pulls.plan_known(g // MAJOR + left)  # (within its radius the table is exact: a plan)
        # Within its radius the pull table is exact; beyond it, well above the matching,
        # the pair and room bounds rarely beat it (Microban #93: 0.3% of the time) and
        # would cost a third of the search's time: they are asked only when it is near.
        if not near or (near.radius < left < UNREACHABLE and left < matched + self.near_matching):
            for bound in self.lazy:
                left = max(left, bound(boxes, player))
        return left

    def _expand(
        self, node: tuple, boxes: int, player: int, g: int, entry: tuple, bucket_id: int, forced: int,
        sums: tuple | None,
    ) -> int:
        """Expand a node taken out: pruned, put back with its walk to the nearest push
        counted in, put back with boxes that can never move as walls, or its children made.
        The nodes queued. (`entry`: its table entry; `forced`: the walk its boxes force,
        counted in its f; `sums`: what the walk bound keeps of its boxes.)"""
        key, matching, here, walked, raised_at = node
        board, symmetry, shift, steps = self.board, self.symmetry, self.shift, self.steps
        if symmetry is None:
            keyer, images = (boxes << shift).__or__, None
        else:
            images = symmetry.images(boxes)
            keyer = symmetry.keyer(boxes, images, shift)
        free = self.floor & ~boxes
        seen, layers = board.layers(player, free)
        # Where a push can leave the player: a box beyond, free floor behind (it came from
        # there). Fewer cells looked up only ever prunes less.
        width = self.width
        sideways = ((boxes >> 1) & (free << 1)) | ((boxes << 1) & (free >> 1))
        upright = ((boxes >> width) & (free << width)) | ((boxes << width) & (free >> width))
        others = (sideways | upright) & seen & ~(1 << player)
        if _dominated(self.table, keyer, g, others, layers, self.per_step):
            return 0
        loose = boxes & ~matching.stuck
        candidates, movable, wanted = open_pushes(steps, loose, seen, matching.walls.live & ~boxes)
        if self.walk_first and wanted and not walked and not layers[0] & wanted:
            # Every plan from here walks at least to the nearest push first (of those open
            # now, some may yet prove dead: a lower bound): back into the queue with that
            # walk counted in, once; its children are made when it comes out again.
            nearest = next(distance for distance, layer in enumerate(layers) if layer & wanted)
            raised = nearest * self.per_step - forced  # (the larger of the two bounds on the walks)
            if raised > 0:
                _enqueue(self.buckets, self.ids, bucket_id + (raised << LOW), (key, matching, here, raised, raised_at))
                return 1
        idle = loose & ~movable
        if idle:
            # Boxes with no push now: will any of them ever move? (the player's area grows
            # only where movable boxes get out of the way)
            idle &= self._never_moving(boxes, player, seen, idle, movable, matching.walls.live)
            if idle:
                if idle & ~self.goals:
                    return 0  # a box off its goal that can never move
                matching = self._settled(boxes, player, idle, matching)
                if matching is None:
                    return 0
                if matching.cost > bucket_id & LEFT_BITS:  # a better bound: back into the queue
                    bucket_id = (g + matching.cost * self.lift + forced) << LOW | matching.cost
                    _enqueue(self.buckets, self.ids, bucket_id, (key, matching, here, 0, 0))
                    return 1
                candidates, movable, wanted = open_pushes(steps, loose & ~idle, seen, matching.walls.live & ~boxes)
        if not candidates:
            return 0
        corridor_push = self.tunnels.forced(boxes, player, candidates) if self.tunnels.cells else None
        if corridor_push is not None:  # (a box into a dead-end corridor: on it goes, nothing else)
            candidates = corridor_push
        elif self.pushes_only:
            inward = corral_pushes(board, boxes, seen, matching.walls.live, matching.stuck)
            if inward is not None:  # (the pushes into a PI-corral: the others can wait)
                candidates = inward
                if not candidates:
                    return 0
        parent, code = entry[1], entry[2]
        if parent is not None and self.probe.dead(self.tables, boxes, player, seen, (code >> 2) + steps[code & 3]):
            return 0
        walk = {}  # the walk to each cell a push is made from
        for distance, layer in enumerate(layers):
            hit = layer & wanted
            if hit:
                wanted ^= hit
                while hit:
                    low = hit & -hit
                    walk[low.bit_length() - 1] = distance
                    hit ^= low
                if not wanted:
                    break
        return self._children(boxes, g, here, matching, candidates, walk, images, sums)

    def _children(
        self, boxes: int, g: int, here: int, matching: Matching, candidates: list, walk: dict, images: object,
        sums: tuple | None,
    ) -> int:
        """Make the children of a node (`here`: its table key) by the pushes `candidates`,
        and queue those not pruned nor reached as cheaply before: how many."""
        table, symmetry, shift, steps, floor = self.table, self.symmetry, self.shift, self.steps, self.floor
        buckets, ids, goals, width = self.buckets, self.ids, self.goals, self.width
        per_step, per_push, lift, walk_bound = self.per_step, self.per_push, self.lift, self.walk_bound
        across, along, probe = self.across, self.along, self.probe
        partners = probe.partners
        pair_across, pair_along = 0b101, (1 << (2 * width)) | 1
        order, stuck, walls, p = matching.order, matching.stuck, matching.walls, matching.p
        trows, sided = walls.rows, walls.sided
        column = [0] * len(order)  # column[row] = goal column (1-based) matched to that row
        for j in range(1, len(order) + 1):
            column[p[j] - 1] = j
        queued = 0
        for d, step, movable in candidates:
            while movable:
                low = movable & -movable
                movable ^= low
                cell = low.bit_length() - 1
                target = cell + step
                new_boxes = boxes ^ low ^ (1 << target)
                child = (new_boxes << shift) | cell
                if symmetry is None:
                    there = child
                else:
                    child_images = symmetry.moved(images, cell, target)
                    there = symmetry.key(new_boxes, child_images, shift, cell)
                cost = g + walk[cell - step] * per_step + per_push
                old = table.get(there)
                if old is not None and old[0] <= cost:
                    continue
                if old is None:
                    if symmetry is None:
                        child_keyer = (new_boxes << shift).__or__
                    else:
                        child_keyer = symmetry.keyer(new_boxes, child_images, shift)
                    if _beside(table, child_keyer, cost - per_step, cell, steps, floor & ~new_boxes):
                        continue
                if partners.get(target, 0) & new_boxes and probe.matches(new_boxes, cell, target):
                    continue
                group = 0
                if (across[target] or (new_boxes >> (target - 1)) & pair_across) and (
                    along[target] or (new_boxes >> (target - width)) & pair_along
                ):
                    group = frozen_group(walls, new_boxes & ~stuck, target)
                    if group & ~goals:
                        continue  # frozen off its goal for ever
                if group:
                    # Newly frozen boxes become walls: new distances, a smaller matching.
                    child_stuck = stuck | group
                    child_walls = self._walls(child_stuck)
                    if new_boxes & ~child_stuck & child_walls.dead:
                        continue
                    moved = order[:]
                    moved[order.index(cell)] = target
                    pushed = self._matched(new_boxes, child_stuck, child_walls, cell, matching._replace(order=moved))
                else:
                    # the player, left on `cell`, stands on the side opposite the push
                    row = trows[target] if sided[target] is None else sided[target][(d + 2) & 3][0]
                    pushed = pushed_matching(trows, row, matching, column, cell, target)
                left = pushed.cost
                if left >= UNREACHABLE:
                    continue
                table[there] = (cost, here, cell * 4 + d)
                f = cost + left * lift
                if walk_bound is not None and new_boxes != goals:
                    f += walk_bound.walk(cell, walk_bound.moved(sums, cell, target)) * per_step
                _enqueue(buckets, ids, f << LOW | left, (child, pushed, there, 0, 0))
                queued += 1
        return queued

    def _matched(self, boxes: int, stuck: int, walls: Tables, player: int, before: Matching | None = None) -> Matching:
        """The boxes' matching afresh, those in `stuck` left out and walls (`walls`), from
        the matching `before` they froze (its order their cells then) when there was one:
        a path per pair it broke, not per row."""
        order = array(self.cell_code, cells_of(boxes & ~stuck))
        rows = [side_row(walls, b, player) for b in order]
        if before is None:
            u, v, p = assign(rows)
        else:
            u, v, p = warm_assign(rows, *_carried(before, order, tuple(cells_of(walls.board.goals))))
        cost = matching_cost(rows, (u, v, p))
        u, v, p = array("i", u), array("i", v), array("i", p)
        if all(map(is_, rows, map(walls.rows.__getitem__, order))):
            rows = None  # every box's best side: the tables' rows (no copy kept per node)
        return Matching(order, rows, u, v, p, stuck, walls, cost)

    def _walls(self, stuck: int) -> Tables:
        """The tables with the boxes `stuck` as walls (made once for each set)."""
        walls = self.walled.get(stuck)
        if walls is None:
            walls = self.walled[stuck] = with_walls(self.tables, stuck)
        return walls

    def _never_moving(self, boxes: int, player: int, seen: int, idle: int, movable: int, live: int) -> int:
        """Of the boxes `idle` (no push now), those that can never move. The answer is a fact
        of the boxes and the player's region, asked again for every player cell of the
        region: remembered (bounded; any cached subset stays true)."""
        area = (boxes << self.shift) | ((seen & -seen).bit_length() - 1)
        never = self.never_moving.get(area)
        if never is None:
            if len(self.never_moving) > self.tuning.push.never_cache:
                self.never_moving.clear()
            never = self.never_moving[area] = immovable(self.board, player, boxes, idle, movable, live)
        return never

    def _settled(self, boxes: int, player: int, idle: int, matching: Matching) -> Matching | None:
        """The matching with the boxes `idle` (on goals, never to move) as walls too; None
        when the other boxes can then never all reach goals."""
        stuck = matching.stuck | idle
        walls = self._walls(stuck)
        if boxes & ~stuck & walls.dead:
            return None
        settled = self._matched(boxes, stuck, walls, player, matching)  # (from this node's matching)
        return None if settled.cost >= UNREACHABLE else settled

    def _plan(self, key: int, here: int) -> list[Push]:
        """The pushes to the goal node `key` (`here`: its table key), followed back."""
        if self.symmetry is None:
            return _pushes_to(self.table, key)
        return replay(self.board, self.symmetry, self.shift, _chain(self.table, here), self.start)


class _Footprint:
    """What the search holds, told to its meter every CHECK_EVERY + 1 expansions (the
    control's memory budget stops the search): TABLE_ENTRY_BYTES a table entry, the queued nodes'
    share and the pull table's (sokoban/pulls/policy.py) over them, or what the process
    grew by since the search began, where that is more."""

    def __init__(self, meter: Meter, box_count: int, release_seconds: float) -> None:
        """`release_seconds`: the time to let go of a stored or queued node."""
        self.meter, self.release_seconds = meter, release_seconds
        self.queued_bytes = QUEUED_BYTES + QUEUED_BOX_BYTES * box_count
        self.resident0 = resident_bytes()

    def tell(self, stored: int, queued: int, pulls_bytes: int) -> None:
        """`stored`: the table's entries; `queued`: the nodes in the queue."""
        meter = self.meter
        meter.stored = stored
        meter.release_seconds = (stored + queued) * self.release_seconds
        held = queued * self.queued_bytes + pulls_bytes
        meter.bytes_per_entry = TABLE_ENTRY_BYTES + held // stored
        resident = resident_bytes() - self.resident0
        if resident > meter.bytes_per_entry * stored:  # (the estimate fell short: Sasquatch #49)
            meter.bytes_per_entry = resident // stored


def _dominated(table: dict, keyer: Callable, g: int, cells: int, layers: list[int], per_step: int) -> bool:
    """Did a node with the same boxes, its player on one of `cells` (reachable from here),
    get there so much cheaper that walking over to this player's cell still costs no
    more than g? Then every plan from here is matched from there: skip this one.
    (`keyer`: player cell -> the table key of these boxes with the player there.)"""
    while cells:
        low = cells & -cells
        cells ^= low
        other = table.get(keyer(low.bit_length() - 1))
        if other is not None and other[0] < g:
            for distance, layer in enumerate(layers):
                if layer & low:
                    if other[0] + distance * per_step <= g:
                        return True
                    break
    return False


def _beside(table: dict, keyer: Callable, cost: int, cell: int, steps: tuple, free: int) -> bool:
    """Is there a node with the same boxes, its player one `free` step from `cell`, that
    cost at most `cost`? (Then a node on `cell` at one step more is dominated.)"""
    for step in steps:
        if (free >> (cell + step)) & 1:
            other = table.get(keyer(cell + step))
            if other is not None and other[0] <= cost:
                return True
    return False


def rooms_in_step(
    tables: Tables, box_count: int, control: Control, tuning: SokobanTuning = TUNING
) -> tuple[list[Callable[[int, int], int]], int]:
    """The goal rooms' bounds done so far, their tables grown to the tuning's
    push.room_per_expansion positions per expansion the control has counted, and the
    expansions at which to grow them on (0: none is left to grow)."""
    most = tuning.push.room_per_expansion * control.expanded
    rooms, more = room_bounds_within(tables.board, tables.live, box_count, most, control.check, tuning.rooms)
    return [room.bound for room in rooms], 2 * control.expanded if more else 0


def pushed_matching(trows: tuple, row: tuple, parent: Matching, column: list, cell: int, target: int) -> Matching:
    """The matching after the box on `cell` moved to `target`, its row now `row`: only
    that row changed (the player stays on the same side of every other box), and the
    same boxes are stuck. The rows are kept only where some box's side row differs from
    the tables' (`rows` None: those).

    With the parent's potentials the dual bound needs one new row potential;
    when it meets the cost of the parent's assignment (the usual case) both
    are optimal, else one augmenting path repairs the matching.
    """
    order, rows, u, v, p, stuck, walls, parent_cost = parent
    i = order.index(cell)
    ui = min(map(sub, row, islice(v, 1, None)))
    lower = parent_cost - u[i + 1] + ui
    ci = column[i]
    upper = parent_cost - (trows[cell] if rows is None else rows[i])[ci - 1] + row[ci - 1]
    child_order = order[:]
    child_order[i] = target
    if rows is None and row is trows[target]:
        child_rows = None
    else:
        child_rows = [trows[b] for b in order] if rows is None else rows[:]
        child_rows[i] = row
    if lower == upper:
        child_u = u[:]
        child_u[i + 1] = ui
        return _new(Matching, (child_order, child_rows, child_u, v, p, stuck, walls, upper))
    full = [trows[b] for b in child_order] if child_rows is None else child_rows
    matching = reassign(full, (u, v, p), i)
    child_u, child_v, child_p = (array("i", values) for values in matching)
    cost = matching_cost(full, matching)
    return _new(Matching, (child_order, child_rows, child_u, child_v, child_p, stuck, walls, cost))


def _carried(before: Matching, order: tuple, goals: tuple) -> tuple[list, list, list]:
    """A matching's potentials and pairs (`before`: its rows' cells, potentials, pairs and
    tables), laid out for the rows `order` and the goal columns `goals` (some of its own:
    boxes froze on the rest). Row potentials are left to warm_assign, which sets them."""
    old_order, old_v, old_p, old_walls = before.order, before.v, before.p, before.walls
    row_of = {cell: i for i, cell in enumerate(order, 1)}
    column_of = {goal: j for j, goal in enumerate(cells_of(old_walls.board.goals), 1)}
    v, p = [0], [0]
    for goal in goals:
        j = column_of.get(goal)
        v.append(old_v[j] if j else 0)
        i = old_p[j] if j else 0
        p.append(row_of.get(old_order[i - 1], 0) if i else 0)
    return [0] * len(p), v, p


def _enqueue(buckets: dict, ids: list, bucket_id: int, node: tuple) -> None:
    """Queue `node` (laid out as Node) in its bucket (f << LOW | pushes left)."""
    entries = buckets.get(bucket_id)
    if entries is None:
        buckets[bucket_id] = [node]
        heapq.heappush(ids, bucket_id)
    else:
        entries.append(node)


def _static_blocks(tables: Tables) -> tuple[list[bool], list[bool]]:
    """Per cell: is a box there blocked across (left/right) or along (up/down) by walls
    or dead squares alone? (The cheap first test before a freeze check.)"""
    board = tables.board
    floor, dead = board.floor, tables.dead
    out = []
    for step in (1, board.width):
        blocked = [False] * board.size
        for cell in cells_of(floor):
            a, b = cell - step, cell + step
            wall = not (floor >> a) & 1 or not (floor >> b) & 1
            blocked[cell] = wall or bool((dead >> a) & (dead >> b) & 1)
        out.append(blocked)
    return out[0], out[1]


def _pushes_to(table: dict, key: int) -> list[Push]:
    pushes = []
    while True:
        _, parent, code = table[key]
        if parent is None:
            return pushes[::-1]
        pushes.append((code >> 2, code & 3))
        key = parent


def _chain(table: dict, key: int) -> list[int]:
    """The table keys from the start's child to `key`, following parents."""
    keys = []
    while table[key][1] is not None:
        keys.append(key)
        key = table[key][1]
    return keys[::-1]

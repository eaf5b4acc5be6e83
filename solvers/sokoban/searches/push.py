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
from typing import Callable

from fewest.solvers.common.control import Budget, Control, Stopped, collector_paused, release_gradually
from fewest.solvers.common.held_bytes import resident_bytes
from fewest.solvers.common.assignment import assign, matching_cost, reassign, warm_assign
from fewest.solvers.sokoban.board.board import Board, cells_of, open_pushes
from fewest.solvers.sokoban.pruning.corrals import corral_pushes
from fewest.solvers.sokoban.pruning.deadlock import frozen_group, immovable, settle
from fewest.solvers.sokoban.bounds.pairs import pair_bound
from fewest.solvers.sokoban.pruning.corral_probe import CorralProbe
from fewest.solvers.sokoban.pulls.table import PackedPullTable, PullTable, grown_in_halves, pull_table
from fewest.solvers.common.processes import spare_core
from fewest.solvers.sokoban.pulls.apart import PullsApart
from fewest.solvers.sokoban.bounds.rooms import room_bounds_within
from fewest.solvers.sokoban.board.symmetry import board_symmetry, key_maker, replay
from fewest.solvers.sokoban.board.tables import UNREACHABLE, Tables, side_row, with_walls
from fewest.solvers.sokoban.pruning.tunnels import Tunnels
from fewest.solvers.sokoban.bounds.walks import WalkBound

MAJOR = 1 << 32  # weight of the first count; no level comes near 2**32 moves
LOW = 20  # a queue bucket id is f << LOW | pushes left (always < UNREACHABLE < 2**LOW)
ROOM_AFTER = 2_000  # expansions before a goal room's table is worth building
# The room tables' positions, at most, per expansion so far: they then cost about what the
# search has (~15-20 us a position, 50-100 us an expansion); a room not done by then goes
# on when the expansions have doubled. (Built whole at 2,000 expansions, a table took
# 0.7-1.7 s on Grigoriev 2001 #9, #31 and #57, searches of a fraction of a second, and was
# mostly thrown away as too large. Grigoriev 2001 pushes at 10 s: median 2.1 -> 1.0 s.)
ROOM_PER_EXPANSION = 4
PULLS_AFTER = 20_000  # expansions before the pull table is worth building
PULLS_APART_AFTER = 2_000  # the same, when a second process grows it
# The pull table's time: with a time budget, a share of it spent at once (on Microban #93
# 0.15 was too little and 0.35 too much), its second half only if the first took the table
# past the start's matching, else the table is dropped (Microban #145: 9 pulls deep against
# 12, and the proof takes 3 s without it; #139: 58 against 74, and a half table's exact
# values far from the start's left the bound wandering for a minute, 16 s without it);
# without one, half the time the search took since the table last grew, each time the
# search's expansions double. With a spare core the share is grown by a child process
# beside the search (sokoban/pulls/apart.py) and costs the search nothing where the table
# does not help: Microban pushes at 60 s, p95 10.5 s -> 6.0 s (#145 16 s -> 6 s, #123
# 47 s -> 37 s); on #93 a share of 0.15 or 0.35 there did no better than 0.25. Since
# the child sends the table as it grows, a longer share no longer keeps the search
# waiting for it: PULLS_APART_SHARE, with the memory for Microban #144's symmetric table
# to radius 25 (at 19 s; 36 pushes proven in 38-42 s and 1.45 GiB, both processes; #93
# 14.5 s -> 5.3 s; Microban II at 20 s a level, 127/135 as before, #74 7.1 s -> 1.6 s).
# On a slower machine (that layer alone in 11-13 s), 0.4 of 54 s ended the child first and
# #144 ran out at 60 s; at 0.5 the layer came at 26-29 s and #144 was proven in 46-50 s
# (four runs), with Microban under either metric losing nothing and taking no longer. An
# hour later the same machine ran slower and #144 ran out at either share (four runs).
# Since the table leaves out positions no plan of the fewest pushes known goes through
# (sokoban/pulls/forward.py), #144's table is complete at about 22 s (radius 37, 6.6M
# entries) and #144 is proven in 26-28 s; with another busy process beside it, 39-48 s.
PULLS_SHARE = 0.25
PULLS_APART_SHARE = 0.5
PULLS_GROWTH = 0.5
PULLS_MEMORY = 0.4  # of the memory budget, for the pull table
NEAR_MATCHING = 3  # the pull bound's lead on the matching beyond which the other bounds are skipped
PULLS_MOST_BYTES = 1_000_000_000  # the pull table's memory at most
# The time to let go of a stored or queued node when the search ends (measured: 1.26M of
# them in 1.09 s, Sasquatch #49 under pushes after 30 s), kept back from the time budget.
RELEASE_SECONDS = 1e-6
NEVER_CACHE = 200_000  # entries kept of the immovable-boxes answers before starting afresh
Push = tuple[int, int]  # (cell the box leaves, direction index 0..3 = l u r d)


def push_search(
    tables: Tables, boxes: int, player: int, control: Control, metric: str, weight: int = 1,
    pushes_only: bool = False, keep_pulls: list | None = None,
) -> tuple[list[Push], int] | None:
    """An optimal push sequence and its folded cost, or None when no solution exists.

    With `weight` > 1 the bound counts that many times over (weighted A*): a plan comes
    much sooner but is not proven optimal (its cost is at most `weight` times the best).
    With `pushes_only` (metric "pushes") walks cost nothing and PI-corral pruning is on
    (sokoban/pruning/corrals.py): the fewest pushes, proven, but not the fewest moves among them.
    With a list `keep_pulls`, the pull table grown in this process, if one was (not in a
    child beside it), is put in it still able to grow (the tie-break grows on from it:
    sokoban/searches/tie_break.py), whether the search took it up or not.
    Raises `Stopped` when the control's budget runs out or it is cancelled.
    """
    helpers: list[PullsApart] = []  # a child process growing the pull table, if one was started
    big: list = []  # the search's big containers, freed a step at a time when it ends
    with collector_paused():
        try:
            return _search(tables, boxes, player, control, metric, weight, pushes_only, helpers, big, keep_pulls)
        except Stopped as stop:
            reason = stop.reason  # leaving this block frees the traceback (the search's frame)
        finally:
            control.release_seconds = 0.0
            control.helpers -= len(helpers)
            for helper in helpers:
                helper.close()
            release_gradually(big)
        raise Stopped(reason) from None  # (the collector never has to walk that table)


def _search(
    tables: Tables, boxes: int, player: int, control: Control, metric: str, weight: int, pushes_only: bool,
    helpers: list, big: list, keep_pulls: list | None,
) -> tuple[list[Push], int] | None:
    board = tables.board
    floor, goals, steps, width = board.floor, board.goals, board.steps, board.width
    # edge cost = walk * per_step + per_push, in the folded cost
    per_step, per_push = (MAJOR, MAJOR + 1) if metric == "moves" else (1, MAJOR + 1)
    if pushes_only:  # (with walks counted, ties on pushes go by moves: Microban #153 64 s against 5)
        per_step = 0
    # Under the moves metric the walk to the nearest push raises the bound. Under pushes it
    # would only order ties, and measured it cost 5-30% (Microban #111, #145) for nothing.
    walk_first = metric == "moves"
    # So does the walking the boxes' way forces (sokoban/bounds/walks.py), on every node.
    # Under pushes it too would only order ties: XSokoban #38's proof took 1.36M
    # expansions with it, 1.40M without, each ~5% dearer (Microban #123: 51,335 in 5.3 s
    # against 5.1 s).
    walk_bound = WalkBound(board, tables.live, control.check) if walk_first else None
    tunnels = Tunnels(board)
    lift = (MAJOR + 1) * weight  # what one push left adds to f
    shift = board.size.bit_length()
    player_bits = (1 << shift) - 1
    across, along = _static_blocks(tables)
    pair_across, pair_along = 0b101, (1 << (2 * width)) | 1

    settled = settle(tables, boxes)
    if settled is None:
        return None
    walled: dict = {0: tables}  # frozen boxes -> tables with them as walls
    never_moving: dict = {}  # (boxes, player's region) key -> boxes that can never move
    probe = CorralProbe(board.size)
    partners = probe.partners
    symmetry = board_symmetry(board)
    pairs = pair_bound(board, check=control.check)
    lazy = [pairs.bound] if pairs is not None else []
    paired = len(lazy)
    room_due = ROOM_AFTER  # expansions before the room tables are built (small searches skip them)
    # and the pull table (only a long proof needs it; grown beside the search, it costs the
    # search nothing, so it starts sooner)
    apart = weight == 1 and control.budget.seconds is not None and spare_core()
    pulls_due = 0 if weight > 1 else PULLS_APART_AFTER if apart else PULLS_AFTER
    near: PullTable | PackedPullTable | None = None
    apart_bytes = 0  # the memory a child growing it may take (the budget is for both)
    grown_at = control.seconds  # when the pull table last grew (or the search began)
    grown = 0  # how many times it grew (a node raised by it remembers which)
    # Pushes: the fewest of the plans known (a node's pushes so far and the table's exact
    # pulls left): the table may then leave out positions no plan of so many goes through
    # (sokoban/pulls/forward.py). Not under moves: a plan with the fewest moves may push more.
    known: int | None = None
    plans_known = metric == "pushes"

    # A queued node keeps its boxes' order and matching in arrays, not a tuple and lists: a
    # child's copies take 224 bytes against 264 with 10 boxes, 320 against 520 with 26 (and
    # no int objects for cells or potentials past 256). Grigoriev 2001 #1 (26 boxes), 60,000
    # expansions: 372 MiB against 484, at the same speed.
    cell_code = "H" if board.size <= 1 << 16 else "L"

    def matched(boxes: int, stuck: int, walls: Tables, player: int, before: tuple | None = None) -> tuple[int, tuple]:
        order = array(cell_code, cells_of(boxes & ~stuck))
        rows = [side_row(walls, b, player) for b in order]
        if before is None:
            u, v, p = assign(rows)
        else:  # from the matching before these boxes froze: a path per pair it broke, not per row
            u, v, p = warm_assign(rows, *_carried(before, order, tuple(cells_of(walls.board.goals))))
        cost = matching_cost(rows, (u, v, p))
        u, v, p = array("i", u), array("i", v), array("i", p)
        if all(map(is_, rows, map(walls.rows.__getitem__, order))):
            rows = None  # every box's best side: the tables' rows (no copy kept per node)
        return cost, (order, rows, u, v, p, stuck, walls, cost)

    start = (boxes << shift) | player
    walled[settled[0]] = settled[1]
    left0, info0 = matched(boxes, *settled, player)
    # table[key] = (cost so far, parent key, push code = cell * 4 + direction); on a symmetric
    # board the table's keys are canonical (one for all mirror images), the queue's are not.
    # A key is the exact position packed in one int (boxes, then the player's cell), not a
    # Zobrist hash: CPython hashes a Microban key in ~40 ns, less than an incremental Zobrist
    # update costs it (~80 ns), and a 64-bit hash alone could merge two positions in a proof.
    keyer = key_maker(symmetry, boxes, shift)
    table: dict = {keyer(player): (0, None, 0)}
    # The open list: buckets of (key, matching) by (f, pushes left), each a stack
    # (deepest first on ties); `ids` is a heap of the bucket ids in use. The pushes left
    # are the matching's when a node is made; the pair or room bound may raise them when it
    # is taken out (then it goes back in: computed once per node taken out, not per child).
    # A queued node also carries its table key (canonical on a symmetric board: taken out,
    # a node whose entry was superseded or whose bound rose never needs its mirror images).
    forced0 = 0  # (a node's walk forced is part of its f, not of its cost: worked out when taken out)
    if walk_bound is not None and boxes != goals:
        forced0 = walk_bound.walk(player, walk_bound.sums(info0[0], info0[5])) * per_step
    buckets: dict = {(left0 * lift + forced0) << LOW | left0: [(start, info0, keyer(player))]}
    big += [table, buckets, never_moving]
    ids = list(buckets)
    # Memory: a table entry ~270 bytes and a queued node ~400 + 26 per box were measured with
    # the order and matching as a tuple and lists; as arrays a node holds at least 8 bytes
    # a box less, less 40 (the sizes above: 40 less with 10 boxes, 200 with 26), so ~440 + 18.
    queued, queued_bytes = 1, 440 + 18 * len(info0[0])
    resident0 = resident_bytes()
    check_every = 31
    while ids:
        bucket_id = ids[0]
        bucket = buckets[bucket_id]
        item = bucket.pop()
        key, info, here = item[0], item[1], item[2]
        order, rows, u, v, p, stuck, walls, matching = info
        queued -= 1
        if not bucket:
            heapq.heappop(ids)
            del buckets[bucket_id]
        pushes_left = bucket_id & ((1 << LOW) - 1)
        # the walk to its nearest push, counted in when it was taken out before (0: not yet)
        walked = item[3] if len(item) > 3 else 0
        boxes = key >> shift
        player = key & player_bits
        if walk_bound is not None and boxes != goals:
            sums = walk_bound.sums(order, stuck)
            forced = walk_bound.walk(player, sums) * per_step
        else:
            forced = 0
        g = (bucket_id >> LOW) - pushes_left * lift - walked - forced
        entry = table[here]
        if entry[0] != g:
            continue  # superseded by a cheaper route to the same node
        if boxes == goals:
            if symmetry is None:
                return _pushes_to(table, key), g
            return replay(board, symmetry, shift, _chain(table, here), start), g
        # Asked once, and again once the pull table has grown since it last raised the node
        # (a shallow table's bound taken for good cost up to 1.4x the expansions on
        # Grigoriev's special levels when the table was sent as it grew).
        if (lazy or near) and not walked and (pushes_left == matching or (len(item) > 4 and item[4] != grown)):
            left = near.bound(boxes, player) if near else 0  # boxes frozen on goals too
            if plans_known and near and left <= near.radius and (known is None or g // MAJOR + left < known):
                known = g // MAJOR + left  # (within its radius the table is exact: a plan)
                if helpers:
                    helpers[-1].limit(known)
            # Within its radius the pull table is exact; beyond it, well above the matching,
            # the pair and room bounds rarely beat it (Microban #93: 0.3% of the time) and
            # would cost a third of the search's time: they are asked only when it is near.
            if not near or (near.radius < left < UNREACHABLE and left < matching + NEAR_MATCHING):
                for bound in lazy:
                    left = max(left, bound(boxes, player))
            if left >= UNREACHABLE:
                continue  # boxes that can never all reach goals (a pair, the room, the pulls)
            if left > pushes_left:
                _enqueue_item(buckets, ids, (g + left * lift + forced) << LOW | left, (key, info, here, 0, grown))
                queued += 1
                continue
        if not walked:  # (taken out again with its walk counted in: one expansion, not two)
            control.tick()
        if room_due and control.expanded >= room_due:
            lazy[paired:], room_due = rooms_in_step(tables, bin(boxes).count("1"), control)
        if pulls_due and control.expanded >= pulls_due:
            growing = near or pull_table(board, start >> shift)
            if keep_pulls is not None and not apart:  # (grown here, not in a child)
                keep_pulls[:] = [growing]  # (the caller's to let go of)
            elif near is None and isinstance(growing, PullTable):
                big.append(growing.table)
            most = _pulls_most(control.budget, growing)
            seconds = control.budget.seconds
            if seconds is not None:  # a share of the time, beside the search or spent at once
                half = seconds * (PULLS_APART_SHARE if apart else PULLS_SHARE) / 2
                if apart:
                    helpers.append(PullsApart(growing, half, most, left0, start >> shift))
                    control.helpers += 1
                    apart_bytes = growing.fixed_bytes + most * growing.bytes_per_entry
                else:  # (None: dropped, the search goes on as if it had never been built)
                    near = grown_in_halves(growing, control, half, most, left0, keep_growing=keep_pulls is not None)
                    grown += 1
                pulls_due = 0
            else:  # in step with the search: each time its expansions double
                near = growing
                near.grow(control, (control.seconds - grown_at) * PULLS_GROWTH, most, limit=lambda: known)
                grown += 1
                grown_at = control.seconds
                pulls_due = 0 if near.complete else 2 * control.expanded
        if not control.expanded & check_every:
            if helpers and helpers[-1].ready():
                sent = helpers[-1].take()  # the newest table grown beside the search (None: dropped)
                if sent is not None:
                    if isinstance(near, PullTable):  # (the one it replaces is let go of)
                        big[:] = [held for held in big if held is not near.table]
                    near = sent
                    grown += 1
                    if isinstance(near, PullTable):
                        big.append(near.table)
                if helpers[-1].finished:
                    helpers.pop()
                    control.helpers -= 1
                    apart_bytes = 0
            control.stored = len(table)
            control.release_seconds = (len(table) + queued) * RELEASE_SECONDS
            # (the pull table's size is asked each time: what its lookups remember grows)
            held = queued * queued_bytes + (near.nbytes() if near else 0) + apart_bytes
            control.bytes_per_entry = 270 + held // len(table)
            resident = resident_bytes() - resident0
            if resident > control.bytes_per_entry * len(table):  # (the estimate fell short: Sasquatch #49)
                control.bytes_per_entry = resident // len(table)
            if weight == 1:  # the least f open: no plan costs less (a weighted f proves nothing)
                control.bound = max(control.bound or 0, (bucket_id >> LOW) // MAJOR)
            control.check()

        if symmetry is None:
            keyer = (boxes << shift).__or__
        else:
            images = symmetry.images(boxes)
            keyer = symmetry.keyer(boxes, images, shift)
        free = floor & ~boxes
        seen, layers = board.layers(player, free)
        # Where a push can leave the player: a box beyond, free floor behind (it came from
        # there). Fewer cells looked up only ever prunes less.
        sideways = ((boxes >> 1) & (free << 1)) | ((boxes << 1) & (free >> 1))
        upright = ((boxes >> width) & (free << width)) | ((boxes << width) & (free >> width))
        others = (sideways | upright) & seen & ~(1 << player)
        if _dominated(table, keyer, g, others, layers, per_step):
            continue

        loose = boxes & ~stuck
        candidates, movable, wanted = open_pushes(steps, loose, seen, walls.live & ~boxes)
        if walk_first and wanted and not walked and not layers[0] & wanted:
            # Every plan from here walks at least to the nearest push first (of those open
            # now, some may yet prove dead: a lower bound): back into the queue with that
            # walk counted in, once; its children are made when it comes out again.
            nearest = next(distance for distance, layer in enumerate(layers) if layer & wanted)
            raised = nearest * per_step - forced  # (the larger of the two bounds on the walks)
            if raised > 0:
                _enqueue_item(buckets, ids, bucket_id + (raised << LOW), (key, info, here, raised))
                queued += 1
                continue
        idle = loose & ~movable
        if idle:
            # Boxes with no push now: will any of them ever move? (the player's area grows
            # only where movable boxes get out of the way)
            # The answer is a fact of the boxes and the player's region, asked again for every
            # player cell of the region: remembered (bounded; any cached subset stays true).
            area = (boxes << shift) | ((seen & -seen).bit_length() - 1)
            never = never_moving.get(area)
            if never is None:
                if len(never_moving) > NEVER_CACHE:
                    never_moving.clear()
                never = never_moving[area] = immovable(board, player, boxes, idle, movable, walls.live)
            idle &= never
            if idle:
                if idle & ~goals:
                    continue  # a box off its goal that can never move
                before = (order, u, v, p, walls)  # this node's matching, over its own tables
                stuck |= idle
                walls = walled.get(stuck)
                if walls is None:
                    walls = walled[stuck] = with_walls(tables, stuck)
                if boxes & ~stuck & walls.dead:
                    continue
                left, info = matched(boxes, stuck, walls, player, before)
                if left >= UNREACHABLE:
                    continue
                if left > pushes_left:  # a better bound: back into the queue
                    _enqueue(buckets, ids, (g + left * lift + forced) << LOW | left, key, info, here)
                    queued += 1
                    continue
                order, rows, u, v, p, stuck, walls, matching = info
                candidates, movable, wanted = open_pushes(steps, loose & ~idle, seen, walls.live & ~boxes)
        if not candidates:
            continue
        corridor_push = tunnels.forced(boxes, player, candidates) if tunnels.cells else None
        if corridor_push is not None:  # (a box into a dead-end corridor: on it goes, nothing else)
            candidates = corridor_push
        elif pushes_only:
            inward = corral_pushes(board, boxes, seen, walls.live, stuck)
            if inward is not None:  # (the pushes into a PI-corral: the others can wait)
                candidates = inward
                if not candidates:
                    continue
        parent, code = entry[1], entry[2]
        if parent is not None and probe.dead(tables, boxes, player, seen, (code >> 2) + steps[code & 3]):
            continue
        walk = {}
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

        trows, sided = walls.rows, walls.sided
        column = [0] * len(order)  # column[row] = goal column (1-based) matched to that row
        for j in range(1, len(order) + 1):
            column[p[j] - 1] = j
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
                    child_walls = walled.get(child_stuck)
                    if child_walls is None:
                        child_walls = walled[child_stuck] = with_walls(tables, child_stuck)
                    rest = new_boxes & ~child_stuck
                    if rest & child_walls.dead:
                        continue
                    moved = order[:]
                    moved[order.index(cell)] = target
                    left, info = matched(new_boxes, child_stuck, child_walls, cell, (moved, u, v, p, walls))
                else:
                    # the player, left on `cell`, stands on the side opposite the push
                    row = trows[target] if sided[target] is None else sided[target][(d + 2) & 3][0]
                    left, info = pushed_matching(trows, row, (order, rows, u, v, p), column, matching, cell, target)
                    info += (stuck, walls, left)
                if left >= UNREACHABLE:
                    continue
                table[there] = (cost, here, cell * 4 + d)
                f = cost + left * lift
                if walk_bound is not None and new_boxes != goals:
                    f += walk_bound.walk(cell, walk_bound.moved(sums, cell, target)) * per_step
                _enqueue(buckets, ids, f << LOW | left, child, info, there)
                queued += 1
    return None


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


def rooms_in_step(tables: Tables, box_count: int, control: Control) -> tuple[list[Callable[[int, int], int]], int]:
    """The goal rooms' bounds done so far, their tables grown to ROOM_PER_EXPANSION
    positions per expansion the control has counted, and the expansions at which to grow
    them on (0: none is left to grow)."""
    rooms, more = room_bounds_within(
        tables.board, tables.live, box_count, ROOM_PER_EXPANSION * control.expanded, control.check
    )
    return [room.bound for room in rooms], 2 * control.expanded if more else 0


def pushed_matching(
    trows: tuple, row: tuple, parent: tuple, column: list, parent_cost: int, cell: int, target: int
) -> tuple[int, tuple]:
    """The matching after the box on `cell` moved to `target`, its row now `row`: only
    that row changed (the player stays on the same side of every other box). The rows
    are kept only where some box's side row differs from the tables' (`rows` None: those).

    With the parent's potentials the dual bound needs one new row potential;
    when it meets the cost of the parent's assignment (the usual case) both
    are optimal, else one augmenting path repairs the matching.
    """
    order, rows, u, v, p = parent
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
        return upper, (child_order, child_rows, child_u, v, p)
    full = [trows[b] for b in child_order] if child_rows is None else child_rows
    matching = reassign(full, (u, v, p), i)
    child_u, child_v, child_p = (array("i", values) for values in matching)
    return matching_cost(full, matching), (child_order, child_rows, child_u, child_v, child_p)


def _carried(before: tuple, order: tuple, goals: tuple) -> tuple[list, list, list]:
    """A matching's potentials and pairs (`before`: its rows' cells, u, v, p and its
    tables), laid out for the rows `order` and the goal columns `goals` (some of its own:
    boxes froze on the rest). Row potentials are left to warm_assign, which sets them."""
    old_order, _, old_v, old_p, old_walls = before
    row_of = {cell: i for i, cell in enumerate(order, 1)}
    column_of = {goal: j for j, goal in enumerate(cells_of(old_walls.board.goals), 1)}
    v, p = [0], [0]
    for goal in goals:
        j = column_of.get(goal)
        v.append(old_v[j] if j else 0)
        i = old_p[j] if j else 0
        p.append(row_of.get(old_order[i - 1], 0) if i else 0)
    return [0] * len(p), v, p


def _enqueue(buckets: dict, ids: list, bucket_id: int, key: int, info: tuple, canonical: int) -> None:
    _enqueue_item(buckets, ids, bucket_id, (key, info, canonical))


def _enqueue_item(buckets: dict, ids: list, bucket_id: int, item: tuple) -> None:
    entries = buckets.get(bucket_id)
    if entries is None:
        buckets[bucket_id] = [item]
        heapq.heappush(ids, bucket_id)
    else:
        entries.append(item)


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


def _pulls_most(budget: Budget, table: PullTable | PackedPullTable) -> int:
    """The pull table's size limit in entries: PULLS_MOST_BYTES, or its share of the memory
    budget, less what it holds whatever its size."""
    most = PULLS_MOST_BYTES if budget.memory_bytes is None else int(budget.memory_bytes * PULLS_MEMORY)
    return max(0, min(PULLS_MOST_BYTES, most) - table.fixed_bytes) // table.bytes_per_entry

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
overestimates either metric. The bound is admissible but not always
consistent (push distances take the player's best side), so a node whose
cost improves is re-opened; a goal is accepted only when it leaves the
queue, which makes it optimal.

Pruning never loses an optimal plan:
- certain deadlocks (sokoban_deadlock.py): pushes onto dead squares or into
  a freeze are not generated, and a node with a box that can never move off
  its goal is dropped; boxes that can never move again on their goals
  become walls for the distances and leave the matching;
- dominance: a node is not expanded when the same boxes were reached with
  the player elsewhere in the same region so much cheaper that walking over
  costs no more (everything done from here can be done from there).
"""

from __future__ import annotations

import heapq
import sys

from fewest.solvers.control import Control
from fewest.solvers.sokoban_assignment import assign, matching_cost, reassign
from fewest.solvers.sokoban_board import cells_of
from fewest.solvers.sokoban_deadlock import frozen_group, immovable, settle
from fewest.solvers.sokoban_probe import CorralProbe
from fewest.solvers.sokoban_tables import UNREACHABLE, Tables, with_walls

MAJOR = 1 << 32  # weight of the first count; no level comes near 2**32 moves
Push = tuple[int, int]  # (cell the box leaves, direction index 0..3 = l u r d)


def push_search(tables: Tables, boxes: int, player: int, control: Control, metric: str) -> tuple[list[Push], int] | None:
    """An optimal push sequence and its folded cost, or None when no solution exists.

    Raises `Stopped` when the control's budget runs out or it is cancelled.
    """
    board = tables.board
    floor, goals, steps, width = board.floor, board.goals, board.steps, board.width
    # edge cost = walk * per_step + per_push, in the folded cost
    per_step, per_push = (MAJOR, MAJOR + 1) if metric == "moves" else (1, MAJOR + 1)
    scale = MAJOR + 1
    shift = board.size.bit_length()
    player_bits = (1 << shift) - 1
    across, along = _static_blocks(tables)
    pair_across, pair_along = 0b101, (1 << (2 * width)) | 1

    settled = settle(tables, boxes)
    if settled is None:
        return None
    walled: dict = {0: tables}  # frozen boxes -> tables with them as walls
    probe = CorralProbe()

    def matched(boxes: int, stuck: int, walls: Tables) -> tuple[int, tuple]:
        order = tuple(cells_of(boxes & ~stuck))
        rows = [walls.rows[b] for b in order]
        u, v, p = assign(rows)
        return matching_cost(rows, (u, v, p)), (order, u, v, p, stuck, walls)

    start = (boxes << shift) | player
    walled[settled[0]] = settled[1]
    left0, info0 = matched(boxes, *settled)
    # table[key] = (cost so far, parent key, push code = cell * 4 + direction)
    table: dict = {start: (0, None, 0)}
    # The open list: buckets of (key, matching) by (f, pushes left), each a stack
    # (deepest first on ties); `ids` is a heap of the bucket ids in use.
    buckets: dict = {(left0 * scale) << 16 | left0: [(start, info0)]}
    ids = list(buckets)
    control.bytes_per_entry = sys.getsizeof(start) + 280  # measured: table entry, key, queue share
    check_every = 31
    while ids:
        bucket_id = ids[0]
        bucket = buckets[bucket_id]
        key, (order, u, v, p, stuck, walls) = bucket.pop()
        if not bucket:
            heapq.heappop(ids)
            del buckets[bucket_id]
        pushes_left = bucket_id & 0xFFFF
        g = (bucket_id >> 16) - pushes_left * scale
        if table[key][0] != g:
            continue  # superseded by a cheaper route to the same node
        boxes = key >> shift
        if boxes == goals:
            return _pushes_to(table, key), g
        control.tick()
        if not control.expanded & check_every:
            control.stored = len(table)
            control.bound = (bucket_id >> 16) // MAJOR
            control.check()

        # The player's region, layer by layer (layer k = walking distance k).
        free = floor & ~boxes
        seen = frontier = 1 << (key & player_bits)
        free ^= frontier
        layers = [frontier]
        while True:
            frontier = ((frontier << 1) | (frontier >> 1) | (frontier << width) | (frontier >> width)) & free
            if not frontier:
                break
            free ^= frontier
            seen |= frontier
            layers.append(frontier)
        if _dominated(table, boxes << shift, g, seen & board.spread(boxes) & ~(1 << (key & player_bits)), layers, per_step):
            continue

        loose = boxes & ~stuck
        candidates, movable, wanted = _pushes(steps, loose, seen, walls.live & ~boxes)
        idle = loose & ~movable
        if idle:
            # Boxes with no push now: will any of them ever move? (the player's area grows
            # only where movable boxes get out of the way)
            idle = immovable(board, key & player_bits, boxes, idle, movable, walls.live)
            if idle:
                if idle & ~goals:
                    continue  # a box off its goal that can never move
                stuck |= idle
                walls = walled.get(stuck)
                if walls is None:
                    walls = walled[stuck] = with_walls(tables, stuck)
                if boxes & ~stuck & walls.dead:
                    continue
                left, info = matched(boxes, stuck, walls)
                if left >= UNREACHABLE:
                    continue
                if left > pushes_left:  # a better bound: back into the queue
                    _enqueue(buckets, ids, (g + left * scale) << 16 | left, key, info)
                    continue
                order, u, v, p, stuck, walls = info
                candidates, movable, wanted = _pushes(steps, loose & ~idle, seen, walls.live & ~boxes)
        if not candidates:
            continue
        parent, code = table[key][1:]
        if parent is not None and probe.dead(tables, boxes, key & player_bits, seen, (code >> 2) + steps[code & 3]):
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

        trows = walls.rows
        n = len(order)
        column = [0] * n  # column[row] = goal column (1-based) matched to that row
        for j in range(1, n + 1):
            column[p[j] - 1] = j
        for d, step, movable in candidates:
            while movable:
                low = movable & -movable
                movable ^= low
                cell = low.bit_length() - 1
                target = cell + step
                new_boxes = boxes ^ low ^ (1 << target)
                child = (new_boxes << shift) | cell
                cost = g + walk[cell - step] * per_step + per_push
                old = table.get(child)
                if old is not None and old[0] <= cost:
                    continue
                if probe.matches(new_boxes, cell, target):
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
                    left, info = matched(new_boxes, child_stuck, child_walls)
                else:
                    # Only the pushed box's row changed: update the parent's matching.
                    i = order.index(cell)
                    row = trows[target]
                    ui = min([row[j] - v[j + 1] for j in range(n)])
                    lower = pushes_left - u[i + 1] + ui  # dual bound with the parent's potentials
                    ci = column[i]
                    upper = pushes_left - trows[cell][ci - 1] + row[ci - 1]  # the parent's assignment
                    child_order = order[:i] + (target,) + order[i + 1 :]
                    if lower == upper:
                        child_u = u[:]
                        child_u[i + 1] = ui
                        info = (child_order, child_u, v, p, stuck, walls)
                        left = upper
                    else:
                        rows = [trows[b] for b in child_order]
                        child_u, child_v, child_p = reassign(rows, (u, v, p), i)
                        info = (child_order, child_u, child_v, child_p, stuck, walls)
                        left = matching_cost(rows, (child_u, child_v, child_p))
                if left >= UNREACHABLE:
                    continue
                table[child] = (cost, key, cell * 4 + d)
                _enqueue(buckets, ids, (cost + left * scale) << 16 | left, child, info)
    return None


def _dominated(table: dict, boxes_key: int, g: int, cells: int, layers: list[int], per_step: int) -> bool:
    """Did a node with the same boxes, its player on one of `cells` (reachable from here),
    get there so much cheaper that walking over to this player's cell still costs no
    more than g? Then every plan from here is matched from there: skip this one."""
    while cells:
        low = cells & -cells
        cells ^= low
        other = table.get(boxes_key | (low.bit_length() - 1))
        if other is not None and other[0] < g:
            for distance, layer in enumerate(layers):
                if layer & low:
                    if other[0] + distance * per_step <= g:
                        return True
                    break
    return False


def _enqueue(buckets: dict, ids: list, bucket_id: int, key: int, info: tuple) -> None:
    entries = buckets.get(bucket_id)
    if entries is None:
        buckets[bucket_id] = [(key, info)]
        heapq.heappush(ids, bucket_id)
    else:
        entries.append((key, info))


def _pushes(steps: tuple, loose: int, seen: int, targets: int) -> tuple[list, int, int]:
    """The pushes open now: [(direction, step, boxes)], all those boxes, the cells to push from."""
    candidates = []
    movable = wanted = 0
    for d in range(4):
        step = steps[d]
        if step > 0:
            boxes = loose & (seen << step) & (targets >> step)
            wanted |= boxes >> step
        else:
            boxes = loose & (seen >> -step) & (targets << -step)
            wanted |= boxes << -step
        if boxes:
            candidates.append((d, step, boxes))
            movable |= boxes
    return candidates, movable, wanted


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

"""A plan found backwards: weighted best-first over pulls, from solved to the start.

Forward, a greedy search tends to fill a goal room from the wrong end or park
boxes where the rest can no longer pass, then searches every shuffle of what is
left. Backward, the boxes are pulled off their goals (a room empties from its
door) towards the start's box cells, and a pull seldom leaves a box where it can
never move again. The guide is a matching of boxes to start cells over a lone
box's pushes from each start cell (the player's side counted, as in
sokoban/board/tables.py): f = pulls so far + weight x matching, the newest first on ties.
What it finds and where it runs: sokoban/solver.py's _best_effort.

A node is the box set and the player's region (its lowest cell); the start is
found when the boxes stand on the start's cells and the region holds the
player. Pulls go only onto cells some start box can be pushed to. The plan is
the pulls played back as pushes, in reverse: not proven shortest (the best
effort's, sokoban/solver.py, when a proof ran out).
"""

from __future__ import annotations

import heapq
from array import array
from collections import deque

from fewest.solvers.common.control import Control, Stopped, collector_paused, release_gradually
from fewest.solvers.common.held_bytes import resident_bytes
from fewest.solvers.common.assignment import assign, matching_cost, reassign
from fewest.solvers.sokoban.board.board import Board, cells_of, pushable_to
from fewest.solvers.sokoban.board.tables import UNREACHABLE, Tables, sides_of

Push = tuple[int, int]  # (cell the box leaves, direction index 0..3 = l u r d), as sokoban/searches/push.py's
ENTRY_BYTES = 420  # a stored position and its queued node with its matching (~10 boxes), before measuring


def pulled_plan(tables: Tables, boxes: int, player: int, control: Control, weight: int) -> list[Push] | None:
    """The pushes of a plan from `boxes` and `player` (padded cells) found backwards, or None
    when the pulls ran out of positions (no plan). Raises Stopped on the control's budget or
    a cancel. `weight`: the matching's factor against the pulls made so far."""
    big: list = []
    with control.metered(ENTRY_BYTES) as meter, collector_paused():
        try:
            return _search(tables.board, boxes, player, control, weight, big)
        except Stopped as stop:
            reason = stop.reason
        finally:
            release_gradually(big)
        raise Stopped(reason, meter.report()) from None


def _search(board: Board, start: int, player: int, control: Control, weight: int, big: list) -> list[Push] | None:
    floor, goals, steps = board.floor, board.goals, board.steps
    sides = sides_of(board, check=control.check)
    rows = _rows_to_starts(board, sides, start, control)
    reachable = pushable_to(board, start)
    shift = board.size.bit_length()
    order0 = tuple(cells_of(goals))
    rows0 = [rows[cell] for cell in order0]
    matching0 = tuple(array("i", values) for values in assign(rows0))
    h0 = matching_cost(rows0, matching0)
    if h0 >= UNREACHABLE:
        return None
    table: dict = {}  # key -> (parent key, pull code: box's cell * 4 + direction) ; roots: (None, 0)
    queue: list = []
    big += [table, queue]
    made = 0
    for part in board.parts(floor & ~goals):  # the player may end in any region of the solved floor
        key = (goals << shift) | ((part & -part).bit_length() - 1)
        table[key] = (None, 0)
        queue.append((h0 * weight, made, 0, key, part, order0, matching0))
        made -= 1
    heapq.heapify(queue)
    resident0 = resident_bytes()
    meter = control.meter  # (pulled_plan's)
    while queue:
        _, _, g, key, region, order, matching = heapq.heappop(queue)
        boxes = key >> shift
        if boxes == start and (region >> player) & 1:
            return _pushes(table, key, steps)
        control.tick()
        if not control.expanded & 1023:
            meter.stored = len(table)
            held = resident_bytes() - resident0
            if held > meter.bytes_per_entry * len(table):
                meter.bytes_per_entry = held // len(table)
        g += 1
        for d, step in enumerate(steps):
            # a box on c pulled to c + step: the player stands on c + step, backs onto c + 2 step
            if step > 0:
                pulled = boxes & (region >> step) & (region >> (2 * step)) & (reachable >> step)
            else:
                pulled = boxes & (region << -step) & (region << (-2 * step)) & (reachable << -step)
            for cell in cells_of(pulled):
                target = cell + step
                after = boxes ^ (1 << cell) ^ (1 << target)
                area = board.reach(target + step, floor & ~after)
                child = (after << shift) | ((area & -area).bit_length() - 1)
                if child in table:
                    continue
                i = order.index(cell)
                moved = order[:i] + (target,) + order[i + 1:]
                box_rows = [rows[box] for box in moved]
                child_matching = tuple(array("i", values) for values in reassign(box_rows, matching, i))
                left = matching_cost(box_rows, child_matching)
                if left >= UNREACHABLE:
                    continue
                table[child] = (key, cell * 4 + d)
                heapq.heappush(queue, (g + weight * left, made, g, child, area, moved, child_matching))
                made -= 1  # (ties: the newest first, deeper)
    return None


def _rows_to_starts(board: Board, sides: tuple, start: int, control: Control) -> dict[int, tuple]:
    """Per floor cell, a lone box's fewest pushes from each start box cell to it (the
    player's side of the box counted, from any side at the start), UNREACHABLE where none."""
    per_start = []
    for cell in cells_of(start):
        control.check()  # (a few milliseconds a box; on a 100 x 100 board, more)
        per_start.append(_pushes_from(board, sides, cell))
    return {cell: tuple(found.get(cell, UNREACHABLE) for found in per_start) for cell in cells_of(board.floor)}


def _pushes_from(board: Board, sides: tuple, origin: int) -> dict[int, int]:
    """A lone box's fewest pushes from `origin` to each cell it can reach (breadth-first over
    its cell and the player's side of it: sides[cell][d] labels the neighbour's region)."""
    floor, steps = board.floor, board.steps
    seen = {(origin, label): 0 for label in set(sides[origin]) - {-1}}
    queue = deque(seen)
    fewest = {origin: 0}
    while queue:
        box, label = queue.popleft()
        pushes = seen[box, label] + 1
        around = sides[box]
        for d, step in enumerate(steps):
            behind = (d + 2) & 3  # the player pushes from the neighbour opposite the move
            if around[behind] != label or not (floor >> (box + step)) & 1:
                continue
            after = (box + step, sides[box + step][behind])
            if after not in seen:
                seen[after] = pushes
                fewest.setdefault(box + step, pushes)
                queue.append(after)
    return fewest


def _pushes(table: dict, key: int, steps: tuple) -> list[Push]:
    """The pulls from the solved position to `key`, played back from `key` as pushes."""
    pushes = []
    while True:
        parent, code = table[key]
        if parent is None:
            return pushes
        cell, d = code >> 2, code & 3
        pushes.append((cell + steps[d], (d + 2) & 3))  # the box goes back from c + step to c
        key = parent

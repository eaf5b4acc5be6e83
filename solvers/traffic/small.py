"""Small traffic searches in plain Python: no numpy, no table.

A one-off solve of a small "Get out" board (the contest format: a process per
board) finishes in a few hundred positions, where numpy's per-layer overhead
and its import cost more than the whole search. Here a position is one int
with 3 bits per car (its offset; at most 6 on an 8 x 8 board) and its cars'
occupancy is another int kept alongside, so a slide is a few int operations.
The search is A* with the consistent lower bound of traffic/astar.py (each
car covering the row to clear must move), over buckets of depth + h: on
contest boards it expands a small fraction of what a BFS would. Past
`max_states` positions it raises TooLarge and the caller turns to the numpy
search (traffic/bfs.py / traffic/table.py).

This module also holds the pure-Python line helpers that traffic/lines.py shares.
"""

from __future__ import annotations

from fewest.engine.traffic import CLEAR_ROW, EXIT, Level, Move, State
from fewest.solvers.common.control import Control

BITS = 3  # per car offset in a key
TICK_EVERY = 64  # positions expanded between control ticks


class TooLarge(Exception):
    """The search passed its position limit without an answer."""


def forward_search(level: Level, state: State, control: Control, max_states: int) -> list[Move] | None:
    """A shortest plan from `state` by A* on depth + h, or None when its whole cluster holds
    no goal. Raises TooLarge past `max_states` positions, Stopped when the control says so."""
    n, cars = level.n, level.cars
    meter = control.meter  # (the running search's, opened by its caller: counts go on across its phases)
    # along[i][p]: the bit of the p-th cell of car i's line; masks[i][o]: car i at offset o
    along = [[1 << c for c in _line_cells(n, car.horizontal, car.line)] for car in cars]
    masks = [[car.mask(n, o) for o in range(n - car.length + 1)] for car in cars]
    cost = _costs(level, masks)
    walls = level.wall_mask
    start = sum(o << (BITS * i) for i, o in enumerate(state.offsets))
    h_start = sum(c[o] for c, o in zip(cost, state.offsets))
    if h_start == 0:
        return []
    parent, depth = {start: start}, {start: 0}
    # buckets[f]: (key, occupied cells, depth, h) with depth + h = f, expanded first in, first out
    buckets: list[list[tuple[int, int, int, int]]] = [[] for _ in range(h_start)]
    buckets.append([(start, sum(m[o] for m, o in zip(masks, state.offsets)), 0, h_start)])
    per_car = [(BITS * i, car.length, along[i], masks[i], cost[i]) for i, car in enumerate(cars)]
    f = h_start
    expanded = 0
    while f < len(buckets):
        for key, occupied, g, h in buckets[f]:  # grows while read: depth + h never drops
            if depth[key] < g:
                continue  # met again at a smaller depth since
            if h == 0:
                return _plan(level, parent, key)
            expanded += 1
            if len(depth) > max_states:
                raise TooLarge
            if expanded % TICK_EVERY == 0:
                control.tick(TICK_EVERY)
                meter.stored = max(meter.stored, len(depth))
            blocked = occupied | walls
            g1 = g + 1
            for shift, length, cells, car_masks, car_cost in per_car:
                offset = key >> shift & 7
                rest = occupied ^ car_masks[offset]
                h_rest = h - car_cost[offset]
                # back, then forward: the cell a slide newly covers must be free
                p, to, step = offset - 1, offset - 1, -1
                while True:
                    if 0 <= p < n and not blocked & cells[p]:
                        child = key + ((to - offset) << shift)
                        if depth.get(child, g1 + 1) > g1:
                            depth[child] = g1
                            parent[child] = key
                            h1 = h_rest + car_cost[to]
                            if h1 == 0 and g1 == f:  # nothing shorter is left to find
                                return _plan(level, parent, child)
                            while len(buckets) <= g1 + h1:
                                buckets.append([])
                            buckets[g1 + h1].append((child, rest | car_masks[to], g1, h1))
                        p += step
                        to += step
                    elif step < 0:
                        p, to, step = offset + length, offset + 1, 1
                    else:
                        break
        buckets[f] = []
        f += 1
    return None


def _costs(level: Level, masks: list[list[int]]) -> list[list[int]]:
    """cost[i][o]: what car i at offset o adds to h, a lower bound on the moves left that one
    slide changes by at most 1 (consistent), and 0 exactly when solved. "Get out": 1 per car
    covering the row to clear; exit: 1 while the target car is not at the exit."""
    n, (kind, target) = level.n, level.goal
    if kind == CLEAR_ROW:
        row = sum(1 << (target * n + c) for c in range(n))
        return [[1 if m & row else 0 for m in car_masks] for car_masks in masks]
    last = n - level.cars[level.index[target]].length
    return [[int(i == level.index[target] and o != last) for o in range(len(car_masks))]
            for i, car_masks in enumerate(masks)]


def _plan(level: Level, parent: dict[int, int], key: int) -> list[Move]:
    moves: list[Move] = []
    while parent[key] != key:
        before = parent[key]
        i = next(i for i in range(len(level.cars)) if (key ^ before) >> (BITS * i) & 7)
        car = level.cars[i]
        step = (key >> BITS * i & 7) - (before >> BITS * i & 7)
        direction = ("R" if step > 0 else "L") if car.horizontal else ("D" if step > 0 else "U")
        moves.append(Move(car.name, direction, abs(step)))
        key = before
    return moves[::-1]


def _line_cells(n: int, horizontal: bool, line: int) -> list[int]:
    return [line * n + p for p in range(n)] if horizontal else [p * n + line for p in range(n)]


def line_groups(level: Level, state: State) -> list[list[int]]:
    """The cars of each line (row or column) holding any, in their order along it."""
    groups: dict[tuple[bool, int], list[int]] = {}
    for i, car in enumerate(level.cars):
        groups.setdefault((car.horizontal, car.line), []).append(i)
    return [sorted(cars, key=lambda i: state.offsets[i]) for cars in groups.values()]


def goal_unreachable(level: Level, state: State) -> bool:
    """True when some line has no placement meeting the goal (a horizontal car in the
    row to clear, a wall before the exit...): then no plan exists at all."""
    return any(
        not any(line_meets_goal(level, cars, offsets) for offsets in placements(level, cars))
        for cars in line_groups(level, state)
    )


def order_signature(level: Level, state: State) -> tuple[int, ...]:
    """The cars sorted by line and position along it: the same for a whole cluster."""
    return tuple(sorted(range(len(level.cars)), key=lambda i: (
        level.cars[i].horizontal, level.cars[i].line, state.offsets[i])))


def placements(level: Level, cars: list[int]) -> list[tuple[int, ...]]:
    """Every wall-free, non-overlapping placement of a line's cars, in their order."""
    n, found = level.n, []

    def place(slot: int, lowest: int, chosen: tuple[int, ...]) -> None:
        if slot == len(cars):
            found.append(chosen)
            return
        car = level.cars[cars[slot]]
        for offset in range(lowest, n - car.length + 1):
            if not any(cell in level.walls for cell in car.cells(n, offset)):
                place(slot + 1, offset + car.length, chosen + (offset,))

    place(0, 0, ())
    return found


def line_meets_goal(level: Level, cars: list[int], offsets: tuple[int, ...]) -> bool:
    """Whether a line's cars at `offsets` are all as the goal wants them."""
    kind, target = level.goal
    for i, offset in zip(cars, offsets):
        car = level.cars[i]
        if kind == EXIT:
            if car.name == target and offset + car.length != level.n:
                return False
        elif car.horizontal:
            if car.line == target:
                return False
        elif offset <= target < offset + car.length:
            return False
    return True

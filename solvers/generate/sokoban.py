"""Sokoban rooms by reverse play (after Taylor and Parberry): a room is built from 3x3
templates, goals are placed, and the boxes, starting on the goals, are pulled away by a
breadth-first search over pulls; a position farthest from the goals by pulls is kept,
the player anywhere in the part of the room it stands in. Its par is then proven by the
exact solver (proof.py); rooms where a box starts on its goal (a box not needed) are
left out. Box counts grow with the room: 2 up to 6x6 inside, 3 up to 7x7, then 4. A level
is kept only when its proven plan makes the difficulty's box changes (`fits`): a box
change is the player turning from pushing one box to pushing another.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Iterator

from fewest.engine.sokoban import Level, Move, State, apply, neighbour
from fewest.solvers.generate.proof import Proven
from fewest.solvers.generate.targets import Target

# 3x3 pieces of wall (1) and floor (0) a room is tiled with, each turned any way
TEMPLATES = (
    "000000000", "000000000", "000000000", "100000000", "110000000", "100100000",
    "010000000", "000010000", "110100000", "000011000", "100000001", "111000000",
)
MAX_PULL_STATES = 200_000  # a room whose pull search passes this is too open: another one


def candidates(rng: random.Random, target: Target) -> Iterator[Level]:
    assert target.size is not None
    rows, cols = target.size
    boxes = 2 if rows * cols <= 36 else 3 if rows * cols <= 49 else 4
    while True:
        floor = _room(rng, rows, cols)
        if len(floor) < 3 * boxes + 6:
            continue
        goals = frozenset(rng.sample(sorted(floor), boxes))
        found = _farthest_by_pulls(rng, floor, goals, cols + 2)
        if found is None:
            continue
        start, region = found
        if start & goals:
            continue  # a box on its goal from the start: not needed
        yield _level(rows, cols, floor, goals, start, rng.choice(sorted(region)))


def fits(proven: Proven, target: Target) -> bool:
    """Whether the proven plan makes the target's box changes."""
    return box_changes(proven.level, proven.moves) >= target.box_changes


def box_changes(level: Level, moves: tuple[Move, ...] | list[Move]) -> int:
    """How often the plan turns from pushing one box to pushing another (a legal plan)."""
    state, pushed, changes = State(level.player, level.boxes), None, 0
    for move in moves:
        if move.push:
            box = neighbour(level, state.player, move.direction)
            assert box is not None  # (a push has a box beside the player)
            changes += pushed is not None and box != pushed
            pushed = neighbour(level, box, move.direction)  # (where that box now stands)
        state = apply(level, state, move)
    return changes


def _room(rng: random.Random, rows: int, cols: int) -> frozenset[int]:
    """The largest connected floor of a rows x cols inside tiled with turned templates,
    as cells of the grid with a wall border (width cols + 2)."""
    width = cols + 2
    wall = set()
    for top in range(0, rows, 3):
        for left in range(0, cols, 3):
            tile = [int(c) for c in rng.choice(TEMPLATES)]
            for _ in range(rng.randrange(4)):
                tile = [tile[6 - 3 * (i % 3) + i // 3] for i in range(9)]  # a quarter turn
            for i, bit in enumerate(tile):
                r, c = top + i // 3, left + i % 3
                if bit and r < rows and c < cols:
                    wall.add((r + 1) * width + c + 1)
    open_cells = {(r + 1) * width + c + 1 for r in range(rows) for c in range(cols)} - wall
    best: set[int] = set()
    while open_cells:
        part = _flood(next(iter(open_cells)), open_cells, width)
        open_cells -= part
        best = max(best, part, key=len)
    return frozenset(best)


def _flood(start: int, cells: set[int] | frozenset[int], width: int) -> set[int]:
    seen, queue = {start}, deque([start])
    while queue:
        cell = queue.popleft()
        for step in (1, -1, width, -width):
            nxt = cell + step
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def _farthest_by_pulls(rng: random.Random, floor: frozenset[int], goals: frozenset[int],
                       width: int) -> tuple[frozenset[int], set[int]] | None:
    """Boxes pulled from the goals as far as pulls go: (boxes, the player's region) of a
    random one of the positions most pulls away; None when the search is too large.
    Cells are bits: a position is (boxes, the cells the player reaches)."""
    floor_bits = _bits(floor)
    seen: set[tuple[int, int]] = set()
    layer: list[tuple[int, int]] = []
    for region in _regions(floor - goals, width):
        key = (_bits(goals), _bits(region))
        if key not in seen:
            seen.add(key)
            layer.append(key)
    last = layer
    while layer:
        last, layer = layer, []
        for boxes, reach in last:
            free = floor_bits & ~boxes
            for step in (1, -1, width, -width):
                # boxes with the player's cell beside them and a free cell beyond it
                pullable = boxes & _shifted(reach, -step) & _shifted(free, -2 * step)
                while pullable:
                    box = pullable & -pullable
                    pullable ^= box
                    player = _shifted(box, step)
                    moved = boxes & ~box | player
                    key = (moved, _flood_bits(_shifted(box, 2 * step), floor_bits & ~moved, width))
                    if key not in seen:
                        seen.add(key)
                        layer.append(key)
            if len(seen) > MAX_PULL_STATES:
                return None
    boxes, reach = rng.choice(last)
    return frozenset(_cells(boxes)), set(_cells(reach))


def _bits(cells: frozenset[int] | set[int]) -> int:
    return sum(1 << cell for cell in cells)


def _cells(bits: int) -> list[int]:
    return [cell for cell in range(bits.bit_length()) if bits >> cell & 1]


def _shifted(bits: int, step: int) -> int:
    """The cells `step` further on (cell + step) of the cells in `bits`."""
    return bits << step if step > 0 else bits >> -step


def _flood_bits(start: int, free: int, width: int) -> int:
    reach = start
    while True:
        grown = (reach | reach << 1 | reach >> 1 | reach << width | reach >> width) & free
        if grown == reach:
            return reach
        reach = grown


def _regions(cells: frozenset[int], width: int) -> list[set[int]]:
    left, parts = set(cells), []
    while left:
        part = _flood(next(iter(left)), left, width)
        left -= part
        parts.append(part)
    return parts


def _level(rows: int, cols: int, floor: frozenset[int], goals: frozenset[int], boxes: frozenset[int],
           player: int) -> Level:
    width, height = cols + 2, rows + 2
    walls = frozenset(cell for cell in range(width * height) if cell not in floor
                      and any(cell + step in floor for step in (1, -1, width, -width, width + 1, width - 1,
                                                                1 - width, -1 - width)))
    return Level(width, height, walls, goals, boxes, player)

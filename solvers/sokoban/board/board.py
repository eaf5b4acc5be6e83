"""A Sokoban level compiled for search: padded cell numbering and bitboards.

The solver works on its own cell numbering: the level framed by one extra
wall cell on every side, so `cell + step` never wraps from one row into the
next and every set of cells is a Python int with bit `cell` set (fast `&`,
`|`, shifts on a few hundred bits). Engine cells (`row * width + col`) are
converted once on the way in; plans leave as direction letters only.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator

DIRECTIONS = "lurd"  # the engine's order; index 0..3 everywhere in the solver


def cells_of(mask: int) -> Iterator[int]:
    """The set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _ring_joins(ring: int) -> bool:
    """Do a cell's free side neighbours join without it, round the eight cells about it?
    Bits of `ring`: 0-2 the row above (left to right), 3 right, 4-6 the row below, 7 left."""
    order = (0, 1, 2, 3, 6, 5, 4, 7)  # (round the cell: each next to the one before)
    sides = {1, 3, 5, 7}
    free = [bool(ring >> bit & 1) for bit in order]
    if all(free):
        return True
    start = free.index(False)  # (runs of free cells, read round from a blocked one)
    runs_with_sides = 0
    in_run = False
    for step in range(1, 9):
        index = (start + step) % 8
        if not free[index]:
            in_run = False
            continue
        if not in_run:
            in_run, counted = True, False
        if order[index] in sides and not counted:
            runs_with_sides += 1
            counted = True
    return runs_with_sides <= 1


_RING_JOINS = tuple(_ring_joins(ring) for ring in range(256))


@dataclass(frozen=True, eq=False)
class Board:
    """Static geometry of one level in padded numbering."""

    width: int  # padded width: level width + 2
    level_width: int
    size: int  # number of padded cells
    floor: int  # cells the player can ever stand on (mask)
    goals: int  # goal cells on the floor (mask)
    steps: tuple[int, int, int, int]  # cell delta of l, u, r, d

    def inside(self, cell: int) -> int:
        """Engine cell -> padded cell."""
        row, col = divmod(cell, self.level_width)
        return (row + 1) * self.width + col + 1

    def mask(self, engine_cells: Any) -> int:
        """Engine cells -> a padded bit set."""
        bits = 0
        for cell in engine_cells:
            bits |= 1 << self.inside(cell)
        return bits

    def spread(self, mask: int) -> int:
        """Cells one step away from `mask` in any direction (not clipped)."""
        w = self.width
        return (mask << 1) | (mask >> 1) | (mask << w) | (mask >> w)

    def reach(self, start: int, free: int) -> int:
        """Cells of `free` the player reaches from cell `start` (flood fill)."""
        # Each round spreads sideways, then up and down from there: a path with one turn
        # per round. Measured on the solver's own calls, ~20% faster than one step a round.
        width = self.width
        seen = 1 << start
        free |= seen
        while True:
            across = (seen | (seen << 1) | (seen >> 1)) & free
            grown = (across | (across << width) | (across >> width)) & free
            if grown == seen:
                return seen
            seen = grown

    def pushed_region(self, seen: int, free: int, cell: int, target: int) -> int:
        """The player's region after a push (`reach(cell, free)`), from the one before it,
        `seen`: the box went from `cell`, where the player now stands, to `target`; `free`
        is the floor less the boxes after it. The cells of `seen` stay joined less the
        target when its free neighbours join round it (_RING_JOINS); the player's new cell
        adds itself; else (or when that cell opens floor not in `seen`) a flood fill.
        On Microban II #104's tie-break (1.46M regions) 44% come without one; 46% fall to
        a target whose neighbours do not join round it, 10% to floor opened."""
        width = self.width
        bit = 1 << target
        if seen & bit:
            ring = (((free >> (target - width - 1)) & 7) | (((free >> (target + 1)) & 1) << 3)
                    | (((free >> (target + width - 1)) & 7) << 4) | (((free >> (target - 1)) & 1) << 7))
            if not _RING_JOINS[ring]:
                return self.reach(cell, free)
        region = (seen & ~bit) | (1 << cell)
        if ((1 << (cell - 1)) | (1 << (cell + 1)) | (1 << (cell - width)) | (1 << (cell + width))) & free & ~region:
            return self.reach(cell, free)  # (the player's new cell opens floor the region had not)
        return region

    def parts(self, cells: int) -> list[int]:
        """The connected parts of `cells` (joined side by side), the one with the lowest
        cell first."""
        found = []
        while cells:
            part = self.reach((cells & -cells).bit_length() - 1, cells)
            found.append(part)
            cells &= ~part
        return found

    def layers(self, start: int, free: int) -> tuple[int, list[int]]:
        """The player's region from cell `start` over `free` and its BFS layers
        (layer k: the cells k steps away)."""
        width = self.width
        seen = frontier = 1 << start
        free &= ~frontier
        layers = [frontier]
        while True:
            frontier = ((frontier << 1) | (frontier >> 1) | (frontier << width) | (frontier >> width)) & free
            if not frontier:
                return seen, layers
            free ^= frontier
            seen |= frontier
            layers.append(frontier)

    def distance(self, start: int, target: int, free: int) -> int | None:
        """The player's fewest steps from cell `start` to `target` over `free` cells (None:
        cut off)."""
        if start != target and not (free >> target) & 1:
            return None  # (at once, not after flooding the whole region)
        found = self.distances(start, 1 << target, free)
        return found[0][1] if found else None

    def distances(self, start: int, targets: int, free: int) -> list[tuple[int, int]]:
        """(cell, fewest steps to it) for each cell of `targets` the player reaches from
        `start` over `free`: `layers`, stopping once every target is found (the player
        mostly stands near them, so a few layers do on the largest board)."""
        found: list[tuple[int, int]] = []
        self._spread(1 << start, 1 << start, targets, free, 0, None, found)
        return found

    def distances_from(self, starts: dict[int, int], targets: int, free: int) -> list[tuple[int, int]]:
        """(cell, fewest of a start's steps so far and the steps from it) for each cell of
        `targets` reached from the cells of `starts` (cell -> steps so far) over `free`:
        one breadth-first search, each start joining it at its own steps."""
        queue = sorted((steps, cell) for cell, steps in starts.items())
        found: list[tuple[int, int]] = []
        frontier = seen = 0
        for index, (steps, cell) in enumerate(queue):
            joining = 1 << cell & ~seen  # (a cell reached sooner from another start stays out)
            frontier, seen = frontier | joining, seen | joining
            until = queue[index + 1][0] if index + 1 < len(queue) else None
            if until != steps:  # (else the next start joins at the same steps first)
                frontier, seen, targets = self._spread(frontier, seen, targets, free, steps, until, found)
                if not targets:
                    break
        return found

    def _spread(
        self, frontier: int, seen: int, targets: int, free: int, steps: int, until: int | None, found: list
    ) -> tuple[int, int, int]:
        """Breadth-first from `frontier` (at `steps`) over `free`, `seen` left out, up to
        step `until` (None: to the end), each cell of `targets` reached added to `found`
        with its steps: (frontier, seen, targets left) where it stopped."""
        width = self.width
        while True:
            hit = frontier & targets
            if hit:
                targets ^= hit
                found += [(cell, steps) for cell in cells_of(hit)]
                if not targets:
                    return frontier, seen, 0
            if steps == until:
                return frontier, seen, targets
            frontier = ((frontier << 1) | (frontier >> 1) | (frontier << width) | (frontier >> width)) & free & ~seen
            if not frontier:
                return 0, seen, targets
            seen |= frontier
            steps += 1

    def walk(self, start: int, target: int, boxes: int) -> str | None:
        """A shortest walk (lurd letters) avoiding boxes; ties broken by direction order."""
        if start == target:
            return ""
        free = self.floor & ~boxes
        came = {start: None}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            for index, step in enumerate(self.steps):
                nxt = cell + step
                if nxt in came or not (free >> nxt) & 1:
                    continue
                came[nxt] = (cell, index)
                if nxt == target:
                    letters = []
                    while came[nxt] is not None:
                        nxt, index = came[nxt]
                        letters.append(DIRECTIONS[index])
                    return "".join(reversed(letters))
                queue.append(nxt)
        return None


def steps_to(layers: list[int], cell: int) -> int | None:
    """The walk to `cell` given the BFS layers from the player (`Board.layers`; None: cut off)."""
    bit = 1 << cell
    for steps, layer in enumerate(layers):
        if layer & bit:
            return steps
    return None


def open_pushes(steps: tuple, loose: int, seen: int, targets: int) -> tuple[list, int, int]:
    """The pushes of `loose` boxes from player cells `seen` onto `targets`:
    [(direction, step, boxes)], all those boxes, the cells to push them from."""
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


def pushable_to(board: Board, boxes: int, floor: int | None = None, until: int = 0) -> int:
    """Cells some box of `boxes` can be pushed to with the others gone (a pulled box
    anywhere else belongs to no position the start can reach), over `floor` (None: the
    board's; less other boxes: where a lone box could go were the player anywhere); with
    `until`, those found by the time one of its cells is."""
    seen = frontier = boxes
    while frontier and not seen & until:
        frontier = pushed_once(board, frontier, floor) & ~seen
        seen |= frontier
    return seen


def pushed_once(board: Board, boxes: int, floor: int | None = None) -> int:
    """Cells a box of `boxes` can be pushed to in one push with the others gone, over
    `floor` (None: the board's)."""
    floor, grown = board.floor if floor is None else floor, 0
    for step in board.steps:
        # a push by `step` needs floor behind the box (for the player) and ahead
        if step > 0:
            grown |= ((boxes & (floor << step)) << step) & floor
        else:
            grown |= ((boxes & (floor >> -step)) >> -step) & floor
    return grown


def pullable_to(board: Board, goals: int) -> int:
    """Cells a box on `goals` can be pulled to with the others gone: those from which it
    can be pushed onto one."""
    floor, steps = board.floor, board.steps
    seen = frontier = goals
    while frontier:
        grown = 0
        for step in steps:
            # a pull by `step` needs floor where the box goes and one beyond (for the player)
            if step > 0:
                grown |= (frontier << step) & floor & (floor >> step)
            else:
                grown |= (frontier >> -step) & floor & (floor << -step)
        frontier = grown & ~seen
        seen |= frontier
    return seen


def compile_board(level: Any) -> Board:
    """The padded geometry of an engine level (cached: levels are immutable)."""
    return _compile(level)


@lru_cache(maxsize=16)
def _compile(level: Any) -> Board:
    width = level.width + 2
    size = width * (level.height + 2)
    walls = 0
    for cell in level.walls:
        walls |= 1 << _pad(cell, level.width, width)
    inner = 0
    for row in range(level.height):
        base = (row + 1) * width + 1
        inner |= ((1 << level.width) - 1) << base
    steps = (-1, -width, 1, width)
    start = _pad(level.player, level.width, width)
    open_cells = inner & ~walls
    floor = frontier = 1 << start
    while frontier:  # the player's flood fill, boxes ignored
        frontier = (frontier << 1) | (frontier >> 1) | (frontier << width) | (frontier >> width)
        frontier &= open_cells & ~floor
        floor |= frontier
    goals = 0
    for cell in level.goals:
        goals |= 1 << _pad(cell, level.width, width)
    goals &= floor  # a goal the player can never reach can only hold a box that never moves
    return Board(width, level.width, size, floor, goals, steps)


def _pad(cell: int, level_width: int, width: int) -> int:
    row, col = divmod(cell, level_width)
    return (row + 1) * width + col + 1

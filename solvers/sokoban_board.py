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


def pushable_to(board: Board, boxes: int) -> int:
    """Cells some box of `boxes` can be pushed to with the others gone (a pulled box
    anywhere else belongs to no position the start can reach)."""
    seen = frontier = boxes
    while frontier:
        frontier = pushed_once(board, frontier) & ~seen
        seen |= frontier
    return seen


def pushed_once(board: Board, boxes: int) -> int:
    """Cells a box of `boxes` can be pushed to in one push with the others gone."""
    floor, grown = board.floor, 0
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

"""Corral deadlocks, found by small searches and remembered as patterns.

A corral is floor the player cannot reach, fenced by boxes and walls. Take
the boxes touching the corrals (the fence and anything inside), drop every
other box, and search whether those boxes alone can all be pushed onto
goals. Fewer boxes only ever make pushing easier, so when even that fails
the whole position is dead, and so is every position holding the same boxes
on the same cells with the player in the same part of the floor (the
pattern). The search is a breadth-first walk over (boxes, player's region)
with a small node limit; when the limit is hit nothing is concluded.
"""

from __future__ import annotations

from collections import deque

from fewest.solvers.sokoban.board.board import cells_of
from fewest.solvers.sokoban.pruning.deadlock import frozen_group
from fewest.solvers.sokoban.board.tables import Tables


class CorralProbe:
    """Dead patterns learnt during one search, indexed by pairs of their box cells."""

    def __init__(self, size: int, limit: int = 15, largest: int = 3) -> None:
        self.size = size  # cells on the board
        self.limit = limit  # positions searched per probe
        self.largest = largest  # fences of more boxes are not probed (slow, and rarely dead)
        # cell * size + other cell of the same pattern (or cell twice) -> [(boxes, player's region)]
        self.patterns: dict[int, list[tuple[int, int]]] = {}
        self.partners: dict[int, int] = {}  # cell -> every cell sharing a pattern with it (mask)
        self.known: set[tuple[int, int]] = set()  # (boxes, lowest cell of the region) searched in vain

    def matches(self, boxes: int, player: int, cell: int) -> bool:
        """Does a learnt dead pattern holding a box on `cell` fit this position?"""
        others = boxes & self.partners.get(cell, 0)
        if not others:
            return False
        patterns, base = self.patterns, cell * self.size
        for other in cells_of(others):
            for pattern, region in patterns.get(base + other, ()):
                if boxes & pattern == pattern and (region >> player) & 1:
                    return True
        return False

    def dead(self, tables: Tables, boxes: int, player: int, reach: int, moved: int) -> bool:
        """Search the corral boxes of this position alone (`reach`: the player's region),
        when the box just pushed onto `moved` is one of them."""
        board = tables.board
        corral = board.floor & ~boxes & ~reach
        fence = board.spread(corral) & boxes
        if not (fence >> moved) & 1 or bin(fence).count("1") > self.largest:
            return False
        region = board.reach(player, board.floor & ~fence)
        key = (fence, (region & -region).bit_length() - 1)
        if key in self.known:
            return False
        if _solvable(tables, fence, region, self.limit) is False:
            cells = list(cells_of(fence))
            for cell in cells:
                others = [other for other in cells if other != cell] or [cell]
                for other in others:
                    self.patterns.setdefault(cell * self.size + other, []).append((fence, region))
                    self.partners[cell] = self.partners.get(cell, 0) | 1 << other
            return True
        self.known.add(key)  # solvable, or too big to tell: either way not worth asking again
        return False


def _solvable(tables: Tables, boxes: int, region: int, limit: int) -> bool | None:
    """Can these boxes (alone) all reach goals? None when `limit` positions did not tell."""
    board = tables.board
    floor, goals, live, steps = board.floor, board.goals, tables.live, board.steps
    seen = {(boxes, (region & -region).bit_length() - 1)}
    queue = deque([(boxes, region)])
    while queue:
        boxes, region = queue.popleft()
        if not boxes & ~goals:
            return True
        if len(seen) > limit:
            return None
        targets = live & ~boxes
        for step in steps:
            if step > 0:
                movable = boxes & (region << step) & (targets >> step)
            else:
                movable = boxes & (region >> -step) & (targets << -step)
            for cell in cells_of(movable):
                target = cell + step
                pushed = boxes ^ (1 << cell) ^ (1 << target)
                if frozen_group(tables, pushed, target) & ~goals:
                    continue
                after = board.reach(cell, floor & ~pushed)
                key = (pushed, (after & -after).bit_length() - 1)
                if key not in seen:
                    seen.add(key)
                    queue.append((pushed, after))
    return False

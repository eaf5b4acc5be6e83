"""Hotspots: boxes standing in other boxes' way to the goals, after Festival's.

Shoham's Festival calls a box off its goal a hotspot when, were it a wall, another
box off its goal could be pushed (a lone box, the player anywhere) to fewer goals
than before. Which cells a box on a cell blocks depends on the board alone, so it
is worked out once per cell, when a box first stands there (a pull from each goal
with the cell walled, against one without), and kept.

The hotspot advisor: the box blocking the most others goes, alone (the others in
place), by the fewest pushes to a cell where it blocks none of them (a goal blocks
none): one child, made as the packing advisor's are. (Festival also counts hotspots as
a feature: a fifth feature of the FESS-like finder's cells, that lost plans for
XSokoban #10, #34, #37 and #61 of every third level at 12,000 positions.)
"""

from __future__ import annotations

from dataclasses import replace

from fewest.solvers.sokoban.board.board import Board, cells_of, pullable_to
from fewest.solvers.sokoban.board.tables import Tables
from fewest.solvers.sokoban.plans.lone_box import Push, lone_pushes_until


class Hotspots:
    """The cells a box on each cell blocks (see above), worked out as boxes come there."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.reaching = [pullable_to(board, 1 << goal) for goal in cells_of(board.goals)]
        self.blocking: dict[int, int] = {}

    def blocked_by(self, cell: int) -> int:
        """The cells off the goals from which a lone box reaches fewer goals with a wall on `cell`."""
        blocked = self.blocking.get(cell)
        if blocked is None:
            board = self.board
            walled = replace(board, floor=board.floor & ~(1 << cell))
            blocked = 0
            for goal, reaching in zip(cells_of(board.goals), self.reaching):
                if goal != cell:
                    blocked |= reaching & ~pullable_to(walled, 1 << goal)
            blocked &= ~board.goals & ~(1 << cell)
            self.blocking[cell] = blocked
        return blocked

    def weights(self, boxes: int) -> dict[int, int]:
        """{box: the boxes it blocks} for each hotspot of `boxes` (boxes on goals are none)."""
        loose = boxes & ~self.board.goals
        found = {}
        for box in cells_of(loose):
            blocked = (self.blocked_by(box) & loose).bit_count()
            if blocked:
                found[box] = blocked
        return found

    def worst(self, boxes: int) -> int | None:
        """The hotspot of `boxes` that blocks the most others (ties: the lowest cell; None: none)."""
        weights = self.weights(boxes)
        return max(weights, key=lambda cell: (weights[cell], -cell)) if weights else None

    def worst_mover(self, boxes: int, packed: int) -> int:
        """As a Movers of the packing search (sokoban/plans/packing_order.py): the worst
        hotspot of the boxes not `packed`, as a bit set (0: none)."""
        box = self.worst(boxes & ~packed)
        return 0 if box is None else 1 << box

    def advice(self, walls: Tables, boxes: int, player: int) -> list[tuple[list[Push], int, int]]:
        """The hotspot advisor: (pushes, boxes after, player's cell after) taking the box that
        blocks the most others (ties: the lowest cell) alone to the nearest cell where it
        blocks none of them; [] when there is no hotspot or no such cell near. `walls`: the
        tables with the packed boxes as walls (its live cells are where a box may go)."""
        box = self.worst(boxes)
        if box is None:
            return []
        others = boxes & ~(1 << box)
        loose = others & ~self.board.goals
        pushes = lone_pushes_until(
            self.board, walls.live, others, box, player,
            lambda cell: (self.board.goals >> cell) & 1 or not self.blocked_by(cell) & loose,
        )
        if not pushes:
            return []
        last, d = pushes[-1]
        return [(pushes, others | (1 << (last + self.board.steps[d])), last)]

"""The player's walking regions around a set of boxes, for the backward table builds.

A table answer that depends on where the player stands is kept as
((region mask, pushes), ...): one entry per walking region of the free floor.
"""

from __future__ import annotations

from typing import Any

from fewest.solvers.sokoban.board.board import Board
from fewest.solvers.sokoban.board.tables import UNREACHABLE


class Regions:
    """The walking regions of the free floor around box sets (remembered per box set)."""

    def __init__(self, board: Board) -> None:
        self._board = board
        self._found: dict[int, tuple[int, ...]] = {}

    def masks(self, occupied: int) -> tuple[int, ...]:
        """The walking regions (masks) of the free floor around `occupied`."""
        found = self._found.get(occupied)
        if found is None:
            found = self._found[occupied] = tuple(self._board.parts(self._board.floor & ~occupied))
        return found

    def of(self, occupied: int, cell: int) -> int:
        """The region (mask) around `occupied` that holds the free cell `cell`."""
        for region in self.masks(occupied):
            if (region >> cell) & 1:
                return region
        raise AssertionError("a free floor cell outside every region")

    def fold(self, distance: dict[tuple[int, int], int]) -> dict[int, Any]:
        """A backward search's {(boxes, region): pushes} as {boxes: answer}: the pushes, or
        ((region mask, pushes), ...) where the player's side matters (UNREACHABLE for a
        region the search never got to)."""
        by_mask: dict[int, dict[int, int]] = {}
        for (mask, region), pushes in distance.items():
            by_mask.setdefault(mask, {})[region] = pushes
        answers: dict[int, Any] = {}
        for mask, per_region in by_mask.items():
            sides = tuple((region, per_region.get(region, UNREACHABLE)) for region in self.masks(mask))
            values = {pushes for _, pushes in sides}
            answers[mask] = values.pop() if len(values) == 1 else sides
        return answers


def where(sides: tuple, player: int) -> int:
    """The answer for the player's side: ((region mask, pushes), ...) -> pushes."""
    for region, pushes in sides:
        if (region >> player) & 1:
            return pushes
    return UNREACHABLE

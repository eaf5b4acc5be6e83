"""The pushes from the start to a pulled position, at least: what lets a pull table
skip positions no short plan goes through.

Under the pushes metric, once the search knows a plan of U pushes (a node whose
pushes left the pull table gives exactly: its pushes so far and the table's
pulls back to the goal), the optimal plans have at most U pushes, and each
position on one, k pulls from the goal, is at most U - k pushes from the
start. A position whose pushes from the start are surely more cannot be on
one: the table need not hold it, nor pull from it. Its pushes from the start
are at least, over its boxes, the push distance from the nearest start box
(with the other boxes gone and the player anywhere), summed; on a symmetric
table, where one entry stands for all images, the least over the images.

The table stays exact for every position it keeps: a pull undone is a push,
so the position a pull starts from has a sum at most one more than the one it
makes, and each position on a shortest pull chain to a kept one is kept too. A
position it leaves out gets the bound of one beyond the radius (unsolvable,
once none is left to pull from), which may be too high, but only where no plan
of U pushes or fewer passes: A* stays optimal as long as the bound never
overestimates on an optimal plan (sokoban/searches/push.py re-opens nodes whose cost
improves).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from fewest.solvers.sokoban.board.board import Board, cells_of, pushed_once
from fewest.solvers.sokoban.board.symmetry import Symmetry

FAR = 1 << 20  # the distance of a cell no start box reaches (more than any plan's pushes)


def push_distances(board: Board, start_boxes: int) -> dict[int, int]:
    """Per floor cell, the pushes from the nearest start box (the other boxes gone, the
    player anywhere: a push needs floor behind the box and ahead); FAR where none reaches."""
    distance = {}
    seen = frontier = start_boxes & board.floor
    pushes = 0
    while frontier:
        distance.update(dict.fromkeys(cells_of(frontier), pushes))
        frontier = pushed_once(board, frontier) & ~seen
        seen |= frontier
        pushes += 1
    return {cell: distance.get(cell, FAR) for cell in cells_of(board.floor)}


def _per_image(board: Board, start_boxes: int, symmetry: Symmetry | None) -> list[list[int]]:
    """Per image (the position itself first, then under each of `symmetry`'s maps): per
    cell, the pushes from the start to the cell's image (FAR off the floor)."""
    distance = push_distances(board, start_boxes)
    maps = symmetry.maps if symmetry is not None else ()
    out = []
    for image in [None, *maps]:
        per_cell = [FAR] * board.size
        for cell in distance:
            per_cell[cell] = distance[cell if image is None else image[cell]]
        out.append(per_cell)
    return out


class ForwardBound:
    """Per position given as one word of box cells (bit i: a box on `box_cells[i]`), the
    pushes from the start at least (the least over the images under the table's
    `symmetry`)."""

    def __init__(self, board: Board, start_boxes: int, box_cells: Sequence[int], symmetry: Symmetry | None) -> None:
        self._sums = []  # per image, looked up by byte position * 256 + byte
        for per_cell in _per_image(board, start_boxes, symmetry):
            per_bit = [per_cell[cell] for cell in box_cells] + [0] * (64 - len(box_cells))
            sums = np.zeros(8 * 256, dtype=np.int64)
            for position in range(8):
                for byte in range(1, 256):
                    low = byte & -byte
                    sums[position * 256 + byte] = (
                        sums[position * 256 + (byte ^ low)] + per_bit[8 * position + low.bit_length() - 1]
                    )
            self._sums.append(sums)

    def pushes(self, packed: np.ndarray) -> np.ndarray:
        """The least pushes from the start to each position (int64)."""
        offsets = [
            position * 256 + ((packed >> np.uint64(8 * position)) & np.uint64(255)).astype(np.int64)
            for position in range(8)
        ]
        least = None
        for sums in self._sums:
            total = sums[offsets[0]]
            for offset in offsets[1:]:
                total = total + sums[offset]
            least = total if least is None else np.minimum(least, total)
        return least


class ForwardSums:
    """The same bound for the dict table (sokoban/pulls/table.py), a position at a time: per
    image, the sum over a box set, and the least over the images after one box moved."""

    def __init__(self, board: Board, start_boxes: int, symmetry: Symmetry | None) -> None:
        self._per_cell = _per_image(board, start_boxes, symmetry)

    def sums(self, boxes: int) -> list[int]:
        """Per image, the pushes from the start at least."""
        cells = list(cells_of(boxes))
        return [sum(map(per_cell.__getitem__, cells)) for per_cell in self._per_cell]

    def least_after(self, sums: list[int], cell: int, target: int) -> int:
        """The least over the images once the box on `cell` (of the box set with these
        `sums`) is on `target`."""
        return min(total - per_cell[cell] + per_cell[target] for total, per_cell in zip(sums, self._per_cell))

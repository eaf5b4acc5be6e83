"""Dead-end corridors, where the next push is forced and no plan is lost.

Take a straight corridor, one wide, closed at its far end (in direction d), and a box on
its first cell c with the player right behind it. The box can only ever go deeper: to
push it back or sideways the player would have to stand beyond it, or in a wall; and no
other box can get past it. When the corridor (c included) has more goals than boxes,
some goal in it stays empty until this box has gone deeper and another box has come in
after it. Then the search pushes this box now and makes no other child.

Why no plan is lost, under either metric. Any plan from here makes some pushes S first
(none in the corridor: the player cannot get past the box), walks back behind the box
and pushes it deeper r times in a row, then goes on with R, which is not empty (another
box must still come in) and starts outside the corridor (inside it the player can only
push this box deeper, and the run of r was as long as it got). Pushing those r first,
then S, then R makes the same pushes, and no more moves: S is unchanged, as it never
enters the corridor; the walk out to S is r longer, from r cells deeper; and the walks
from the end of S back behind the box, then from the deeper cell out to R (which is r
plus the walk from behind the box to R: the corridor's only way out is there) become
one walk from the end of S to R.

Without either condition it is not so: a box pushed into the corridor by one plan's
last pushes leaves the player inside with nothing more to do, and pushing it first
would add the walk out (a one-box corridor beside another box's goal: 5 moves instead
of 4); and where the far side is a room, the plan may do its other pushes first and
go in only once.
"""

from __future__ import annotations

from fewest.solvers.sokoban.board.board import Board, cells_of


class Tunnels:
    """Per direction d, the first cells of dead-end corridors that way, each with the
    corridor's cells (itself included)."""

    def __init__(self, board: Board) -> None:
        self.goals = board.goals
        self.corridors: list[dict[int, int]] = [_corridors(board, d) for d in range(4)]
        self.cells = 0  # every first cell, any direction (whether to ask at all)
        for found in self.corridors:
            for cell in found:
                self.cells |= 1 << cell

    def forced(self, boxes: int, player: int, candidates: list) -> list | None:
        """The one push to make (as `candidates`, from open_pushes), or None when no box
        next to the player stands at the mouth of a dead-end corridor with more goals than boxes."""
        for d, step, movable in candidates:
            cell = player + step
            corridor = self.corridors[d].get(cell) if (movable >> cell) & 1 else None
            if corridor is not None and (self.goals & corridor).bit_count() > (boxes & corridor).bit_count():
                return [(d, step, 1 << cell)]
        return None


def _corridors(board: Board, d: int) -> dict[int, int]:
    """{first cell: the corridor's cells} for each dead-end corridor in direction d:
    straight, one wide all along, floor behind its first cell, a wall past its last."""
    floor, steps = board.floor, board.steps
    step, across = steps[d], steps[(d + 1) % 4]

    def one_wide(cell: int) -> bool:
        return not (floor >> (cell + across)) & 1 and not (floor >> (cell - across)) & 1

    found = {}
    for cell in cells_of(floor):
        if not (floor >> (cell - step)) & 1 or not (floor >> (cell + step)) & 1 or not one_wide(cell):
            continue
        corridor, ahead = 1 << cell, cell + step
        while (floor >> ahead) & 1 and one_wide(ahead):
            corridor |= 1 << ahead
            ahead += step
        if not (floor >> ahead) & 1:  # (else it opens out: no dead end)
            found[cell] = corridor
    return found

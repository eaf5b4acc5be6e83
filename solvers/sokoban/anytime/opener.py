"""The opener advisor, after FESS's: a move that frees a box's way to its packing goal.

The packing advisor sends a box to the next goal of a packing order when it can go
there alone, the other boxes in place. When none can (XSokoban #40 and #43 from the
start: boxes stand on every way in, or between the player and the boxes), the
opener looks at the way the box nearest that goal would take on the board with no
other box: its pushes, the cells the player pushes from, and the player's walks to
them (the first from where it stands, unless the player gets to that first push
round the boxes). The first other box on that way, from the player's end, that can
get off it goes alone, by the fewest pushes, to the nearest cell off the way. One
child, made as the packing advisor's are."""

from __future__ import annotations

from fewest.solvers.sokoban.board.board import DIRECTIONS, Board, cells_of
from fewest.solvers.sokoban.board.tables import UNREACHABLE, Tables
from fewest.solvers.sokoban.plans.lone_box import Push, lone_pushes, lone_pushes_until


class Opener:
    """The advisor above for one board and its packing orders (the lone ways kept per box
    cell and goal)."""

    def __init__(self, board: Board, orders: dict[int, tuple[int, ...]]) -> None:
        self.board = board
        self.orders = list(set(orders.values()))
        self.ways: dict[tuple[int, int, int], tuple | None] = {}  # (first push, the cells from it)

    def advice(self, walls: Tables, boxes: int, player: int) -> list[tuple[list[Push], int, int]]:
        """[(pushes, boxes after, player's cell after)] for the first order whose next
        goal's nearest box has another on its way that can get off it ([] for none); asked
        where the packing advisor has no advice. `walls`: the tables with the packed boxes
        as walls."""
        board = self.board
        for order in self.orders:
            goal = next((goal for goal in order if not (boxes >> goal) & 1), None)
            if goal is None:
                continue
            at_goal = (walls.board.goals & ((1 << goal) - 1)).bit_count()
            rows = walls.rows
            near = [(rows[box][at_goal], box) for box in cells_of(boxes & walls.board.floor)]
            near = sorted(entry for entry in near if entry[0] < UNREACHABLE)
            if not near:
                continue
            box = near[0][1]
            seen = board.reach(player, board.floor & ~boxes)
            way = self.way(walls, boxes & ~walls.board.floor, box, goal, player, seen)
            if way is None:
                continue
            for blocker in way:
                if not (boxes >> blocker) & 1 or blocker == box:
                    continue
                on_way = sum(1 << cell for cell in way)
                others = boxes & ~(1 << blocker)
                pushes = lone_pushes_until(
                    board, walls.live, others, blocker, player, lambda cell: not (on_way >> cell) & 1
                )
                if pushes:
                    last, d = pushes[-1]
                    return [(pushes, others | (1 << (last + board.steps[d])), last)]
        return []

    def way(
        self, walls: Tables, packed: int, box: int, goal: int, player: int, seen: int = 0
    ) -> list[int] | None:
        """The cells of the lone box's way to `goal` on a board with no other box but the
        `packed` ones, in the order the player meets them: its walk to the first push
        (none when the cell it pushes from is in `seen`, where the player gets round the
        boxes), then per push the cell it pushes from and the box's cell (walks between
        pushes too). None: it has none. (All but the first walk kept: 7% of XSokoban
        #25's time.)"""
        board = self.board
        key = (box, goal, packed)
        if key not in self.ways:
            pushes = lone_pushes(board, walls, packed, box, player, goal)
            self.ways[key] = None if not pushes else (pushes[0], self._walked(pushes, packed, goal))
        kept = self.ways[key]
        if kept is None:
            return None
        (cell, d), rest = kept
        behind = cell - board.steps[d]
        if rest is None or (seen >> behind) & 1:
            return rest
        walk = self._walk(player, behind, packed | (1 << cell))
        return None if walk is None else walk + rest

    def _walked(self, pushes: list[Push], packed: int, goal: int) -> list[int] | None:
        """The way's cells from the first push on (see way)."""
        board = self.board
        cells: list[int] = []
        for index, (cell, d) in enumerate(pushes):
            if index:
                walk = self._walk(at, cell - board.steps[d], packed | (1 << cell))
                if walk is None:
                    return None
                cells += walk
            cells.append(cell)
            at = cell
        cells.append(goal)
        return cells

    def _walk(self, start: int, target: int, boxes: int) -> list[int] | None:
        """The cells of a shortest walk from `start` to `target` round `boxes` (the
        target's last; None: none)."""
        letters = self.board.walk(start, target, boxes)
        if letters is None:
            return None
        cells, at = [], start
        for letter in letters:
            at += self.board.steps[DIRECTIONS.index(letter)]
            cells.append(at)
        return cells

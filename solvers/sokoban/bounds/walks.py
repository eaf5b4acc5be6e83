"""Walking the boxes' way forces on the player: a lower bound on the walks left.

Take a potential phi on cells that changes by at most 1 over a player's step, and a
position's value Phi = phi(player) - sum of phi(box). A walk of k steps changes Phi by
at most k. A push of a box from b to b + d (the player from b - d to b) changes it by
2 phi(b) - phi(b - d) - phi(b + d): nothing or less, when phi is convex along every line
a push can take. Then, the plan ending with the player on a cell e beside a goal (the
last box came from there):

    walks left >= Phi(end) - Phi(now) = phi(e) - phi(player) + sum phi(boxes) - sum phi(goals)

Two potentials, the larger bound taken:
- x and y (each sign): linear, so a push leaves Phi as it was. The bound is the L1
  length of the player's way to an end cell less the boxes' whole displacement, which
  is known whatever box ends on whatever goal (the pushes carry the player that far).
- the walking distance to the goals, flattened where it is not convex along a push
  line: boxes brought in from far off. Each push inwards takes the player one step in
  with its box, and only walking takes it out again for the next box.
On Microban #153 (ten boxes carried ~34 pushes each into a column on the far left)
the first says 56 steps and the second 115, where the matching counts none; its plans
with the fewest pushes walk 464 at the least (800 moves, 336 pushes). Both are
consistent (a walk of k steps moves them by at most k, a push not at all) and add to
the pushes left in a moves count: walks and pushes are disjoint parts of it. What they
cannot see is walking there and back (round a box to push it the other way), so they
stay well below most plans' walking. Nor can any potential of this kind: the best one
for #153's start (phi for the player and a potential of its own for the boxes, each
push allowed to raise Phi by a price paid for every push left; a linear program,
solved offline) says 160 of those 464.
"""

from __future__ import annotations

from collections import deque

from fewest.solvers.common.control import Check, no_check
from fewest.solvers.sokoban.board.board import Board, cells_of


class WalkBound:
    """The walking a board's positions force, in O(1) per position once their sums are known."""

    def __init__(self, board: Board, live: int, check: Check = no_check) -> None:
        """`check` is called now and then and may raise to stop the work (over a second
        on a 100 x 100 board)."""
        width = board.width
        floor, goals, steps = board.floor, board.goals, board.steps
        self.xs = [cell % width for cell in range(board.size)]
        self.ys = [cell // width for cell in range(board.size)]
        self.phi = _convex_distance(board, live, check)
        xs, ys, phi = self.xs, self.ys, self.phi
        cells = list(cells_of(goals))
        self.goal_sums = (sum(xs[g] for g in cells), sum(ys[g] for g in cells), sum(phi[g] for g in cells))
        ends = {
            g - step for g in cells for step in steps
            if (floor >> (g - step)) & 1 and (floor >> (g - 2 * step)) & 1
        }
        self.stuck_sums: dict[int, tuple[int, int, int]] = {0: (0, 0, 0)}
        if not ends:  # (no push can end on a goal: nothing to bound, nothing to solve)
            ends = {next(cells_of(floor))}
        self.end_phi = min(phi[e] for e in ends)
        points = [(xs[e], ys[e]) for e in ends]
        self.x0, self.x1 = min(x for x, _ in points), max(x for x, _ in points)
        self.y0, self.y1 = min(y for _, y in points), max(y for _, y in points)
        self.nearest = _nearest(points, self.x0, self.y0, self.x1 - self.x0 + 1, self.y1 - self.y0 + 1)

    def sums(self, order: "list[int]", stuck: int) -> tuple[int, int, int]:
        """The boxes' x, y and phi summed, less the goals': `order` the loose boxes,
        `stuck` those frozen on goals."""
        xs, ys, phi = self.xs, self.ys, self.phi
        held = self.stuck_sums.get(stuck)
        if held is None:
            frozen = list(cells_of(stuck))
            held = self.stuck_sums[stuck] = (
                sum(xs[c] for c in frozen), sum(ys[c] for c in frozen), sum(phi[c] for c in frozen)
            )
        gx, gy, gphi = self.goal_sums
        return (
            sum(map(xs.__getitem__, order)) + held[0] - gx,
            sum(map(ys.__getitem__, order)) + held[1] - gy,
            sum(map(phi.__getitem__, order)) + held[2] - gphi,
        )

    def moved(self, sums: tuple[int, int, int], cell: int, target: int) -> tuple[int, int, int]:
        """The sums after a box moved from `cell` to `target`."""
        return (
            sums[0] + self.xs[target] - self.xs[cell],
            sums[1] + self.ys[target] - self.ys[cell],
            sums[2] + self.phi[target] - self.phi[cell],
        )

    def walk(self, player: int, sums: tuple[int, int, int]) -> int:
        """Steps of walking left at least, the player on `player`, the boxes' `sums`
        (0 on a solved position is the caller's to know)."""
        qx = self.xs[player] - sums[0]
        qy = self.ys[player] - sums[1]
        # beyond the ends' box the way in is part of every L1 route: clamp, then look up
        cx = self.x0 if qx < self.x0 else self.x1 if qx > self.x1 else qx
        cy = self.y0 if qy < self.y0 else self.y1 if qy > self.y1 else qy
        carried = abs(qx - cx) + abs(qy - cy) + self.nearest[(cy - self.y0) * (self.x1 - self.x0 + 1) + cx - self.x0]
        inward = self.end_phi - self.phi[player] + sums[2]
        return carried if carried > inward else inward


def _nearest(points: list[tuple[int, int]], x0: int, y0: int, width: int, height: int) -> list[int]:
    """The L1 distance to the nearest of `points`, for each point of the box they span
    (row by row from (x0, y0)): a breadth-first search on the open box, where a shortest
    way between two points never leaves the box (a minimum over the points per box point
    took seconds on a 10,000-cell board with 150 goals)."""
    nearest = [-1] * (width * height)
    queue: deque = deque()
    for x, y in points:
        at = (y - y0) * width + x - x0
        if nearest[at] < 0:
            nearest[at] = 0
            queue.append(at)
    while queue:
        at = queue.popleft()
        y, x = divmod(at, width)
        sides = ((at - 1, x > 0), (at + 1, x < width - 1), (at - width, y > 0), (at + width, y < height - 1))
        for near, inside in sides:
            if inside and nearest[near] < 0:
                nearest[near] = nearest[at] + 1
                queue.append(near)
    return nearest


def _convex_distance(board: Board, live: int, check: Check) -> list[int]:
    """Per cell: the player's walking distance to the nearest goal, lowered until no push
    (a box on a live cell to a live cell) crosses a ridge of it and a step still changes
    it by at most 1. (Values only go down, never below the least one: it ends.)"""
    floor, steps = board.floor, board.steps
    far = board.size  # (cells off the floor: never looked at)
    phi = [far] * board.size
    queue = deque(cells_of(board.goals))
    for goal in queue:
        phi[goal] = 0
    while queue:
        cell = queue.popleft()
        for step in steps:
            near = cell + step
            if (floor >> near) & 1 and phi[near] == far:
                phi[near] = phi[cell] + 1
                queue.append(near)
    lines = [
        (cell - step, cell, cell + step) for cell in cells_of(live) for step in steps
        if (live >> (cell + step)) & 1 and (floor >> (cell - step)) & 1
    ]
    changed = True
    while changed:
        check()  # (on a 100 x 100 board: 86 passes of 15 ms each)
        changed = False
        for behind, cell, ahead in lines:
            if 2 * phi[cell] > phi[behind] + phi[ahead]:
                phi[cell] = (phi[behind] + phi[ahead]) // 2
                changed = True
        for cell in cells_of(floor):
            for step in steps:
                near = cell + step
                if (floor >> near) & 1 and phi[near] > phi[cell] + 1:
                    phi[near] = phi[cell] + 1
                    changed = True
    return phi

"""A lower bound on pushes from pairs of boxes solved exactly (a pattern database).

Take two boxes, drop every other box, and ask for the fewest pushes that put
both on goals (any two), the player starting where it stands. A plan for the
whole level, with the other boxes' pushes read as plain steps, is a plan for
that smaller problem, so its pushes of those two boxes are at least the
answer. Pushes add up box by box: for any split of the boxes into pairs and
singles, the sum of the parts' answers is a lower bound on the pushes left.
Unlike the matching (common/assignment.py) it sees boxes in each other's way
and where the player can get to; the search takes the larger of the two.

The answers for every pair of cells and every walking region of the player
come from one breadth-first search backwards from the goals (pulls instead of
pushes), done once per level. A pair that can never be solved from where it
stands is a deadlock: its answer is UNREACHABLE.
"""

from __future__ import annotations

from collections import deque
from itertools import combinations

from fewest.solvers.common.build_cache import cached_per_board
from fewest.solvers.common.control import Check, no_check
from fewest.solvers.sokoban.board.board import Board, cells_of
from fewest.solvers.sokoban.board.regions import Regions, where
from fewest.solvers.sokoban.board.tables import UNREACHABLE

MAX_FLOOR = 200  # larger boards skip the pair table (its build grows with floor^2)
CHECK_EVERY = 1024  # positions taken from the queue between two calls of the build's check


class PairBound:
    """Exact pushes for every single box and every pair of boxes alone on the board."""

    def __init__(self, board: Board, check: Check = no_check) -> None:
        self.size = board.size
        self._board = board
        self._regions = Regions(board)
        # Answers: pushes, or, where the player's side matters, ((region mask, pushes), ...).
        # Singles per cell in a list (UNREACHABLE off the floor and on dead squares); pairs
        # by low cell * size + high cell (absent: the pair can never be solved).
        singles = self._answers(1, check)
        self._by_cell = [singles.get(cell, UNREACHABLE) for cell in range(self.size)]
        self.pairs = self._answers(2, check)
        self._partners_of = self._partners(singles)
        del self._regions  # only needed while building

    def bound(self, boxes: int, player: int) -> int:
        """A lower bound on the pushes that put these boxes (a mask of cells) on goals."""
        by_cell, partners_of = self._by_cell, self._partners_of
        total = 0
        alone = {}
        linked = []  # (cell, its partners among the boxes above it)
        rest = boxes
        while rest:
            bit = rest & -rest
            rest ^= bit
            cell = bit.bit_length() - 1
            value = by_cell[cell]
            if value.__class__ is not int:
                value = where(value, player)
            total += value
            alone[cell] = value
            others = partners_of[cell] & rest
            if others:
                linked.append((cell, others))
        if total >= UNREACHABLE:
            return UNREACHABLE
        if not linked:
            return total
        pairs, size = self.pairs, self.size
        gains = []
        for low, others in linked:
            base, cost = low * size, alone[low]
            while others:
                bit = others & -others
                others ^= bit
                high = bit.bit_length() - 1
                value = pairs.get(base + high, UNREACHABLE)
                if value.__class__ is not int:
                    value = where(value, player)
                if value >= UNREACHABLE:
                    return UNREACHABLE  # these two can never both reach goals
                gain = value - cost - alone[high]
                if gain > 0:
                    gains.append((gain, low, high))
        if gains:
            gains.sort(reverse=True)  # greedy: any split into pairs gives a lower bound
            used = 0
            for gain, low, high in gains:
                if not (used >> low) & 1 and not (used >> high) & 1:
                    used |= (1 << low) | (1 << high)
                    total += gain
        return total

    def _partners(self, singles: dict) -> list[int]:
        """Per cell, the cells whose pair with it may be worth more than the two alone, for
        some player cell (a mask); every pair that is a deadlock somewhere is among them."""
        size = self.size
        live = {cell: _least(value) for cell, value in singles.items()}
        partners = [0] * size
        for low, high in combinations(cells_of(self._board.floor), 2):
            if low not in live or high not in live:
                continue  # a box there is a dead square: pruned before any bound
            if _most(self.pairs.get(low * size + high, UNREACHABLE)) > live[low] + live[high]:
                partners[low] |= 1 << high
                partners[high] |= 1 << low
        return partners

    def _answers(self, count: int, check: Check) -> dict:
        """Backward BFS over (boxes, player's region) from every `count` goals."""
        board = self._board
        floor, steps = board.floor, board.steps
        distance: dict[tuple[int, int], int] = {}
        queue: deque = deque()
        for goals in combinations(cells_of(board.goals), count):
            mask = sum(1 << goal for goal in goals)
            for region in self._regions.masks(mask):
                distance[mask, region] = 0
                queue.append((mask, region))
        taken = 0
        while queue:
            taken += 1
            if taken % CHECK_EVERY == 0:
                check()
            state = queue.popleft()
            mask, region = state
            pushes = distance[state] + 1
            for box in cells_of(mask):
                for step in steps:
                    # the player on box - step pulls the box there and backs onto box - 2 step
                    behind = box - 2 * step
                    if not (region >> (box - step)) & 1 or not (floor >> behind) & 1 or (mask >> behind) & 1:
                        continue
                    pulled = mask ^ (1 << box) ^ (1 << (box - step))
                    after = (pulled, self._regions.of(pulled, behind))
                    if after not in distance:
                        distance[after] = pushes
                        queue.append(after)
        answers: dict = {}
        for mask, answer in self._regions.fold(distance).items():
            cells = list(cells_of(mask))
            answers[cells[0] * self.size + cells[-1] if count == 2 else cells[0]] = answer
        return answers


def _least(value) -> int:
    return value if value.__class__ is int else min(pushes for _, pushes in value)


def _most(value) -> int:
    return value if value.__class__ is int else max(pushes for _, pushes in value)


@cached_per_board(16)
def pair_bound(board: Board, *, check: Check = no_check) -> PairBound | None:
    """The pair table of a board (cached), or None when the board is too large for one.
    `check` is called now and then and may raise to stop the build (a big board's takes
    a quarter of a second)."""
    if bin(board.floor).count("1") > MAX_FLOOR or bin(board.goals).count("1") < 2:
        return None
    return PairBound(board, check)

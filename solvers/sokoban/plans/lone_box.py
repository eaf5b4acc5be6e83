"""Searches for one box alone, the other boxes standing as walls: the fewest pushes to a
goal (the packing advisor's, sokoban/plans/packing_order.py, and the opener's), the fewest
pushes to any cell a caller wants (the hotspot and opener advisors', sokoban/anytime/), every
place a box can go (the packing search's moves of a box anywhere), and the fewest pulls off
a set of cells (the packing orders found forwards and backwards). A
state is the box's cell and the player's region beside it (by its lowest cell).
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterator

from fewest.solvers.common.search import steps_back
from fewest.solvers.sokoban.board.board import Board, pushable_to
from fewest.solvers.sokoban.board.tables import UNREACHABLE, Tables

Push = tuple[int, int]  # (box cell before the push, direction index)
# States (box cell, player's region) lone_pushes_until takes out at most: a box the hotspot
# or opener advisor cannot get out of the way nearby is left to the search (XSokoban: most
# moves out of the way found take under 20 pushes).
MOST_STATES = 400


def pulls_to(board: Board, others: int, box: int, regions: list[int], targets: int) -> int | None:
    """Fewest pulls that take a lone box from `box` onto a cell of `targets`, the `others`
    standing as walls and the player starting in one of `regions` (each the cells it
    reaches round the box); None: none do."""
    free, steps = board.floor & ~others, board.steps
    queue: deque = deque((box, region, 0) for region in regions)
    seen = {(box, (region & -region).bit_length()) for region in regions}
    while queue:
        cell, region, pulls = queue.popleft()
        if (targets >> cell) & 1:
            return pulls
        for step in steps:
            stand, back = cell + step, cell + 2 * step  # the player pulls from `stand`, backs onto `back`
            if not (region >> stand) & 1 or not (free >> back) & 1:
                continue
            reached = board.reach(back, free & ~(1 << stand))
            state = (stand, (reached & -reached).bit_length())
            if state not in seen:
                seen.add(state)
                queue.append((stand, reached, pulls + 1))
    return None


def lone_pushes(board: Board, tables: Tables, others: int, box: int, player: int, goal: int) -> list[Push] | None:
    """The fewest pushes taking a lone box from `box` to `goal`, the `others` in place and
    the player on `player`; None when it cannot get there. A state is the box's cell and
    the player's region beside it (by its lowest cell), as in pulls_to; A* on the lone
    box's push distance (`tables`, whose goals hold `goal`), which never overestimates."""
    floor, steps = board.floor, board.steps
    free = floor & ~others
    # (the box keeps to cells from which it could reach the goal alone: the advisor's searches
    # over every live cell were 60% of the FESS-like finder's time on XSokoban #13)
    at_goal = (tables.board.goals & ((1 << goal) - 1)).bit_count()
    rows = tables.rows
    # (were the player anywhere: a bitboard check, and the searches fail four times in five)
    if rows[box][at_goal] >= UNREACHABLE or not (pushable_to(board, 1 << box, free, 1 << goal) >> goal) & 1:
        return None
    region = board.reach(player, free & ~(1 << box))
    first = (box, (region & -region).bit_length())
    came: dict = {first: None}  # state -> (state before, push)
    pushes_to = {first: 0}
    queue = [(rows[box][at_goal], 0, box, region)]
    while queue:
        _, pushes, cell, region = heapq.heappop(queue)
        state = (cell, (region & -region).bit_length())
        if cell == goal:
            return steps_back(came, state)
        if pushes > pushes_to[state]:
            continue  # (queued again since, by fewer pushes)
        pushes += 1
        for d, step in enumerate(steps):
            behind, ahead = cell - step, cell + step
            if not (region >> behind) & 1 or not (free >> ahead) & 1:
                continue
            left = rows[ahead][at_goal]
            if left >= UNREACHABLE:
                continue
            reached = board.pushed_region(region, free & ~(1 << ahead), cell, ahead)  # (the player, left on `cell`)
            after = (ahead, (reached & -reached).bit_length())
            if pushes < pushes_to.get(after, UNREACHABLE):
                pushes_to[after] = pushes
                came[after] = (state, (cell, d))
                heapq.heappush(queue, (pushes + left, pushes, ahead, reached))
    return None


def lone_pushes_until(board: Board, live: int, others: int, box: int, player: int, wanted) -> list[Push] | None:
    """The fewest pushes taking a lone box from `box` to a cell where `wanted(cell)` holds
    (not its own), over `live` cells, the `others` in place and the player on `player`;
    None when none is found within MOST_STATES states. A state is the box's cell and the
    player's region beside it (by its lowest cell)."""
    region = board.reach(player, board.floor & ~others & ~(1 << box))
    came: dict = {(box, region & -region): None}
    for cell, state in _lone_states(board, live, others, box, region, MOST_STATES, came):
        if cell != box and wanted(cell):
            return steps_back(came, state)
    return None


def lone_reach(
    board: Board, live: int, others: int, box: int, region: int, most: int
) -> list[tuple[int, int, list[Push]]]:
    """Every (cell, player's region) a lone box on `box` reaches by pushes over `live`
    cells, the `others` in place and the player in `region` (its region with the box on
    `box`), but where it starts, each once, by the fewest pushes: (its cell, the player's
    region there, the pushes), nearest first; at most `most` states are taken out."""
    came: dict = {(box, region & -region): None}
    reached: list = []
    for _ in _lone_states(board, live, others, box, region, most, came, reached):
        pass
    return [(cell, after, steps_back(came, state)) for cell, after, state in reached]


def _lone_states(
    board: Board, live: int, others: int, box: int, region: int, most: int, came: dict, reached: list | None = None
) -> Iterator[tuple[int, tuple[int, int]]]:
    """The states of a lone box from `box` (the player in `region`), breadth first over
    pushes onto `live` cells, the `others` in place: each (its cell, state) as it is taken
    out, at most `most`; `came` (the start's state in it) gets each state's way back, and
    `reached` (when given) each new one as (its cell, the player's region, state)."""
    free = board.floor & ~others
    queue = deque([(box, region)])
    taken = 0
    while queue and taken < most:
        cell, region = queue.popleft()
        taken += 1
        state = (cell, region & -region)
        yield cell, state
        for d, step in enumerate(board.steps):
            behind, ahead = cell - step, cell + step
            if not (region >> behind) & 1 or not (free >> ahead) & 1 or not (live >> ahead) & 1:
                continue
            after_region = board.pushed_region(region, free & ~(1 << ahead), cell, ahead)
            after = (ahead, after_region & -after_region)
            if after not in came:
                came[after] = (state, (cell, d))
                queue.append((ahead, after_region))
                if reached is not None:
                    reached.append((ahead, after_region, after))

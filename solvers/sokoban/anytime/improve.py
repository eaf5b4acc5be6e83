"""A found plan made shorter: the vicinity search of YASS's optimizer.

A plan found with no proof (sokoban/anytime/fess.py, the packing search, the
weighted searches) passes through positions P0 .. Pn, its box sets after each
push. The shortest plan through positions near those is often much shorter:
a box may take another way while the others go on as the plan has them. Here
the vicinity of radius k holds every box set that, for some i, is Pi with at
most k boxes elsewhere and each of those boxes within a few steps of
where Pi has it (a dictionary of each Pi less any k of its boxes finds that in
a few lookups). A Dijkstra search over pushes (the state: the
boxes and the player's cell; a push costs the player's shortest walk to it,
plus one) through the vicinity then finds the fewest moves (ties: pushes;
under the pushes metric, fewest pushes then moves) from the start to the
solved position. The plan's own positions are in it, so the result is never
longer. It is repeated on the new plan's positions while it gains, then with
one more box displaced, as far as the tuning's improve.distances go. A plan
longer than the tuning's improve.window is searched a stretch at a time, each
stretch ending where it ended (the same boxes, the player on the same cell), so
the rest stands: the vicinity of a whole 400-push plan is too large for seconds.
From a plan known near the position instead (a step off a hint's plan), the
search goes back onto one of its positions and follows its rest.

Pruned: pushes onto dead squares and pushes that freeze a box off its goal.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from itertools import combinations

from fewest.solvers.common.control import Control
from fewest.solvers.common.search import steps_back
from fewest.solvers.sokoban.board.board import Board, cells_of
from fewest.solvers.sokoban.board.tables import Tables
from fewest.solvers.sokoban.pruning.deadlock import frozen_group
from fewest.solvers.sokoban.searches.push import MAJOR
from fewest.solvers.sokoban.tuning import TUNING, SokobanTuning

Push = tuple[int, int]  # (cell the box leaves, direction index 0..3 = l u r d)
ENTRY_BYTES = 400  # a state's cost, parent link and queue entry, for the memory budget
CHECK_EVERY = 64  # expansions between looks at the budget


def improvements(
    tables: Tables, boxes: int, player: int, plan: list[Push], control: Control, metric: str = "moves",
    tuning: SokobanTuning = TUNING,
) -> Iterator[list[Push]]:
    """Each shorter plan (by `metric`: "moves", ties pushes; "pushes", ties moves) found
    from `plan`, a push plan from `boxes` and `player`, in turn; the last is the best.
    Raises Stopped when the budget runs out (the plans yielded stand)."""
    best, cost = plan, plan_cost(tables, boxes, player, plan, metric)
    radius = 1
    distances, window = tuning.improve.distances, tuning.improve.window
    # (no more boxes displaced than there are: with one box, a radius of 2 left no vicinity at
    # all, and the plan's own positions were not found; a 100 x 100 room's plan crashed so)
    while radius <= min(len(distances), boxes.bit_count()):
        gained = False
        for found in _windows(tables, boxes, player, best, radius, distances[radius - 1], control, metric, window):
            found_cost = plan_cost(tables, boxes, player, found, metric)
            if found_cost < cost:
                best, cost, gained = found, found_cost, True
                yield best
        if not gained:
            radius += 1


def _windows(
    tables: Tables, boxes: int, player: int, plan: list[Push], radius: int, distance: int, control: Control,
    metric: str, window: int,
) -> Iterator[list[Push]]:
    """The plan with each stretch of `window` pushes (half a window apart, the last one
    reaching the end) replaced in turn by the cheapest through its own vicinity that ends
    where it ends (the same boxes, the player on the same cell): each plan so made. A plan
    no longer than a window is searched whole."""
    if len(plan) <= window:
        found = vicinity_search(tables, boxes, player, plan, radius, distance, control, metric)
        assert found is not None, "the plan's own positions lead to the solved one"
        yield found
        return
    steps = tables.board.steps
    first = 0
    while first < len(plan):
        last = min(first + window, len(plan))
        before_boxes, before_player = boxes, player
        for cell, d in plan[:first]:  # (where the stretch starts)
            before_boxes ^= (1 << cell) | (1 << (cell + steps[d]))
            before_player = cell
        stretch = plan[first:last]
        ends = None
        if last < len(plan):
            after = before_boxes
            for cell, d in stretch:
                after ^= (1 << cell) | (1 << (cell + steps[d]))
            ends = (after, stretch[-1][0])
        found = vicinity_search(tables, before_boxes, before_player, stretch, radius, distance, control, metric,
                                ends=ends)
        assert found is not None, "the stretch's own positions lead to its end"
        if found != stretch:
            plan = plan[:first] + found + plan[last:]
            yield plan
        if last == len(plan):
            return
        first += max(1, window // 2)


def plan_cost(tables: Tables, boxes: int, player: int, plan: list[Push], metric: str) -> int:
    """The plan's cost as the search counts it: moves * MAJOR + pushes (pushes * MAJOR +
    moves under the pushes metric), with the shortest walk to each push."""
    board = tables.board
    moves = 0
    for cell, d in plan:
        behind = cell - board.steps[d]
        walk = board.distance(player, behind, board.floor & ~boxes)
        assert walk is not None, "the plan pushes from a cell the player cannot reach"
        moves += walk + 1
        boxes ^= (1 << cell) | (1 << (cell + board.steps[d]))
        player = cell
    pushes = len(plan)
    return pushes * MAJOR + moves if metric == "pushes" else moves * MAJOR + pushes


def vicinity_search(
    tables: Tables, boxes: int, player: int, plan: list[Push], radius: int, distance: int, control: Control,
    metric: str = "moves", plan_from: int | None = None, ends: tuple[int, int] | None = None,
) -> list[Push] | None:
    """The cheapest push plan from `boxes` and `player` whose every position is one of
    `plan`'s with at most `radius` boxes elsewhere, each within `distance` steps of where
    the plan has it (see above). `plan_from`: the boxes `plan` starts from, when not
    `boxes` (a plan known from a position near this one): then the cheapest way back onto
    one of the plan's positions, and the plan's rest from there (not the cheapest plan:
    a first plan, soon); None: none (never when `plan` starts here: it is one). `ends`:
    (boxes, player's cell) where the plan must end, when not on the solved position (a
    stretch of a longer plan)."""
    board = tables.board
    steps, floor, goals, live = board.steps, board.floor, board.goals, tables.live
    near = _vicinity(board, boxes if plan_from is None else plan_from, plan, radius, distance)
    rejoin = {} if plan_from is None else {at: i for i, at in enumerate(_positions(steps, plan_from, plan))}
    shift = board.size.bit_length()
    start = (boxes << shift) | player
    best = {start: 0}
    parent: dict[int, tuple[int, Push] | None] = {start: None}
    queue = [(0, start)]
    pushes_first = metric == "pushes"
    inside: dict[int, bool] = {}  # box set -> in the vicinity (many player cells share one)
    with control.metered(ENTRY_BYTES) as meter:
        while queue:
            cost, key = heapq.heappop(queue)
            if best[key] != cost:
                continue
            boxes, player = key >> shift, key & ((1 << shift) - 1)
            if (boxes & goals == goals) if ends is None else (boxes, player) == ends:
                return steps_back(parent, key)
            back_on = rejoin.get(boxes)
            if back_on is not None and _playable(board, boxes, player, plan[back_on:]):
                return steps_back(parent, key) + plan[back_on:]
            control.tick()
            if not control.expanded % CHECK_EVERY:
                meter.stored = len(best)
                control.check()
            free = floor & ~boxes
            for d, box, walk in _pushes(board, boxes, player, free & live):
                ahead = box + steps[d]
                moved = boxes ^ (1 << box) ^ (1 << ahead)
                child = (moved << shift) | box
                total = cost + (MAJOR + walk + 1 if pushes_first else (walk + 1) * MAJOR + 1)
                if total >= best.get(child, total + 1):
                    continue
                near_plan = inside.get(moved)
                if near_plan is None:
                    near_plan = inside[moved] = _within(near, moved, radius) and not (
                        frozen_group(tables, moved, ahead) & ~goals)
                if near_plan:
                    best[child] = total
                    parent[child] = (key, (box, d))
                    heapq.heappush(queue, (total, child))
    return None


def _pushes(board: Board, boxes: int, player: int, targets: int) -> Iterator[tuple[int, int, int]]:
    """(direction, box cell, the player's walk to push it) for each push the player can
    make from `player` that sends a box onto a cell of `targets`."""
    steps = board.steps
    wanted = {}  # cell behind a box -> [(direction, box)]
    for d, step in enumerate(steps):
        for box in cells_of(boxes & (targets >> step if step > 0 else targets << -step)):
            wanted.setdefault(box - step, []).append((d, box))
    _, layers = board.layers(player, board.floor & ~boxes)
    behind = sum(1 << cell for cell in wanted)
    for walk, layer in enumerate(layers):
        for cell in cells_of(layer & behind):
            for d, box in wanted[cell]:
                yield d, box, walk


def _playable(board: Board, boxes: int, player: int, plan: list[Push]) -> bool:
    """Can the player, from `player`, make every push of `plan` in turn?"""
    for cell, d in plan:
        if board.distance(player, cell - board.steps[d], board.floor & ~boxes) is None:
            return False
        boxes ^= (1 << cell) | (1 << (cell + board.steps[d]))
        player = cell
    return True


def _vicinity(board: Board, boxes: int, plan: list[Push], radius: int, distance: int) -> dict[int, int]:
    """{a box set along the plan less `radius` of its boxes: the cells within `distance`
    steps of those boxes' cells}, for every such set."""
    balls: dict[int, int] = {}
    near: dict[int, int] = {}
    for position in _positions(board.steps, boxes, plan):
        for gone in combinations(cells_of(position), radius):
            key = position
            around = 0
            for cell in gone:
                key &= ~(1 << cell)
                ball = balls.get(cell)
                if ball is None:
                    ball = balls[cell] = _ball(board, cell, distance)
                around |= ball
            near[key] = near.get(key, 0) | around
    return near


def _ball(board: Board, cell: int, distance: int) -> int:
    """The floor cells within `distance` steps of `cell` (walls only in the way)."""
    _, layers = board.layers(cell, board.floor)
    ball = 0
    for layer in layers[: distance + 1]:
        ball |= layer
    return ball


def _within(near: dict[int, int], boxes: int, radius: int) -> bool:
    """Is `boxes` some plan position with at most `radius` boxes elsewhere, each near?"""
    bits = [1 << cell for cell in cells_of(boxes)]
    if radius == 1:
        return any(near.get(boxes ^ bit, 0) & bit for bit in bits)
    for gone in combinations(bits, radius):
        moved = sum(gone)
        if near.get(boxes & ~moved, 0) & moved == moved:
            return True
    return False


def _positions(steps: tuple, boxes: int, plan: list[Push]) -> Iterator[int]:
    yield boxes
    for cell, d in plan:
        boxes ^= (1 << cell) | (1 << (cell + steps[d]))
        yield boxes


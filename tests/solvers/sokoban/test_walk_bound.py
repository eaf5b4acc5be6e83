"""The walking the boxes' way forces (sokoban_walk_bound.py): never more than the fewest walking
steps of any plan (an independent search in which pushes cost nothing), never dropping by
more than a step at a time, and strong where boxes travel far."""

import random
from collections import deque

from fewest.engine import sokoban as S
from fewest.solvers.sokoban.board.board import cells_of, compile_board
from fewest.solvers.sokoban.bounds.walks import WalkBound
from fewest.solvers.sokoban.board.tables import build_tables
from tests.sokoban_support import microban, positions, random_rooms, search_position


def fewest_walks(lvl: S.Level, state: S.State) -> int | None:
    """0-1 breadth-first search over single steps, a push costing 0 and a walking step 1:
    the least walking of any plan from `state` (None: no plan)."""
    best = {state: 0}
    queue = deque([(0, state)])
    while queue:
        walked, current = queue.popleft()
        if best[current] < walked:
            continue
        if S.is_solved(lvl, current):
            return walked
        for move in S.legal_moves(lvl, current):
            after = S.apply(lvl, current, move)
            cost = walked + (0 if move.push else 1)
            if cost < best.get(after, cost + 1):
                best[after] = cost
                if move.push:
                    queue.appendleft((cost, after))
                else:
                    queue.append((cost, after))
    return None


def walk_bound(lvl: S.Level, state: S.State) -> int:
    """The bound on `state`, as the push search sees it (0 once solved)."""
    tables = build_tables(compile_board(lvl))
    board = tables.board
    boxes, player = search_position(board, state)
    if boxes == board.goals:
        return 0
    bound = WalkBound(board, tables.live)
    return bound.walk(player, bound.sums(list(cells_of(boxes)), 0))


def test_the_bound_never_exceeds_the_fewest_walking_steps_of_any_plan():
    rng = random.Random(7)
    raised = tight = 0
    for room in random_rooms(71, 40):
        for state in positions(room, rng, 6):
            least = fewest_walks(room, state)
            if least is None:
                continue
            bound = walk_bound(room, state)
            assert 0 <= bound <= least, (str(room), state)
            raised += bound > 0
            tight += 0 < bound == least
    assert raised > 20 and tight > 5  # not vacuous: it counts walking, often all of it


def test_a_step_lowers_the_bound_by_at_most_one_and_a_push_not_at_all():
    rng = random.Random(11)
    for room in random_rooms(13, 30):
        for state in positions(room, rng, 4):
            bound = walk_bound(room, state)
            for move in S.legal_moves(room, state):
                assert bound <= walk_bound(room, S.apply(room, state, move)) + (0 if move.push else 1)


def test_boxes_carried_far_force_long_walks_back():
    # Microban #153: ten boxes carried into a column of goals on the far left. The plan
    # with the fewest pushes walks 479 steps (815 moves, 336 pushes); the matching, none.
    lvl, _ = microban(153)[152]
    assert walk_bound(lvl, S.initial_state(lvl)) == 115

"""Every place a lone box can go (sokoban/plans/lone_box.py's lone_reach), against a search
through the engine's own moves."""

import heapq
import random

import pytest

from fewest.engine import sokoban as S
from fewest.solvers.sokoban.board.board import cells_of, compile_board
from fewest.solvers.sokoban.plans.lone_box import lone_reach
from tests.sokoban_support import level, random_room, search_position


def engine_reach(lvl: S.Level, state: S.State, box: tuple) -> dict:
    """{engine cell: fewest pushes} for every cell the box on `box` reaches by the engine's
    moves, walks costing nothing and no other box ever pushed."""
    others = set(state.boxes) - {box}
    best: dict = {}
    queue = [(0, 0, state)]
    seen = {(state.player, box): 0}
    count = 0
    while queue:
        pushes, _, now = heapq.heappop(queue)
        at = next(iter(set(now.boxes) - others))
        best.setdefault(at, pushes)
        for move in S.legal_moves(lvl, now):
            after = S.apply(lvl, now, move)
            if not others <= set(after.boxes):
                continue  # (another box pushed)
            moved = next(iter(set(after.boxes) - others))
            key = (after.player, moved)
            cost = pushes + (1 if move.push else 0)
            if cost < seen.get(key, cost + 1):
                seen[key] = cost
                count += 1
                heapq.heappush(queue, (cost, count, after))
    return best


@pytest.mark.parametrize("seed", range(12))
def test_a_lone_box_reaches_what_the_engine_reaches_by_as_few_pushes(seed):
    rng = random.Random(seed)
    lvl = None
    while lvl is None:
        lvl = random_room(rng)
    state = S.initial_state(lvl)
    board = compile_board(lvl)
    boxes, player = search_position(board, state)
    for box, engine_box in zip(sorted(cells_of(boxes)), sorted(state.boxes, key=board.inside)):
        others = boxes & ~(1 << box)
        region = board.reach(player, board.floor & ~boxes)
        reached = lone_reach(board, board.floor, others, box, region, 10_000)
        fewest: dict = {}
        for cell, after, pushes in reached:
            # each one's pushes, replayed alone, take the box there with the player in that region
            at, mover = box, player
            for push_cell, d in pushes:
                assert push_cell == at
                assert (board.reach(mover, board.floor & ~others & ~(1 << at)) >> (at - board.steps[d])) & 1
                at, mover = at + board.steps[d], at
            assert at == cell and after == board.reach(mover, board.floor & ~others & ~(1 << cell))
            fewest[cell] = min(fewest.get(cell, len(pushes)), len(pushes))
        expected = engine_reach(lvl, state, engine_box)
        expected.pop(engine_box)
        fewest.pop(box, None)
        assert {board.inside(cell): pushes for cell, pushes in expected.items()} == fewest


def test_it_takes_out_no_more_states_than_it_may():
    corridor = level("#########\n#@$    .#\n#########")
    board = compile_board(corridor)
    boxes, player = search_position(board, S.initial_state(corridor))
    region = board.reach(player, board.floor & ~boxes)
    box = boxes.bit_length() - 1
    assert [len(pushes) for _, _, pushes in lone_reach(board, board.floor, 0, box, region, 2)] == [1, 2]
    assert len(lone_reach(board, board.floor, 0, box, region, 100)) == 5

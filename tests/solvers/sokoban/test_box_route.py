"""Moving one box where the player points: the fewest pushes, then moves, against an
independent Dijkstra over single steps in which every other box is a wall."""

import heapq
import itertools

import pytest

from fewest.engine import sokoban as S
from fewest.solvers.sokoban.plans.box_route import box_route
from tests.sokoban_support import exactness_rooms, level


def fewest(lvl: S.Level, state: S.State, box: int, target: int) -> tuple[int, int] | None:
    """(pushes, moves) of the best way to get the box on `box` to `target`, other boxes
    walls: Dijkstra over (box, player) with single steps."""
    walls = lvl.walls | (state.boxes - {box})
    start = (box, state.player)
    best = {start: (0, 0)}
    order = itertools.count()
    heap = [((0, 0), next(order), start)]
    while heap:
        cost, _, (at, player) = heapq.heappop(heap)
        if best[at, player] < cost:
            continue
        if at == target:
            return cost
        for direction in S.DIRECTIONS:
            step = S.neighbour(lvl, player, direction)
            if step is None or step in walls:
                continue
            if step == at:
                beyond = S.neighbour(lvl, at, direction)
                if beyond is None or beyond in walls:
                    continue
                node, new = (beyond, step), (cost[0] + 1, cost[1] + 1)
            else:
                node, new = (at, step), (cost[0], cost[1] + 1)
            if new < best.get(node, (1 << 30, 0)):
                best[node] = new
                heapq.heappush(heap, (new, next(order), node))
    return None


def test_every_box_to_every_cell_matches_the_independent_search():
    routes = unreachable = 0
    for room in exactness_rooms(50, 30):
        state = S.initial_state(room)
        for box in sorted(state.boxes):
            for target in sorted(room.floor - state.boxes):
                expected = fewest(room, state, box, target)
                moves = box_route(room, state, box, target)
                if expected is None:
                    assert moves is None
                    unreachable += 1
                    continue
                end = state
                for move in moves:
                    end = S.apply(room, end, move)  # (legal, or IllegalMoveError)
                assert box not in end.boxes and target in end.boxes
                assert end.boxes - {target} == state.boxes - {box}  # no other box moved
                assert (S.tally(moves).pushes, len(moves)) == expected
                routes += 1
    assert routes > 400 and unreachable > 800  # (both sides of the comparison are tried)


def test_to_its_own_cell_nothing_and_to_a_wall_or_box_no_route():
    lvl = level("#######\n#@ $  #\n#  $ .#\n#    .#\n#######")
    state = S.initial_state(lvl)
    box, other = 1 * 7 + 3, 2 * 7 + 3
    assert box_route(lvl, state, box, box) == []
    assert box_route(lvl, state, box, 0) is None  # a wall
    assert box_route(lvl, state, box, other) is None  # another box
    assert [str(m) for m in box_route(lvl, state, box, 1 * 7 + 5)] == ["r", "R", "R"]
    with pytest.raises(ValueError):
        box_route(lvl, state, 1 * 7 + 2, 1 * 7 + 5)  # no box there

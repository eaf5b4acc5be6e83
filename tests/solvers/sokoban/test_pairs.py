"""The pair bound: exact for two boxes (checked against an independent Dijkstra
over single steps), never above the optimum with more boxes, and its pair deadlocks
are real; the search that uses it still proves the same optimum as without it."""

import random

import pytest

from fewest.engine import sokoban as S
from fewest.solvers.sokoban.board.board import compile_board
from fewest.solvers.sokoban.bounds.pairs import pair_bound
from fewest.solvers.sokoban.board.tables import UNREACHABLE
from tests.sokoban_support import (
    checked,
    lexicographic_optimum,
    microban,
    positions,
    random_rooms,
    search_position,
    solve,
)


def bound_of(lvl: S.Level, state: S.State) -> int | None:
    """The pair bound of the position (None where the board gets no table)."""
    board = compile_board(lvl)
    table = pair_bound(board)
    if table is None:
        return None
    return table.bound(*search_position(board, state))


@pytest.mark.parametrize("seed", range(4))
def test_two_boxes_get_their_exact_push_count(seed):
    rng = random.Random(seed)
    checked_rooms = unsolvable = 0
    for room in random_rooms(200 + seed, 60):
        if len(room.boxes) != 2 or bound_of(room, S.initial_state(room)) is None:
            continue  # (a box sealed on its goal leaves one goal: no pairs, no table)
        for state in positions(room, rng, 4):
            best = lexicographic_optimum(room, "pushes", state)
            exact = UNREACHABLE if best is None else best[0]
            assert bound_of(room, state) == exact
            checked_rooms += 1
            unsolvable += best is None
    assert checked_rooms >= 40 and unsolvable > 0


@pytest.mark.parametrize("seed", range(4))
def test_more_boxes_never_exceed_the_optimum(seed):
    rng = random.Random(seed)
    raised = 0
    for room in random_rooms(300 + seed, 60):
        if len(room.boxes) < 3 or bound_of(room, S.initial_state(room)) is None:
            continue
        for state in positions(room, rng, 3):
            best = lexicographic_optimum(room, "pushes", state)
            value = bound_of(room, state)
            if best is None:
                continue
            assert value <= best[0]
            raised += value == best[0]
    assert raised > 0  # it often is exact, so the comparison above is not vacuous


def test_the_search_with_the_pair_bound_proves_the_same_optimum(monkeypatch):
    lvl, row = microban(105)[104]  # the pair bound cuts this search to a third
    with_pairs = solve(lvl, "pushes")
    monkeypatch.setattr("fewest.solvers.sokoban.searches.push.pair_bound", lambda board, check: None)
    without = solve(lvl, "pushes")
    assert checked(lvl, with_pairs) == checked(lvl, without)
    assert checked(lvl, with_pairs)[1] == int(row["min_pushes"])
    assert with_pairs.stats.stored * 2 < without.stats.stored

"""Packing orders found backwards for levels with no goal room
(sokoban/plans/retrograde_order.py), and the FESS-like finder's plans with them."""

import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control
from fewest.solvers.common.control import Stopped
from fewest.solvers.sokoban import solver
from fewest.solvers.sokoban.anytime.fess import fess_features, fess_search
from fewest.solvers.sokoban.board.board import compile_board
from fewest.solvers.sokoban.board.tables import build_tables
from fewest.solvers.sokoban.plans.packing_order import packing_orders
from fewest.solvers.sokoban.plans.retrograde_order import retrograde_order, with_part_orders
from tests import oracle
from tests.sokoban_support import level, search_position

# Three goals, none in a room: A (row 1, column 1) at the end of a dead end, B beside it at
# its mouth, C in the open (row 3, column 3). Backwards: C leaves first (2 pulls to where a
# box starts, row 3 column 5), then B (3 pulls, to row 1 column 5); A cannot move until B
# is out, then leaves (4). Filled in reverse: A, B, C; A and B, side by side, make a part
# of the goals with that order, C alone none.
SCATTERED = """\
#########
#..  $  #
###  $  #
#  . $ @#
#########"""


def position(text: str) -> tuple:
    lvl = level(text)
    board = compile_board(lvl)
    return lvl, board, *search_position(board, S.initial_state(lvl))


def test_a_roomless_level_gets_the_hand_worked_order():
    lvl, board, boxes, player = position(SCATTERED)
    assert packing_orders(board, boxes, player) == {}  # (no goal room: the old orders had none)
    a, b, c = (board.inside(row * lvl.width + column) for row, column in [(1, 1), (1, 2), (3, 3)])
    assert retrograde_order(board, boxes) == (a, b, c)
    assert with_part_orders(board, boxes, {}) == {a: (a, b), b: (a, b)}


def test_the_finders_plan_with_the_order_replays():
    lvl, board, boxes, player = position(SCATTERED)
    orders = with_part_orders(board, boxes, {})
    pushes = fess_search(build_tables(board), boxes, player, Control(Budget(nodes=5_000)), orders)
    assert pushes is not None
    oracle.replay_length(S, lvl, solver.step_plan(board, boxes, player, pushes)[0])


def test_the_finder_counts_boxes_packed_in_order_and_on_goals_of_no_order():
    lvl, board, boxes, player = position(SCATTERED)
    a, b, c = (board.inside(row * lvl.width + column) for row, column in [(1, 1), (1, 2), (3, 3)])
    packed = fess_features(board, with_part_orders(board, boxes, {}))
    assert packed((1 << b) | (1 << c))[0] == -1  # (B before A: loose; C, in no order: packed)
    assert packed((1 << a) | (1 << b))[0] == -2


def test_the_order_stops_with_the_budget():
    _, board, boxes, _ = position(SCATTERED)
    with pytest.raises(Stopped):
        retrograde_order(board, boxes, Control(Budget(seconds=0)))

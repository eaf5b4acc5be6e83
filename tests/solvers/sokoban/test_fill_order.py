"""Goal-room packing orders (sokoban/plans/packing_order.py) that a plan can keep."""

from fewest.solvers.sokoban.plans.packing_order import packing_orders
from tests.solvers.sokoban.test_advisors import XSOKOBAN_43, start


def test_a_goal_no_box_can_come_into_from_outside_is_not_filled_from_there():
    # XSokoban #43's room: the goal at row 6, column 2 takes a box from the right (from
    # row 6, column 3) or from above, where no box from outside can get; filled after its
    # neighbour on the right, it could be filled from nowhere.
    _, board, boxes, player = start(XSOKOBAN_43)
    [order] = set(packing_orders(board, boxes, player).values())
    corner, right = board.inside(6 * 19 + 2), board.inside(6 * 19 + 3)
    assert order.index(corner) < order.index(right)

"""Goal-room packing orders (sokoban/plans/packing_order.py) that a plan can keep."""

from fewest.solvers import Budget, Control
from fewest.solvers.sokoban.anytime.anytime import FOUND, anytime_plans
from fewest.solvers.sokoban.board.tables import build_tables
from fewest.solvers.sokoban.plans.packing_order import packing_orders
from tests.solvers.sokoban.test_advisors import XSOKOBAN_43, replayed, start


def test_a_goal_no_box_can_come_into_from_outside_is_not_filled_from_there():
    # XSokoban #43's room: the goal at row 6, column 2 takes a box from the right (from
    # row 6, column 3) or from above, where no box from outside can get; filled after its
    # neighbour on the right, it could be filled from nowhere.
    _, board, boxes, player = start(XSOKOBAN_43)
    [order] = set(packing_orders(board, boxes, player).values())
    corner, right = board.inside(6 * 19 + 2), board.inside(6 * 19 + 3)
    assert order.index(corner) < order.index(right)


# Grigoriev 2001 #89 "LoLa (#93r)" (Evgeniy Grigoriev, the bundled pack; his terms: anyone may
# do anything with these levels): a room of six goals, one box on its middle goal from the
# start, which no order of the whole room fills first.
GRIGR_89 = """\
#####
#   ##
#  $ #
## $.#####
 # $.@#  #
 ##$*$   #
  # ...  #
  #  #  ##
  #######"""


def test_boxes_on_a_rooms_goals_out_of_its_order_come_first_and_stay():
    _, board, boxes, player = start(GRIGR_89)
    [order] = set(packing_orders(board, boxes, player).values())  # (none before: the room had no order)
    on_goal = board.inside(5 * 10 + 4)
    assert order[0] == on_goal and len(order) == 6


def test_a_room_filled_round_a_box_on_its_goal_gets_a_plan_soon():
    lvl, board, boxes, player = start(GRIGR_89)
    # (the finders as a hint runs them: 3,752 positions; before, none in 6,000)
    found = anytime_plans(build_tables(board), boxes, player, Control(Budget(nodes=6000)))
    stage, plan = next(found, (None, None))
    assert stage == FOUND
    assert replayed(lvl, board, boxes, player, plan) == board.goals

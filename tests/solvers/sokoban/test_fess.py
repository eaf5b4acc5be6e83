"""The FESS-like finder (sokoban/anytime/fess.py): its features, and plans that replay."""

import pytest

from fewest.engine import sokoban as S
from fewest.levels import sokoban as L
from fewest.solvers import Budget, Control
from fewest.solvers.common.control import Stopped
from fewest.solvers.sokoban import solver
from fewest.solvers.sokoban.anytime.fess import doorways, fess_features, fess_search
from fewest.solvers.sokoban.board.board import cells_of, compile_board
from fewest.solvers.sokoban.board.tables import build_tables
from fewest.solvers.sokoban.plans.packing_order import packed_search, packing_orders
from tests import oracle
from tests.sokoban_support import DATA, level, search_position, tuned
from tests.solvers.sokoban.test_packing import CORRIDOR, XSOKOBAN_2

# Two rooms joined by one cell (row 2, column 4): a box there, or on either side of it,
# cuts them apart.
TWO_ROOMS = "#########\n#   #   #\n#@$   . #\n#   #   #\n#########"


def microban(number: int) -> S.Level:
    """A level of the Microban copy in tests/data (David W. Skinner; test data only)."""
    return L.read_xsb((DATA / "Microban_155.xsb").read_text())[number - 1].level


# XSokoban #58 ("screen.58", Thinking Rabbit; the XSokoban collection, test data only): a
# room of 15 goals on the left, boxes scattered through rooms on the right.
XSOKOBAN_58 = """\
####################
##...   ## #    #  #
#....         $ ## #
#....# # #$###$    #
#...#    #       # #
##.#  #$ #     $## #
#  #  # $ $ ###  $ #
#     $  $ #  # ## #
## # ## #$$# $#  # #
#  #   $ $ #      ##
#    #     #  #   @#
####################"""

LEVELS = {"corridor": CORRIDOR, "xsokoban 2": XSOKOBAN_2, "two rooms": TWO_ROOMS}


def found(lvl: S.Level, nodes: int = 20_000) -> list:
    """The finder's plan from the level's start, as engine moves (asserted found)."""
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    pushes = fess_search(build_tables(board), boxes, player, Control(Budget(nodes=nodes)))
    assert pushes is not None
    return solver.step_plan(board, boxes, player, pushes)[0]


@pytest.mark.parametrize("name", LEVELS)
def test_the_finders_plan_solves_the_level(name):
    lvl = level(LEVELS[name])
    oracle.replay_length(S, lvl, found(lvl))


@pytest.mark.parametrize("number", [7, 16, 40])
def test_on_levels_with_no_goal_room_it_finds_plans_too(number):
    lvl = microban(number)
    assert not packing_orders(compile_board(lvl), *search_position(compile_board(lvl), S.initial_state(lvl)))
    oracle.replay_length(S, lvl, found(lvl))


@pytest.mark.parametrize("weighted", [True, False])
def test_positions_by_their_weight_in_a_cell_find_a_plan_the_matching_alone_does_not(weighted):
    lvl = level(XSOKOBAN_58)
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    # (ties of weight by the matching: newest first, the search finds it unweighted too, in 264
    # positions, and weighted in 221)
    tuning = tuned(fess={"weighted": weighted}, packing={"newest_first": False})
    control = Control(Budget(nodes=200))
    if weighted:  # (56 positions)
        pushes = fess_search(build_tables(board), boxes, player, control, tuning=tuning)
        oracle.replay_length(S, lvl, solver.step_plan(board, boxes, player, pushes)[0])
    else:  # the check that the weights are what finds it
        with pytest.raises(Stopped):
            fess_search(build_tables(board), boxes, player, control, tuning=tuning)


def test_a_doorway_is_a_cell_whose_loss_splits_the_floor():
    board = compile_board(level(TWO_ROOMS))
    door = board.inside(2 * 9 + 4)
    assert doorways(board) == (1 << door - 1) | (1 << door) | (1 << door + 1)


def test_the_features_count_packed_boxes_pieces_doorways_and_boxes_in_the_way():
    lvl = level(CORRIDOR)
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    orders = packing_orders(board, boxes, player)
    features = fess_features(board, orders)
    assert features(boxes) == (0, 1, 0, 0)
    mouth, deepest = min(orders), max(orders)  # (one column: the deeper, the higher the cell)
    one_box = 1 << next(cells_of(boxes))
    assert features(boxes ^ one_box | (1 << deepest)) == (-1, 1, 0, 0)  # packed
    # just above the mouth: in the way of the packing, and in the doorway to the dead end
    assert features(boxes ^ one_box | (1 << mouth - board.width)) == (0, 2, 1, 1)
    rooms = compile_board(level(TWO_ROOMS))
    door = rooms.inside(2 * 9 + 4)
    assert fess_features(rooms, {})(1 << door) == (0, 2, 1, 0)  # on a doorway: two pieces, too


@pytest.mark.parametrize("hotspot", [False, True], ids=["every box", "the worst hotspot"])
@pytest.mark.parametrize("name", LEVELS)
def test_with_moves_of_a_box_anywhere_its_plan_solves_the_level_too(name, hotspot):
    lvl = level(LEVELS[name])
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    pushes = fess_search(build_tables(board), boxes, player, Control(Budget(nodes=20_000)),
                         tuning=tuned(packing={"macro": True}, fess={"macro_hotspot": hotspot}))
    oracle.replay_length(S, lvl, solver.step_plan(board, boxes, player, pushes)[0])


@pytest.mark.parametrize("lvl", [level(TWO_ROOMS), microban(16)], ids=["two rooms", "microban 16"])
def test_moves_of_a_box_anywhere_take_the_finder_there_in_fewer_positions(lvl):
    # (a box taken through the door in one child: 2 positions against 5; Microban #16, 8 against 71)
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    counts = {}
    for macro in (False, True):
        control = Control(Budget(nodes=20_000))
        assert fess_search(build_tables(board), boxes, player, control, tuning=tuned(packing={"macro": macro}))
        counts[macro] = control.expanded
    assert counts[True] < counts[False] / 2


def test_with_no_box_to_move_anywhere_the_search_is_the_one_of_single_pushes():
    lvl = microban(16)
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    runs = []
    for macro in (False, True):
        control = Control(Budget(nodes=20_000))
        plan = packed_search(build_tables(board), boxes, player, control, None, tuned(packing={"macro": macro}),
                             movers=lambda _boxes, _packed: 0)
        runs.append((plan, control.expanded))
    assert runs[0] == runs[1]
    control = Control(Budget(nodes=20_000))  # (and every box anywhere is another search: the test can tell)
    assert packed_search(build_tables(board), boxes, player, control, None, tuned(packing={"macro": True}))
    assert control.expanded != runs[0][1]

"""FESS's other advisors (sokoban/anytime/hotspots.py, opener.py): their moves on small
boards, replayed through the engine, and the finder's plans with them on."""

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control
from fewest.solvers.sokoban import solver
from fewest.solvers.sokoban.anytime.fess import fess_search
from fewest.solvers.sokoban.anytime.hotspots import Hotspots
from fewest.solvers.sokoban.anytime.opener import Opener
from fewest.solvers.sokoban.board.board import cells_of, compile_board
from fewest.solvers.sokoban.board.tables import build_tables
from fewest.solvers.sokoban.plans.packing_order import _advised, packing_orders
from tests import oracle
from tests.sokoban_support import level, search_position, tuned
from tests.solvers.sokoban.test_fess import LEVELS

# Two rooms joined by one cell (row 2, column 4), a box on it: the box in the left room
# can reach no goal while it stands there.
DOORWAY = "#########\n#   #  .#\n#@$ $   #\n#   #  .#\n#########"

# XSokoban #43 ("screen.43", Thinking Rabbit; the XSokoban collection, test data only): no
# box can go alone to the goal room's first goal from the start.
XSOKOBAN_43 = """\
        #######
    #####  #  ####
    #   #   $    #
 #### #$$ ## ##  #
##      # #  ## ###
#  ### $#$  $  $  #
#...    # ##  #   #
#...#    @ # ### ##
#...#  ###  $  $  #
######## ##   #   #
          #########"""


def start(text: str) -> tuple:
    lvl = level(text)
    board = compile_board(lvl)
    return lvl, board, *search_position(board, S.initial_state(lvl))


def replayed(lvl: S.Level, board, boxes: int, player: int, pushes: list) -> int:
    """The boxes after the pushes, played through the engine from the level's start."""
    moves = solver.step_plan(board, boxes, player, pushes)[0]
    state = S.initial_state(lvl)
    for move in moves:
        state = S.apply(lvl, state, move)
    return board.mask(state.boxes)


def test_a_box_in_the_doorway_is_the_one_hotspot():
    _, board, boxes, _ = start(DOORWAY)
    door = board.inside(2 * 9 + 4)
    assert Hotspots(board).weights(boxes) == {door: 1}


def test_the_worst_hotspot_is_the_one_box_that_moves_anywhere():
    _, board, boxes, _ = start(DOORWAY)
    door = board.inside(2 * 9 + 4)
    hotspots = Hotspots(board)
    assert hotspots.worst_mover(boxes, 0) == 1 << door
    assert hotspots.worst_mover(boxes, 1 << door) == 0  # (a packed box is no hotspot)


def test_the_hotspot_advisor_takes_the_box_out_of_the_way():
    lvl, board, boxes, player = start(DOORWAY)
    hotspots = Hotspots(board)
    [(pushes, after, _)] = hotspots.advice(build_tables(board), boxes, player)
    assert replayed(lvl, board, boxes, player, pushes) == after
    assert hotspots.weights(after) == {}
    assert after & ~boxes  # (the box moved)


def test_the_opener_frees_a_way_when_the_packing_advisor_has_none():
    lvl, board, boxes, player = start(XSOKOBAN_43)
    tables = build_tables(board)
    orders = packing_orders(board, boxes, player)
    assert orders and not _advised(board, tables, orders, boxes, boxes, player, 2)
    opener = Opener(board, orders)
    [(pushes, after, at)] = opener.advice(tables, boxes, player)
    assert replayed(lvl, board, boxes, player, pushes) == after
    order = next(iter(orders.values()))
    at_goal = (board.goals & ((1 << order[0]) - 1)).bit_count()
    nearest = min(cells_of(boxes), key=lambda box: tables.rows[box][at_goal])
    way = sum(1 << cell for cell in opener.way(tables, 0, nearest, order[0], player))
    moved_from, moved_to = boxes & ~after, after & ~boxes
    assert moved_from & way and not moved_to & way


def test_the_finder_with_every_advisor_finds_plans_that_replay():
    tuning = tuned(fess={"hotspot_advisor": True, "opener": True})
    for text in [*LEVELS.values(), DOORWAY]:
        lvl, board, boxes, player = start(text)
        pushes = fess_search(build_tables(board), boxes, player, Control(Budget(nodes=20_000)), tuning=tuning)
        assert pushes is not None
        oracle.replay_length(S, lvl, solver.step_plan(board, boxes, player, pushes)[0])

"""The packing search (sokoban_packing.py): goal areas filled from their far end, and the
plan it gives when the proof and the weighted searches find none (every plan replayed)."""

import os
import time

import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control, Status
from fewest.solvers.sokoban import solver
from fewest.solvers.common.control import Stopped
from fewest.solvers.sokoban.board.board import compile_board, pushable_to
from fewest.solvers.sokoban.plans.interleave import shortest_interleaving
from fewest.solvers.sokoban.plans.lone_box import lone_pushes
from fewest.solvers.sokoban.plans.packing_order import packed_search, packing_orders
from fewest.solvers.common.processes import spare_core
from fewest.solvers.sokoban.board.tables import build_tables
from fewest.solvers.sokoban.tuning import TUNING
from tests import oracle
from tests.sokoban_support import level, search_position, tuned

# A dead end of four goals below a room: the bottom one must be filled first.
CORRIDOR = "#######\n#@    #\n# $ $ #\n# $ $ #\n#     #\n###.###\n  #.#\n  #.#\n  #.#\n  ###"

# XSokoban #4 ("screen.04", Thinking Rabbit; the XSokoban collection, test data only): a
# room of 20 goals whose door is on its left. Weighted A* fills it from the door.
XSOKOBAN_4 = """\
           ########
           #  ....#
############  ....#
#    #  $ $   ....#
# $$$#$  $ #  ....#
#  $     $ #  ....#
# $$ #$ $ $########
#  $ #     #
## #########
#    #    ##
#     $   ##
#  $$#$$  @#
#    #    ##
###########"""

# XSokoban #2 ("screen.02", Thinking Rabbit; test data only): a room of 10 goals on the left.
# The greedy queue alone goes through 20,000 positions without a plan.
XSOKOBAN_2 = """\
############
#..  #     ###
#..  # $  $  #
#..  #$####  #
#..    @ ##  #
#..  # #  $ ##
###### ##$ $ #
  # $  $ $ $ #
  #    #     #
  ############"""

# XSokoban #9 ("screen.09", Thinking Rabbit; test data only): 14 goals in a room at the top
# right, 14 boxes jammed below. Without the packing advisor no plan in 5 s (86,000 positions).
XSOKOBAN_9 = """\
          #######
          #  ...#
      #####  ...#
      #      . .#
      #  ##  ...#
      ## ##  ...#
     ### ########
     # $$$ ##
 #####  $ $ #####
##   #$ $   #   #
#@ $  $    $  $ #
###### $$ $ #####
     #      #
     ########"""


def orders_of(lvl: S.Level, state: S.State | None = None) -> tuple[list, dict]:
    """(the level's goals as the search numbers its cells, the packing orders at `state`)."""
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl) if state is None else state)
    return [board.inside(goal) for goal in lvl.goals], packing_orders(board, boxes, player)


def packed_plan(lvl: S.Level, nodes: int = 50_000, tuning=TUNING) -> list:
    """The packing search's plan as engine moves (asserted found)."""
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    pushes = packed_search(build_tables(board), boxes, player, Control(Budget(nodes=nodes)), tuning=tuning)
    assert pushes is not None
    moves, _ = solver.step_plan(board, boxes, player, pushes)
    return moves


def test_a_dead_end_of_goals_is_filled_from_its_far_end():
    goals, orders = orders_of(level(CORRIDOR))
    deepest_first = tuple(sorted(goals, reverse=True))  # (one column: the deeper, the higher the cell)
    assert orders == {goal: deepest_first for goal in goals}


def test_a_goal_area_with_a_box_on_it_at_the_start_has_no_order():
    lvl = level(CORRIDOR.replace("###.###", "###*###").replace("# $ $ #", "#   $ #", 1))
    assert orders_of(lvl)[1] == {}


def test_small_goal_groups_have_no_order():
    # three goals side by side are not a room (ROOM_GOALS)
    lvl = level("#######\n#@ $$ #\n#  $  #\n# ... #\n#######")
    assert orders_of(lvl)[1] == {}


@pytest.mark.parametrize("text", [CORRIDOR, XSOKOBAN_4])
def test_the_packing_search_plan_solves_the_level(text):
    lvl = level(text)
    moves = packed_plan(lvl)
    oracle.replay_length(S, lvl, moves)  # a real plan, that solves
    # each box is pushed onto the area's goals once, never off them again
    goals = set(lvl.goals)
    state = S.initial_state(lvl)
    placed = 0
    for move in moves:
        state = S.apply(lvl, state, move)
        now = len(goals & set(state.boxes))
        assert now >= placed
        placed = now


@pytest.mark.parametrize("cell_turn", [2, 0])
def test_positions_taken_by_cells_get_past_where_the_greedy_queue_sticks(cell_turn):
    tuning = tuned(packing={"cell_turn": cell_turn})  # (54 positions with the cells)
    lvl = level(XSOKOBAN_2)
    if cell_turn:
        oracle.replay_length(S, lvl, packed_plan(lvl, nodes=2_000, tuning=tuning))
    else:  # the greedy queue alone: the check that the cells are what finds it
        with pytest.raises(Stopped):
            packed_plan(lvl, nodes=2_000, tuning=tuning)


@pytest.mark.parametrize("advise", [True, False])
def test_the_packing_advisor_sends_a_box_all_the_way_to_the_next_goal(advise):
    tuning = tuned(packing={"advise": advise})
    lvl = level(XSOKOBAN_9)
    if advise:  # (206 positions; without the advisor, 661)
        oracle.replay_length(S, lvl, packed_plan(lvl, nodes=400, tuning=tuning))
    else:  # the check that the advisor is what finds it this soon
        with pytest.raises(Stopped):
            packed_plan(lvl, nodes=400, tuning=tuning)


def test_the_packing_search_can_be_cancelled():
    lvl = level(XSOKOBAN_4)
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    control = Control(should_stop=lambda: True)
    with pytest.raises(Stopped):
        packed_search(build_tables(board), boxes, player, control)
    assert control.expanded <= 32  # (it looks every 32 expansions)


# With stopped_proofs: the found plan's reordering is tested in test_interleave.py; here it
# only keeps to windows of runs (the whole plan's order took 15 s of each of these tests).
WINDOWS_ONLY = tuned(interleave={"most_orders": 2_000})


def stopped_proofs(monkeypatch) -> None:
    """Every proof and weighted search runs out of nodes at once, and the search backwards finds
    nothing: only the packing search is left (solved with the tuning WINDOWS_ONLY)."""

    def out_of_nodes(*_args, **_kwargs):
        raise Stopped("nodes")

    monkeypatch.setattr(solver, "push_search", out_of_nodes)
    monkeypatch.setattr(solver, "meet_search", out_of_nodes)
    monkeypatch.setattr(solver, "pulled_plan", lambda *_args: None)


def found_plan(lvl: S.Level, metric: str, nodes: int) -> tuple[int, int]:
    """The level solved from its start on `nodes`: a plan found, not proven (the proofs ran
    out), replayed; its moves and pushes."""
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(nodes=nodes)), metric, tuning=WINDOWS_ONLY)
    assert solution.status is Status.FOUND and solution.stats.reason == "nodes"
    moves = oracle.replay_length(S, lvl, list(solution.moves))
    assert solution.extra["pushes"] == S.tally(solution.moves).pushes
    return moves, solution.extra["pushes"]


@pytest.mark.parametrize("metric", solver.METRICS)
def test_when_nothing_else_finds_a_plan_the_packing_search_does(metric, monkeypatch):
    stopped_proofs(monkeypatch)
    found_plan(level(XSOKOBAN_4), metric, 5_000)


def test_without_the_packing_search_that_budget_gives_no_plan(monkeypatch):
    stopped_proofs(monkeypatch)
    monkeypatch.setattr(solver, "packing_orders", lambda *_: {})
    lvl = level(XSOKOBAN_4)
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(nodes=5_000)), "moves", tuning=WINDOWS_ONLY)
    assert solution.status is Status.BUDGET and not solution.moves


def test_of_two_plans_found_the_one_with_fewer_moves_is_kept(monkeypatch):
    # The proofs run out; the weighted searches and the packing search both find a plan,
    # the packing search's the longer one (it fills the dead end box by box, and walks).
    original = solver.push_search

    def weighted_only(tables, boxes, player, control, metric, weight=1, pushes_only=False, **options):
        if weight == 1:
            raise Stopped("nodes")
        return original(tables, boxes, player, control, metric, weight, pushes_only, **options)

    def out_of_nodes(*_args, **_kwargs):
        raise Stopped("nodes")

    packed = []

    def recorded(*args, **kwargs):
        packed.append(packed_search(*args, **kwargs))
        return packed[-1]

    monkeypatch.setattr(solver, "push_search", weighted_only)
    monkeypatch.setattr(solver, "meet_search", out_of_nodes)
    monkeypatch.setattr(solver, "packed_search", recorded)
    unadvised = tuned(packing={"advise": False})  # (with the advisor, the packed plan walks no more)
    lvl = level(CORRIDOR)
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(nodes=50_000)), "moves", tuning=unadvised)
    assert solution.status is Status.FOUND and len(packed) == 1 and packed[0] is not None
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    reordered = shortest_interleaving(board, boxes, player, packed[0], Control())
    packed_moves = len(solver.step_plan(board, boxes, player, reordered)[0])
    assert oracle.replay_length(S, lvl, list(solution.moves)) < packed_moves


def test_a_plan_found_when_the_searches_use_all_their_time_is_still_reordered(monkeypatch):
    # The proofs run out at once; the weighted searches run until their time is up (as on
    # a hard level); the packing search's plan is reordered as soon as it is found (at the
    # end, no time would be left for it: it came back as found, 1,091 moves).
    stopped_proofs(monkeypatch)

    def until_the_time_is_up(tables, boxes, player, control, metric, weight=1, pushes_only=False, **options):
        if weight == 1 and not pushes_only:
            raise Stopped("nodes")
        while True:
            control.check()
            time.sleep(0.01)

    monkeypatch.setattr(solver, "push_search", until_the_time_is_up)
    lvl = level(XSOKOBAN_4)
    as_found = len(packed_plan(lvl))
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(seconds=5)), "moves", tuning=WINDOWS_ONLY)
    assert solution.status is Status.FOUND
    assert oracle.replay_length(S, lvl, list(solution.moves)) < as_found


def test_under_memory_alone_the_packing_search_leaves_room_for_the_weighted_searches(monkeypatch):
    # (the CLI with no --timeout: without a cap, a packing search that finds nothing would
    # fill all of the memory, however long that takes, before they could start)
    stopped_proofs(monkeypatch)
    budgets = []

    def recorded(tables, boxes, player, control, orders, tuning):
        budgets.append(control.budget)
        return None

    monkeypatch.setattr(solver, "packed_search", recorded)
    lvl = level(XSOKOBAN_4)
    control = Control(Budget(memory_bytes=40_000_000))
    solution = solver.solve(lvl, S.initial_state(lvl), control, "moves", tuning=WINDOWS_ONLY)
    assert solution.status is Status.BUDGET
    assert budgets == [Budget(memory_bytes=int(40_000_000 * WINDOWS_ONLY.best_effort.packing_share))]


def test_with_a_spare_core_the_packing_search_runs_in_the_child(monkeypatch, tmp_path):
    # Side by side, the child searches (packing first, then the pushes alone) while the
    # search under the metric keeps all of its time here; here everything else runs out.
    if not spare_core():
        pytest.skip("needs two cores")
    stopped_proofs(monkeypatch)
    mark = tmp_path / "packed in"

    def marked(*args, **kwargs):
        mark.write_text(str(os.getpid()))
        return packed_search(*args, **kwargs)

    monkeypatch.setattr(solver, "packed_search", marked)
    lvl = level(XSOKOBAN_4)
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(seconds=30)), "moves", tuning=WINDOWS_ONLY)
    assert solution.status is Status.FOUND
    oracle.replay_length(S, lvl, list(solution.moves))
    assert int(mark.read_text()) != os.getpid()


def test_beside_the_child_keeps_the_better_of_its_two_plans():
    # The child of a search side by side: the packing search, then the pushes alone (whose
    # plan for the dead end walks less than the packing search's without its advisor); it
    # answers with the shorter plan. (Its cells by the matching: newest first, the packing
    # search's plan here is the shorter one.)
    unadvised = tuned(packing={"advise": False, "newest_first": False})
    lvl = level(CORRIDOR)
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    orders = packing_orders(board, boxes, player)
    control = Control(Budget(nodes=50_000))
    tables = build_tables(board)
    pushes, cost = solver._packed_then_pushes_alone(tables, boxes, player, control, orders, "moves", unadvised)
    moves, _ = solver.step_plan(board, boxes, player, pushes)
    assert cost is not None  # (the weighted search's answer, not the packed one)
    assert oracle.replay_length(S, lvl, moves) < len(packed_plan(lvl, tuning=unadvised))


def test_an_area_filled_from_its_far_end_keeps_its_order():
    # (a hint asked halfway: the two deepest goals are filled, the order goes on from there)
    text = CORRIDOR.replace("  #.#\n  #.#\n  ###", "  #*#\n  #*#\n  ###").replace("# $ $ #", "#     #", 1)
    goals, orders = orders_of(level(text))
    deepest_first = tuple(sorted(goals, reverse=True))
    assert orders == {goal: deepest_first for goal in goals}
    lvl = level(text)
    oracle.replay_length(S, lvl, packed_plan(lvl))


# A room with one box and a goal three pushes to its right; a second box may block the row.
LONE_ROOM = "#######\n#     #\n#@$  .#\n#     #\n#######"


@pytest.mark.parametrize("blocked", [False, True])
def test_a_lone_box_goes_to_its_goal_in_fewest_pushes_unless_walled_off(blocked):
    board = compile_board(level(LONE_ROOM))
    tables = build_tables(board)
    box, goal, player = board.inside(2 * 7 + 2), board.inside(2 * 7 + 5), board.inside(2 * 7 + 1)
    # a box just before the goal, the two cells beside it in the row above and below filled too
    others = sum(1 << board.inside(r * 7 + 4) for r in (1, 2, 3)) if blocked else 0
    pushes = lone_pushes(board, tables, others, box, player, goal)
    assert bool((pushable_to(board, 1 << box, board.floor & ~others) >> goal) & 1) is not blocked  # (the check first)
    assert pushes == (None if blocked else [(box, 2), (box + 1, 2), (box + 2, 2)])

"""The vicinity improver (sokoban/anytime/improve.py): never longer, replays, and never
shorter than the optimum an independent search proves."""

import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control
from fewest.solvers.common.control import Stopped
from fewest.solvers.sokoban import solver
from fewest.solvers.sokoban.anytime.fess import fess_search
from fewest.solvers.sokoban.anytime.improve import improvements, plan_cost, vicinity_search
from fewest.solvers.sokoban.board.board import compile_board
from fewest.solvers.sokoban.board.tables import build_tables
from fewest.solvers.sokoban.searches.push import MAJOR
from fewest.solvers.sokoban.tuning import TUNING
from tests import oracle
from tests.sokoban_support import level, lexicographic_optimum, search_position, tuned
from tests.solvers.sokoban.test_fess import microban

# Microban levels of two or three boxes whose found plan walks more than it needs to
# (found -> the optimum, by moves: #6 137 -> 107, #8 139 -> 97, #10 101 -> 89)
NUMBERS = [6, 8, 10]


def found(lvl: S.Level) -> tuple:
    """The level's board, tables, start (boxes, player) and the finder's plan from there."""
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    tables = build_tables(board)
    return board, tables, boxes, player, fess_search(tables, boxes, player, Control(Budget(nodes=20_000)))


def improved(lvl: S.Level, metric: str, tuning=TUNING) -> tuple[list, list[list]]:
    """The finder's plan from the start and each improvement, as engine moves."""
    board, tables, boxes, player, plan = found(lvl)
    better = list(improvements(tables, boxes, player, plan, Control(Budget(seconds=20)), metric, tuning))
    moves = [solver.step_plan(board, boxes, player, pushes)[0] for pushes in [plan, *better]]
    return moves[0], moves[1:]


def ranked(moves: list, metric: str) -> tuple[int, int]:
    tally = S.tally(moves)
    return (tally.pushes, tally.moves) if metric == "pushes" else (tally.moves, tally.pushes)


@pytest.mark.parametrize("metric", ["moves", "pushes"])
@pytest.mark.parametrize("number", NUMBERS)
def test_each_improvement_replays_is_shorter_and_never_beats_the_optimum(number, metric):
    lvl = microban(number)
    found, better = improved(lvl, metric)
    optimum = lexicographic_optimum(lvl, metric)
    before = ranked(found, metric)
    for moves in better:
        oracle.replay_length(S, lvl, moves)
        now = ranked(moves, metric)
        assert optimum <= now < before
        before = now
    if metric == "moves":  # (the found plans' pushes are mostly the fewest already)
        assert better, "the found plan was not improved"


@pytest.mark.parametrize("number", [6, 8])
def test_a_plan_longer_than_the_window_is_improved_a_stretch_at_a_time(number):
    lvl = microban(number)
    found, better = improved(lvl, "moves", tuned(improve={"window": 6}))  # (plans of 20-30 pushes)
    before = ranked(found, "moves")
    for moves in better:
        oracle.replay_length(S, lvl, moves)
        assert lexicographic_optimum(lvl, "moves") <= ranked(moves, "moves") < before
        before = ranked(moves, "moves")
    assert better


def test_the_vicinity_holds_the_plan_itself_so_a_search_never_lengthens_it():
    lvl = microban(6)
    board, tables, boxes, player, plan = found(lvl)
    for radius, distance in [(1, 0), (1, 3), (2, 1)]:
        shorter = vicinity_search(tables, boxes, player, plan, radius, distance, Control())
        assert plan_cost(tables, boxes, player, shorter, "moves") <= plan_cost(tables, boxes, player, plan, "moves")


def test_the_cost_counts_walks_and_pushes():
    lvl = microban(1)
    board, tables, boxes, player, plan = found(lvl)
    tally = solver.step_plan(board, boxes, player, plan)[1]
    assert plan_cost(tables, boxes, player, plan, "moves") == tally.moves * MAJOR + tally.pushes
    assert plan_cost(tables, boxes, player, plan, "pushes") == tally.pushes * MAJOR + tally.moves


def test_the_improver_stops_on_its_budget():
    lvl = microban(16)
    board, tables, boxes, player, plan = found(lvl)
    with pytest.raises(Stopped):
        list(improvements(tables, boxes, player, plan, Control(should_stop=lambda: True)))


def test_a_one_box_plan_is_improved_without_asking_for_two_boxes_displaced():
    # (radius 2 of a single box left no vicinity: "the plan's own positions" were not found)
    lvl = level("########\n#@     #\n#      #\n#  $.  #\n#      #\n########")
    board, tables, boxes, player, plan = found(lvl)
    better = list(improvements(tables, boxes, player, plan, Control(Budget(seconds=20))))
    final = solver.step_plan(board, boxes, player, better[-1] if better else plan)[0]
    assert oracle.replay_length(S, lvl, final) == lexicographic_optimum(lvl, "moves")[0]

"""The search backwards (sokoban_backward.py): pulls from solved to the start, played back
as pushes. Every plan is replayed through the engine; its pushes are never below the
proven fewest."""

import os

import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control, Status
from fewest.solvers.sokoban import solver
from fewest.solvers.common.control import Stopped
from fewest.solvers.sokoban.searches.backward import pulled_plan
from fewest.solvers.sokoban.board.board import compile_board
from fewest.solvers.common.processes import spare_core
from fewest.solvers.sokoban.board.tables import build_tables
from fewest.solvers.sokoban.tuning import TUNING
from tests import oracle
from tests.sokoban_support import level, microban, random_rooms, search_position
from tests.solvers.sokoban.test_packing import WINDOWS_ONLY, found_plan, stopped_proofs

# XSokoban #5 ("screen.05", Thinking Rabbit; test data only). At 10 s the proof, the weighted
# searches and the packing search give no plan; backwards, 167 pushes in a fraction of that.
XSOKOBAN_5 = """\
        #####
        #   #####
        # #$##  #
        #     $ #
######### ###   #
#....  ## $  $###
#....    $ $$ ##
#....  ##$  $ @#
#########  $  ##
        # $ $  #
        ### ## #
          #    #
          ######"""


def backwards(lvl: S.Level, **budget) -> tuple[list | None, tuple]:
    """The plan found backwards from the level's start, as engine moves (None: none), and the
    board, boxes and player it was searched from."""
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    weight = TUNING.best_effort.backward_weight
    pushes = pulled_plan(build_tables(board), boxes, player, Control(Budget(**budget)), weight)
    moves = None if pushes is None else solver.step_plan(board, boxes, player, pushes)[0]
    return moves, (board, boxes, player)


@pytest.mark.parametrize("number", [1, 2, 7, 18, 40, 62, 91, 101])
def test_a_plan_found_backwards_solves_the_level(number):
    lvl, row = microban(number)[number - 1]
    moves, _ = backwards(lvl, seconds=30)
    oracle.replay_length(S, lvl, moves)  # (raises unless it ends solved)
    assert S.tally(moves).pushes >= int(row["min_pushes"])


def test_plans_found_backwards_in_random_rooms_solve_them():
    solved = 0
    for lvl in random_rooms(11, 25):
        moves, _ = backwards(lvl, seconds=30)
        if moves is None:  # (then there is no plan at all)
            assert oracle.shortest_plan(S, lvl) is None
            continue
        oracle.replay_length(S, lvl, moves)
        solved += 1
    assert solved >= 20


def test_where_the_forward_searches_find_nothing_a_plan_comes_backwards():
    lvl = level(XSOKOBAN_5)
    moves, _ = backwards(lvl, seconds=30)
    assert moves is not None
    oracle.replay_length(S, lvl, moves)


def test_a_level_no_pull_reaches_has_no_plan():
    # the box in the corner can never move, and not onto the goal
    lvl = level("#####\n#$  #\n#  .#\n# @ #\n#####")
    moves, _ = backwards(lvl, seconds=5)
    assert moves is None and oracle.shortest_plan(S, lvl) is None


@pytest.mark.parametrize("budget, reason", [({"nodes": 50}, "nodes"), ({"memory_bytes": 1}, "memory")])
def test_the_search_backwards_stops_on_its_budget(budget, reason):
    lvl, _ = microban(144)[143]
    with pytest.raises(Stopped) as stopped:
        backwards(lvl, **budget)
    assert stopped.value.reason == reason


def test_the_search_backwards_stops_when_cancelled():
    lvl, _ = microban(144)[143]
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    asked = []
    control = Control(should_stop=lambda: bool(asked.append(1)) or len(asked) > 3)
    with pytest.raises(Stopped) as stopped:
        pulled_plan(build_tables(board), boxes, player, control, TUNING.best_effort.backward_weight)
    assert stopped.value.reason == "cancelled"


def only_backwards(monkeypatch, mark=None) -> None:
    """Every other search runs out at once or finds nothing; the search backwards is real
    (with `mark`, a path, it writes the id of the process it runs in)."""
    stopped_proofs(monkeypatch)
    monkeypatch.setattr(solver, "packed_search", lambda *_args: None)

    def marked(*args):
        if mark is not None:
            mark.write_text(str(os.getpid()))
        return pulled_plan(*args)

    monkeypatch.setattr(solver, "pulled_plan", marked)


@pytest.mark.parametrize("metric", solver.METRICS)
def test_when_nothing_else_finds_a_plan_the_search_backwards_does(metric, monkeypatch):
    only_backwards(monkeypatch)
    moves, pushes = found_plan(level(XSOKOBAN_5), metric, 20_000)
    assert moves > pushes


def test_without_the_search_backwards_that_budget_gives_no_plan(monkeypatch):
    stopped_proofs(monkeypatch)
    monkeypatch.setattr(solver, "packed_search", lambda *_args: None)
    lvl = level(XSOKOBAN_5)
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(nodes=20_000)), "moves", tuning=WINDOWS_ONLY)
    assert solution.status is Status.BUDGET and not solution.moves


def test_the_plan_found_backwards_is_reordered_for_fewer_moves(monkeypatch):
    only_backwards(monkeypatch)
    lvl = level(XSOKOBAN_5)
    as_found, _ = backwards(lvl, seconds=30)
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(nodes=20_000)), "moves", tuning=WINDOWS_ONLY)
    assert oracle.replay_length(S, lvl, list(solution.moves)) < len(as_found)
    assert S.tally(solution.moves).pushes == S.tally(as_found).pushes


def test_with_a_spare_core_the_search_backwards_runs_here_beside_the_child(monkeypatch, tmp_path):
    # (the child's searches, the packing search and the pushes alone, find nothing: the plan
    # found here is the answer)
    if not spare_core():
        pytest.skip("needs two cores")
    mark = tmp_path / "searched in"
    only_backwards(monkeypatch, mark)
    lvl = level(XSOKOBAN_5)
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(seconds=10)), "moves", tuning=WINDOWS_ONLY)
    assert solution.status is Status.FOUND
    oracle.replay_length(S, lvl, list(solution.moves))
    assert int(mark.read_text()) == os.getpid()


def test_the_search_backwards_goes_first_then_the_packing_search(monkeypatch):
    # (memory alone, as the CLI with no --timeout: each has its share of it)
    stopped_proofs(monkeypatch)
    budgets = []
    monkeypatch.setattr(solver, "pulled_plan", lambda *args: budgets.append(("backwards", args[3].budget)))
    monkeypatch.setattr(solver, "packed_search", lambda *args: budgets.append(("packing", args[3].budget)))
    lvl = level(XSOKOBAN_5)
    solver.solve(lvl, S.initial_state(lvl), Control(Budget(memory_bytes=40_000_000)), "moves", tuning=WINDOWS_ONLY)
    assert budgets == [
        ("backwards", Budget(memory_bytes=int(40_000_000 * TUNING.best_effort.backward_share))),
        ("packing", Budget(memory_bytes=int(40_000_000 * TUNING.best_effort.packing_share))),
    ]

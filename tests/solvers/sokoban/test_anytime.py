"""The anytime solver (solver.py with control.on_plan): a plan told at once, shorter ones
after it, then the proof; when the proof runs out, the best plan told comes back."""

from collections import deque

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control, Status
from fewest.solvers.sokoban import solver
from fewest.solvers.sokoban.anytime.anytime import FOUND, anytime_plans
from fewest.solvers.sokoban.anytime.fess import fess_search
from fewest.solvers.sokoban.board.board import compile_board
from fewest.solvers.sokoban.board.tables import build_tables
from fewest.solvers.sokoban.pruning.deadlock import is_dead
from tests import oracle
from tests.sokoban_support import level, lexicographic_optimum, search_position, tuned
from tests.solvers.sokoban.test_advisors import replayed
from tests.solvers.sokoban.test_fess import microban
from tests.solvers.sokoban.test_packing import XSOKOBAN_2

NO_QUICK_PROOF = tuned(anytime={"quick_seconds": 0.0})  # (straight to the finder, as on a big level)


def told_plans(lvl: S.Level, budget: Budget, tuning=NO_QUICK_PROOF) -> tuple[list, "solver.Solution"]:
    """(stage, solution) for each plan told, and the answer."""
    told = []
    control = Control(budget, on_plan=lambda solution, stage: told.append((stage, solution)))
    return told, solver.solve(lvl, S.initial_state(lvl), control, "moves", tuning=tuning)


def test_a_plan_is_told_then_shorter_ones_then_the_proof_comes():
    lvl = microban(5)  # (found 31 moves, then 27, 25; #6's first plan is its shortest with pair orders)
    told, answer = told_plans(lvl, Budget(seconds=30))
    assert [stage for stage, _ in told][:1] == ["found"] and len(told) >= 2
    assert {stage for stage, _ in told[1:]} == {"improved"}
    lengths = [oracle.replay_length(S, lvl, list(solution.moves)) for _, solution in told]
    assert lengths == sorted(lengths, reverse=True) and len(set(lengths)) == len(lengths)
    assert all(solution.status is Status.FOUND for _, solution in told)
    assert answer.status is Status.OPTIMAL
    assert (oracle.replay_length(S, lvl, list(answer.moves)), answer.extra["pushes"]) == lexicographic_optimum(
        lvl, "moves")


def test_a_level_proven_at_once_tells_no_plan_first():
    told, answer = told_plans(microban(6), Budget(seconds=30), tuning=solver.TUNING)
    assert answer.status is Status.OPTIMAL and not told


def test_when_the_proof_runs_out_the_best_plan_told_comes_back_found():
    lvl = level(XSOKOBAN_2)
    told, answer = told_plans(lvl, Budget(seconds=2))
    assert told and told[0][0] == "found"
    assert answer.status is Status.FOUND
    moves = oracle.replay_length(S, lvl, list(answer.moves))
    assert moves <= min(len(solution.moves) for _, solution in told)
    assert answer.at_least is not None and answer.at_least <= moves



def stepped_off(lvl: S.Level) -> tuple[S.State, tuple, S.State]:
    """(the start, the finder's plan from it, a position one push from the start that the
    plan does not go through, not dead: a step off the plan)."""
    start = S.initial_state(lvl)
    board = compile_board(lvl)
    boxes, player = search_position(board, start)
    pushes = fess_search(build_tables(board), boxes, player, Control())
    plan = tuple(solver.step_plan(board, boxes, player, pushes)[0])
    on_plan = {start}
    state = start
    for move in plan:
        state = S.apply(lvl, state, move)
        on_plan.add(state)
    seen, queue = {start}, deque([start])
    while queue:  # (the player walks about; the first push off the plan that is not dead)
        state = queue.popleft()
        for move in S.legal_moves(lvl, state):
            after = S.apply(lvl, state, move)
            if move.push and after not in on_plan and not is_dead(lvl, after):
                return start, plan, after
            if not move.push and after not in seen:
                seen.add(after)
                queue.append(after)
    raise AssertionError("no push off the plan")


def test_after_a_step_off_the_plan_the_first_plan_comes_from_near_it(monkeypatch):
    from fewest.solvers.sokoban.anytime import anytime

    lvl = level(XSOKOBAN_2)
    start, plan, here = stepped_off(lvl)
    monkeypatch.setattr(anytime, "packed_search", lambda *_args: None)  # (the finders find nothing)
    monkeypatch.setattr(anytime, "fess_search", lambda *_args: None)
    monkeypatch.setattr(anytime, "beside_possible", lambda _control: False)  # (nor the finder beside them)
    for near, tells in [(None, False), ((start, plan), True)]:
        told: list = []
        control = Control(Budget(seconds=1), should_stop=lambda: bool(told),  # (once told, no more needed)
                          on_plan=lambda solution, stage, told=told: told.append((stage, solution)))
        control.near_plan = near
        solver.solve(lvl, here, control, "moves", tuning=NO_QUICK_PROOF)
        assert bool(told) is tells
        if told:
            assert told[0][0] == "found"
            oracle.replay_length(S, lvl, list(told[0][1].moves), here)


def test_a_plan_near_that_is_no_help_leaves_the_packing_search_its_share(monkeypatch):
    from fewest.solvers.sokoban.anytime import anytime

    def no_help(_tables, _boxes, _player, control, *_rest):  # (looks near the plan all its share, in vain)
        while True:
            control.tick()

    lvl = level(XSOKOBAN_2)  # (the packing search's plan: 54 positions)
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    monkeypatch.setattr(anytime, "_near_plan", no_help)
    monkeypatch.setattr(anytime, "pulled_plan", lambda *_args: None)  # (the other finders find nothing)
    monkeypatch.setattr(anytime, "fess_search", lambda *_args: None)
    control = Control(Budget(nodes=2_000))
    stage, plan = next(anytime_plans(build_tables(board), boxes, player, control, near=(boxes, [])))
    assert stage == FOUND
    assert replayed(lvl, board, boxes, player, plan) == board.goals


# Sasquatch #49 "Parallel Logic" (David W. Skinner, the Sasquatch collection: test data only):
# no goal room, and the FESS-like finder finds no plan in 20,000 positions; the search
# backwards, one of the anytime stages, finds one in 617.
SASQUATCH_49 = """\
 #########################
 #  #  #  #  #  #  #  #  #
 # $#$ # $#$ # $#$ # $#$ #
 #  #  #  #  #  #  #  #  #
 ## # ### # ### # ### # ##
 #  #  #  #  #  #  #  #  #
 #     #     #     #     #
## ### # ### # ### # ### ##
#   #  #  #  #  #  #  #   #
#   #     #  @  #     #   #
##  # ### # ### # ### #  ##
 #  .  . . .   . . .  .  #
 #########################"""


def test_the_search_backwards_is_a_stage_of_the_finders():
    lvl = level(SASQUATCH_49)
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    # (its share of 20,000 positions: 1,000; none in all 20,000 without it)
    stage, plan = next(anytime_plans(build_tables(board), boxes, player, Control(Budget(nodes=20_000))))
    assert stage == FOUND
    assert replayed(lvl, board, boxes, player, plan) == board.goals

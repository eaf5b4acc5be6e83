"""The anytime solver (solver.py with control.on_plan): a plan told at once, shorter ones
after it, then the proof; when the proof runs out, the best plan told comes back."""

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control, Status
from fewest.solvers.sokoban import solver
from tests import oracle
from tests.sokoban_support import level, lexicographic_optimum, tuned
from tests.solvers.sokoban.test_fess import microban
from tests.solvers.sokoban.test_packing import XSOKOBAN_2

NO_QUICK_PROOF = tuned(anytime={"quick_seconds": 0.0})  # (straight to the finder, as on a big level)


def told_plans(lvl: S.Level, budget: Budget, tuning=NO_QUICK_PROOF) -> tuple[list, "solver.Solution"]:
    """(stage, solution) for each plan told, and the answer."""
    told = []
    control = Control(budget, on_plan=lambda solution, stage: told.append((stage, solution)))
    return told, solver.solve(lvl, S.initial_state(lvl), control, "moves", tuning=tuning)


def test_a_plan_is_told_then_shorter_ones_then_the_proof_comes():
    lvl = microban(6)
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
    told, answer = told_plans(lvl, Budget(seconds=3))
    assert told and told[0][0] == "found"
    assert answer.status is Status.FOUND
    moves = oracle.replay_length(S, lvl, list(answer.moves))
    assert moves <= min(len(solution.moves) for _, solution in told)
    assert answer.at_least is not None and answer.at_least <= moves


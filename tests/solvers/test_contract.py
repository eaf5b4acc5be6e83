"""Every family's solver keeps the contract (solvers/contract.py) the app, the CLI and the bench use."""

import pytest

from fewest.engine import sokoban as S
from fewest.engine.registry import rules_for
from fewest.solvers import api
from fewest.solvers.common.control import Control
from fewest.solvers.contract import FamilySolver
from fewest.solvers.registry import FAMILIES, solver_for
from tests.sokoban_support import level


@pytest.mark.parametrize("family", FAMILIES)
def test_each_family_has_a_solver_of_the_contracts_shape(family):
    solver = solver_for(family)
    assert isinstance(solver, FamilySolver)
    assert solver.family == family
    assert solver.metrics[0] == "moves" and api.metrics(family) == tuple(solver.metrics)


@pytest.mark.parametrize("family", FAMILIES)
def test_its_bench_cases_are_solved_from_the_state_given(family):
    solver = solver_for(family)
    name, level, state = solver.bench_cases(quick=True)[0]
    solution = solver.solve(level, state, Control(), "moves")
    rules = rules_for(family)
    for move in solution.moves:
        state = rules.apply(level, state, move)
    assert solution.optimal and rules.is_solved(level, state), name
    assert isinstance(solver.bench_notes(), list)


def test_an_unknown_family_is_a_value_error():
    with pytest.raises(ValueError, match="no solver for family 'chess'"):
        solver_for("chess")


def test_the_quick_dead_position_check_is_the_familys_own():
    cornered = level("#####\n#@ .#\n#  $#\n#####")  # the box in a corner off its goal
    free = level("#####\n#@$.#\n#   #\n#####")
    assert api.is_dead("sokoban", cornered, S.initial_state(cornered))
    assert not api.is_dead("sokoban", free, S.initial_state(free))
    traffic = solver_for("traffic")
    name, board, state = traffic.bench_cases(quick=True)[0]
    assert traffic.is_dead(board, state) is False  # (no quick test: never says dead)

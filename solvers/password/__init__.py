"""The password puzzle: the exact solver (solver.py): the cheapest write order (Held-Karp or A*) turned into commands."""

from __future__ import annotations

from typing import Any

from fewest.solvers.common.control import Check, Control, no_check
from fewest.solvers.common.solution import Solution
from fewest.solvers.contract import BenchCase, FamilySolver
from fewest.solvers.password import solver as _solver


class PasswordSolver(FamilySolver):
    """Password's side of the solver contract (solvers/contract.py), by delegation to solver.py."""

    family = "password"
    metrics = _solver.METRICS

    def solve(self, level: Any, state: Any, control: Control, metric: str = "moves") -> Solution:
        return _solver.solve(level, state, control, metric)

    def warm_up(self, level: Any, check: Check = no_check) -> None:
        _solver.warm_up(level, check)

    def bench_cases(self, quick: bool) -> list[BenchCase]:
        return _solver.bench_cases(quick)

    def baseline(self, level: Any, state: Any, control: Control) -> Solution:
        return _solver.baseline(level, state, control)

    def bench_notes(self) -> list[str]:
        return _solver.bench_notes()


SOLVER = PasswordSolver()

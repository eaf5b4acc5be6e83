"""Shift: the exact solver (solver.py), a matching bound met by a construction."""

from __future__ import annotations

from typing import Any

from fewest.solvers.common.control import Check, Control, no_check
from fewest.solvers.common.solution import Solution
from fewest.solvers.contract import BenchCase, FamilySolver
from fewest.solvers.shift import solver as _solver


class ShiftSolver(FamilySolver):
    """Shift's side of the solver contract (solvers/contract.py), by delegation to solver.py."""

    family = "shift"
    metrics = _solver.METRICS

    def solve(self, level: Any, state: Any, control: Control, metric: str = "moves") -> Solution:
        return _solver.solve(level, state, control, metric)

    def bench_cases(self, quick: bool) -> list[BenchCase]:
        return _solver.bench_cases(quick)

    def baseline(self, level: Any, state: Any, control: Control) -> Solution:
        return _solver.baseline(level, state, control)

    def bench_notes(self) -> list[str]:
        return _solver.bench_notes()


SOLVER = ShiftSolver()

"""Rush Hour and Get out: the exact solver (solver.py), breadth-first and A* over car lines, the relaxed bound, tables, random levels."""

from __future__ import annotations

from typing import Any

from fewest.solvers.common.control import Check, Control, no_check
from fewest.solvers.common.solution import Solution
from fewest.solvers.contract import BenchCase, FamilySolver
from fewest.solvers.traffic import solver as _solver
from fewest.solvers.traffic.tuning import TUNING, TrafficTuning


class TrafficSolver(FamilySolver):
    """Traffic's side of the solver contract (solvers/contract.py), by delegation to solver.py."""

    family = "traffic"
    metrics = _solver.METRICS

    def __init__(self, tuning: TrafficTuning = TUNING) -> None:
        self.tuning = tuning

    def solve(self, level: Any, state: Any, control: Control, metric: str = "moves") -> Solution:
        return _solver.solve(level, state, control, metric, self.tuning)

    def warm_up(self, level: Any, check: Check = no_check) -> None:
        _solver.warm_up(level, check, self.tuning)

    def bench_cases(self, quick: bool) -> list[BenchCase]:
        return _solver.bench_cases(quick)

    def baseline(self, level: Any, state: Any, control: Control) -> Solution:
        return _solver.baseline(level, state, control)


SOLVER = TrafficSolver()

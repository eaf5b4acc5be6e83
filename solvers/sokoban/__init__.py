"""Sokoban's exact solver (solver.py) and its parts: board/ (the compiled board and its tables), pruning/ (deadlocks, corrals, tunnels), bounds/ (pairs, goal rooms, walks), pulls/ (the pull tables), searches/ (push search, both ends, backward, tie-break), plans/ (goal-room packing order, interleaving, box routes), anytime/ (a plan fast, then shorter: the FESS-like finder, the vicinity improver)."""

from __future__ import annotations

from typing import Any

from fewest.solvers.common.control import Check, Control, no_check
from fewest.solvers.common.solution import Solution
from fewest.solvers.contract import BenchCase, FamilySolver
from fewest.solvers.sokoban import solver as _solver
from fewest.solvers.sokoban.pruning.deadlock import blamed_boxes, is_dead
from fewest.solvers.sokoban.tuning import TUNING, SokobanTuning


class SokobanSolver(FamilySolver):
    """Sokoban's side of the solver contract (solvers/contract.py), by delegation to solver.py."""

    family = "sokoban"
    metrics = _solver.METRICS

    def __init__(self, tuning: SokobanTuning = TUNING) -> None:
        self.tuning = tuning

    def solve(self, level: Any, state: Any, control: Control, metric: str = "moves") -> Solution:
        return _solver.solve(level, state, control, metric, tuning=self.tuning)

    def warm_up(self, level: Any, check: Check = no_check) -> None:
        _solver.warm_up(level, check, self.tuning)

    def is_dead(self, level: Any, state: Any) -> bool:
        return is_dead(level, state)

    def blamed(self, level: Any, state: Any) -> frozenset[int]:
        return blamed_boxes(level, state)

    def bench_cases(self, quick: bool) -> list[BenchCase]:
        return _solver.bench_cases(quick)

    def baseline(self, level: Any, state: Any, control: Control) -> Solution:
        return _solver.baseline(level, state, control)


SOLVER = SokobanSolver()

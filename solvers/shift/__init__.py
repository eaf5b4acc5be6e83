"""Shift: the exact solver (solver.py), a matching bound met by a construction."""

from fewest.solvers.contract import ModuleSolver
from fewest.solvers.shift import solver

SOLVER = ModuleSolver("shift", solver)

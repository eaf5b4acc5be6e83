"""The password puzzle: the exact solver (solver.py): the cheapest write order (Held-Karp or A*) turned into commands."""

from fewest.solvers.contract import ModuleSolver
from fewest.solvers.password import solver

SOLVER = ModuleSolver("password", solver)

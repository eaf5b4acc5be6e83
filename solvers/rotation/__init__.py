"""The rotation game: the exact solver (solver.py) on distance tables of 24-bit cell masks, built with numpy and cached on disk."""

from fewest.solvers.contract import ModuleSolver
from fewest.solvers.rotation import solver

SOLVER = ModuleSolver("rotation", solver)

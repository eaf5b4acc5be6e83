"""Exact search. Sees only the engine's interface; never touches the UI.

`solve` / `warm_up` / `metrics` / `is_dead` dispatch to each family's solver (the
contract in contract.py; the registry finds it); `common/` holds the generic BFS,
A* and IDA*, the budgets (control), and the other family-neutral helpers.
"""

from fewest.solvers.api import is_dead, metrics, solve, warm_up
from fewest.solvers.common.control import Budget, Control, Progress, Stopped
from fewest.solvers.common.solution import Solution, Stats, Status

__all__ = [
    "Budget",
    "Control",
    "Progress",
    "Solution",
    "Stats",
    "Status",
    "Stopped",
    "is_dead",
    "metrics",
    "solve",
    "warm_up",
]

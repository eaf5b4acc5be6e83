"""Exact search. Sees only the engine's interface; never touches the UI.

`solve` / `hint` / `warm_up` dispatch to each family's exact method;
`search` holds the generic BFS, A* and IDA*; `control` the budgets.
"""

from fewest.solvers.api import Hint, hint, solve, warm_up
from fewest.solvers.common.control import Budget, Control, Progress, Stopped
from fewest.solvers.common.solution import Solution, Stats, Status

__all__ = [
    "Budget",
    "Control",
    "Hint",
    "Progress",
    "Solution",
    "Stats",
    "Status",
    "Stopped",
    "hint",
    "solve",
    "warm_up",
]

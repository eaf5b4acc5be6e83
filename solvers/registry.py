"""Family name -> its exact solver module, imported on first use (keeps start-up fast).

Each solver module provides
    solve(level, state, control: Control, metric: str) -> Solution
and may provide
    warm_up(level) -> None        # build tables so later hints are lookups
    METRICS: tuple[str, ...]      # metrics it understands (default: ("moves",))
"""

from __future__ import annotations

import importlib
from types import ModuleType

_MODULES = {
    "sokoban": "fewest.solvers.sokoban.solver",
    "traffic": "fewest.solvers.traffic.solver",
    "rotation": "fewest.solvers.rotation.solver",
    "shift": "fewest.solvers.shift.solver",
    "password": "fewest.solvers.password.solver",
}


def solver_for(family: str) -> ModuleType:
    try:
        name = _MODULES[family]
    except KeyError:
        raise ValueError(f"no solver for family {family!r}") from None
    return importlib.import_module(name)

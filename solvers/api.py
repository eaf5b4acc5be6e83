"""The one entry point the app and the CLI use: solve, warm up, the metrics, the quick dead-position check."""

from __future__ import annotations

from typing import Any, Callable

from fewest.solvers.common.control import Budget, Control, Progress, Stopped
from fewest.solvers.registry import solver_for
from fewest.solvers.common.solution import Solution


def metrics(family: str) -> tuple[str, ...]:
    """What the family's plans can be shortest by, the default first ("moves"; Sokoban
    also "pushes": fewest pushes, then moves)."""
    return tuple(solver_for(family).metrics)


def solve(
    family: str,
    level: Any,
    state: Any = None,
    *,
    metric: str = "moves",
    budget: Budget | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    on_plan: Callable[[Solution, str], None] | None = None,
    near_plan: tuple[Any, Any] | None = None,
) -> Solution:
    """A shortest plan from `state` (default: the level's start) under `metric`. With
    `on_plan`, a solver that can find plans before its proof (Sokoban) does so first and
    tells each, not proven shortest, with its stage ("found", "improved"); the answer is
    then the proof's, or the best plan known when the proof runs out. `near_plan`: a plan
    known from a position near `state` ((that position, its moves): the first plan is
    looked for near it)."""
    solver = solver_for(family)
    if metric not in solver.metrics:
        raise ValueError(f"{family} has no metric {metric!r} (choose from {', '.join(metrics(family))})")
    if state is None:
        from fewest.engine.registry import rules_for

        state = rules_for(family).initial_state(level)
    control = Control(budget, should_stop, on_progress, on_plan=on_plan)
    control.near_plan = near_plan
    return solver.solve(level, state, control, metric)


def is_dead(family: str, level: Any, state: Any) -> bool:
    """A quick test that no plan solves `state` (False where the family has none, or
    where the test cannot tell): what the app asks before it starts a long search."""
    return solver_for(family).is_dead(level, state)


def blamed(family: str, level: Any, state: Any) -> frozenset[int]:
    """In a position `is_dead` condemns, the cells of the pieces at fault, where the family
    can tell (Sokoban: boxes on dead squares, or frozen or never movable off a goal);
    empty where it cannot (a deadlock of the boxes as a whole)."""
    return solver_for(family).blamed(level, state)


def warm_up(family: str, level: Any, should_stop: Callable[[], bool] | None = None) -> None:
    """Build whatever tables make later hints instant (no-op for families without any);
    it gives up, soon after, once `should_stop` says so (the player left the level)."""
    solver = solver_for(family)

    def check() -> None:
        if should_stop is not None and should_stop():
            raise Stopped("cancelled")

    try:
        solver.warm_up(level, check)
    except Stopped:
        pass  # (the next solve builds what is missing)

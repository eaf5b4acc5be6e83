"""The one entry point the app and the CLI use: solve, hint, warm up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from fewest.engine.game import Game
from fewest.solvers.common.control import Budget, Control, Progress, Stopped
from fewest.solvers.registry import solver_for
from fewest.solvers.common.solution import Solution


def metrics(family: str) -> tuple[str, ...]:
    """What the family's plans can be shortest by, the default first ("moves"; Sokoban
    also "pushes": fewest pushes, then moves)."""
    return tuple(getattr(solver_for(family), "METRICS", ("moves",)))


def solve(
    family: str,
    level: Any,
    state: Any = None,
    *,
    metric: str = "moves",
    budget: Budget | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> Solution:
    """A shortest plan from `state` (default: the level's start) under `metric`."""
    module = solver_for(family)
    if metric not in metrics(family):
        raise ValueError(f"{family} has no metric {metric!r} (choose from {', '.join(metrics(family))})")
    if state is None:
        from fewest.engine.registry import rules_for

        state = rules_for(family).initial_state(level)
    control = Control(budget, should_stop, on_progress)
    return module.solve(level, state, control, metric)


@dataclass(frozen=True)
class Hint:
    """The next move of a shortest plan and how many moves remain with it."""

    solution: Solution

    @property
    def move(self) -> Any:
        return self.solution.moves[0] if self.solution.solved and self.solution.moves else None

    @property
    def remaining(self) -> int | None:
        return self.solution.length


def hint(
    game: Game,
    *,
    metric: str = "moves",
    budget: Budget | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> Hint:
    return Hint(
        solve(
            game.rules.NAME,
            game.level,
            game.state,
            metric=metric,
            budget=budget,
            should_stop=should_stop,
            on_progress=on_progress,
        )
    )


def warm_up(family: str, level: Any, should_stop: Callable[[], bool] | None = None) -> None:
    """Build whatever tables make later hints instant (no-op for families without any);
    it gives up, soon after, once `should_stop` says so (the player left the level)."""
    module = solver_for(family)
    if not hasattr(module, "warm_up"):
        return

    def check() -> None:
        if should_stop is not None and should_stop():
            raise Stopped("cancelled")

    try:
        module.warm_up(level, check)
    except Stopped:
        pass  # (the next solve builds what is missing)

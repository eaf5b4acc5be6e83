"""The one loop every generator shares: prove candidates with the family's exact solver and
keep the first whose proven par fits. A candidate whose proof does not end within its
share of the budget is dropped, never shipped unproven; a proven plan is replayed through
the rules before it counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator

from fewest.engine.base import replay
from fewest.engine.registry import rules_for
from fewest.solvers.common.control import Budget, Control, Stopped
from fewest.solvers.generate.targets import Target
from fewest.solvers.registry import solver_for

PROOF_SECONDS = 20.0  # a candidate's proof at most (a longer one is dropped)


@dataclass(frozen=True)
class Proven:
    """A generated level and its proven shortest plan (its par is the plan's length)."""

    level: Any
    moves: tuple

    @property
    def par(self) -> int:
        return len(self.moves)


def prove(family: str, level: Any, control: Control, seconds: float = PROOF_SECONDS) -> Proven | None:
    """The level with its proven shortest plan; None when it has no plan or the proof does
    not end within `seconds` (raises Stopped when `control` itself stops)."""
    rules = rules_for(family)
    state = rules.initial_state(level)
    left = control.budget.seconds
    if left is not None:
        seconds = min(seconds, max(0.0, left - control.seconds))
    mine = Control(Budget(seconds=seconds), control.should_stop)
    solution = solver_for(family).solve(level, state, mine, "moves")
    control.check()
    if not solution.optimal:
        return None
    if not rules.is_solved(level, replay(rules, level, solution.moves, state)):
        raise AssertionError(f"{family} solver's proven plan does not solve the level")
    return Proven(level, tuple(solution.moves))


def first_proven(family: str, candidates: Iterator[Any], target: Target, control: Control,
                 fits: Callable[[Proven, Target], bool] | None = None) -> Proven:
    """The first candidate whose proven par lies in the target's range, and that `fits` the
    target otherwise (when given: Sokoban's box changes); Stopped when the control's budget
    ends first."""
    for level in candidates:
        control.tick()
        control.check()
        proven = prove(family, level, control)
        if proven is not None and target.low <= proven.par <= target.high and (fits is None or fits(proven, target)):
            return proven
    raise Stopped("exhausted")

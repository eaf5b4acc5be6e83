"""What every family's solver provides: the one interface `api`, the app and the bench use.

Each family's package (`solvers/<family>/__init__.py`) exposes `SOLVER`, an object of
this shape; the registry hands it out by family name. Nothing outside a family's
own folder asks which family it is talking to: a capability one family lacks has a
neutral default here (no tables to warm up, no quick dead-position check).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from fewest.solvers.common.control import Check, Control, no_check
from fewest.solvers.common.solution import Solution

BenchCase = tuple[str, Any, Any]  # (a name, a level, a state to solve from)


@runtime_checkable
class FamilySolver(Protocol):
    """A family's exact solver.

    `metrics`: what its plans can be shortest by, the default first ("moves").
    `solve`: a shortest plan from `state` under `metric`, honest about proof (a plan
    is OPTIMAL only when proven); raises nothing on a budget, it says so in the status.
    `warm_up`: build what makes later solves quick (`check` raises Stopped to give up).
    `is_dead`: a quick test that no plan solves `state` from here (False: not known).
    `blamed`: in such a position, the cells of the pieces at fault (to mark on the board).
    `bench_cases`, `baseline`, `bench_notes`: the seeded workload `fewest bench` times,
    a plain method to compare against, and what the bench's footnote says of both.
    """

    family: str
    metrics: tuple[str, ...]

    def solve(self, level: Any, state: Any, control: Control, metric: str = "moves") -> Solution: ...

    def warm_up(self, level: Any, check: Check = no_check) -> None:
        """No tables to build by default."""

    def is_dead(self, level: Any, state: Any) -> bool:
        """Not known by default: only a family with a sure test says True."""
        return False

    def blamed(self, level: Any, state: Any) -> frozenset[int]:
        """None known by default."""
        return frozenset()

    def bench_cases(self, quick: bool) -> list[BenchCase]: ...

    def baseline(self, level: Any, state: Any, control: Control) -> Solution: ...

    def bench_notes(self) -> list[str]:
        return []


class ModuleSolver(FamilySolver):
    """A family solver whose methods are its solver module's functions of the same names
    (a family with no knobs to hold: rotation, shift, password). What the module lacks
    (warm_up, bench_notes) keeps the contract's default."""

    def __init__(self, family: str, module: Any) -> None:
        self.family = family
        self.metrics = tuple(module.METRICS)
        self._module = module

    def solve(self, level: Any, state: Any, control: Control, metric: str = "moves") -> Solution:
        return self._module.solve(level, state, control, metric)

    def warm_up(self, level: Any, check: Check = no_check) -> None:
        if hasattr(self._module, "warm_up"):
            self._module.warm_up(level, check)

    def bench_cases(self, quick: bool) -> list[BenchCase]:
        return self._module.bench_cases(quick)

    def baseline(self, level: Any, state: Any, control: Control) -> Solution:
        return self._module.baseline(level, state, control)

    def bench_notes(self) -> list[str]:
        return self._module.bench_notes() if hasattr(self._module, "bench_notes") else []

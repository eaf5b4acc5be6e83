"""What every solver returns: a plan with its proof status and statistics."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Mapping

from fewest.solvers.common.control import Control, Meter


class Status(str, Enum):
    OPTIMAL = "optimal"  # a plan, proven shortest
    FOUND = "found"  # a plan, NOT proven shortest (budget ran out while proving)
    UNSOLVABLE = "unsolvable"  # proven: no plan exists
    BUDGET = "budget"  # out of time / nodes / memory before any plan
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class Stats:
    expanded: int = 0
    stored: int = 0
    seconds: float = 0.0
    bound: int | None = None
    reason: str | None = None  # why a search stopped early
    peak_bytes: int = 0  # the most memory the budget checks saw the search hold (0: none looked)


@dataclass(frozen=True)
class Solution:
    status: Status
    moves: tuple = ()
    stats: Stats = field(default_factory=Stats)
    extra: Mapping[str, Any] = field(default_factory=dict)  # e.g. pushes, digit
    # With no proven plan (budget, cancel, or a plan only found): no plan is shorter than
    # this, proven, in the metric's first count (moves, or Sokoban's pushes). None: not known.
    at_least: int | None = None

    @property
    def solved(self) -> bool:
        return self.status in (Status.OPTIMAL, Status.FOUND)

    @property
    def optimal(self) -> bool:
        return self.status is Status.OPTIMAL

    @property
    def length(self) -> int | None:
        return len(self.moves) if self.solved else None


def stopped_status(reason: str) -> Status:
    return Status.CANCELLED if reason == "cancelled" else Status.BUDGET


def stats_of(control: Control, meter: Meter, reason: str | None = None) -> Stats:
    """The statistics of a search that ends now: its control's counts, its meter's report."""
    report = meter.report()
    return Stats(control.expanded, report.stored, control.seconds, report.bound, reason, report.peak_bytes)

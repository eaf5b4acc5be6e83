"""A progress bar on standard error for a run of many levels (`--jobs`, `--resume`, `--scheduler`).

Levels done of all, how they went (optimal, found, not solved, crashed), time so far and
time left. Drawn only at a terminal (a file or a pipe gets nothing, and a single level
no bar). While it is drawn, whatever goes to the same terminal is printed above it.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from typing import Any, TextIO

OUTCOMES = ("optimal", "found", "not solved", "crashed")


def outcome(status: str) -> str:
    """A level's status as the bar counts it."""
    return status if status in ("optimal", "found", "crashed") else "optimal" if status == "unsolvable" else "not solved"


class BatchBar:
    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.on = total > 1 and _terminal(self.stream) and os.environ.get("TERM") != "dumb"
        self.counts: Counter[str] = Counter()
        self._progress: Any = None
        self._task: Any = None
        self.total = total

    def __enter__(self) -> "BatchBar":
        if self.on:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                       TimeRemainingColumn)

            self._progress = Progress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[tally]}"),
                TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                console=Console(file=self.stream), transient=True,
                # (the answers keep to standard output unless that is the same screen)
                redirect_stdout=_terminal(sys.stdout), redirect_stderr=True,
            )
            self._progress.start()
            self._task = self._progress.add_task("levels", total=self.total, tally="")
        return self

    def advance(self, status: str) -> None:
        """One more level done, with this status (a Status value, or "crashed")."""
        self.counts[outcome(status)] += 1
        if self._progress is not None:
            tally = ", ".join(f"{self.counts[name]} {name}" for name in OUTCOMES if self.counts[name])
            self._progress.update(self._task, advance=1, tally=tally)

    def stopping(self) -> None:
        """Ctrl-C was pressed: the running levels are stopping."""
        if self._progress is not None:
            self._progress.update(self._task, description="stopping (Ctrl-C again quits at once)")

    def __exit__(self, *_: object) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


def _terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False

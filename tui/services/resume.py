"""`--resume FILE.jsonl`: each level's result appended as it ends, and skipped on a rerun.

One JSON object a line: the level's `--json` record with the metric it was solved for.
A line cut short (the machine went down while it was written) is not a result: its
level is solved again, and the next result starts on a line of its own.
"""

from __future__ import annotations

import json
import os
from typing import Any

from fewest.engine.base import parse_plan, replay
from fewest.engine.registry import rules_for
from fewest.solvers.common.solution import Solution, Status


class ResumeFile:
    def __init__(self, path: str, metric: str) -> None:
        self.path = path
        self.metric = metric
        self.done: dict[tuple[str, int], dict[str, Any]] = {}  # (file, level) -> its record
        self._read()
        try:  # (a file that cannot be written is said now, not after the first level's proof)
            with open(path, "ab"):
                pass
        except OSError as exc:
            raise ValueError(f"{path}: cannot write the resume file: {exc.strerror or exc}") from None

    def _read(self) -> None:
        try:
            with open(self.path, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except FileNotFoundError:
            return
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"{self.path}: cannot read the resume file: {getattr(exc, 'strerror', None) or exc}")
        for line in lines:
            try:
                record = json.loads(line)
                key = (record["file"], record["level"])
            except (ValueError, TypeError, KeyError):
                continue  # (cut short, or not one of ours)
            if record.get("metric") == self.metric:
                self.done[key] = {name: value for name, value in record.items() if name != "metric"}

    def result_for(self, entry: Any) -> tuple[Solution, float] | None:
        """The level's solution and seconds from the file, if there and still its own (the
        same title and family, and a plan that solves it: the file may have changed)."""
        record = self.done.get((entry.source, entry.index))
        if record is None or record.get("title") != entry.title or record.get("family") != entry.family:
            return None
        try:
            solution, seconds = solution_from(record, entry.family)
            if solution.solved:
                rules = rules_for(entry.family)
                if not rules.is_solved(entry.level, replay(rules, entry.level, solution.moves)):
                    return None
        except (ValueError, KeyError, TypeError):  # (a status or move that is not one: not ours)
            return None
        return solution, seconds

    def add(self, record: dict[str, Any]) -> None:
        """Append `record` (flushed to the disk: a reboot right after keeps it)."""
        line = json.dumps({**record, "metric": self.metric}).encode() + b"\n"
        with open(self.path, "ab+") as handle:
            end = handle.seek(0, os.SEEK_END)
            if end > 0:
                handle.seek(end - 1)
                if handle.read(1) != b"\n":  # (a line cut short before: ours starts afresh)
                    line = b"\n" + line
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())


# A record's keys that are not a solution's extra figures (pushes, digit...)
_RECORD_KEYS = {"file", "level", "title", "family", "status", "length", "plan", "optimal", "seconds",
                "at_least", "par", "push_par"}


def solution_from(record: dict[str, Any], family: str) -> tuple[Solution, float]:
    """The solution a record was written from, and its seconds (its plan read back)."""
    rules = rules_for(family)
    plan = record.get("plan")
    return Solution(
        Status(record["status"]),
        moves=tuple(parse_plan(rules, plan)) if plan else (),
        extra={key: value for key, value in record.items() if key not in _RECORD_KEYS},
        at_least=record.get("at_least"),
    ), float(record.get("seconds", 0.0))

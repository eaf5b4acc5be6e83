"""`fewest bench sokoban --set FILE --anytime`: how soon a plan comes and how short it gets.

Each level is solved as the app's hints and `fewest solve` solve it (plans found
and improved first, then the proof; the best plan when the proof runs out), in
its own process as the proofs' bench does (sokoban_set.py). A row: the seconds to
the first plan, the best plan's moves and pushes at ANYTIME_AT seconds and at the
end, and with `--known CSV` (columns level, moves, pushes: one known solution's
counts, as ../shared's xsokoban_known_solutions.csv) the ratio of the end's plan
to it, by the metric. Totals: levels with a plan within ANYTIME_AT seconds and
within the timeout, proven, and the median ratio.
"""

from __future__ import annotations

import csv
import io
import os
import statistics
import time

from fewest.levels.base import LevelFormatError
from fewest.levels.files import regular_file_bytes
from fewest.solvers.common.control import Control
from fewest.tui.bench.sokoban_set import BenchRow, BenchSummary, level_budget, solution_row

ANYTIME_AT = 10.0  # seconds: the "a plan within 10 s"


def anytime_solved(level, metric: str, timeout: float, memory_bytes: int) -> BenchRow:
    """The level solved as a hint is (a forked child's work): its row."""
    from fewest.engine import sokoban as rules
    from fewest.solvers.sokoban import solver as sokoban

    started = time.perf_counter()
    plans: list[tuple[float, int, int]] = []  # (seconds, moves, pushes) of each plan told

    def told(solution, _stage: str) -> None:
        plans.append((time.perf_counter() - started, len(solution.moves), solution.extra["pushes"]))

    control = Control(level_budget(timeout, memory_bytes), on_plan=told)
    solution = sokoban.solve(level, rules.initial_state(level), control, metric)
    seconds = time.perf_counter() - started
    if solution.solved:
        plans.append((seconds, len(solution.moves), solution.extra.get("pushes")))
    by_then = [(plan_moves, plan_pushes) for at, plan_moves, plan_pushes in plans if at <= ANYTIME_AT]
    return solution_row(solution, seconds, first_seconds=plans[0][0] if plans else None,
                        at_ten=by_then[-1] if by_then else None)


def ratio(row: BenchRow, metric: str) -> float | None:
    """The end's plan over the known solution, by the metric's count (None: either missing)."""
    if row.moves is None or row.known is None:
        return None
    mine, theirs = (row.pushes, row.known[1]) if metric == "pushes" else (row.moves, row.known[0])
    return None if mine is None or not theirs else mine / theirs


def format_anytime_row(row: BenchRow, metric: str) -> str:
    if row.status == "unreadable":
        return f"{row.index:4d} {row.title[:24]:24s} {row.status:10s} {row.error}"
    first = "-" if row.first_seconds is None else f"{row.first_seconds:.2f}s"
    at_ten = "-" if row.at_ten is None else f"{row.at_ten[0]}/{row.at_ten[1]}"
    end = "-" if row.moves is None else f"{row.moves}/{row.pushes}"
    share = ratio(row, metric)
    versus = "" if share is None else f" x{share:.2f} of known {row.known[0]}/{row.known[1]}"  # type: ignore[index]
    bound = "" if row.proven or row.at_least is None else f" (at least {row.at_least} {metric})"
    return (f"{row.index:4d} {row.title[:24]:24s} {row.status:10s} first {first:>7s}"
            f"  at {ANYTIME_AT:g}s {at_ten:>9s}  end {end:>9s} {row.seconds:6.1f}s{versus}{bound}")


def format_anytime_summary(summary: BenchSummary, timeout: float) -> str:
    rows = [row for row in summary.rows if row.status != "unreadable"]
    soon = sum(row.at_ten is not None for row in rows)
    solved = sum(row.moves is not None for row in rows)
    ratios = [share for share in (ratio(row, summary.metric) for row in rows) if share is not None]
    median = f"; median {statistics.median(ratios):.2f}x the known solutions ({len(ratios)} levels)" if ratios else ""
    return (f"{summary.metric}, anytime: a plan within {ANYTIME_AT:g}s for {soon}/{len(rows)}, within"
            f" {timeout:g}s for {solved}/{len(rows)}, {summary.solved} proven{median}")


def read_known(path: str | os.PathLike) -> dict[int, tuple[int, int]]:
    """level -> a known solution's (moves, pushes), from a CSV with columns level, moves, pushes."""
    table = {}
    try:
        text = regular_file_bytes(os.fspath(path)).decode("utf-8")  # (a FIFO is refused, not waited on)
        for line, record in enumerate(csv.DictReader(io.StringIO(text, newline="")), start=2):
            counts = [record[column].strip() for column in ("level", "moves", "pushes")]
            if not all(count.isdigit() for count in counts):
                raise ValueError(f"{path}, line {line}: level, moves and pushes must be whole numbers")
            level, moves, pushes = map(int, counts)
            table[level] = (moves, pushes)
    except LevelFormatError as exc:
        raise ValueError(str(exc)) from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a table of known solutions (not text)") from None
    except (KeyError, AttributeError) as exc:
        raise ValueError(f"{path}: not a table of known solutions: no column {exc} (the header names level,"
                         " moves and pushes)") from None
    return table

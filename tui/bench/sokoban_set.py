"""Benchmark the exact Sokoban solver over a level collection (`fewest bench sokoban --set`).

Each level is solved in its own forked process, so its peak memory is its own
(the most that process and its children held at once) and a runaway search
cannot take the runner down; the time and memory limits go in as the search's
Budget, all of it for the proof (no best-effort plan is looked for after it
runs out). On a Dask cluster (`--scheduler`) a level is a fresh process on a worker,
watched the same way. A CSV of proven counts (columns level, min_pushes, min_moves,
pushes_in_min_moves, as in Microban's table) can be given to check every answer.
"""

from __future__ import annotations

import contextlib
import csv
import io
import multiprocessing
import os
import pickle
import resource
import select
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from typing import AbstractSet, Any, Callable, Iterator, Mapping

from fewest.levels.base import LevelFormatError
from fewest.levels.files import regular_file_bytes
from fewest.solvers.common.control import Budget, Control
from fewest.solvers.common.held_bytes import tree_resident_bytes
from fewest.solvers.common.solution import Solution

GRACE = 10.0  # seconds past the budget before a silent child is killed
# How often the runner adds up what the level's processes hold. Adding each process's own
# peak instead counts twice what the search lends a child and takes back: Sasquatch #46
# under pushes peaks in the search after the pull table's child (596 MiB) is done, at
# 1,437 MiB at once, where the two peaks added came to 2,087.
SAMPLE_SECONDS = 0.01
SPAWNED_LEVEL = "fewest.tui.bench.spawned_level"  # a level's process on a cluster's worker


@dataclass(frozen=True)
class BenchRow:
    index: int  # 1-based position in the collection
    title: str
    status: str  # a Status value, or "crashed" / "killed" / "unreadable"
    moves: int | None  # the plan's length when solved
    pushes: int | None
    nodes: int
    seconds: float
    peak_bytes: int  # the most the level's processes held resident at once
    expected: tuple[int, int] | None = None  # (first, second) count of the metric from the CSV
    matches: bool | None = None  # plan's counts == expected (None: nothing to compare)
    at_least: int | None = None  # unproven: the metric's first count no plan goes below
    error: str | None = None  # unreadable: what is wrong with the level, and where
    # --anytime (tui/bench/sokoban_anytime.py): the seconds to the first plan, the best plan's
    # (moves, pushes) at ANYTIME_AT seconds, and a known solution's (moves, pushes) from --known
    first_seconds: float | None = None
    at_ten: tuple[int, int] | None = None
    known: tuple[int, int] | None = None

    @property
    def proven(self) -> bool:
        return self.status == "optimal"

    def first_proven(self, metric: str) -> bool:
        """A plan only found whose first count (pushes, under pushes) is proven fewest."""
        first = self.pushes if metric == "pushes" else self.moves
        return self.status == "found" and first is not None and first == self.at_least


@dataclass(frozen=True)
class BenchSummary:
    metric: str
    rows: tuple[BenchRow, ...]

    @property
    def solved(self) -> int:
        return sum(row.proven for row in self.rows)

    @property
    def first_proven(self) -> int:
        return sum(row.first_proven(self.metric) for row in self.rows)

    @property
    def mismatches(self) -> int:
        return sum(row.matches is False for row in self.rows)

    @property
    def unreadable(self) -> int:
        return sum(row.status == "unreadable" for row in self.rows)

    @property
    def median_seconds(self) -> float:
        times = self._times()
        return statistics.median(times) if times else 0.0

    @property
    def p95_seconds(self) -> float:
        times = self._times()
        return times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0

    @property
    def most_bytes(self) -> int:
        """The highest level's peak: what a run needs in all."""
        return max((row.peak_bytes for row in self.rows), default=0)

    def _times(self) -> list[float]:
        """The levels' times, sorted (not the unreadable ones': nothing was run)."""
        return sorted(row.seconds for row in self.rows if row.status != "unreadable")


def run_collection(
    path: str | os.PathLike,
    metric: str = "moves",
    timeout: float = 60.0,
    on_row: Callable[[BenchRow], None] | None = None,
    memory_bytes: int = 2 * 1024**3,
    expected_csv: str | os.PathLike | None = None,
    levels: AbstractSet[int] | None = None,
    jobs: int | None = None,
    scheduler: str | None = None,
    solved: Callable[..., BenchRow] | None = None,
    known: Mapping[int, tuple[int, int]] | None = None,
) -> BenchSummary:
    """Solve every level of the file at `path` (or those whose 1-based index is in `levels`),
    `jobs` at once when given (0: one per core), or on the Dask cluster at `scheduler` (the
    rows still come in the file's order).
    `solved(level, metric, timeout, memory_bytes)` makes a level's row in its process
    (default: the proof alone; tui/bench/sokoban_anytime.py's: as the hints solve it);
    `known` (level -> a known solution's moves and pushes) goes into each row.
    A file of another family, a level number it lacks or an unreadable table of expected
    counts raise ValueError (before any level is solved), as does a scheduler not there."""
    from fewest.levels import read_file_each  # the runner is the only user of level files here
    from fewest.solvers import sokoban  # noqa: F401  (loaded once here; every forked child shares it)

    # A level that does not read is a row of its own (and not solved): the others still run.
    collection = read_file_each(path)
    entries = {entry.index: entry for entry in collection.entries}
    errors = {problem.index: str(problem.error) for problem in collection.unreadable}
    families = sorted({entry.family for entry in collection.entries} - {"sokoban"})
    if families:
        raise ValueError(f"{path}: not a Sokoban collection (its levels are {', '.join(families)})")
    missing = sorted(set(levels or ()) - entries.keys() - errors.keys())
    if missing:
        raise ValueError(f"{path}: no level {missing[0]} (the file has {len(entries) + len(errors)})")
    expected = _read_expected(expected_csv, metric) if expected_csv else {}
    known = known or {}
    chosen = [number for number in sorted(entries.keys() | errors.keys()) if levels is None or number in levels]
    runs = _runs([entries[number].level for number in chosen if number in entries], metric, timeout, memory_bytes, jobs,
                 scheduler, solved or solved_row)
    rows = []
    for number in chosen:
        if number in errors:
            row = BenchRow(number, "", "unreadable", None, None, 0, 0.0, 0, error=errors[number])
        else:
            entry = entries[number]
            row = next(runs)
            want = expected.get(number)
            matches = None
            if want is not None and row.proven:
                got = (row.moves, row.pushes) if metric == "moves" else (row.pushes, row.moves)
                matches = all(w is None or w == g for w, g in zip(want, got))
            row = replace(row, index=number, title=entry.title or str(number), expected=want, matches=matches,
                          known=known.get(number))
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return BenchSummary(metric, tuple(rows))


def format_row(row: BenchRow, metric: str = "moves") -> str:
    """One level's line; an unproven one ends with what its proof got to (in `metric`)."""
    if row.status == "unreadable":
        return f"{row.index:4d} {row.title[:24]:24s} {row.status:10s} {row.error}"
    length = "-" if row.moves is None else f"{row.moves}/{row.pushes}"
    check = {None: "", True: " ok", False: f" MISMATCH (expected {row.expected})"}[row.matches]
    if row.first_proven(metric):
        check += f" ({metric} proven fewest; its {'moves' if metric == 'pushes' else 'pushes'} not)"
    elif not row.proven and row.at_least is not None:
        check += f" (at least {row.at_least} {metric})"
    return (
        f"{row.index:4d} {row.title[:24]:24s} {row.status:10s} moves/pushes {length:>9s}"
        f" nodes {row.nodes:>9,d} {row.seconds:7.2f}s {row.peak_bytes / 2**20:7.0f} MiB{check}"
    )


def format_summary(summary: BenchSummary) -> str:
    mismatches = f", {summary.mismatches} mismatched" if summary.mismatches else ""
    if summary.first_proven:
        mismatches += f", {summary.first_proven} more with only the {summary.metric} proven"
    if summary.unreadable:
        mismatches += f", {summary.unreadable} unreadable"
    return (
        f"{summary.metric}: {summary.solved}/{len(summary.rows)} proven optimal{mismatches};"
        f" median {summary.median_seconds:.2f}s, p95 {summary.p95_seconds:.2f}s;"
        f" memory at most {summary.most_bytes / 2**20:,.0f} MiB"
    )


def _read_expected(path: str | os.PathLike, metric: str) -> dict[int, tuple[int | None, int | None]]:
    """level -> the metric's (first, second) counts; the second is unknown for pushes."""

    def number(text: str) -> int | None:
        return int(text) if text and text.strip().isdigit() else None

    table = {}
    try:
        text = regular_file_bytes(os.fspath(path)).decode("utf-8")  # (a FIFO is refused, not waited on)
        for line, record in enumerate(csv.DictReader(io.StringIO(text, newline="")), start=2):
            if metric == "moves":
                counts = (number(record["min_moves"]), number(record["pushes_in_min_moves"]))
            else:
                counts = (number(record["min_pushes"]), None)
            level = number(record["level"])
            if level is None:
                raise ValueError(f"{path}, line {line}: level {record['level']!r} is not a number")
            table[level] = counts
    except LevelFormatError as exc:
        raise ValueError(str(exc)) from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a table of counts (not text)") from None
    except KeyError as exc:
        raise ValueError(f"{path}: not a table of counts: no column {exc} (the header names level, "
                         "min_pushes, min_moves and pushes_in_min_moves)") from None
    return {key: value for key, value in table.items() if value[0] is not None}


def _runs(levels: list, metric: str, timeout: float, memory_bytes: int, jobs: int | None,
          scheduler: str | None, solved: Callable[..., BenchRow]) -> Iterator[BenchRow]:
    """The levels' rows in order: one after another here, or by `jobs` worker processes
    (each forks its level's process as this one would; memory shared so that all the
    levels at once stay within half the machine), or by the Dask cluster at `scheduler`
    (each level a fresh process on a worker: spawned_level.py)."""
    if jobs is None and scheduler is None:
        return (_run_one(level, metric, timeout, memory_bytes, solved) for level in levels)
    from fewest.tui.services.batch import Crash, LocalPool, in_order, worker_count
    from fewest.tui.services.budgets import default_memory_bytes

    runner: Any
    if scheduler is not None:
        from fewest.tui.services.cluster import ClusterRun

        runner = ClusterRun(_run_spawned, scheduler)  # (ValueError: no scheduler there)
        share = memory_bytes  # (on the worker, at most half its own limit)
    else:
        runner = LocalPool(_run_task, worker_count(jobs or 0))
        share = min(memory_bytes, default_memory_bytes() // runner.workers)
    tasks = [(level, metric, timeout, share, solved) for level in levels]
    return (
        BenchRow(0, "", "crashed", None, None, 0, 0.0, 0, error=row.error) if isinstance(row, Crash) else row
        for _, row in in_order(runner.results(tasks))
    )


def _run_task(task: tuple, should_stop: Callable[[], bool]) -> BenchRow:
    """A worker's job (a Ctrl-C ends the run, and its workers, at once)."""
    return _run_one(*task)


def _run_spawned(task: tuple, should_stop: Callable[[], bool]) -> BenchRow:
    """A cluster worker's job: the level of `task` solved in a fresh process of its own
    (spawned_level.py). The worker's process has threads (a fork would copy them half-way)
    and outlives many levels (its peak is not a level's); a fresh process's peak is its
    level's alone. It is watched as `_run_one` watches its forked child, and is a process
    group of its own, ended whole (a level process killed alone was seen to leave a helper
    running)."""
    from fewest.tui.services.cluster import worker_memory

    level, metric, timeout, memory_bytes, solved = task
    memory_bytes = min(memory_bytes, worker_memory(lambda: memory_bytes))
    started = time.perf_counter()
    # (a group of its own: the level's helper processes end with it, whatever ends it)
    child = subprocess.Popen([sys.executable, "-m", SPAWNED_LEVEL], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             start_new_session=True)
    assert child.stdin is not None and child.stdout is not None
    result = None
    at_once = 0
    try:
        with contextlib.suppress(BrokenPipeError):  # (a child dead at once: a crashed row)
            child.stdin.write(pickle.dumps((level, metric, timeout, memory_bytes, solved)))
            child.stdin.flush()  # (left open: its closing tells the child this worker has gone)

        def ended(wait: float) -> bool:
            return should_stop() or bool(select.select([child.stdout], [], [], wait)[0])

        at_once = _watch(child.pid, ended, started, timeout)
        if not should_stop() and select.select([child.stdout], [], [], 0)[0]:
            try:
                result = pickle.load(child.stdout)
            except (EOFError, pickle.UnpicklingError):
                result = None
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(GRACE if result is not None else 0)
    finally:  # (the run stopped, or the worker's task ends some other way)
        overran = child.poll() is None
        with contextlib.suppress(ProcessLookupError):  # (none of it left)
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        with contextlib.suppress(BrokenPipeError):
            child.stdin.close()
        child.stdout.close()
    return _finished_row(result, overran, started, at_once)


def _run_one(level, metric: str, timeout: float, memory_bytes: int, solved: Callable[..., BenchRow]) -> BenchRow:
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    # not a daemon: the solver may grow its pull table in a child of its own (it is killed below
    # when it overruns, and its own child stops on its time share)
    child = context.Process(target=_child, args=(sender, level, metric, timeout, memory_bytes, solved))
    started = time.perf_counter()
    child.start()
    sender.close()
    result = None
    at_once = 0
    try:
        assert child.pid is not None
        at_once = _watch(child.pid, receiver.poll, started, timeout)
        if receiver.poll(0):
            try:
                result = receiver.recv()
            except EOFError:
                result = None
        child.join(GRACE if result is not None else 0)
    finally:  # (on Ctrl-C too)
        overran = child.is_alive()
        if overran:
            child.kill()
            child.join()
    return _finished_row(result, overran, started, at_once)


def _watch(pid: int, ended: Callable[[float], bool], started: float, timeout: float) -> int:
    """The most the level's processes (`pid` and its children) held at once, sampled until
    `ended(wait)` says its answer is there or the grace past its budget is over."""
    at_once = 0
    while not ended(SAMPLE_SECONDS) and time.perf_counter() - started < timeout + GRACE:
        at_once = max(at_once, tree_resident_bytes(pid))
    return at_once


def _finished_row(result: BenchRow | None, overran: bool, started: float, at_once: int) -> BenchRow:
    """The level's row: its answer with the peak sampled, or killed (it overran), or crashed
    (it ended with no answer)."""
    if overran:
        return BenchRow(0, "", "killed", None, None, 0, time.perf_counter() - started, 0)
    if result is None:
        return BenchRow(0, "", "crashed", None, None, 0, time.perf_counter() - started, 0)
    return replace(result, peak_bytes=max(result.peak_bytes, at_once))


def _child(sender, level, metric: str, timeout: float, memory_bytes: int, solved: Callable[..., BenchRow]) -> None:
    # Ctrl-C reaches the whole process group: the parent says so once, and a child stops
    # quietly (its own children closed on the way out), not with a traceback of its own
    with contextlib.suppress(KeyboardInterrupt):
        sender.send(solved(level, metric, timeout, memory_bytes))
    sender.close()


def solved_row(level, metric: str, timeout: float, memory_bytes: int) -> BenchRow:
    """The level solved here, under the budget, proofs only: its row (peak: this process's
    and its children's own)."""
    from fewest.engine import sokoban as rules
    from fewest.solvers.sokoban import solver as sokoban

    control = Control(level_budget(timeout, memory_bytes))
    started = time.perf_counter()
    solution = sokoban.solve(level, rules.initial_state(level), control, metric, best_effort=False)  # proofs only
    return solution_row(solution, time.perf_counter() - started)


def level_budget(timeout: float, memory_bytes: int) -> Budget:
    """A bench level's budget: its memory for the level's whole process tree, helpers included."""
    return Budget(seconds=timeout, memory_bytes=memory_bytes, process_bytes=memory_bytes)


def solution_row(solution: Solution, seconds: float, **more: Any) -> BenchRow:
    """The row of a level solved here in `seconds` (peak: this process's and its children's own)."""
    moves = len(solution.moves) if solution.solved else None
    pushes = solution.extra.get("pushes") if solution.solved else None
    return BenchRow(
        0, "", solution.status.value, moves, pushes, solution.stats.expanded, seconds, peak_bytes(),
        at_least=solution.at_least, **more,
    )


def peak_bytes() -> int:
    """This process's peak and its children's, the larger (Linux reports KiB). Each process's
    own peak, exact where the runner's samples of the processes together may fall between
    two (it keeps the larger)."""
    return max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) * 1024

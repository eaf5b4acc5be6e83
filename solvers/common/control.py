"""Budgets, cancellation and progress for every search (passed in, never global).

An algorithm calls `control.tick()` once per expanded node; every
`CHECK_EVERY` ticks (fewer where ticks are slow: about every CHECK_SECONDS) the clock,
the node and memory budgets and `should_stop` are looked at, so a cancel is seen
within a few milliseconds. Exceeding
anything raises `Stopped`, which the algorithm turns into an honest
`Solution` status: a plan is never labelled optimal unless it was proven.

The budget is a frozen value: a phase on a share of it runs on a control of its own
(`share`, `within`), never on a swapped field. What a search holds now (for the memory
check and the progress figures) it keeps on a `Meter` it opens on the control for the
time it runs (`metered`); what it found out comes back as a frozen `Report`: in the
`Stats` of its Solution, on the `Stopped` that ended it, and to the meter of the search
that called it when its own closes.
"""

from __future__ import annotations

import gc
import os
import threading
import time
from contextlib import AbstractContextManager, contextmanager
from copy import copy
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator

from fewest.solvers.common.held_bytes import tree_resident_bytes

RESIDENT_SECONDS = 0.01  # between two looks at what the process tree holds (each ~30 us)
CHECK_SECONDS = 0.01  # between two checks at most, where ticks are slow (see Control.check)


@dataclass(frozen=True)
class Budget:
    seconds: float | None = None
    nodes: int | None = None
    memory_bytes: int | None = None  # what the searches may hold, by their own counts
    # the most the process and its helper processes may hold resident at once (None: not
    # looked at): the command line's --memory. The searches' counts leave out what the
    # process held before them and what a forked helper copies of it; looked at every
    # RESIDENT_SECONDS, it stops the search ("memory") the moment the whole is over.
    process_bytes: int | None = None


@dataclass(frozen=True)
class Progress:
    expanded: int
    stored: int
    bound: int | None
    seconds: float


@dataclass(frozen=True)
class Report:
    """What a search tells its caller once it ends: the positions it stored, the bound it
    reached (the metric's first count; None: none), the most memory its checks saw it hold
    and the helper processes still counted as running beside it."""

    stored: int = 0
    bound: int | None = None
    peak_bytes: int = 0
    helpers: int = 0


class Meter:
    """What a running search holds now: opened by the search (`Control.metered`), written by
    it alone, read by its control's checks (memory, time kept to let go) and progress."""

    __slots__ = ("stored", "bound", "bytes_per_entry", "measure", "release_seconds", "helpers", "peak_bytes", "tells")

    def __init__(self, bytes_per_entry: int = 200, tells: bool = True) -> None:
        self.stored = 0
        self.bound: int | None = None
        self.bytes_per_entry = bytes_per_entry  # the search's estimate of one stored state
        # or, better, a count of the bytes it holds now
        self.measure: Callable[[], int] | None = None
        # the time the search will take to let go of its tables once stopped (it stops that
        # much sooner, so that its answer still comes within the time budget)
        self.release_seconds = 0.0
        self.helpers = 0  # processes the search runs beside it now
        self.peak_bytes = 0
        self.tells = tells  # (False: its figures are not its caller's, as a plan's reordering)

    def memory_used(self) -> int:
        """The search's own estimate of the bytes it holds."""
        if self.measure is not None:
            return self.measure()
        return self.stored * self.bytes_per_entry

    def heard(self, report: Report) -> None:
        """A search this one called has ended: its positions are the last stored, its bound
        stands where higher (a bound never falls)."""
        self.stored = report.stored
        self.bound = max(self.bound or 0, report.bound or 0) or None
        self.peak_bytes = max(self.peak_bytes, report.peak_bytes)

    def report(self) -> Report:
        return Report(self.stored, self.bound, self.peak_bytes, self.helpers)


class Stopped(Exception):
    """Raised inside a search when a budget runs out or the caller cancels; `report`: what
    the search it ended had reached (set as it leaves that search's meter)."""

    def __init__(self, reason: str, report: Report | None = None) -> None:
        super().__init__(reason)
        self.reason = reason  # "time", "nodes", "memory" or "cancelled"
        self.report = report


Check = Callable[[], None]  # called now and then by a long build; raises Stopped to end it


def no_check() -> None:
    """The check of a build nobody stops."""


class Control:
    CHECK_EVERY = 512

    def __init__(
        self,
        budget: Budget | None = None,
        should_stop: Callable[[], bool] | None = None,
        on_progress: Callable[[Progress], None] | None = None,
        progress_interval: float = 0.25,
        on_plan: Callable[[Any, str], None] | None = None,
    ) -> None:
        """`on_plan`: told each plan not proven shortest as soon as a solver has one (a
        Solution, and its stage: "found", then "improved"), before the proof goes on; a
        solver that can give such plans first (Sokoban's anytime stages) does so only
        when it is set."""
        self._budget = budget or Budget()
        self.should_stop = should_stop
        self.on_progress = on_progress
        self.on_plan = on_plan
        # A plan known from a position near this one, (that position, its moves), as after a
        # step off a hint's plan: a solver that gives plans first (see on_plan) starts from it.
        self.near_plan: tuple[Any, Any] | None = None
        self.progress_interval = progress_interval
        self.started = time.perf_counter()
        self.expanded = 0
        self._meters = [Meter()]  # the searches running now, innermost last (see metered)
        self._next_check = 1  # (then twice as many ticks each time, up to CHECK_EVERY: see check)
        self._checked = (0, self.started)  # (expanded, clock) at the last check
        self._midway: tuple[int, Callable[[], None]] | None = None  # see call_at
        self._next_progress = self.started + progress_interval
        self._next_resident = self.started  # (see Budget.process_bytes)

    @property
    def budget(self) -> Budget:
        return self._budget

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started

    @property
    def meter(self) -> Meter:
        """The meter of the innermost search running now."""
        return self._meters[-1]

    def tick(self, count: int = 1) -> None:
        """Count expanded nodes; raises Stopped when over budget or cancelled."""
        self.expanded += count
        if self.expanded >= self._next_check:
            self.check()

    def check(self) -> None:
        now = time.perf_counter()
        budget, meter = self._budget, self._meters[-1]
        # The next look comes CHECK_EVERY ticks on, or sooner where ticks take long (a
        # 100 x 100 board's states are 2.6 KB each: 512 of them made 65 MiB between two
        # looks): about every CHECK_SECONDS, so that what a search adds unseen stays small.
        ticks, took = self.expanded - self._checked[0], now - self._checked[1]
        if took <= CHECK_SECONDS:  # (back up to CHECK_EVERY, doubling)
            every = min(self.CHECK_EVERY, max(1, 2 * ticks))
        else:
            every = max(1, int(ticks * CHECK_SECONDS / took))
        self._next_check, self._checked = self.expanded + every, (self.expanded, now)
        if self.should_stop is not None and self.should_stop():
            raise Stopped("cancelled")
        if budget.seconds is not None and now - self.started + meter.release_seconds > budget.seconds:
            raise Stopped("time")
        if budget.nodes is not None and self.expanded > budget.nodes:
            raise Stopped("nodes")
        if budget.memory_bytes is not None:
            used = meter.memory_used()
            meter.peak_bytes = max(meter.peak_bytes, used)
            if used > budget.memory_bytes:
                raise Stopped("memory")
        if budget.process_bytes is not None and now >= self._next_resident:
            self._next_resident = now + RESIDENT_SECONDS
            if tree_resident_bytes(os.getpid()) > budget.process_bytes:
                raise Stopped("memory")
        if self.on_progress is not None and now >= self._next_progress:
            self._next_progress = now + self.progress_interval
            self.on_progress(self.progress())
        if self._midway is not None and self.expanded >= self._midway[0]:
            call, self._midway = self._midway[1], None
            call()

    def call_at(self, expanded: int, call: Callable[[], None] | None) -> None:
        """Have `call` run once, from the first check with `expanded` nodes counted, in the
        middle of the search (None: no call). What it raises ends the search, as a budget does."""
        self._midway = None if call is None else (expanded, call)

    def memory_used(self) -> int:
        """What the innermost search running now holds, by its own estimate."""
        return self._meters[-1].memory_used()

    @property
    def helpers(self) -> int:
        """The processes the searches running now run beside them (a caller may start one
        of its own when none is)."""
        return sum(meter.helpers for meter in self._meters)

    def progress(self) -> Progress:
        bound = max((meter.bound or 0 for meter in self._meters), default=0) or None
        return Progress(self.expanded, self._meters[-1].stored, bound, self.seconds)

    @contextmanager
    def metered(self, bytes_per_entry: int = 200, tells: bool = True) -> Iterator[Meter]:
        """Within it, a search's own meter (see Meter): what the control's checks and
        progress read. On the way out its report goes to the caller's meter (unless it
        `tells` nothing) and onto the Stopped that ends it, if one does."""
        meter = Meter(bytes_per_entry, tells)
        self._meters.append(meter)
        try:
            yield meter
        except Stopped as stop:
            if stop.report is None:
                stop.report = meter.report()
            raise
        finally:
            self._meters.remove(meter)
            if meter.tells:
                self._meters[-1].heard(meter.report())

    @contextmanager
    def within(self, budget: Budget) -> Iterator[Control]:
        """A phase on `budget`: a control of its own, with this one's clock, callbacks and
        running searches; the nodes it expands are counted here once it ends."""
        phase = copy(self)
        phase._budget = budget
        try:
            yield phase
        finally:
            self.expanded, self._next_check, self._checked = phase.expanded, phase._next_check, phase._checked
            self._next_progress, self._midway = phase._next_progress, phase._midway
            self._next_resident = phase._next_resident

    def give_up_memory(self, memory_bytes: int) -> None:
        """From now on this phase (see within) holds `memory_bytes` at most: its caller hands
        the rest to a process it starts beside it. (The budget is replaced, never changed.)"""
        self._budget = replace(self._budget, memory_bytes=memory_bytes)

    def share(self, fraction: float, memory: float = 1.0) -> AbstractContextManager[Control]:
        """A first phase (see within) on `fraction` of the time and node budgets (what is
        left then serves a second phase) and on `memory` of the memory budget (by default
        all of it: a stopped phase frees its tables)."""
        whole = self._budget
        seconds = None if whole.seconds is None else whole.seconds * fraction
        nodes = None if whole.nodes is None else int(whole.nodes * fraction)
        memory_bytes = None if whole.memory_bytes is None else int(whole.memory_bytes * memory)
        return self.within(replace(whole, seconds=seconds, nodes=nodes, memory_bytes=memory_bytes))


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector (a caller that had it off keeps it off).

    A search makes no reference cycles, but its millions of stored entries make every
    full collection walk them all (measured: ~15% of a Sokoban search's time)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


RELEASE_STEP = 4096  # entries freed between chances for other threads to run


def release_gradually(containers: list) -> None:
    """Empty a search's big dicts and lists a few thousand entries at a time.

    Freed at once, millions of entries are one call that holds the GIL for up to
    seconds (measured: 0.45 s after a 40 s Sokoban search), freezing the app's own
    thread right when the player cancelled. Popped in steps, the interpreter hands
    the GIL over between them. Lists inside a dict (a queue's buckets) go the same way.
    On the main thread (the command line, the benchmark) no thread of ours waits: at once."""
    if threading.current_thread() is threading.main_thread():
        containers.clear()
        return
    while containers:
        container = containers.pop()
        while container:
            if isinstance(container, dict):
                for _ in range(min(RELEASE_STEP, len(container))):
                    _, item = container.popitem()
                    if type(item) is list and len(item) > RELEASE_STEP:
                        containers.append(item)
            else:
                del container[-RELEASE_STEP:]

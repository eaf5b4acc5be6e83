"""Budgets, cancellation and progress for every search (passed in, never global).

An algorithm calls `control.tick()` once per expanded node; every
`CHECK_EVERY` ticks the clock, the node and memory budgets and `should_stop`
are looked at, so a cancel is seen within a few milliseconds. Exceeding
anything raises `Stopped`, which the algorithm turns into an honest
`Solution` status: a plan is never labelled optimal unless it was proven.
"""

from __future__ import annotations

import gc
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Callable, Iterator


@dataclass(frozen=True)
class Budget:
    seconds: float | None = None
    nodes: int | None = None
    memory_bytes: int | None = None


@dataclass(frozen=True)
class Progress:
    expanded: int
    stored: int
    bound: int | None
    seconds: float


class Stopped(Exception):
    """Raised inside a search when a budget runs out or the caller cancels."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason  # "time", "nodes", "memory" or "cancelled"


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
    ) -> None:
        self.budget = budget or Budget()
        self.should_stop = should_stop
        self.on_progress = on_progress
        self.progress_interval = progress_interval
        self.started = time.perf_counter()
        self.expanded = 0
        self.stored = 0
        self.bound: int | None = None
        self.bytes_per_entry = 200  # a search sets its own estimate of one stored state
        # or, better, a count of the bytes it holds now (it must set it back to None when done)
        self.measure_memory: Callable[[], int] | None = None
        # the time a search will take to let go of its tables once stopped (it stops that much
        # sooner, so that its answer still comes within the time budget)
        self.release_seconds = 0.0
        self.helpers = 0  # processes the search runs beside it now (its caller may start one when none is)
        self._next_check = self.CHECK_EVERY
        self._midway: tuple[int, Callable[[], None]] | None = None  # see call_at
        self._next_progress = self.started + progress_interval

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started

    def tick(self, count: int = 1) -> None:
        """Count expanded nodes; raises Stopped when over budget or cancelled."""
        self.expanded += count
        if self.expanded >= self._next_check:
            self._next_check = self.expanded + self.CHECK_EVERY
            self.check()

    def check(self) -> None:
        now = time.perf_counter()
        budget = self.budget
        if self.should_stop is not None and self.should_stop():
            raise Stopped("cancelled")
        if budget.seconds is not None and now - self.started + self.release_seconds > budget.seconds:
            raise Stopped("time")
        if budget.nodes is not None and self.expanded > budget.nodes:
            raise Stopped("nodes")
        if budget.memory_bytes is not None and self.memory_used() > budget.memory_bytes:
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
        """The search's own estimate of the bytes it holds."""
        if self.measure_memory is not None:
            return self.measure_memory()
        return self.stored * self.bytes_per_entry

    def progress(self) -> Progress:
        return Progress(self.expanded, self.stored, self.bound, self.seconds)

    @contextmanager
    def share(self, fraction: float, memory: float = 1.0) -> Iterator[None]:
        """Run a first phase on `fraction` of the time and node budgets (what is left then
        serves a second phase) and on `memory` of the memory budget (by default all of
        it: a stopped phase frees its tables)."""
        whole = self.budget
        seconds = None if whole.seconds is None else whole.seconds * fraction
        nodes = None if whole.nodes is None else int(whole.nodes * fraction)
        memory_bytes = None if whole.memory_bytes is None else int(whole.memory_bytes * memory)
        self.budget = replace(whole, seconds=seconds, nodes=nodes, memory_bytes=memory_bytes)
        try:
            yield
        finally:
            self.budget = whole


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

"""Many levels at once: a job run on each task by N worker processes of this machine.

Plain Python (no Textual). The workers are this module's own processes, each with a pipe,
so a worker that dies mid-level (killed, or out of memory) is known by the task it held:
that task's result is a `Crash`, a fresh worker takes its place and the run goes on (a
pool that only says it broke could not tell which level broke it). Workers are spawned,
not forked: the parent may hold threads (a progress bar's) that a fork would copy
half-way. Each worker is told its share of the cores (processes.CORES_VARIABLE), so the
searches' own helper processes do not crowd the cores the other workers hold.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterator, Sequence

from fewest.solvers.common.processes import CORES_VARIABLE, usable_cores

# job(task, should_stop) -> result; a module-level function (it is pickled by name)
Job = Callable[[Any, Callable[[], bool]], Any]
QUIT_SECONDS = 5.0  # how long workers told to quit get to close their own children


@dataclass(frozen=True)
class Crash:
    """A task that did not come back: its worker died, or the job raised."""

    error: str


def worker_count(jobs: int) -> int:
    """`--jobs N` as a number of workers: 0 means one per core."""
    return jobs if jobs > 0 else usable_cores()


def core_share(workers: int) -> int:
    """The cores each of `workers` workers may use (at least one)."""
    return max(1, usable_cores() // workers)


def died(exitcode: int | None) -> str:
    """What a worker's exit code says about how it ended."""
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"its worker process was killed ({name})"
    return f"its worker process died (exit code {exitcode})"


class _Worker:
    def __init__(self, context: Any, job: Job, stop: Any, cores: int) -> None:
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, job, stop, cores), name="fewest-worker")
        self.process.start()
        theirs.close()
        self.task: int | None = None  # the index of the task it holds

    def give(self, index: int, task: Any) -> None:
        self.task = index
        try:
            self.conn.send((index, task))
        except OSError:  # (it died meanwhile: its sentinel says so, and the task is its crash)
            pass


class LocalPool:
    """N worker processes running `job`; `results(tasks)` yields (index, result or Crash)
    as each task ends (completion order). `stop()` asks the running tasks to stop with
    what they have (their job's should_stop turns true) and starts no more."""

    def __init__(self, job: Job, workers: int) -> None:
        self.job = job
        self.workers = workers
        self._context = multiprocessing.get_context("spawn")
        # a lock-free flag: an Event holds a lock that a worker SIGKILLed inside is_set()
        # would keep forever, hanging every other worker's next look at it
        self._stop = self._context.RawValue("b", 0)
        self._pool: list[_Worker] = []
        self.stopping = False

    def stop(self) -> None:
        self.stopping = True
        self._stop.value = 1

    def results(self, tasks: Sequence[Any]) -> Iterator[tuple[int, Any]]:
        waiting = deque(enumerate(tasks))
        cores = core_share(self.workers)
        try:
            while len(self._pool) < min(self.workers, len(tasks)):
                self._pool.append(_Worker(self._context, self.job, self._stop, cores))
            for worker in self._pool:
                if waiting:
                    worker.give(*waiting.popleft())
            while any(worker.task is not None for worker in self._pool):
                busy = [worker for worker in self._pool if worker.task is not None]
                ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout=0.5))
                for worker in busy:
                    if worker.conn not in ready and worker.process.sentinel not in ready:
                        continue
                    index, result = self._collect(worker, cores)
                    worker.task = None
                    yield index, result
                    if waiting and not self.stopping:
                        self._worker_for(worker, cores).give(*waiting.popleft())
        finally:
            self.close()

    def _collect(self, worker: _Worker, cores: int) -> tuple[int, Any]:
        """The task's result, or a Crash when its worker died (then a new one takes its place)."""
        index = worker.task
        try:
            if worker.conn.poll():
                return worker.conn.recv()
        except (EOFError, OSError):
            pass
        worker.process.join()
        crash = Crash(died(worker.process.exitcode))
        worker.conn.close()
        self._pool.remove(worker)
        return index, crash

    def _worker_for(self, worker: _Worker, cores: int) -> _Worker:
        """`worker`, or its replacement when it died."""
        if worker in self._pool:
            return worker
        fresh = _Worker(self._context, self.job, self._stop, cores)
        self._pool.append(fresh)
        return fresh

    def close(self) -> None:
        """End every worker: told to quit (they close their own children on the way),
        killed if they do not within QUIT_SECONDS."""
        for worker in self._pool:
            try:
                worker.conn.send(None)
            except OSError:
                pass
            if worker.task is not None and worker.process.is_alive():
                worker.process.terminate()  # (mid-task: SIGTERM, which it turns into an exit)
        for worker in self._pool:
            worker.process.join(QUIT_SECONDS)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
        self._pool.clear()


def _serve(conn: Connection, job: Job, stop: Any, cores: int) -> None:
    """A worker's life: tasks from the pipe, each result sent back, until told to quit."""
    # Ctrl-C at a terminal reaches every process of the group: the parent decides (it sets
    # `stop`), and a worker told to end exits through its `finally`s (its helpers closed)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    os.environ[CORES_VARIABLE] = str(cores)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, task = message
        try:
            result = job(task, lambda: bool(stop.value))
        except Exception as exc:  # (a bug in one level's solve is that level's line, not the run's end)
            result = Crash(f"{type(exc).__name__}: {exc}")
        conn.send((index, result))


def in_order(results: Iterator[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
    """(index, result) pairs in any order, yielded in index order as soon as each one's
    turn comes (later ones wait for the ones before them). Where `results` ends with some
    missing (a run stopped part-way), the ones held are yielded last, still in order."""
    held: dict[int, Any] = {}
    turn = 0
    for index, result in results:
        held[index] = result
        while turn in held:
            yield turn, held.pop(turn)
            turn += 1
    for index in sorted(held):
        yield index, held[index]

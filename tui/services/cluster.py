"""`--scheduler ADDRESS`: the levels sent to a Dask distributed cluster instead of local workers.

The cluster is Dask's (`dask scheduler`, `dask worker ADDRESS --nthreads 1`); this only
submits one task a level and reads the results as they come, as LocalPool does. A level
whose worker dies is tried again by Dask on another worker (its `allowed-failures`), and
after that is a Crash. Dask does not stop a task that runs, so a Ctrl-C sets a Dask Event
of the run's own that each level's search looks at (once a second, a round trip to the
scheduler): the levels running stop with what they proved, and those not started yet
come back at once, unsolved, and are left out. A run that ends early any other way (an
error, or a caller that stops reading its results) sets that Event too on its way out, so
no level runs on after it.
"""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from typing import Any, Callable, Iterator, Sequence

from fewest.solvers.common.processes import CORES_VARIABLE
from fewest.tui.services.batch import Crash, Job

CONNECT_SECONDS = 10.0
POLL_SECONDS = 0.5  # how often the wait for results looks at a Ctrl-C
STOP_POLL_SECONDS = 1.0  # how often a level's search asks the scheduler whether to stop


def _client(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--scheduler needs dask.distributed: pip install 'fewest[cluster]'") from None
    try:
        return Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ValueError(f"--scheduler: cannot reach a Dask scheduler at {address}: {exc}") from None


class ClusterRun:
    """`results(tasks)` as LocalPool's, the job run by the cluster's workers."""

    def __init__(self, job: Job, address: str) -> None:
        self.job = job
        self.client = _client(address)
        self.stopping = False

    def stop(self) -> None:
        self.stopping = True

    def results(self, tasks: Sequence[Any]) -> Iterator[tuple[int, Any]]:
        from distributed import Event, wait

        run = uuid.uuid4().hex[:8]  # (keys of their own: two runs on one cluster never share a result)
        stop = Event(f"fewest-stop-{run}", client=self.client)
        futures = [
            self.client.submit(_on_worker, self.job, task, stop.name, key=f"fewest-{run}-{index}", pure=False)
            for index, task in enumerate(tasks)
        ]
        index_of = {future.key: index for index, future in enumerate(futures)}
        pending = set(futures)
        told = False
        try:
            while pending:
                if self.stopping and not told:
                    stop.set()
                    told = True
                try:
                    done, pending = wait(pending, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
                except TimeoutError:  # (nothing came in POLL_SECONDS: a look at `stopping`)
                    continue
                for future in done:
                    result = _result(future)
                    if result != NOT_STARTED:
                        yield index_of[future.key], result
        finally:
            if pending and not told:  # (the run ends early: the levels running stop too)
                with contextlib.suppress(Exception):  # (a scheduler gone: nothing left to tell)
                    stop.set()
            self.client.cancel(list(pending))
            self.client.close()


def _result(future: Any) -> Any:
    try:
        return future.result()
    except Exception as exc:  # KilledWorker (its workers died) or the job's own error
        name = type(exc).__name__
        what = "its Dask workers died" if name == "KilledWorker" else f"{name}: {exc}"
        return Crash(what)


NOT_STARTED = "fewest: not started"  # a level's answer when the run was stopped before it began


def _on_worker(job: Job, task: Any, stop_name: str) -> Any:
    # A worker runs one task a thread (--nthreads 1): one core a level, no helper beside it
    os.environ[CORES_VARIABLE] = "1"
    stopped = _StopFlag(stop_name)
    return NOT_STARTED if stopped() else job(task, stopped)


class _StopFlag:
    """The run's stop Event, looked at no more than once every STOP_POLL_SECONDS (a
    search asks far more often than that)."""

    def __init__(self, name: str) -> None:
        from distributed import Event

        self._event = Event(name)
        self._next = 0.0
        self._set = False

    def __call__(self) -> bool:
        now = time.monotonic()
        if not self._set and now >= self._next:
            self._next = now + STOP_POLL_SECONDS
            self._set = self._event.is_set()
        return self._set


def worker_memory(default: Callable[[], int]) -> int:
    """Half the memory the Dask worker running this may use (its --memory-limit shared by
    its threads), as a level's budget; `default()` away from a worker or with no limit."""
    try:
        from distributed import get_worker

        worker = get_worker()
        limit = worker.memory_manager.memory_limit
        threads = max(1, worker.state.nthreads)
    except (ImportError, ValueError, AttributeError):
        return default()
    return int(limit // threads // 2) if limit else default()

"""`--scheduler ADDRESS`: the levels sent to a Dask distributed cluster instead of local workers.

The cluster is Dask's (`dask scheduler`, `dask worker ADDRESS --nthreads 1`); this only
submits one task a level and reads the results as they come, as LocalPool does. A level
whose worker dies is tried again by Dask on another worker (its `allowed-failures`), and
after that is a Crash. Dask cannot stop a task that runs: a Ctrl-C cancels the levels not
started, and the run ends with the ones done.
"""

from __future__ import annotations

import os
import uuid
from typing import Any, Callable, Iterator, Sequence

from fewest.solvers.common.processes import CORES_VARIABLE
from fewest.tui.services.batch import Crash, Job

CONNECT_SECONDS = 10.0
POLL_SECONDS = 0.5  # how often the wait for results looks at a Ctrl-C


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
        from distributed import wait

        run = uuid.uuid4().hex[:8]  # (keys of their own: two runs on one cluster never share a result)
        futures = [
            self.client.submit(_on_worker, self.job, task, key=f"fewest-{run}-{index}", pure=False)
            for index, task in enumerate(tasks)
        ]
        index_of = {future.key: index for index, future in enumerate(futures)}
        pending = set(futures)
        try:
            while pending and not self.stopping:
                try:
                    done, pending = wait(pending, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
                except TimeoutError:  # (nothing came in POLL_SECONDS: a look at `stopping`)
                    continue
                for future in done:
                    yield index_of[future.key], _result(future)
        finally:
            self.client.cancel(list(pending))
            self.client.close()


def _result(future: Any) -> Any:
    try:
        return future.result()
    except Exception as exc:  # KilledWorker (its workers died) or the job's own error
        name = type(exc).__name__
        what = "its Dask workers died" if name == "KilledWorker" else f"{name}: {exc}"
        return Crash(what)


def _on_worker(job: Job, task: Any) -> Any:
    # A worker runs one task a thread (--nthreads 1): one core a level, no helper beside it
    os.environ[CORES_VARIABLE] = "1"
    return job(task, _never)


def _never() -> bool:
    return False


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

"""A bench level in a fresh process of its own: `python -m fewest.tui.bench.spawned_level`
reads (level, metric, timeout, memory_bytes) pickled on standard input and writes the
level's BenchRow pickled on standard output.

`fewest bench sokoban --set FILE --scheduler ADDRESS` runs each level so on a Dask worker:
the worker's own process has threads (a fork would copy them half-way) and outlives many
levels (its peak is not a level's), where a fresh process's peak is its level's alone. The
worker watches it as the local runner watches its forked child: the peak of its processes
sampled, killed past the budget and grace, and killed when the run stops; and it ends by
itself when the worker goes. Each level is a process group, ended whole: its helper
processes go with it.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import subprocess
import sys
import threading
import time
from typing import Callable

from fewest.tui.bench.sokoban_set import GRACE, BenchRow, finished_row, solved_row, watch

MODULE = "fewest.tui.bench.spawned_level"


def run_spawned(task: tuple, should_stop: Callable[[], bool]) -> BenchRow:
    """A cluster worker's job: the level of `task` solved in a fresh process."""
    from fewest.tui.services.cluster import worker_memory

    level, metric, timeout, memory_bytes = task
    memory_bytes = min(memory_bytes, worker_memory(lambda: memory_bytes))
    started = time.perf_counter()
    # (a group of its own: the level's helper processes end with it, whatever ends it)
    child = subprocess.Popen([sys.executable, "-m", MODULE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             start_new_session=True)
    assert child.stdin is not None and child.stdout is not None
    result = None
    at_once = 0
    try:
        with contextlib.suppress(BrokenPipeError):  # (a child dead at once: a crashed row)
            child.stdin.write(pickle.dumps((level, metric, timeout, memory_bytes)))
            child.stdin.flush()  # (left open: its closing tells the child this worker has gone)

        def ended(wait: float) -> bool:
            return should_stop() or bool(select.select([child.stdout], [], [], wait)[0])

        at_once = watch(child.pid, ended, started, timeout)
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
    return finished_row(result, overran, started, at_once)


def main() -> None:
    # The answer goes out on a copy of standard output; what the search might print goes to
    # standard error, where it cannot garble the answer.
    answer = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    task = pickle.load(sys.stdin.buffer)
    threading.Thread(target=_end_with_worker, daemon=True).start()
    with contextlib.suppress(KeyboardInterrupt):  # (a Ctrl-C at the worker's terminal: no traceback)
        answer.write(pickle.dumps(solved_row(*task)))
        answer.close()


def _end_with_worker() -> None:
    """End this process and its helpers when the worker that started it closes its standard
    input or dies (a worker killed mid-level leaves no search running on)."""
    sys.stdin.buffer.read()
    os.killpg(0, signal.SIGKILL)


if __name__ == "__main__":
    main()

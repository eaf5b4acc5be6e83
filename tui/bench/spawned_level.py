"""A bench level in a fresh process of its own: `python -m fewest.tui.bench.spawned_level`
reads (level, metric, timeout, memory_bytes, solved) pickled on standard input (`solved`
a module-level function by name: the proofs' or the anytime solver's row) and writes the
level's BenchRow pickled on standard output.

`fewest bench sokoban --set FILE --scheduler ADDRESS` runs each level so on a Dask worker
(sokoban_set's `_run_spawned` starts it and watches it). This end reads the task, solves,
writes the row, and ends its whole process group (its helpers with it) when the worker
closes its standard input or dies.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading


def main() -> None:
    # The answer goes out on a copy of standard output; what the search might print goes to
    # standard error, where it cannot garble the answer.
    answer = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    level, metric, timeout, memory_bytes, solved = pickle.load(sys.stdin.buffer)
    threading.Thread(target=_end_with_worker, daemon=True).start()
    with contextlib.suppress(KeyboardInterrupt):  # (a Ctrl-C at the worker's terminal: no traceback)
        answer.write(pickle.dumps(solved(level, metric, timeout, memory_bytes)))
        answer.close()


def _end_with_worker() -> None:
    """End this process and its helpers when the worker that started it closes its standard
    input or dies (a worker killed mid-level leaves no search running on). Read from the
    descriptor, not sys.stdin: a thread blocked in the buffered reader holds its lock, and
    the interpreter's shutdown after the answer then aborts with a fatal error."""
    while os.read(0, 65536):
        pass
    if os.getpgid(0) == os.getpid():  # (a group of its own, as the worker starts it: end it whole)
        os.killpg(0, signal.SIGKILL)
    os._exit(1)


if __name__ == "__main__":
    main()

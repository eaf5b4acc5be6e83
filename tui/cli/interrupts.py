"""Ctrl-C at any moment of a command: exit code 130, never a traceback.

Python turns SIGINT into KeyboardInterrupt wherever the main thread happens to be:
in the middle of an import while the command starts, or of the interpreter's
shutdown after it has answered, where no `except` of ours can catch it. So from the
script's first line until the command's own handling takes over, and again once it
has answered, a Ctrl-C ends the process at once with 130: nothing is open then, and
what was printed was flushed. In between, the command's handling (main's `except
KeyboardInterrupt`, solve's first press that keeps the proof) is Python's usual one.
"""

from __future__ import annotations

import os
import signal

INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a process Ctrl-C ended


def _at_once(*_: object) -> None:
    try:
        os.write(2, b"fewest: interrupted\n")
    except OSError:  # (standard error closed: the exit code says it)
        pass
    os._exit(INTERRUPTED)


def quit_at_once() -> None:
    """Ctrl-C ends the process at once with 130 (start-up, shutdown). A Ctrl-C ignored by
    whoever started it (a background job's) stays ignored; one held blocked while the
    interpreter started (a launcher's) is taken now, so it ends the process here."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        return
    signal.signal(signal.SIGINT, _at_once)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def raise_on_ctrl_c() -> None:
    """The command's own handling from here: Ctrl-C raises KeyboardInterrupt (where
    quit_at_once was in force; a caller's own handler, as a test runner's, is left)."""
    if signal.getsignal(signal.SIGINT) is _at_once:
        signal.signal(signal.SIGINT, signal.default_int_handler)

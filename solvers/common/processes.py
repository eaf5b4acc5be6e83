"""Child processes for a search's helpers: whether a spare core is there, how to start a
child safely from any thread, and how to end it.

A child is forked from the main thread (it starts with this process's tables at no
cost); from any other thread (the app's workers) it is forked from a clean server
process started with the solver's modules imported (`preload`), and what it runs is
pickled over. Every child ends the moment the process that started it ends, however it
ends (`_die_with_parent`): a killed app leaves no search running on.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import select
import signal
import sys
import threading
from multiprocessing import util
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Sequence


_PR_SET_PDEATHSIG = 1  # prctl's option (linux/prctl.h)


def _die_with_parent(_: object) -> None:
    """In a child, first thing: end it the moment the process that started it ends, however
    that ends, so no helper outlives a killed app by the seconds it takes to notice. A
    child forked here gets SIGKILL from the kernel when this process dies (Linux). One
    forked by the fork server cannot ask that of the server (which lives on while any of
    its children does), so a thread of its own waits for this process's end of their
    pipe to close, and ends it then. Elsewhere than Linux the forked child notices by
    itself (its pipes close), a little later."""
    owner = multiprocessing.parent_process()
    if owner is not None and owner.pid != os.getppid():  # (forked by the fork server)
        threading.Thread(target=_end_with, args=(owner.sentinel,), daemon=True, name="owner-watch").start()
        return
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # (no libc to ask: the child notices by itself)
        return
    if os.getppid() == 1:  # (the parent died before the request: nobody is left to send it)
        os._exit(1)


def _end_with(sentinel: int) -> None:
    """Wait until `sentinel` (the owner's end of a pipe) closes, then end this process."""
    try:
        select.select([sentinel], [], [])
    except (OSError, ValueError):  # (no such pipe after all: the child notices by itself)
        return
    os._exit(1)


class _Children:
    """The registration's owner: multiprocessing holds it weakly, so it lives here for ever."""


_CHILDREN = _Children()
util.register_after_fork(_CHILDREN, _die_with_parent)  # (run in every child this process starts)


# The cores this process may use, when it is one of several solving at once (`fewest solve
# --jobs`): set in each worker, and inherited by its children, so N workers on N cores do
# not each start a helper on a core another worker holds.
CORES_VARIABLE = "FEWEST_CORES"


def usable_cores() -> int:
    """The cores this process may run on, at most its share (CORES_VARIABLE) where set."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    share = os.environ.get(CORES_VARIABLE, "")
    return max(1, min(cores, int(share))) if share.isdigit() else cores


def spare_core() -> bool:
    """May a search have a helper in a child process (two cores of its own, a way to start
    one from this thread, and not a daemonic process, which may have no children)?"""
    return (
        usable_cores() >= 2
        and _start_method() in multiprocessing.get_all_start_methods()
        and not multiprocessing.current_process().daemon
    )


def _start_method() -> str:
    return "fork" if threading.current_thread() is threading.main_thread() else "forkserver"


def process_context(preload: Sequence[str]) -> BaseContext:
    """How to start a child. From the main thread a fork: the child starts with this
    process's tables at no cost. From any other thread (the app's workers) a fork would
    copy one thread of a threaded process and could leave a lock another held locked for
    ever in the child, so the child is forked from a server process started clean (with
    the solver imported); what it runs is then pickled over."""
    if _start_method() == "fork":
        return multiprocessing.get_context("fork")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(preload))  # (before the server starts)
    _start_server()
    return context


def _start_server() -> None:
    """Start the fork server, and the resource tracker it needs, if they are not running,
    with this process's own stderr: in a Textual app sys.stderr is a capture whose
    fileno() is -1, which starting them refuses ("bad value(s) in fds_to_keep")."""
    from multiprocessing import forkserver, resource_tracker

    captured = sys.stderr
    try:
        if _fileno(captured) < 0:
            sys.stderr = sys.__stderr__
        resource_tracker.ensure_running()
        forkserver.ensure_running()
    except (OSError, ValueError):
        pass  # (the child's start fails the same way, and the search goes on alone)
    finally:
        sys.stderr = captured


def _fileno(stream: object) -> int:
    try:
        return stream.fileno()  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return -1


def start_child(child: BaseProcess) -> BaseProcess | None:
    """`child`, started; None when the system refuses it (a process limit, or a fork
    server that cannot be started): its pipe then reads as a child dead at once, and the
    search goes on in this process.

    A Ctrl-C at a terminal reaches the whole process group. One that came while a forked
    child started, before its target could stop quietly, had multiprocessing print the
    child's traceback (seen in tests/tui/cli/test_ctrl_c.py); so the main thread (the one
    that gets signals, and forks) holds SIGINT back across the start, and the child takes
    it where it is ready for it (interrupts_let_through)."""
    held = threading.current_thread() is threading.main_thread()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if held else None
    try:
        child.start()
    except (OSError, ValueError):  # (ValueError: the server's start refused its file descriptors)
        return None
    finally:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    return child


def interrupts_let_through() -> None:
    """In a child's target, where a Ctrl-C stops it quietly: SIGINT, held back while
    start_child forked it, comes through (one that came meanwhile is taken now)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def end_child(child: BaseProcess | None) -> None:
    """Kill `child` if it still runs, and reap it (None: it was never forked)."""
    if child is not None:
        if child.is_alive():
            child.kill()
        child.join()

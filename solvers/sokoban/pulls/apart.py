"""The pull table grown in a second process while the push search goes on.

With a time budget the push search spends a share of it on the pull table
(sokoban/pulls/policy.py). On a machine with a spare core that share need not stop
the search: a forked child grows the table (with the same halfway rule: a
table not past the start's matching, nor about to be, is dropped) and sends it
back as it grows once it is past the matching (after a layer that made it
half as big again), and the search takes the newest when it looks: a share
long enough for a deep table no longer keeps the search waiting for a
shallower one it could have had long before. The child is forked from
the main thread; from any other (the app's workers) it is forked from a
clean server process instead (`process_context`). The child stops by itself
when its share of the time is spent, should the search die without closing
it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Callable

from fewest.solvers.common.control import Control
from fewest.solvers.sokoban.pulls.interface import PullTableLike
from fewest.solvers.sokoban.pulls.table import almost_past, pull_table

SEND_GROWTH = 1.5  # a table is sent again once it holds this many times the entries


def spare_core() -> bool:
    """May a search have a helper in a child process (two cores, a way to start one from
    this thread, and not a daemonic process, which may have no children)?"""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return (
        cores >= 2
        and _start_method() in multiprocessing.get_all_start_methods()
        and not multiprocessing.current_process().daemon
    )


def _start_method() -> str:
    return "fork" if threading.current_thread() is threading.main_thread() else "forkserver"


def process_context() -> BaseContext:
    """How to start a child. From the main thread a fork: the child starts with this
    process's tables at no cost. From any other thread (the app's workers) a fork would
    copy one thread of a threaded process and could leave a lock another held locked for
    ever in the child, so the child is forked from a server process started clean (with
    the solver imported); what it runs is then pickled over."""
    if _start_method() == "fork":
        return multiprocessing.get_context("fork")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["fewest.solvers.sokoban.solver"])  # (before the server starts)
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
    search goes on in this process."""
    try:
        child.start()
    except (OSError, ValueError):  # (ValueError: the server's start refused its file descriptors)
        return None
    return child


def end_child(child: BaseProcess | None) -> None:
    """Kill `child` if it still runs, and reap it (None: it was never forked)."""
    if child is not None:
        if child.is_alive():
            child.kill()
        child.join()


class PullsApart:
    """A child process growing the pull table: when `ready`, `take` the newest it sent
    (None: dropped); `finished` once it sent its last."""

    def __init__(self, table: PullTableLike, half: float, most: int, matching: int, start_boxes: int) -> None:
        """`table`: as pull_table(board, start_boxes) made it (nothing grown yet)."""
        context = process_context()
        # (a table pickles without what it grows from: a child not forked makes its own)
        source = table if context.get_start_method() == "fork" else (table.board, start_boxes)
        self._receiver, sender = context.Pipe(duplex=False)
        # the pushes of the best plan the search knows (0: none), read by the child as it grows
        self._limit = context.Value("q", 0, lock=False)
        self._child = start_child(
            context.Process(target=_grow, args=(sender, source, half, most, matching, self._limit), daemon=True)
        )
        sender.close()
        self.finished = False

    def limit(self, pushes: int) -> None:
        """The search knows a plan of `pushes` pushes (under the pushes metric): the child
        may leave out positions no plan of so many pushes goes through."""
        if not 0 < self._limit.value <= pushes:
            self._limit.value = pushes

    def ready(self) -> bool:
        return self._receiver.poll()

    def take(self) -> PullTableLike | None:
        """The newest table sent (waiting for a word if none came yet), or None (dropped
        halfway, none deeper than the last taken, or the child died first: search on
        with what it has)."""
        newest = None
        try:
            while True:
                table, self.finished = self._receiver.recv()
                if table is not None:
                    newest = table
                if self.finished or not self._receiver.poll():
                    break
        except (EOFError, OSError):
            self.finished = True
        if self.finished:
            self.close()
        return newest

    def close(self) -> None:
        end_child(self._child)
        self._receiver.close()


def _grow(sender, source: PullTableLike | tuple, half: float, most: int, matching: int, limit) -> None:
    """`grown_in_halves`, sending (table, last?) as it grows past the matching; quietly
    stopped by Ctrl-C (sent to the whole process group: the parent says so). `source`:
    the table, or (board, start boxes) to make it from; `limit`: a shared integer, the
    pushes of the best plan the search knows (0: none). A parent gone (killed) ends it
    at its next word, quietly too."""
    with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
        table = pull_table(*source) if isinstance(source, tuple) else source
        _grow_and_send(sender, table, half, most, matching, lambda: limit.value or None)
    sender.close()


def _grow_and_send(
    sender, table: PullTableLike, half: float, most: int, matching: int, limit: Callable[[], int | None]
) -> None:
    control = Control()
    first, second = control.seconds + half, control.seconds + 2 * half
    sent, sent_radius = 0, 0  # the table last sent: its entries and radius
    while True:
        deepest = table.radius + 1
        end = second if almost_past(table, matching) else first
        table.grow(control, max(0.0, end - control.seconds), most, until=deepest, limit=limit)
        last = table.complete or table.radius < deepest  # (stopped by the time or its size)
        if table.beyond <= matching:
            if last:
                sender.send((None, True))
                break
            continue
        if last:
            table.stop_growing()
            # (no deeper than the one sent: only the word that no more is coming)
            sender.send((table if table.radius > sent_radius or table.complete else None, True))
            break
        if len(table) >= SEND_GROWTH * sent:  # (each is pickled whole and unpickled: a few)
            sender.send((table, False))  # (pickled without its frontier)
            sent, sent_radius = len(table), table.radius

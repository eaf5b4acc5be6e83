"""The pull table grown in a second process while the push search goes on.

With a time budget the push search spends a share of it on the pull table
(sokoban_search.py). On a machine with a spare core that share need not stop
the search: a forked child grows the table (with the same halfway rule: a
table still no deeper than the start's matching is dropped) and sends it
back as it grows once it is past the matching (after a layer that made it
half as big again), and the search takes the newest when it looks: a share
long enough for a deep table no longer keeps the search waiting for a
shallower one it could have had long before. Forking is done only from
the main thread: a fork copies one thread of a threaded process (the app's
workers) and can leave locks held for ever in the child. The child stops by
itself when its share of the time is spent, should the search die without
closing it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from multiprocessing.process import BaseProcess

from fewest.solvers.control import Control
from fewest.solvers.sokoban_pulls import PullTable, PackedPullTable

Table = PullTable | PackedPullTable
SEND_GROWTH = 1.5  # a table is sent again once it holds this many times the entries


def spare_core() -> bool:
    """May the pull table be grown in a child process (two cores, the main thread, and
    not a daemonic process, which may have no children)?"""
    return (
        len(os.sched_getaffinity(0)) >= 2
        and threading.current_thread() is threading.main_thread()
        and not multiprocessing.current_process().daemon
    )


def start_child(child: BaseProcess) -> BaseProcess | None:
    """`child`, started; None when the system refuses the fork (a process limit): its pipe
    then reads as a child dead at once, and the search goes on in this process."""
    try:
        child.start()
    except OSError:
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

    def __init__(self, table: Table, half: float, most: int, matching: int) -> None:
        context = multiprocessing.get_context("fork")
        self._receiver, sender = context.Pipe(duplex=False)
        self._child = start_child(
            context.Process(target=_grow, args=(sender, table, half, most, matching), daemon=True)
        )
        sender.close()
        self.finished = False

    def ready(self) -> bool:
        return self._receiver.poll()

    def take(self) -> Table | None:
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


def _grow(sender, table: Table, half: float, most: int, matching: int) -> None:
    """`grown_in_halves`, sending (table, last?) as it grows past the matching; quietly
    stopped by Ctrl-C (sent to the whole process group: the parent says so)."""
    with contextlib.suppress(KeyboardInterrupt):
        _grow_and_send(sender, table, half, most, matching)
    sender.close()


def _grow_and_send(sender, table: Table, half: float, most: int, matching: int) -> None:
    control = Control()
    first, second = control.seconds + half, control.seconds + 2 * half
    sent, sent_radius = 0, 0  # the table last sent: its entries and radius
    while True:
        deepest = table.radius + 1
        end = second if table.beyond > matching else first
        table.grow(control, max(0.0, end - control.seconds), most, until=deepest)
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

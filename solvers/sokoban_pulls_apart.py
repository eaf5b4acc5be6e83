"""The pull table grown in a second process while the push search goes on.

With a time budget the push search spends a share of it on the pull table
(sokoban_search.py). On a machine with a spare core that share need not stop
the search: a forked child grows the table (with the same halfway rule: a
table still no deeper than the start's matching is dropped) and sends it
back, and the search takes it when it is ready. Forking is done only from
the main thread: a fork copies one thread of a threaded process (the app's
workers) and can leave locks held for ever in the child. The child stops by
itself when its share of the time is spent, should the search die without
closing it.
"""

from __future__ import annotations

import multiprocessing
import os
import threading

from fewest.solvers.control import Control
from fewest.solvers.sokoban_pulls import PullTable, PackedPullTable, grown_in_halves

Table = PullTable | PackedPullTable


def spare_core() -> bool:
    """May the pull table be grown in a child process (two cores, the main thread, and
    not a daemonic process, which may have no children)?"""
    return (
        len(os.sched_getaffinity(0)) >= 2
        and threading.current_thread() is threading.main_thread()
        and not multiprocessing.current_process().daemon
    )


class PullsApart:
    """A child process growing the pull table: `ready`, then `take` it (None: dropped)."""

    def __init__(self, table: Table, half: float, most: int, matching: int) -> None:
        context = multiprocessing.get_context("fork")
        self._receiver, sender = context.Pipe(duplex=False)
        self._child = context.Process(
            target=_grow, args=(sender, table, half, most, matching), daemon=True
        )
        self._child.start()
        sender.close()

    def ready(self) -> bool:
        return self._receiver.poll()

    def take(self) -> Table | None:
        """The grown table, or None (dropped halfway, or the child died: search on without)."""
        try:
            table = self._receiver.recv()
        except (EOFError, OSError):
            table = None
        self.close()
        return table

    def close(self) -> None:
        if self._child.is_alive():
            self._child.kill()
        self._child.join()
        self._receiver.close()


def _grow(sender, table: Table, half: float, most: int, matching: int) -> None:
    sender.send(grown_in_halves(table, Control(), half, most, matching))
    sender.close()

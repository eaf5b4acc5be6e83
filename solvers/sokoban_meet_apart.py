"""Moves: the search from both ends in a second process, side by side with the push search.

The two proofs of fewest moves win on different levels: the search from both
ends (sokoban_meet.py) on crowded ones whose plans are mostly walking, the
push search (sokoban_search.py) on roomy ones whose plans are long. One after
the other, each gets only part of the time; on a machine with a spare core
each can have all of it. A forked child runs the search from both ends on
its share of the memory while this process runs the push search; the first
proof found is the answer and the other search is stopped. Forking is done
only from the main thread (see sokoban_pulls_apart.py); the child stops by
itself when its time is spent, should this process die without closing it.
"""

from __future__ import annotations

import multiprocessing

from fewest.solvers.control import Budget, Control, Stopped
from fewest.solvers.sokoban_meet import meet_search
from fewest.solvers.sokoban_tables import Tables

Met = tuple[str, int, int]  # lurd letters (capitals push), moves, pushes


class MeetApart:
    """The search from both ends, to run in a child process once `start`ed.

    `done()` looks (without waiting) for the child's word and is True once it sent a
    proof, which `met` then holds; `bound` is the least plan length it ruled out below;
    `finished` once it sent its last word (a proof, no plan at all, or that it stopped)."""

    def __init__(self, tables: Tables, boxes: int, player: int, memory_bytes: int | None) -> None:
        self._task = (tables, boxes, player, memory_bytes)
        self._child = self._receiver = None
        self.started = self.finished = False
        self.solved = False  # it proved there is a plan (met) or that there is none (met None)
        self.met: Met | None = None
        self.bound = 0
        self.expanded = 0  # the child's states expanded

    def start(self, seconds: float) -> None:
        """Fork the child, with `seconds` to search (it stops by itself then)."""
        tables, boxes, player, memory_bytes = self._task
        context = multiprocessing.get_context("fork")
        self._receiver, sender = context.Pipe(duplex=False)
        budget = Budget(seconds=seconds, memory_bytes=memory_bytes)
        self._child = context.Process(target=_run, args=(sender, tables, boxes, player, budget), daemon=True)
        self._child.start()
        sender.close()
        self.started = True

    def done(self) -> bool:
        """Did the child prove its answer (read its word if one came)?"""
        if self.started and not self.finished and self._receiver.poll():
            try:
                self.solved, self.met, self.bound, self.expanded = self._receiver.recv()
            except (EOFError, OSError):  # it died: the push search goes on alone
                pass
            self.finished = True
            self.close()
        return self.solved

    def wait(self, seconds: float) -> bool:
        """Wait up to `seconds` for the child's word; True when it proved its answer."""
        if self.started and not self.finished:
            self._receiver.poll(seconds)
        return self.done()

    def close(self) -> None:
        if not self.started or self._receiver.closed:
            return
        if self._child.is_alive():
            self._child.kill()
        self._child.join()
        self._receiver.close()


def _run(sender, tables: Tables, boxes: int, player: int, budget: Budget) -> None:
    """The child: one word, (proved?, the plan or None, the bound it reached, states expanded)."""
    control = Control(budget)
    try:
        met = meet_search(tables, boxes, player, control)
        sender.send((True, met, met[1] if met is not None else 0, control.expanded))
    except Stopped:
        sender.send((False, None, control.bound or 0, control.expanded))
    sender.close()

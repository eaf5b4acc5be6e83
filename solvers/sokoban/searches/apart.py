"""A second proof in a second process, side by side with the push search.

Two proofs may win on different levels: under moves, the search from both
ends (sokoban/searches/meet.py) on crowded levels whose plans are mostly walking and
the push search (sokoban/searches/push.py) on roomy ones whose plans are long;
under pushes, the proof of the pushes alone (PI corrals) gets a plan with
its pushes proven fewest where the proof of (pushes, moves) runs out. One
after the other, each gets only part of the time; on a machine with a spare
core each can have more. A forked child runs the other search on its share
of the memory while this process runs the push search. Away from the main
thread the child comes from a server process (`process_context` in
sokoban/pulls/apart.py), so the search must pickle. Should this process die
without closing it (killed), the child sees it gone and stops, as at a
cancel; at the latest it stops when its time is spent.
"""

from __future__ import annotations

import contextlib
import os
import time
from typing import Any, Callable

from fewest.solvers.common.control import Budget, Control, Progress, Stopped
from fewest.solvers.common.held_bytes import resident_bytes
from fewest.solvers.common.processes import end_child, interrupts_let_through, process_context, start_child
from fewest.solvers.sokoban.pulls.apart import PRELOAD

Search = Callable[[Control], Any]  # runs under the control; raises Stopped when it runs out; pickles


class SearchApart:
    """`search`, to run in a child process once `start`ed.

    `done()` looks (without waiting) for the child's word and is True once it sent a
    proof, which `answer` then holds (the search's result: None may mean "no plan");
    `bound` is the bound its search reported; `finished` once it sent its last word
    (a proof, or that it stopped). `progress()` tells, at any time, the bound and the
    expansions the child has reached so far (from memory it shares: no word to read)."""

    def __init__(self, search: Search, memory_bytes: int | None) -> None:
        self._search = search
        self.memory_bytes = memory_bytes
        self._child = self._receiver = None
        self.started = self.finished = False
        self.ends = float("inf")  # (perf_counter) when the child is to have ended, once started
        self.searched = False  # its word came: it searched, to a proof or to the end of its budget
        self.solved = False
        self.answer: Any = None
        self.bound = 0
        self.expanded = 0  # the child's states expanded
        self._reached: Any = None  # [bound, expanded] shared with the child, as it goes

    def start(self, seconds: float, after: float = 0.0) -> None:
        """Fork the child: it waits `after` seconds (or until `wake`), then searches until
        `seconds` from now (it stops by itself then)."""
        context = process_context(PRELOAD)
        self._receiver, sender = context.Pipe(duplex=False)
        alarm, self._waker = context.Pipe(duplex=False)
        self.ends = ends = time.perf_counter() + seconds  # (the same clock in the child)
        self._reached = context.Array("q", 2, lock=False)  # (two words, each written whole)
        task = (sender, alarm, self._search, ends, self.memory_bytes, after, os.getpid(), self._reached)
        # A forked child starts out holding what this process holds, on its own share: a
        # share that cannot hold that copy would only add the copy to the budget's whole.
        # Not forked, it reads as a child dead at once, and the search goes on here. (A fork
        # server's child starts as small as the server, not as this process.)
        forked = context.get_start_method() == "fork"
        fits = self.memory_bytes is None or not forked or self.memory_bytes > resident_bytes()
        self._child = start_child(context.Process(target=_run, args=task, daemon=True)) if fits else None
        sender.close()
        alarm.close()
        self.started = True

    def wake(self) -> None:
        """Have a child still waiting start its search now."""
        if self.running:
            try:
                self._waker.send(True)
            except OSError:  # (it is gone: its word, or its death, is read as usual)
                pass

    @property
    def running(self) -> bool:
        """Started, and neither finished nor closed (killed) yet."""
        return self.started and not self.finished and not self._receiver.closed

    def done(self) -> bool:
        """Did the child prove its answer (read its word if one came)?"""
        if self.running and self._receiver.poll():
            try:
                self.solved, self.answer, self.bound, self.expanded = self._receiver.recv()
                self.searched = True
            except (EOFError, OSError):  # it died (or was never forked): the push search goes on alone
                pass
            self.finished = True
            self.close()
        return self.solved

    def progress(self) -> tuple[int, int]:
        """(bound, states expanded) the child has reached: its last word's once it came."""
        if self.finished or self._reached is None:
            return self.bound, self.expanded
        return max(self.bound, self._reached[0]), max(self.expanded, self._reached[1])

    def wait(self, seconds: float) -> bool:
        """Wait up to `seconds` for the child's word; True when it proved its answer."""
        if self.running:
            self._receiver.poll(seconds)
        return self.done()

    def close(self) -> None:
        if not self.started or self._receiver.closed:
            return
        end_child(self._child)
        self._receiver.close()
        self._waker.close()


def _run(
    sender, alarm, search: Search, ends: float, memory_bytes: int | None, after: float, owner: int, reached: Any
) -> None:
    """The child: one word, (proved?, the answer or None, the bound it reached, states expanded),
    and as it goes, its bound and expansions so far in `reached`. On Ctrl-C (sent to the
    whole process group) it stops quietly: the parent says so. It stops as at a cancel
    once `owner` (the process that started it) is gone."""

    def progress(now: Progress) -> None:
        reached[0], reached[1] = now.bound or 0, now.expanded

    with contextlib.suppress(KeyboardInterrupt):
        interrupts_let_through()
        if after > 0:
            alarm.poll(after)  # (woken early by a word from the parent)
        process = memory_bytes  # (its share is for the whole process; the search counts what it adds)
        if memory_bytes is not None:
            memory_bytes = max(0, memory_bytes - resident_bytes())
        budget = Budget(seconds=max(0.0, ends - time.perf_counter()), memory_bytes=memory_bytes, process_bytes=process)
        control = Control(budget, should_stop=lambda: not _alive(owner), on_progress=progress)
        with control.metered() as meter:  # (the search's report comes to it as it ends)
            try:
                answer = (True, search(control))
            except Stopped:
                answer = (False, None)
        word = (*answer, meter.bound or 0, control.expanded)
        with contextlib.suppress(OSError):  # (a parent killed meanwhile reads nothing: no traceback)
            sender.send(word)
    sender.close()


def _alive(pid: int) -> bool:
    """Does process `pid` still run? (The app's helpers come from a fork server, which
    outlives an app killed with -9: their own parent is no sign.)"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (it runs, under another user: not ours, but alive)
        return True
    return True

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
clean server process instead (common/processes.py). The child stops by itself
when its share of the time is spent, should the search die without closing
it.
"""

from __future__ import annotations

import contextlib
from typing import Callable

from fewest.solvers.common.control import Control
from fewest.solvers.common.processes import end_child, interrupts_let_through, process_context, start_child
from fewest.solvers.sokoban.pulls.interface import PullTableLike
from fewest.solvers.sokoban.pulls.table import almost_past, pull_table
from fewest.solvers.sokoban.tuning import TUNING

PRELOAD = ("fewest.solvers.sokoban",)  # what a fork server's children have imported before they start


class PullsApart:
    """A child process growing the pull table: when `ready`, `take` the newest it sent
    (None: dropped); `finished` once it sent its last."""

    def __init__(
        self, table: PullTableLike, half: float, most: int, matching: int, start_boxes: int,
        send_growth: float = TUNING.pulls.send_growth,
    ) -> None:
        """`table`: as pull_table(board, start_boxes) made it (nothing grown yet); `send_growth`:
        a table is sent again once it holds this many times the entries of the last sent."""
        context = process_context(PRELOAD)
        # (a table pickles without what it grows from: a child not forked makes its own)
        source = table if context.get_start_method() == "fork" else (table.board, start_boxes)
        self._receiver, sender = context.Pipe(duplex=False)
        # the pushes of the best plan the search knows (0: none), read by the child as it grows
        self._limit = context.Value("q", 0, lock=False)
        self._child = start_child(
            context.Process(
                target=_grow, args=(sender, source, half, most, matching, self._limit, send_growth), daemon=True
            )
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


def _grow(
    sender, source: PullTableLike | tuple, half: float, most: int, matching: int, limit, send_growth: float
) -> None:
    """`grown_in_halves`, sending (table, last?) as it grows past the matching; quietly
    stopped by Ctrl-C (sent to the whole process group: the parent says so). `source`:
    the table, or (board, start boxes) to make it from; `limit`: a shared integer, the
    pushes of the best plan the search knows (0: none). A parent gone (killed) ends it
    at its next word, quietly too."""
    with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
        interrupts_let_through()
        table = pull_table(*source) if isinstance(source, tuple) else source
        _grow_and_send(sender, table, half, most, matching, lambda: limit.value or None, send_growth)
    sender.close()


def _grow_and_send(
    sender, table: PullTableLike, half: float, most: int, matching: int, limit: Callable[[], int | None],
    send_growth: float = TUNING.pulls.send_growth,
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
        if len(table) >= send_growth * sent:  # (each is pickled whole and unpickled: a few)
            sender.send((table, False))  # (pickled without its frontier)
            sent, sent_radius = len(table), table.radius

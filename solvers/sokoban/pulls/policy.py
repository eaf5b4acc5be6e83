"""When and where the push search's pull table is built and grown, and which one it uses.

The push search (sokoban/searches/push.py) asks the pull table (sokoban/pulls/table.py:
exact pushes left near the goal) only once a proof is long enough to need it. Then:
- with a time budget and a spare core, a child process grows it beside the search
  (sokoban/pulls/apart.py) and the search takes the newest table sent when it looks;
- with a time budget and no spare core, it is grown at once, in two halves of its
  share, and dropped if the first half did not take it near the start's matching
  (`grown_in_halves`);
- without a time budget (and in a weighted search, from the first expansion), it is
  grown in step with the search, each time the search's expansions double.
Under the pushes metric a node the table gives exactly is a plan: the fewest pushes
of those known let the table leave out positions no plan of so many goes through
(sokoban/pulls/forward.py), in this process or the child's.

The pull table's time: with a time budget, a share of it spent at once (on Microban #93
0.15 was too little and 0.35 too much), its second half only if the first took the table
past the start's matching, else the table is dropped (Microban #145: 9 pulls deep against
12, and the proof takes 3 s without it; #139: 58 against 74, and a half table's exact
values far from the start's left the bound wandering for a minute, 16 s without it);
without one, half the time the search took since the table last grew, each time the
search's expansions double. With a spare core the share is grown by a child process
beside the search (sokoban/pulls/apart.py) and costs the search nothing where the table
does not help: Microban pushes at 60 s, p95 10.5 s -> 6.0 s (#145 16 s -> 6 s, #123
47 s -> 37 s); on #93 a share of 0.15 or 0.35 there did no better than 0.25. Since
the child sends the table as it grows, a longer share no longer keeps the search
waiting for it: the tuning's pulls.apart_share (sokoban/tuning.py), with the memory
for Microban #144's symmetric table to radius 25 (at 19 s; 36 pushes proven in 38-42 s
and 1.45 GiB, both processes; #93 14.5 s -> 5.3 s; Microban II at 20 s a level, 127/135
as before, #74 7.1 s -> 1.6 s).
On a slower machine (that layer alone in 11-13 s), 0.4 of 54 s ended the child first and
#144 ran out at 60 s; at 0.5 the layer came at 26-29 s and #144 was proven in 46-50 s
(four runs), with Microban under either metric losing nothing and taking no longer. An
hour later the same machine ran slower and #144 ran out at either share (four runs).
Since the table leaves out positions no plan of the fewest pushes known goes through
(sokoban/pulls/forward.py), #144's table is complete at about 22 s (radius 37, 6.6M
entries) and #144 is proven in 26-28 s; with another busy process beside it, 39-48 s.
"""

from __future__ import annotations

from fewest.solvers.common.control import Budget, Control
from fewest.solvers.common.held_bytes import resident_bytes
from fewest.solvers.sokoban.board.board import Board
from fewest.solvers.common.processes import spare_core
from fewest.solvers.sokoban.pulls.apart import PullsApart
from fewest.solvers.sokoban.pulls.interface import PullTableLike
from fewest.solvers.sokoban.pulls.table import grown_in_halves, pull_table
from fewest.solvers.sokoban.tuning import TUNING, PullsTuning


class PullPolicy:
    """The push search's pull table, from building it to the one in use (see above).

    The search calls `build` once its expansions reach `due` (0: never again),
    `take_sent` when it looks at its budget, and `plan_known` when the table gives a
    node's pushes left exactly. `near` is the table in use (None: none yet, or dropped);
    `grown` counts its changes (a node the table raised remembers the count, to ask the
    table again once it has grown)."""

    def __init__(
        self, board: Board, start_boxes: int, matching: int, control: Control, metric: str, weight: int,
        helpers: list[PullsApart], big: list, keep_pulls: list | None, tuning: PullsTuning = TUNING.pulls,
    ) -> None:
        """`matching`: the start's matching (a table grown in halves must pass it); `helpers`:
        where a child growing the table goes (the caller closes it); `big`: the search's big
        containers, which a dict table joins; `keep_pulls`: see push_search; `tuning`: when,
        and on what share of the budgets, the table is grown."""
        self.board, self.start_boxes, self.matching, self.control = board, start_boxes, matching, control
        self.meter = control.meter  # (the push search's: the children it runs beside it are counted there)
        self.tuning = tuning
        self.helpers, self.big, self.keep_pulls = helpers, big, keep_pulls
        # (only a long proof needs it; grown beside the search, it costs the search nothing,
        # so it starts sooner)
        self.apart = weight == 1 and control.budget.seconds is not None and spare_core()
        self.due = 0 if weight > 1 else tuning.apart_after if self.apart else tuning.after
        self.near: PullTableLike | None = None
        self.apart_bytes = 0  # the memory a child growing it may take (the budget is for both)
        self.grown_at = control.seconds  # when the pull table last grew (or the search began)
        self.grown = 0
        # Pushes: the fewest of the plans known (a node's pushes so far and the table's exact
        # pulls left). Not under moves: a plan with the fewest moves may push more.
        self.known: int | None = None
        self.plans_known = metric == "pushes"

    def build(self) -> None:
        """Make the table (or grow the one in use on), in step, in halves or in a child."""
        control, near, tuning = self.control, self.near, self.tuning
        growing = near or pull_table(self.board, self.start_boxes)
        most = _most_entries(control.budget, growing, tuning)
        if self.apart and not _copy_fits(control, growing.fixed_bytes + most * growing.bytes_per_entry):
            self.apart = False  # (grown here instead, in halves: see above)
        if self.keep_pulls is not None and not self.apart:  # (grown here, not in a child)
            self.keep_pulls[:] = [growing]  # (the caller's to let go of)
        elif near is None:
            self.big.extend(growing.big_containers())
        seconds = control.budget.seconds
        if seconds is not None:  # a share of the time, beside the search or spent at once
            half = seconds * (tuning.apart_share if self.apart else tuning.share) / 2
            if self.apart:
                apart = PullsApart(growing, half, most, self.matching, self.start_boxes, tuning.send_growth)
                self.helpers.append(apart)
                self.meter.helpers += 1
                self.apart_bytes = growing.fixed_bytes + most * growing.bytes_per_entry
            else:  # (None: dropped, the search goes on as if it had never been built)
                keep_growing = self.keep_pulls is not None
                self.near = grown_in_halves(growing, control, half, most, self.matching, keep_growing=keep_growing)
                self.grown += 1
            self.due = 0
        else:  # in step with the search: each time its expansions double
            self.near = growing
            growing.grow(control, (control.seconds - self.grown_at) * tuning.growth, most, limit=lambda: self.known)
            self.grown += 1
            self.grown_at = control.seconds
            self.due = 0 if growing.complete else 2 * control.expanded

    def take_sent(self) -> None:
        """Take up the newest table the child sent, if one came (the one it replaces is let
        go of); once the child has sent its last, it is done with."""
        helpers = self.helpers
        if not helpers or not helpers[-1].ready():
            return
        sent = helpers[-1].take()  # the newest table grown beside the search (None: dropped)
        if sent is not None:
            if self.near is not None:
                let_go = self.near.big_containers()
                if let_go:
                    self.big[:] = [held for held in self.big if all(held is not part for part in let_go)]
            self.near = sent
            self.grown += 1
            self.big.extend(sent.big_containers())
        if helpers[-1].finished:
            helpers.pop()
            self.meter.helpers -= 1
            self.apart_bytes = 0

    def plan_known(self, pushes: int) -> None:
        """A plan of `pushes` pushes is known (the table exact on a node): the fewest so far
        is told to the child growing the table, if one is."""
        if self.known is None or pushes < self.known:
            self.known = pushes
            if self.helpers:
                self.helpers[-1].limit(pushes)

    def nbytes(self) -> int:
        """The memory the table in use holds, and what a child growing one may take. (Asked
        each time: what a table's lookups remember grows.)"""
        return (self.near.nbytes() if self.near else 0) + self.apart_bytes


def _copy_fits(control: Control, table_bytes: int) -> bool:
    """Under a budget for the whole process tree (Budget.process_bytes), may a child be
    forked to grow a table of `table_bytes`? It starts out holding what this process holds
    (its copy counts in the tree's resident size), so that copy and the table must fit in
    what the search's memory budget has left."""
    budget = control.budget
    if budget.process_bytes is None or budget.memory_bytes is None:
        return True
    return resident_bytes() + table_bytes <= budget.memory_bytes - control.memory_used()


def _most_entries(budget: Budget, table: PullTableLike, tuning: PullsTuning) -> int:
    """The pull table's size limit in entries: the tuning's most_bytes, or its memory share
    of the budget, less what it holds whatever its size."""
    most = tuning.most_bytes if budget.memory_bytes is None else int(budget.memory_bytes * tuning.memory)
    return max(0, min(tuning.most_bytes, most) - table.fixed_bytes) // table.bytes_per_entry

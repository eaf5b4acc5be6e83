"""The exact pushes left near the goal: a breadth-first search backwards over pulls.

From every solved position (boxes on the goals, the player in any region of
the free floor) the search pulls boxes one at a time: a position k pulls away
from a solved one needs exactly k pushes (it is found in layer k and in no
earlier one). A node is the box set and the player's region (its lowest
cell), so one entry serves every player cell of the region.

The search grows a layer at a time and can stop anywhere (the push search
gives it a share of its time, sokoban/pulls/policy.py): every layer up to some
radius r is then complete, so a position missing from the table needs more
than r pushes. The bound it gives is exact within r pulls of the goal and
r + 1 everywhere else, far above the matching on a level whose boxes all
have a long way to go (Microban #93: 24 against the matching's 12 at the
start). Once no position is left, a missing one can never be solved.
Under the pushes metric, once the search knows a plan, the table may leave out
positions no plan of as few pushes goes through (a missing one is then
unsolvable within that many; sokoban/pulls/forward.py).

Pulls are made only onto cells some start box can be pushed to (a position
with a box elsewhere is never reached from the start). On a symmetric board
(sokoban/board/symmetry.py) whose start boxes can reach a symmetric set of cells,
a position and its mirror images, which need the same pushes, are one entry
under the least of their keys: a quarter of the entries on Microban #144
(four rotations), an eighth on #93.
"""

from __future__ import annotations

import sys
from typing import Callable

from fewest.solvers.common.control import Control
from fewest.solvers.sokoban.board.board import Board, cells_of, pushable_to
from fewest.solvers.sokoban.pulls.forward import ForwardSums
from fewest.solvers.sokoban.pulls.compact import CompactPullTable, fits
from fewest.solvers.sokoban.pulls.interface import PullTableLike
from fewest.solvers.sokoban.board.symmetry import symmetry_keeping
from fewest.solvers.sokoban.board.tables import UNREACHABLE

DICT_SLOT = 100  # a dict entry's share of its hash table, at most (twice the need after it grows)
TUPLE = 72  # a (boxes, region) pair and its slot in a list (lists grow by an eighth)


def pull_table(board: Board, start_boxes: int) -> PullTableLike:
    """A pull table for the positions of this start: 64-bit keys in numpy arrays where the
    board fits them (sokoban/pulls/compact.py: the same table, ~4.5x the entries a second on
    Microban #93), else a dict."""
    if fits(board, start_boxes):
        return CompactPullTable(board, start_boxes)
    return PullTable(board, start_boxes)


class PullTable(PullTableLike):
    """Positions within `radius` pulls of the goal and their exact pushes left; `grow`
    extends it (a layer at a time, resumable: the search grows it as it goes on)."""

    def __init__(self, board: Board, start_boxes: int) -> None:
        self.board = board
        self.shift = shift = board.size.bit_length()
        # Memory per entry, from the board's int sizes: a dict slot and its key, and
        # (while growing) a position held to pull from or to pull next (each is one of
        # the table's: never more of them than entries).
        # A flat 150 bytes was half of it on big boards: Microban II #130 (380 cells,
        # 24 boxes) held 976 MiB at 3.0M entries, ~320 bytes each.
        self._key_bytes = sys.getsizeof(board.floor << shift)  # (the largest a key can be)
        self._frontier_bytes = TUPLE + 2 * sys.getsizeof(board.floor)
        self.bytes_per_entry = DICT_SLOT + self._key_bytes + self._frontier_bytes
        self.fixed_bytes = 0  # (nothing held but its entries)
        self.table: dict = {}
        self.radius = 0  # every layer up to here is complete
        self.complete = False  # no position left: one missing can never be solved
        self.beyond = 1  # the bound for a position not in the table
        self._reachable = pushable_to(board, start_boxes)
        self._start_boxes = start_boxes
        self._forward: ForwardSums | None = None  # made when a limit first comes
        self._symmetry = symmetry_keeping(board, self._reachable)
        goals = board.goals
        self._layer: list = []  # (boxes, region) of layer `radius`, being pulled from
        self._made: list = []  # what it has made so far (layer radius + 1)
        self._done = 0  # how many of `_layer` have been pulled from
        free = board.floor & ~goals
        while free:
            cell = (free & -free).bit_length() - 1
            region = board.reach(cell, free)
            key = self._key(goals, region)
            if key not in self.table:  # (on a symmetric board, regions may be images)
                self.table[key] = 0
                self._layer.append((goals, region))
            free &= ~region

    def __len__(self) -> int:
        return len(self.table)

    def nbytes(self) -> int:
        """The memory it holds, about (the table, and the frontier unless let go)."""
        held = len(self._layer or ()) + len(self._made or ())  # (the layer is let go of whole)
        return sys.getsizeof(self.table) + len(self.table) * self._key_bytes + held * self._frontier_bytes

    def big_containers(self) -> list:
        return [self.table]

    def __getstate__(self) -> dict:
        # sent from a child process (sokoban/pulls/apart.py) without its frontier:
        # a table that came that way is only looked up, never grown on
        state = self.__dict__.copy()
        state.update(_layer=None, _made=None, _done=0, _forward=None)
        return state

    def stop_growing(self) -> None:
        """Let go of the positions kept to grow on (looked up only from now on)."""
        self.__dict__.update(self.__getstate__())

    def most_within(self, memory_bytes: int) -> int:
        """The entries it may grow to within `memory_bytes` from what it holds now (asked
        again after each layer): each one made holds its slot and key and, as the next
        layer, its position; and the dict may double its slots once (old and new held
        while it moves them)."""
        room = memory_bytes - self.nbytes() - sys.getsizeof(self.table)
        return len(self) + max(0, room) // self.bytes_per_entry

    @property
    def can_grow(self) -> bool:
        """Does it still hold its frontier (not stopped, not sent from another process)?"""
        return self._layer is not None

    def _key(self, boxes: int, region: int) -> int:
        """A position's key: its boxes above its region's lowest cell (the least among its
        images on a symmetric board)."""
        if self._symmetry is None:
            return (boxes << self.shift) | ((region & -region).bit_length() - 1)
        return self._symmetry.least(boxes, region, self.shift)

    def _forward_sums(self) -> ForwardSums:
        if self._forward is None:
            self._forward = ForwardSums(self.board, self._start_boxes, self._symmetry)
        return self._forward

    def bound(self, boxes: int, player: int, region: int | None = None) -> int:
        """The pushes left: exact near the goal, else a lower bound (or UNREACHABLE).
        `region`: the player's, when the caller has it."""
        if region is None:
            region = self.board.reach(player, self.board.floor & ~boxes)
        return self.table.get(self._key(boxes, region), self.beyond)

    def grow(
        self, control: Control, seconds: float | None, most: int, until: int | None = None,
        limit: Callable[[], int | None] | None = None,
    ) -> None:
        """Pull on until `seconds` more have passed (None: no limit), the table holds `most`
        entries, its layers are complete up to radius `until`, or no position is left.
        The control's budget and cancel still apply (they raise `Stopped`). `limit`, asked
        as it goes: the pushes of a plan the search knows (None: none yet); from then on
        positions no plan of so many pushes goes through are left out
        (sokoban/pulls/forward.py)."""
        if not self.can_grow:
            raise ValueError("a pull table sent from another process cannot grow on")
        board, table, shift = self.board, self.table, self.shift
        floor, steps, reachable = board.floor, board.steps, self._reachable
        symmetry = self._symmetry
        deadline = None if seconds is None else control.seconds + seconds
        layer, made = self._layer, self._made
        most_pushes = None
        while layer:
            depth = self.radius + 1
            for index in range(self._done, len(layer)):
                if not index & 1023:
                    control.check()
                    if len(table) >= most or (deadline is not None and control.seconds > deadline):
                        self._done = index
                        return
                    most_pushes = None if limit is None else limit()
                    if most_pushes is not None:
                        forward = self._forward_sums()
                boxes, region = layer[index]
                if most_pushes is not None:  # (a parent too far from the start: no child near enough)
                    sums = forward.sums(boxes)
                    if min(sums) + self.radius > most_pushes:
                        continue
                for step in steps:
                    # a box on c pulled to c + step: the player walks to c + step, backs onto c + 2 step
                    if step > 0:
                        pulled = boxes & (region >> step) & (region >> (2 * step)) & (reachable >> step)
                    else:
                        pulled = boxes & (region << -step) & (region << (-2 * step)) & (reachable << -step)
                    for cell in cells_of(pulled):
                        if most_pushes is not None:  # (with a plan known: a child near enough the start)
                            if forward.least_after(sums, cell, cell + step) + depth > most_pushes:
                                continue
                        after = boxes ^ (1 << cell) ^ (1 << (cell + step))
                        area = board.reach(cell + 2 * step, floor & ~after)
                        if symmetry is None:
                            key = (after << shift) | ((area & -area).bit_length() - 1)
                        else:
                            key = symmetry.least(after, area, shift)
                        if key not in table:
                            table[key] = depth
                            made.append((after, area))
            self.radius = depth
            self.beyond = depth + 1
            layer, made = self._layer, self._made = made, []
            self._done = 0
            if layer and until is not None and depth >= until:
                return
        self.complete = True
        self.beyond = UNREACHABLE


def almost_past(table: PullTableLike, matching: int) -> bool:
    """Is the table past the start's `matching`, or would the layer under way take it past?
    (On a slower machine Microban #144's table is 23 pulls deep at the first half, its bound
    beyond them 24, the start's matching. Dropped there, the proof's bound stopped at 28
    pushes in 60 s; with the next layer, at 35, against 36.)"""
    return table.beyond + 1 > matching


def grown_in_halves(
    table: PullTableLike, control: Control, half: float, most: int, matching: int, keep_growing: bool = False
) -> PullTableLike | None:
    """The table grown for `half` seconds, and for `half` more only if that took it past the
    start's `matching` or the layer under way would (`almost_past`); None if it did not, or
    if it is still not past it then (it would only leave the bound wandering). It grows no
    further after, unless `keep_growing` (it keeps its frontier for a caller's use)."""
    table.grow(control, half, most)
    if not almost_past(table, matching):
        return None
    table.grow(control, half, most)
    if table.beyond <= matching:
        return None
    if not keep_growing:
        table.stop_growing()  # (only looked up from now on: the frontier would be dead weight)
    return table

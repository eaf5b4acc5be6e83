"""What a pull table is to its users, whichever way it stores its entries.

Two classes hold the same table (sokoban/pulls/table.py: exact pushes left near the
goal, grown a layer of pulls at a time): PullTable in a dict, CompactPullTable as
64-bit keys in numpy blocks (sokoban/pulls/compact.py), picked by `pull_table` from the
board. The push search (sokoban/searches/push.py, sokoban/pulls/policy.py), the child
that grows one beside it (sokoban/pulls/apart.py) and the tie-break
(sokoban/searches/tie_break.py) see only this.
"""

from __future__ import annotations

from typing import Callable, Protocol, runtime_checkable

from fewest.solvers.common.control import Control
from fewest.solvers.sokoban.board.board import Board


@runtime_checkable
class PullTableLike(Protocol):
    """A pull table: positions within `radius` pulls of the goal and their exact pushes
    left, a lower bound beyond; grown on with `grow` (resumable) until `complete`."""

    board: Board
    radius: int  # every layer up to here is complete: exact within it
    beyond: int  # the bound for a position not in the table (UNREACHABLE once complete)
    complete: bool  # no position left: one missing can never be solved
    bytes_per_entry: int  # memory per entry while growing (its size limit counts these)
    fixed_bytes: int  # memory it holds whatever its size

    def __len__(self) -> int: ...

    def bound(self, boxes: int, player: int, region: int | None = None) -> int:
        """The pushes left: exact within `radius`, else a lower bound (or UNREACHABLE).
        `region`: the player's, when the caller has it."""
        ...

    def grow(
        self, control: Control, seconds: float | None, most: int, until: int | None = None,
        limit: Callable[[], int | None] | None = None,
    ) -> None:
        """Pull on for `seconds` (None: no limit), to `most` entries or radius `until`;
        `limit`: the pushes of a plan known (positions on no such plan are left out)."""
        ...

    @property
    def can_grow(self) -> bool:
        """Does it still hold its frontier (not stopped, not sent from another process)?"""
        ...

    def stop_growing(self) -> None:
        """Let go of the positions kept to grow on (looked up only from now on)."""
        ...

    def nbytes(self) -> int:
        """The memory it holds now, about."""
        ...

    def most_within(self, memory_bytes: int) -> int:
        """The entries it may grow to within `memory_bytes` from what it holds now."""
        ...

    def big_containers(self) -> list:
        """Its big Python containers, for a search to let go of a step at a time when it
        ends (common/control.py release_gradually); numpy arrays go at once: none."""
        ...

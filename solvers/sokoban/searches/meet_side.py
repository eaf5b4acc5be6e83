"""One end of the search from both ends (sokoban/searches/meet.py), whichever way it
holds its states, and the loop that grows the two ends until they meet.

A side holds every state within `depth` single steps of its end (the start, or every
solved position), each with depth * DEPTH + the fewest pushes over the shortest routes
there, and its last layer. Two storages share this: dicts of Python ints (meet.py's
_DictSide) and 64-bit packed states in numpy tables (sokoban/searches/meet_compact.py's
Side), which make a layer a chunk of states at a time.
"""

from __future__ import annotations

from typing import Protocol

from fewest.solvers.common.control import Control

DEPTH = 1 << 16  # a stored value is depth * DEPTH + pushes (pushes < DEPTH on any board), on both versions' sides


class MeetSide(Protocol):
    """One end's states (see above)."""

    depth: int  # layers made: the last one holds the states `depth` steps from this end

    def __len__(self) -> int:
        """The states held."""
        ...

    @property
    def frontier(self) -> int:
        """The states of the last layer (none: no state is left to step from)."""
        ...

    def grow(self, control: Control, other: MeetSide) -> None:
        """Make the next layer: the states one step further that no layer holds yet, each
        with its fewest pushes (`other`: the other end, for what both hold in all)."""
        ...

    def meeting(self, other: MeetSide, control: Control) -> int | None:
        """Of the last layer's states that `other` holds, the one with the fewest pushes in
        all (as this side's key: an int state), or None if it holds none."""
        ...


def meet_in_the_middle(forward: MeetSide, backward: MeetSide, control: Control) -> int | None:
    """Grow the side with the smaller last layer, a whole layer at a time, until its new
    layer meets the other side: the state met (a shortest plan, with the fewest pushes
    among them, goes through it), or None when a side runs out (no plan). What it reached
    goes on the meter of the search running it (meet_search's)."""
    meter = control.meter
    while forward.frontier and backward.frontier:
        meter.bound = forward.depth + backward.depth + 1  # no plan is shorter: the sides share nothing yet
        new, other = (forward, backward) if forward.frontier <= backward.frontier else (backward, forward)
        new.grow(control, other)
        meter.stored = len(forward) + len(backward)
        middle = new.meeting(other, control)
        if middle is not None:
            return middle
    return None

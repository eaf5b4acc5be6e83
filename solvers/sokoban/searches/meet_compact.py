"""The search from both ends (sokoban/searches/meet.py) with states packed in 64 bits, on numpy.

The same search and the same proof (see sokoban/searches/meet.py); what changes is how
states are held and made. A state is the boxes as bits over the cells a box may
stand on (off dead squares), above the player's cell as an index over the
floor. Each side keeps its states in a StateTable (common/state_table.py: some 17 to
34 bytes a state, where a dict holds about 130), and a layer is made a chunk of
states at a time with array operations, several times faster than one state at
a time. Where a state takes more than 64 bits the dict version runs instead.

A push that may freeze boxes off the goals is asked of the freeze test one at a
time, only where the box is walled or boxed in on both axes. Mirror images are
states of their own here (the dict version keeps one for all): on Microban's
symmetric levels the packed search still needs less memory and time (#144 alone,
1.2 GB: proven in 50 s, where the dict version ran out at 60 s; #93 20 s against
26 s, #145 4.9 s against 11.5 s).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from fewest.solvers.common.control import Control
from fewest.solvers.sokoban.board.board import Board, cells_of, pushable_to
from fewest.solvers.sokoban.board.tables import Tables
from fewest.solvers.common.state_table import SLICE_BYTES, StateTable
from fewest.solvers.sokoban.searches.meet_side import DEPTH, MeetSide, meet_in_the_middle

CHUNK_BYTES = 256  # a chunk's work arrays, per state expanded, at most (4 children a state)
# A chunk's new states on their way into the table, per state at most: the states, pushes
# and ways made, their slots and masks, and what `put` makes of them.
COMING_BYTES = 64

# (states, pushes, way back): the states distinct; per state, a direction whose step (a walk)
# leads back to a state held already (the one it was made from), NO_WAY where none is known
Layer = tuple[np.ndarray, np.ndarray, np.ndarray]
Expand = Callable[["CompactStates", np.ndarray, np.ndarray, np.ndarray], Layer]
NO_WAY = 4
Frozen = Callable[[int, int], bool]


class CompactStates:
    """Cells as indices and bits: a state is boxes' bits << player_bits | player's index."""

    def __init__(self, board: Board, tables: Tables, boxes: int, frozen: Frozen | None = None) -> None:
        self.freeze_test = frozen  # (boxes, the cell a box was just pushed to): is it in a freeze off the goals?
        self.cells = list(cells_of(board.floor))
        self.index = {cell: i for i, cell in enumerate(self.cells)}
        self.box_cells = list(cells_of((board.floor & ~tables.dead) | boxes))
        self.bit_of = {cell: bit for bit, cell in enumerate(self.box_cells)}
        self.player_bits = max(1, (len(self.cells) - 1).bit_length())
        self.player_mask = np.uint64((1 << self.player_bits) - 1)
        wall = self.wall = len(self.cells)  # the index of "no floor here"
        self.next = np.full((4, wall + 1), wall, np.int64)  # next[d][i]: the cell a step d away
        self.box_one = np.zeros(wall + 1, np.uint64)  # a box's bit on that cell, as a mask (0: none may stand there)
        self.live = np.zeros(wall + 1, bool)  # a box may be pushed there
        self.pull_to = np.zeros(wall + 1, bool)  # a box may be pulled there (some start box reaches it)
        reachable = self.reachable = pushable_to(board, boxes)
        for i, cell in enumerate(self.cells):
            for d, step in enumerate(board.steps):
                self.next[d, i] = self.index.get(cell + step, wall)
            if cell in self.bit_of:
                self.box_one[i] = np.uint64(1) << np.uint64(self.bit_of[cell])
            self.live[i] = bool((tables.live >> cell) & 1)
            self.pull_to[i] = bool((reachable >> cell) & 1)

    def frozen(self, bits: int, cell: int) -> bool:
        """Is the box pushed onto `cell` frozen off the goals, the boxes as bits?"""
        return self.freeze_test(self._boxes(bits), cell)

    @property
    def fits(self) -> bool:
        return len(self.box_cells) + self.player_bits <= 64

    def pack(self, boxes: int, player: int) -> int:
        bits = 0
        for cell in cells_of(boxes):
            bits |= 1 << self.bit_of[cell]
        return (bits << self.player_bits) | self.index[player]

    def unpack(self, state: int) -> tuple[int, int]:
        return self._boxes(state >> self.player_bits), self.cells[state & ((1 << self.player_bits) - 1)]

    def _boxes(self, bits: int) -> int:
        """Box bits as a mask of board cells."""
        boxes = 0
        for bit in cells_of(bits):
            boxes |= 1 << self.box_cells[bit]
        return boxes


def _state(high: np.ndarray, player: np.ndarray) -> np.ndarray:
    """States from their boxes already shifted up (`high`) and the player's cell indices
    (never negative: their bits read as unsigned unchanged)."""
    return high | player.view(np.uint64)


def forward_steps(pack: CompactStates, states: np.ndarray, pushes: np.ndarray, back: np.ndarray) -> Layer:
    """Every step from each state (not distinct): walks, but not back the way it came
    (that state is held already: about a third of the steps made), and pushes onto live
    floor."""
    player = (states & pack.player_mask).astype(np.int64)
    high = states & ~pack.player_mask  # (the boxes, where a state keeps them)
    boxes = states >> np.uint64(pack.player_bits)
    made, counts, ways = [], [], []
    for d in range(4):
        ahead = pack.next[d][player]
        one = pack.box_one[ahead]
        boxed = (boxes & one) != 0
        walk = (ahead != pack.wall) & ~boxed & (back != d)
        made.append(_state(high[walk], ahead[walk]))
        counts.append(pushes[walk])
        ways.append(np.full(len(made[-1]), (d + 2) % 4, np.uint8))
        ahead, one, moved, before = ahead[boxed], one[boxed], boxes[boxed], pushes[boxed]
        beyond = pack.next[d][ahead]
        to = pack.box_one[beyond]
        free = pack.live[beyond] & (to != 0) & ((moved & to) == 0)
        moved = moved[free] ^ one[free] ^ to[free]
        ahead, before = ahead[free], before[free]
        if pack.freeze_test is not None and len(moved):
            kept = _not_frozen(pack, moved, beyond[free])
            moved, ahead, before = moved[kept], ahead[kept], before[kept]
        made.append(_state(moved << np.uint64(pack.player_bits), ahead))
        counts.append(before + 1)
        ways.append(np.full(len(moved), NO_WAY, np.uint8))
    return np.concatenate(made), np.concatenate(counts), np.concatenate(ways)


def _not_frozen(pack: CompactStates, boxes: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """False where the box just pushed onto `cells` is part of a freeze off the goals: asked
    of `pack.frozen` only where the box is walled or boxed in on both axes (the cheap test)."""

    def solid(d: int) -> np.ndarray:
        beside = pack.next[d][cells]
        return (beside == pack.wall) | ((boxes & pack.box_one[beside]) != 0)

    kept = np.ones(len(boxes), bool)
    for i in np.flatnonzero((solid(0) | solid(2)) & (solid(1) | solid(3))).tolist():
        kept[i] = not pack.frozen(int(boxes[i]), pack.cells[cells[i]])
    return kept


def backward_steps(pack: CompactStates, states: np.ndarray, pushes: np.ndarray, back: np.ndarray) -> Layer:
    """Every step undone from each state: a walk back (but not the way it came), or a pull
    (a push undone) of the box behind the player onto his cell, where some start box can
    be pushed."""
    player = (states & pack.player_mask).astype(np.int64)
    high = states & ~pack.player_mask  # (the boxes, where a state keeps them)
    boxes = states >> np.uint64(pack.player_bits)
    here = pack.box_one[player]
    made, counts, ways = [], [], []
    for d in range(4):
        came = pack.next[d][player]  # where he stood one step earlier
        free = (came != pack.wall) & ((boxes & pack.box_one[came]) == 0)
        walk = free & (back != d)
        made.append(_state(high[walk], came[walk]))
        counts.append(pushes[walk])
        ways.append(np.full(len(made[-1]), (d + 2) % 4, np.uint8))
        behind = pack.box_one[pack.next[(d + 2) % 4][player]]
        pull = free & ((boxes & behind) != 0) & (here != 0) & pack.pull_to[player]
        moved = boxes[pull] ^ behind[pull] ^ here[pull]
        made.append(_state(moved << np.uint64(pack.player_bits), came[pull]))
        counts.append(pushes[pull] + 1)
        ways.append(np.full(len(moved), NO_WAY, np.uint8))
    return np.concatenate(made), np.concatenate(counts), np.concatenate(ways)


def fewest(states: np.ndarray, pushes: np.ndarray, *more: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each state once (in order), with its fewest pushes (and the first of each of `more`,
    in no set order: the way back of one of the steps that made it)."""
    if not len(states):
        return (states, pushes, *more)
    # (one sort of the states and a minimum per run of equal ones: some 6 times quicker
    # than a lexsort on both, which sorts twice)
    order = np.argsort(states)
    states, pushes = states[order], pushes[order]
    first = np.ones(len(states), bool)
    first[1:] = states[1:] != states[:-1]
    starts = np.flatnonzero(first)
    return (states[starts], np.minimum.reduceat(pushes, starts), *(part[order][starts] for part in more))


class Side(MeetSide):
    """One end's states (a StateTable: state -> depth * DEPTH + pushes) and its last layer,
    the next made by `expand` (forward_steps or backward_steps) on `pack`'s states, `chunk`
    states at a time (between looks at the budgets)."""

    def __init__(self, states: np.ndarray, pack: CompactStates | None, expand: Expand, chunk: int) -> None:
        self.pack, self.expand, self.chunk = pack, expand, chunk
        self.table = StateTable()
        self.table.add(states, np.zeros(len(states), np.uint32))
        self.layer: Layer = (states, np.zeros(len(states), np.uint32), np.full(len(states), NO_WAY, np.uint8))
        self.depth = 0
        self.making: list[Layer] = []  # the next layer's new states, a chunk at a time, while it is made
        self.coming = 0  # states a chunk is about to put in

    def __len__(self) -> int:
        return self.table.count

    @property
    def frontier(self) -> int:
        return len(self.layer[0])

    @property
    def nbytes(self) -> int:
        """What this side holds, with the most a layer being made may add before the next
        look. A chunk is made in two steps whose work arrays never live at once: its
        states' steps are made, then the new ones put in the table, which may double
        (the new table allocated beside the old)."""
        held = self.table.nbytes + sum(part.nbytes for part in self.layer)
        held += sum(part.nbytes for parts in self.making for part in parts)
        if self.coming:  # (made: to be put in, the table perhaps doubled first)
            work = min(self.table.slice_keys, self.coming) * SLICE_BYTES  # a slice put in
            doubled = self.table.bytes_to_add(self.coming)
            if doubled:  # (the new table beside the old, filled a slice of old states at a time)
                work = doubled + max(work, min(self.table.grow_slice, self.table.count) * SLICE_BYTES)
            held += self.coming * COMING_BYTES + work
        elif self.making:  # (between chunks: the next one's steps)
            held += min(self.chunk, len(self.layer[0])) * CHUNK_BYTES
        return held

    def grow(self, control: Control, other: MeetSide | None = None) -> None:
        """Make the next layer: the states one step further that no layer holds yet, each
        with its fewest pushes from this layer. (`other`: not needed here.)"""
        pack, expand, step = self.pack, self.expand, self.chunk
        states, pushes, back = self.layer
        base = np.uint32((self.depth + 1) * DEPTH)
        lowered = []  # (states, pushes) of this layer made again with fewer pushes
        for at in range(0, len(states), step):
            chunk = slice(at, at + step)
            made, counts, ways = fewest(*expand(pack, states[chunk], pushes[chunk], back[chunk]))
            self.coming = len(made)
            control.tick(min(step, len(states) - at))  # (before the table may double)
            slots, fresh = self.table.put(made, base + counts, control.check)
            known = ~fresh
            held, again = slots[known], base + counts[known]
            better = (self.table.values[held] >= base) & (self.table.values[held] > again)
            if better.any():  # (made before in this layer, with more pushes)
                self.table.values[held[better]] = again[better]
                lowered.append((made[known][better], counts[known][better]))
            self.making.append((made[fresh], counts[fresh], ways[fresh]))
            self.coming = 0
        if not self.making:  # (an empty layer makes an empty one)
            self.making.append(tuple(part[:0] for part in self.layer))
        made, values, ways = (np.concatenate(parts) for parts in zip(*self.making))
        if lowered:  # (few: looked up among themselves, not in the table)
            which, least = fewest(*(np.concatenate(part) for part in zip(*lowered)))
            at = np.searchsorted(which, made).clip(max=len(which) - 1)
            hit = which[at] == made
            values[hit] = least[at[hit]]
        self.layer, self.making = (made, values, ways), []
        self.depth += 1

    def meeting(self, other: Side, control: Control) -> int | None:
        """Of the last layer's states that `other` holds, the one with the fewest pushes in
        all (the first of them in the layer), or None."""
        states, pushes, _ = self.layer
        held, values = other.table.get(states, control.check)
        if not held.any():
            return None
        totals = values[held].astype(np.int64) + pushes[held] + self.depth * DEPTH
        return int(states[held][np.argmin(totals)])

    def value(self, pack: CompactStates, boxes: int, player: int) -> int | None:
        """depth * DEPTH + pushes of a state (as masks) this side holds, else None."""
        if not _packable(pack, boxes):
            return None
        held, values = self.table.get(np.array([pack.pack(boxes, player)], np.uint64))
        return int(values[0]) if held[0] else None


def _packable(pack: CompactStates, boxes: int) -> bool:
    return all(cell in pack.bit_of for cell in cells_of(boxes))


def meet_compact_states(
    pack: CompactStates, board: Board, boxes: int, player: int, control: Control, chunk: int
) -> tuple[int, int, Side, Side] | None:
    """The search from both ends: (boxes, player) of a state both sides hold on a shortest
    plan with the fewest pushes among them, and the forward and backward sides (the plan is
    rebuilt from them in sokoban/searches/meet.py); None when there is no plan. Each side
    expands `chunk` states at a time. Raises Stopped."""
    start = pack.pack(boxes, player)
    ends = np.array([pack.pack(board.goals, cell) for cell in cells_of(board.floor & ~board.goals)], np.uint64)
    forward = Side(np.array([start], np.uint64), pack, forward_steps, chunk)
    backward = Side(np.unique(ends), pack, backward_steps, chunk)
    control.meter.measure = lambda: forward.nbytes + backward.nbytes  # (on meet_search's meter)
    if start in set(ends.tolist()):
        return (boxes, player, forward, backward)
    middle = meet_in_the_middle(forward, backward, control)
    return None if middle is None else (*pack.unpack(middle), forward, backward)

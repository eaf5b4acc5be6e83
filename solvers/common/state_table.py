"""A hash table of 64-bit states on numpy arrays, looked up and filled a whole array at a time.

A Python dict holds a search state in some 130 bytes (the key's int object, the
value's, the slot); here a state is 8 bytes of key and 4 of value in open
addressing (linear probing), at most LOAD full: 15 to 30 bytes a state. Key 0
marks an empty slot, so a state must never be 0.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: the top bits of key * this
# The most of its slots the table fills before it doubles. 0.8 rather than 0.7: the search
# from both ends on Grigoriev 2001 #66 (moves) stopped on memory at 357 of 363 (1.3 GiB);
# at 0.8 it is proven in 60 s. Microban #139 and #144 from both ends: 31.5 s against 30.7,
# 52.6 against 52.4 (the probes are longer, the tables smaller).
LOAD = 0.8
FIRST_BITS = 12
SLOT_BYTES = 12  # key and value
# Once FEW keys of a slice are left probing, they look at WINDOW slots a round: at LOAD a
# slice's probes end in a long tail of rounds for a few keys each.
WINDOW = 16
FEW = 1024
OFFSETS = np.arange(WINDOW)
SLICE = 1 << 16  # keys placed or looked up at a time
SLICE_BYTES = 96  # their work arrays, per key, at most


def _nothing() -> None:
    pass


class StateTable:
    """state (uint64, not 0) -> value (uint32)."""

    def __init__(self, bits: int = FIRST_BITS, *, few: int = FEW, slice_keys: int = SLICE,
                 grow_slice: int | None = None) -> None:
        """`few`, `slice_keys`, `grow_slice`: the probing and slicing (WINDOW slots a round
        once `few` keys are left probing; keys placed or looked up `slice_keys` at a time;
        old slots moved into a doubled table `grow_slice` at a time, by default a quarter
        of a slice: less work memory, as quick). Tests choose small ones to reach every path."""
        self.few = few
        self.slice_keys = slice_keys
        self.grow_slice = slice_keys >> 2 if grow_slice is None else grow_slice
        self._allocate(bits)
        self.count = 0

    def _allocate(self, bits: int) -> None:
        self.bits = bits
        self.keys = np.zeros(1 << bits, np.uint64)
        self.values = np.zeros(1 << bits, np.uint32)

    @property
    def nbytes(self) -> int:
        return self.keys.nbytes + self.values.nbytes

    def bytes_to_add(self, more: int) -> int:
        """The bytes `add`ing `more` states would allocate (a doubling holds old and new)."""
        bits = self._bits_for(self.count + more)
        return 0 if bits == self.bits else (SLOT_BYTES << bits)

    def _bits_for(self, count: int) -> int:
        bits = self.bits
        while count > LOAD * (1 << bits):
            bits += 1
        return bits

    def _home(self, keys: np.ndarray) -> np.ndarray:
        return ((keys * MULTIPLIER) >> np.uint64(64 - self.bits)).astype(np.int64)

    def slots(self, keys: np.ndarray) -> np.ndarray:
        """Each key's slot, or -1 where it is not held."""
        found = np.full(len(keys), -1, np.int64)
        mask = (1 << self.bits) - 1
        pending = np.arange(len(keys))
        at = self._home(keys)
        width = 1
        while len(pending):
            wanted = keys[pending]
            slot, held, going = self._look(at, wanted, width)
            hit = held == wanted
            found[pending[hit]] = slot[hit]
            pending, at = pending[going], (at[going] + width) & mask
            width = WINDOW if len(pending) <= self.few else 1
        return found

    def _look(self, at: np.ndarray, wanted: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One round of probes, `width` slots from `at` for each key `wanted`: the slot
        where its probe stops (its key, or an empty slot: 0 there), what is there, and
        whether it goes on (none of them stopped it; then `held` is another key)."""
        if width == 1:
            held = self.keys[at]
            return at, held, (held != wanted) & (held != 0)
        # (the few keys left: a window of slots each round, see WINDOW)
        window = (at[:, None] + OFFSETS) & ((1 << self.bits) - 1)
        seen = self.keys[window]
        stop = (seen == wanted[:, None]) | (seen == 0)
        first = stop.argmax(1)  # (0 where none stops it: another key)
        rows = np.arange(len(at))
        return window[rows, first], seen[rows, first], ~stop.any(1)

    def get(self, keys: np.ndarray, between: Callable[[], None] = _nothing) -> tuple[np.ndarray, np.ndarray]:
        """(held: bool per key, values: the value where held, else 0), a slice at a time,
        `between` called after each (a search's look at its budgets: 23M keys take seconds)."""
        held = np.zeros(len(keys), bool)
        values = np.zeros(len(keys), np.uint32)
        for at in range(0, len(keys), self.slice_keys):
            found = self.slots(keys[at:at + self.slice_keys])
            hit = found >= 0
            held[at:at + self.slice_keys] = hit
            values[at:at + self.slice_keys][hit] = self.values[found[hit]]
            between()
        return held, values

    def add(self, keys: np.ndarray, values: np.ndarray, between: Callable[[], None] = _nothing) -> None:
        """Put in `keys` (distinct, none held yet) with their values: `put`, its answer unused."""
        self.put(keys, values, between)

    def put(
        self, keys: np.ndarray, values: np.ndarray, between: Callable[[], None] = _nothing
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each key's slot, the keys not held yet put in with their values (a key held keeps
        its own), and which keys were put in: `keys` distinct. One probe per key, where a
        look-up and then putting the new keys in would take two. The table doubles first
        when all of them could be new. `between` is called after each slice placed (a
        doubling at 23M states takes 5 s); if it raises, the table is left part-filled: a
        stopped search lets go of it."""
        bits = self._bits_for(self.count + len(keys))
        if bits != self.bits:
            self._grow_to(bits, between)
        slots = np.empty(len(keys), np.int64)
        new = np.zeros(len(keys), bool)
        for at in range(0, len(keys), self.slice_keys):
            part = slice(at, at + self.slice_keys)
            slots[part], new[part] = self._put(keys[part], values[part])
            between()
        self.count += int(np.count_nonzero(new))
        return slots, new

    def _put(self, keys: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        # A key held lies before the first empty slot from its home, and slots only fill, so
        # a key that meets an empty slot first is not held: it takes that slot. Keys after
        # the same free slot all write it: one of them stays (which one is not defined),
        # found by reading the slot back (the keys differ); the others probe on from there.
        # (No sort, as np.unique would need to pick one.)
        mask = (1 << self.bits) - 1
        slots = np.empty(len(keys), np.int64)
        new = np.zeros(len(keys), bool)
        pending = np.arange(len(keys))
        at = self._home(keys)
        width = 1
        while len(pending):
            wanted = keys[pending]
            slot, held, going = self._look(at, wanted, width)
            hit = held == wanted
            slots[pending[hit]] = slot[hit]
            free = np.flatnonzero(held == 0)
            claimed, claiming = slot[free], wanted[free]
            self.keys[claimed] = claiming
            won = self.keys[claimed] == claiming
            winners = pending[free[won]]
            self.values[claimed[won]] = values[winners]
            slots[winners], new[winners] = claimed[won], True
            done = hit
            done[free[won]] = True
            # the others go on: past the slot another key just took, or past those looked at
            ahead = np.where(going, at + width, slot + 1) & mask
            pending, at = pending[~done], ahead[~done]
            width = WINDOW if len(pending) <= self.few else 1
        return slots, new

    def _grow_to(self, bits: int, between: Callable[[], None]) -> None:
        """The table rebuilt with 2**bits slots. Its keys are taken in slot order, a slice at
        a time, and that is about the order of their new home slots (the same top bits of
        the same hash, and more of them): sorted by home, each key's slot is the larger of
        its home and the slot after the last key's, in one running maximum instead of
        probing round by round. A key that does not fit that order (its way from home would
        cross a slot left empty, or wrap round the end) is put in by probing at the end."""
        old_keys, old_values = self.keys, self.values
        scale = 1 << (bits - self.bits)
        self._allocate(bits)
        size = 1 << bits
        last = -1  # the highest slot filled so far
        late_keys, late_values = [], []
        for at in range(0, len(old_keys), self.grow_slice):
            part = old_keys[at:at + self.grow_slice]
            kept = part != 0
            keys, values = part[kept], old_values[at:at + self.grow_slice][kept]
            homes = self._home(keys)
            order = np.argsort(homes, kind="stable")  # (nearly sorted already)
            keys, values, homes = keys[order], values[order], homes[order]
            # homes at or below the last slot filled may have an empty slot on their way; at
            # or past this slice's end, they wrapped round in the old table
            fits = (homes > last) & (homes < (at + len(part)) * scale)
            count = np.arange(np.count_nonzero(fits))
            slots = count + np.maximum.accumulate(homes[fits] - count) if len(count) else count
            inside = slots < size
            late = ~fits
            late[np.flatnonzero(fits)[~inside]] = True
            self.keys[slots[inside]] = keys[fits][inside]
            self.values[slots[inside]] = values[fits][inside]
            if inside.any():
                last = int(slots[inside][-1])
            late_keys.append(keys[late])
            late_values.append(values[late])
            between()
        del old_keys, old_values
        late, values = np.concatenate(late_keys), np.concatenate(late_values)
        for at in range(0, len(late), self.slice_keys):
            self._put(late[at:at + self.slice_keys], values[at:at + self.slice_keys])
            between()

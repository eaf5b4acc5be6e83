"""Sorted 64-bit keys with a byte each, in numpy blocks: the compact pull table's storage.

One sorted array would do the job, but
- np.searchsorted on one key lets go of the GIL and takes it back at once; done for
  every node of a search in a worker thread, that starves the app's own thread
  (measured on Microban #144: the event loop held off for up to 2.9 s). A lookup here
  is two bisects in the interpreter (over a list, then a memoryview), which hands
  the GIL over on time, and costs about what the numpy call did;
- merging a layer into one array copies the whole table, a fraction of a second per
  few million entries, with no look at the budget in between. Here a merge touches
  only the blocks in the keys' range, each at most `most` keys, so the caller can look
  at its budget (and a cancel) between short steps.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

import numpy as np

MOST = 1 << 20  # keys in a block at most (8 MiB), unless given; a fuller one is cut into even parts


class SortedBlocks:
    """A set of distinct uint64 keys, each with a uint8 value, ordered across blocks."""

    def __init__(self, most: int = MOST) -> None:
        """`most`: keys in a block at most (tests choose few, to cut blocks often)."""
        self._most = most
        self._keys: list[np.ndarray] = []  # sorted blocks, every key of one below the next's
        self._values: list[np.ndarray] = []
        self._firsts: list[int] = []  # each block's lowest key
        self._views: list[tuple[memoryview, memoryview]] = []  # the blocks, for bisect
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        del state["_views"]  # memoryviews do not pickle; made again on arrival
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._views = [_views(keys, values) for keys, values in zip(self._keys, self._values)]

    def get(self, key: int) -> int | None:
        """The value of `key` (a Python int), or None when it is not held."""
        index = bisect_right(self._firsts, key) - 1
        if index < 0:
            return None
        keys, values = self._views[index]
        at = bisect_left(keys, key)
        if at < len(keys) and keys[at] == key:
            return values[at]
        return None

    def holds_within(self, low: int, high: int) -> bool:
        """Is some key held with low <= key < high?"""
        index = bisect_right(self._firsts, low) - 1
        if index >= 0:
            keys = self._views[index][0]
            at = bisect_left(keys, low)
            if at < len(keys):
                return keys[at] < high
        return index + 1 < len(self._firsts) and self._firsts[index + 1] < high

    def absent(self, keys: np.ndarray) -> np.ndarray:
        """For sorted keys: True where a key is not held."""
        out = np.ones(len(keys), dtype=bool)
        if not len(keys) or not self._keys:
            return out
        for index, low, high in self._spans(keys):
            block, piece = self._keys[index], keys[low:high]
            at = np.minimum(np.searchsorted(block, piece), len(block) - 1)
            out[low:high] = block[at] != piece
        return out

    def add(self, keys: np.ndarray, value: int) -> None:
        """Hold sorted distinct keys, all with `value` (those held already keep theirs).
        Only the blocks whose range the keys fall in are copied."""
        if not len(keys):
            return
        if not self._keys:
            self._replace(0, 0, keys, np.full(len(keys), value, dtype=np.uint8))
            return
        # from the last block down, so the indices of those still to do stay put
        for index, low, high in reversed(list(self._spans(keys))):
            block, piece = self._keys[index], keys[low:high]
            at = np.searchsorted(block, piece)
            fresh = block[np.minimum(at, len(block) - 1)] != piece
            at, piece = at[fresh], piece[fresh]
            merged = np.insert(block, at, piece)
            values = np.insert(self._values[index], at, np.uint8(value))
            self._replace(index, index + 1, merged, values)

    def nbytes(self) -> int:
        return sum(keys.nbytes + values.nbytes for keys, values in zip(self._keys, self._values))

    def keys(self) -> np.ndarray:
        """Every key, in order (a copy)."""
        return np.concatenate(self._keys) if self._keys else np.zeros(0, dtype=np.uint64)

    def values(self) -> np.ndarray:
        """Every value, in the keys' order (a copy)."""
        return np.concatenate(self._values) if self._values else np.zeros(0, dtype=np.uint8)

    def _spans(self, keys: np.ndarray) -> list[tuple[int, int, int]]:
        """(block, low, high): keys[low:high] fall in that block's range (the first
        block's reaching down to 0); only non-empty spans."""
        first = max(0, bisect_right(self._firsts, int(keys[0])) - 1)
        last = max(0, bisect_right(self._firsts, int(keys[-1])) - 1)
        cuts = np.searchsorted(keys, np.array(self._firsts[first + 1 : last + 1], dtype=np.uint64)).tolist()
        edges = [0, *cuts, len(keys)]
        return [(first + k, edges[k], edges[k + 1]) for k in range(last - first + 1) if edges[k] < edges[k + 1]]

    def _replace(self, start: int, stop: int, keys: np.ndarray, values: np.ndarray) -> None:
        """Blocks start..stop become `keys` (sorted), cut into blocks of at most `most`."""
        self._size += len(keys) - sum(map(len, self._keys[start:stop]))
        most = self._most
        count = -(-len(keys) // most) if len(keys) > most else 1
        bounds = [len(keys) * k // count for k in range(count + 1)]
        pieces = [(keys[a:b], values[a:b]) for a, b in zip(bounds, bounds[1:])]
        if count > 1:  # copies, so a cut block does not keep the whole merge alive
            pieces = [(k.copy(), v.copy()) for k, v in pieces]
        self._keys[start:stop] = [k for k, _ in pieces]
        self._values[start:stop] = [v for _, v in pieces]
        self._firsts[start:stop] = [int(k[0]) for k, _ in pieces]
        self._views[start:stop] = [_views(k, v) for k, v in pieces]


def _views(keys: np.ndarray, values: np.ndarray) -> tuple[memoryview, memoryview]:
    # uint64 items read back as Python ints, which compare with the keys looked up
    return memoryview(np.ascontiguousarray(keys)).cast("B").cast("Q"), memoryview(np.ascontiguousarray(values))

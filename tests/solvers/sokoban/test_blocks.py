"""The pull table's storage: sorted keys in blocks, against a dict; cut blocks, spans, pickling."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from fewest.solvers.sokoban.pulls.sorted_blocks import MOST, SortedBlocks


@pytest.mark.parametrize("most", [1, 3, 16, MOST])
def test_it_holds_what_a_dict_holds(most):
    rng = random.Random(most)
    blocks, oracle = SortedBlocks(most), {}
    for value in range(12):
        # keys in one narrow range or over all 64 bits; some held already
        low = rng.choice([0, rng.randrange(2**63)])
        fresh = {rng.randrange(low, low + 5000) for _ in range(rng.randrange(0, 300))}
        fresh |= set(rng.sample(sorted(oracle), min(len(oracle), 5)))
        blocks.add(np.array(sorted(fresh), dtype=np.uint64), value)
        for key in fresh:
            oracle.setdefault(key, value)
        assert len(blocks) == len(oracle)
        assert all(len(keys) <= most for keys in blocks._keys)
    assert blocks.keys().tolist() == sorted(oracle)
    assert blocks.values().tolist() == [oracle[key] for key in sorted(oracle)]
    asked = list(oracle)[:500] + [rng.randrange(2**64) for _ in range(500)] + [0, 2**64 - 1]
    assert [blocks.get(key) for key in asked] == [oracle.get(key) for key in asked]
    queries = np.array(sorted(set(asked)), dtype=np.uint64)
    assert blocks.absent(queries).tolist() == [int(key) not in oracle for key in queries]
    # ranges: around held keys (a block's first and last among them), wide, empty, at the ends
    held = sorted(oracle)
    ranges = [(key - rng.randrange(3), key + rng.randrange(3)) for key in rng.sample(held, min(len(held), 300))]
    ranges += [(key + 1, key + 3) for key in blocks._firsts] + [(low, low + 10**15) for low in asked[:100]]
    ranges += [(0, 1), (2**64 - 2, 2**64), (5, 5)]
    assert [blocks.holds_within(low, high) for low, high in ranges] == [
        any(low <= key < high for key in held) for low, high in ranges
    ]


def test_empty_it_holds_nothing():
    blocks = SortedBlocks()
    assert len(blocks) == 0 and blocks.get(5) is None and not blocks.holds_within(0, 2**64)
    assert blocks.absent(np.array([1, 2], dtype=np.uint64)).tolist() == [True, True]
    blocks.add(np.zeros(0, dtype=np.uint64), 1)
    assert len(blocks) == 0 and blocks.keys().tolist() == []


def test_sent_to_another_process_it_answers_the_same():
    blocks = SortedBlocks(7)
    blocks.add(np.arange(0, 100, 3, dtype=np.uint64), 4)
    copy = pickle.loads(pickle.dumps(blocks))
    assert [copy.get(key) for key in range(100)] == [4 if key % 3 == 0 else None for key in range(100)]
    copy.add(np.array([1, 2], dtype=np.uint64), 5)
    assert copy.get(2) == 5 and len(copy) == len(blocks) + 2
    assert len(blocks._keys) > 1 and all(len(keys) <= 7 for keys in copy._keys)  # (its block size came along)

"""The numpy hash table of the search from both ends: against a dict, through its doublings."""

import random

import numpy as np
import pytest

from fewest.solvers.common.state_table import LOAD, SLOT_BYTES, StateTable


def random_keys(rng: random.Random, count: int) -> list[int]:
    keys: set[int] = set()
    while len(keys) < count:
        # small keys too (few bits differ), as packed states with few boxes are
        keys.add(rng.getrandbits(rng.choice((8, 20, 64))) or 1)
    return list(keys)


SEEDS = pytest.mark.parametrize("seed", range(4))
PROBING = pytest.mark.parametrize("few", [0, 16, 1 << 20])  # a slot a round, windows once few are left, windows


def empty_table(seed: int, few: int) -> tuple[random.Random, StateTable, list[int], dict]:
    """A random source, an empty table probing as `few` says, 6,000 distinct keys, and the
    dict the table should match."""
    rng = random.Random(seed)
    return rng, StateTable(bits=4, few=few), random_keys(rng, 6000), {}


def assert_holds(table: StateTable, keys: list[int], expected: dict) -> None:
    held, values = table.get(np.array(keys, np.uint64))
    assert held.tolist() == [key in expected for key in keys]
    assert values.tolist() == [expected.get(key, 0) for key in keys]


@SEEDS
@PROBING
def test_it_holds_what_a_dict_holds(seed, few):
    rng, table, keys, expected = empty_table(seed, few)
    for start in range(0, 5000, 500):
        batch = keys[start:start + 500]
        values = [rng.randrange(1 << 32) for _ in batch]
        grows = table.bytes_to_add(len(batch))
        before = table.nbytes
        table.add(np.array(batch, np.uint64), np.array(values, np.uint32))
        expected.update(zip(batch, values))
        assert table.count == len(expected)
        assert table.nbytes == (grows if grows else before)  # (it says beforehand what a doubling takes)
    assert_holds(table, keys, expected)  # (the last 1000 were never put in)
    assert (table.slots(np.array(keys, np.uint64)) >= 0).sum() == len(expected)
    assert table.nbytes == SLOT_BYTES << table.bits
    assert len(expected) <= LOAD * (1 << table.bits)


@SEEDS
@PROBING
def test_put_finds_the_keys_held_and_puts_in_the_others(seed, few):
    rng, table, keys, expected = empty_table(seed, few)
    for start in range(0, 5000, 500):
        # half of each batch put in before (and perhaps again), in no order
        batch = keys[start:start + 500] + rng.sample(keys[:start + 500], min(start, 500) // 2)
        batch = list(dict.fromkeys(rng.sample(batch, len(batch))))
        values = [rng.randrange(1 << 32) for _ in batch]
        was = [key in expected for key in batch]
        slots, new = table.put(np.array(batch, np.uint64), np.array(values, np.uint32))
        assert new.tolist() == [not held for held in was]
        assert table.keys[slots].tolist() == batch  # (the slot of each, held before or not)
        for key, value, held in zip(batch, values, was):
            expected.setdefault(key, value)  # (a key held keeps its value)
        assert table.values[slots].tolist() == [expected[key] for key in batch]
        assert table.count == len(expected) and probes_cross_no_gap(table)
    assert_holds(table, keys, expected)


def probes_cross_no_gap(table: StateTable) -> bool:
    """Linear probing's invariant: from each key's home slot to its slot, no slot is empty."""
    filled = np.flatnonzero(table.keys)
    homes = table._home(table.keys[filled])
    size = 1 << table.bits
    return all(table.keys[(home + np.arange((slot - home) % size)) % size].all() for home, slot in zip(homes, filled))


@pytest.mark.parametrize("seed", range(3))
def test_doubling_in_small_slices_keeps_every_key_findable(seed, monkeypatch):
    # (many slices: keys whose way from home crosses into the next slice, or wraps round)
    rng = random.Random(seed)
    keys = random_keys(rng, 12000)
    table = StateTable(bits=4, slice_keys=64, grow_slice=64)
    late = []
    put = StateTable._put
    monkeypatch.setattr(StateTable, "_put", lambda self, k, v: (late.append(len(k)), put(self, k, v))[1])
    for start in range(0, 10000, 2500):
        batch = np.array(keys[start:start + 2500], np.uint64)
        table.add(batch, (batch & np.uint64(0xFFFF)).astype(np.uint32))
        assert probes_cross_no_gap(table)
    held, values = table.get(np.array(keys, np.uint64))
    assert held.tolist() == [True] * 10000 + [False] * 2000
    assert values[:10000].tolist() == [key & 0xFFFF for key in keys[:10000]]
    assert sum(late) > 10000  # (besides the keys added, some were put in late while doubling)


def test_values_can_be_changed_in_place_by_slot():
    table = StateTable()
    table.add(np.array([5, 9], np.uint64), np.array([1, 2], np.uint32))
    slot = table.slots(np.array([9], np.uint64))[0]
    table.values[slot] = 7
    assert table.get(np.array([5, 9, 11], np.uint64))[1].tolist() == [1, 7, 0]


def test_a_long_add_or_lookup_looks_up_from_its_work_between_slices():
    # A doubling at 23M states takes seconds: the search looks at its budgets in between.
    table, calls = StateTable(bits=4, slice_keys=100), []
    keys = np.arange(1, 1001, dtype=np.uint64)
    table.add(keys, np.ones(1000, np.uint32), lambda: calls.append(1))
    assert len(calls) >= 10
    calls.clear()
    assert table.get(keys, lambda: calls.append(1))[0].all() and len(calls) == 10

    def stop():
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError):
        table.add(np.arange(2001, 4001, dtype=np.uint64), np.ones(2000, np.uint32), stop)

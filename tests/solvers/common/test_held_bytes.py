"""The bytes a search's dicts really hold (solvers/held_bytes.py): the table as CPython
sizes it, and the doubled table it adds, with the old one still held, when it grows."""

import sys
import tracemalloc

from fewest.solvers import Budget, Control, Stopped
from fewest.solvers.common.held_bytes import dict_bytes, int_bytes

BIG = 1 << 90  # keys the size of a search's states (several digits)
LARGE = 1 << 20  # bytes: a table of 2**16 slots or more


def inserted(items) -> dict:
    """A dict grown one insert at a time (dict(items) would size its table at once)."""
    table: dict = {}
    for key, value in items:
        table[key] = value
    return table


def grown_dict() -> tuple[dict, int, int]:
    """A dict one insert short of growing a table of at least LARGE bytes; with the
    key of that insert, and the table's size."""
    table: dict = {}
    key = BIG
    while True:
        before = sys.getsizeof(table)
        table[key] = 0
        if before >= LARGE and sys.getsizeof(table) > before:
            return inserted((other, 0) for other in range(BIG, key)), key, before
        key += 1


def test_a_dict_costs_its_table_until_a_resize_is_near():
    table, key, before = grown_dict()
    assert sys.getsizeof(table) == before  # (the delete did not shrink it)
    assert dict_bytes(table, 0) == before
    far = inserted(list(table.items())[:-1000])
    assert sys.getsizeof(far) == before and dict_bytes(far, 500) == before
    assert dict_bytes(far, 1001) == 3 * before


def test_near_a_resize_it_counts_at_least_what_the_resize_holds_at_once():
    table, key, before = grown_dict()
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        table[key] = 0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    held_at_once = before + (peak - start)  # the old table and the new one
    assert held_at_once > 2 * before
    assert dict_bytes(table, 0) < held_at_once <= dict_bytes(inserted(list(table.items())[:-1]), 1) + 4096


def test_small_tables_count_their_resize_too():
    table = inserted((BIG - n, 0) for n in range(1, 50))  # (past the first few, which cost bytes only)
    key = BIG
    while True:  # each resize below 2**16 slots, where the indices also grow
        before = dict_bytes(table, 1)
        size = sys.getsizeof(table)
        table[key] = 0
        key += 1
        if sys.getsizeof(table) != size:
            assert before >= size + sys.getsizeof(table)
        if size >= LARGE:
            break


def test_an_int_is_counted_as_the_allocator_rounds_it():
    assert int_bytes(BIG) % 16 == 0 and int_bytes(BIG) >= sys.getsizeof(BIG)
    assert int_bytes(1 << 200) > int_bytes(BIG)


def test_a_control_uses_the_search_s_own_count_when_it_has_one():
    control = Control(Budget(memory_bytes=1000))
    with control.metered(bytes_per_entry=100) as meter:
        meter.stored = 100
        assert control.memory_used() == 10_000
        meter.measure = lambda: 500
        control.check()  # (within budget now: the count replaces stored * bytes_per_entry)
        meter.measure = lambda: 1001
        try:
            control.check()
        except Stopped as stop:
            assert stop.reason == "memory"
        else:
            raise AssertionError("over budget, not stopped")

"""The rotation distance tables: masks and ranks, each table proven by its own equation, built
only for the digit counts a board needs, and a cache file that is never trusted when damaged.

Tables are built in temporary directories, never in the user's cache.
"""

import math
import random

import numpy as np
import pytest

from fewest.engine import rotation as rules
from fewest.solvers import api
from fewest.solvers.rotation import solver
from fewest.solvers.rotation import cache
from fewest.solvers.rotation import distances
from fewest.solvers.rotation import masks as bits
from fewest.solvers.rotation import table as table_module
from fewest.solvers.common.control import Budget
from fewest.solvers.common.solution import Status

BOARD = rules.make_level(int(t) for t in "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3".split())


@pytest.fixture(autouse=True)
def without_the_shipped_table(request, monkeypatch, tmp_path):
    """These tests are about building and caching: hide the k=8 table the package ships."""
    if "shipped" not in request.node.name:
        monkeypatch.setattr(cache, "packaged_path", lambda k: tmp_path / "not-shipped" / cache.cache_name(k))


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """A private table (not the shared one) over its own cache directory."""
    return distances.DistanceTable(tmp_path_factory.mktemp("rotation-tables"))


@pytest.fixture
def fresh_shared(monkeypatch, tmp_path):
    """The process-wide table over an empty cache directory, dropped again afterwards."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    distances.forget_shared_table()
    yield tmp_path
    distances.forget_shared_table()


def cached_counts(directory):
    return sorted(int(p.name[-6:-4]) for p in directory.glob("rotation-distances-k*.bin"))


# ----- masks, moves and ranks ---------------------------------------------------------
@pytest.mark.parametrize("k", range(25))
def test_ranks_number_the_masks_of_each_count_in_order(k):
    masks = table_module.masks_with(k)
    assert masks.size == bits.table_size(k) == math.comb(24, k)
    assert np.all(np.diff(masks) > 0)
    assert all(int(m).bit_count() == k for m in masks[:: max(1, masks.size // 500)])
    assert np.array_equal(table_module.ranks(masks), np.arange(masks.size))
    for r in random.Random(k).sample(range(masks.size), min(masks.size, 50)):
        assert bits.rank(int(masks[r])) == r


def test_scalar_rank_is_the_combinatorial_number_system():
    rng = random.Random(3)
    for _ in range(3000):
        mask = rng.getrandbits(24)
        places = [b for b in range(24) if mask >> b & 1]
        assert bits.rank(mask) == sum(math.comb(b, j) for j, b in enumerate(places, 1))


def test_mask_images_follow_the_engine():
    rng = random.Random(7)
    for _ in range(300):
        state = rules.State(tuple(rng.choice(rules.DIGITS) for _ in range(24)))
        before = solver.digit_masks(state)
        for number, move in enumerate(rules.MOVES):
            after = solver.digit_masks(rules.apply(None, state, move))
            assert {d: bits.image(m, number) for d, m in before.items()} == after
            vector = table_module.move_images(np.array(list(before.values()), np.int64), number)
            assert vector.tolist() == list(after.values())


# ----- the tables are exact -------------------------------------------------------------
@pytest.mark.parametrize("k, deepest", [(8, 14), (9, 13), (12, 10), (16, 8), (24, 0)])
def test_table_satisfies_its_defining_equation(tables, k, deepest):
    """dist = 0 exactly on the goal masks, else 1 + the least over the eight moves, and finite
    everywhere: its only solution is the true distance."""
    dist = np.frombuffer(tables.raw(k), dtype=np.uint8)
    masks = table_module.masks_with(k)
    assert dist.size == masks.size
    best = np.full(masks.shape, 255, dtype=np.uint8)
    for move in range(8):
        best = np.minimum(best, dist[table_module.ranks(table_module.move_images(masks, move))])
    goal = (masks & bits.CENTRE_MASK) == bits.CENTRE_MASK
    assert np.array_equal(dist == 0, goal)
    assert int(dist.max()) == deepest < bits.UNREACHABLE
    assert np.array_equal(dist[~goal].astype(np.int16), best[~goal].astype(np.int16) + 1)


def test_counts_below_eight_have_no_table(tables):
    with pytest.raises(ValueError):
        table_module.build(7)
    before = tables.loaded()
    tables.require([0, 3, 7])
    assert tables.loaded() == before
    assert tables.distance((1 << 7) - 1) == bits.UNREACHABLE
    assert tables.board_distance([]) == bits.UNREACHABLE


def test_only_the_counts_a_board_needs_are_built(fresh_shared):
    solver.warm_up(None)
    assert cached_counts(fresh_shared) == [8] and distances.shared_table().loaded() == [8]
    rng = random.Random(1)
    level = solver.random_board(rng, (9, 7, 8))
    found = api.solve("rotation", level)
    assert found.status is Status.OPTIMAL
    assert cached_counts(fresh_shared) == [8, 9]  # the 7-cell digit needs nothing
    solver.warm_up(solver.random_board(rng, (4, 10, 10)))
    assert cached_counts(fresh_shared) == [8, 9, 10] == distances.shared_table().loaded()


def test_a_warm_up_asked_to_stop_keeps_no_table(fresh_shared):
    api.warm_up("rotation", None, should_stop=lambda: True)
    assert cached_counts(fresh_shared) == [] and distances.shared_table().loaded() == []


def test_cancel_while_building_is_honest(fresh_shared):
    stopped = api.solve("rotation", BOARD, should_stop=lambda: True)
    assert stopped.status is Status.CANCELLED and stopped.moves == ()
    out_of_time = api.solve("rotation", BOARD, budget=Budget(seconds=0.0))
    assert out_of_time.status is Status.BUDGET
    assert cached_counts(fresh_shared) == [] and distances.shared_table().loaded() == []


# ----- the cache ------------------------------------------------------------------------
def test_cache_file_holds_the_table(tables, tmp_path):
    path = tmp_path / cache.cache_name(8)
    cache.write_cache(path, 8, tables.raw(8))
    assert cache.read_cache(path, 8) == tables.raw(8)
    assert not list(tmp_path.glob("*.tmp"))


def test_damaged_cache_files_are_never_trusted(tables, tmp_path):
    path = tmp_path / cache.cache_name(8)
    cache.write_cache(path, 8, tables.raw(8))
    good = path.read_bytes()
    header_end = good.index(b"\n", len(cache.MAGIC)) + 1
    cache.write_cache(tmp_path / "nine.bin", 9, tables.raw(9))
    damaged = {
        "truncated": good[: len(good) // 2],
        "header only": good[:header_end],
        "flipped payload byte": good[:-100] + bytes([good[-100] ^ 0x40]) + good[-99:],
        "trailing data": good + b"\x00",
        "wrong digest": good.replace(b'"sha256": "', b'"sha256": "0', 1),
        "other rules": good.replace(b'"rules": "', b'"rules": "x', 1),
        "older format": good.replace(cache.MAGIC, b"fewest rotation distances 1\n", 1),
        "table of another count": (tmp_path / "nine.bin").read_bytes(),
        "count relabelled": good.replace(b'"cells": 8', b'"cells": 9', 1),
        "not json": good[:30] + b"{" + good[31:],
        "garbage": b"\x00" * 1000,
        "empty": b"",
    }
    for what, data in damaged.items():
        assert data != good, what
        path.write_bytes(data)
        assert cache.read_cache(path, 8) is None, what
    assert cache.read_cache(tmp_path / "missing.bin", 8) is None


def test_corrupted_cache_is_rebuilt_and_rewritten(tables, tmp_path):
    path = tmp_path / cache.cache_name(8)
    path.write_bytes(cache.MAGIC + b"{}\nnot a table")
    assert cache.load_or_build(8, tmp_path) == tables.raw(8)
    assert cache.read_cache(path, 8) == tables.raw(8)


def test_environment_variable_chooses_the_cache_directory(monkeypatch, tmp_path):
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    assert cache.cache_dir() == tmp_path
    monkeypatch.delenv(cache.CACHE_ENV)
    assert cache.cache_dir().name  # the platform's user cache directory


def test_the_shipped_k8_table_is_intact_and_equals_a_fresh_build():
    from fewest.solvers.rotation.cache import packaged_path, read_cache
    from fewest.solvers.rotation.table import build

    shipped = read_cache(packaged_path(8), 8)
    assert shipped is not None, "solvers/data/ must ship the k=8 table in the checked format"
    assert shipped == build(8).tobytes()


def test_a_fresh_install_answers_8_8_8_boards_from_the_shipped_table(tmp_path, monkeypatch):
    def no_build(*args, **kwargs):
        raise AssertionError("the shipped k=8 table should have been used")

    monkeypatch.setattr(table_module, "build", no_build)
    raw = cache.load_or_build(8, tmp_path / "empty-cache")
    assert len(raw) == math.comb(24, 8)
    assert cache.read_cache(cache.packaged_path(8), 8) == raw


"""The pull table: exact pushes left near the goal (a breadth-first search backwards over
pulls), a lower bound beyond its radius, deadlocks once complete; grown in pieces it is
the same table; the push search proves the same optimum with it."""

import random
import threading

import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control
from fewest.solvers import sokoban_search
from fewest.solvers.sokoban_board import compile_board
from fewest.solvers.sokoban_pulls import PullTable
from fewest.solvers.sokoban_pulls_apart import PullsApart, spare_core
from fewest.solvers.sokoban_tables import UNREACHABLE
from tests.sokoban_support import checked, lexicographic_optimum, microban, positions, random_rooms, solve


def table_for(lvl: S.Level, most: int = 10**9) -> PullTable:
    board = compile_board(lvl)
    table = PullTable(board, board.mask(lvl.boxes) & board.floor)
    table.grow(Control(), None, most)
    return table


def bound_at(table: PullTable, state: S.State) -> int:
    board = table.board
    return table.bound(board.mask(state.boxes) & board.floor, board.inside(state.player))


@pytest.mark.parametrize("seed", range(400, 404))
def test_complete_it_is_exact_and_its_gaps_are_deadlocks(seed):
    rng = random.Random(seed)
    for room in random_rooms(seed, 10):
        table = table_for(room)
        assert table.complete
        for state in positions(room, rng, 6):
            best = lexicographic_optimum(room, "pushes", state)
            assert bound_at(table, state) == (UNREACHABLE if best is None else best[0])


@pytest.mark.parametrize("seed", range(410, 414))
def test_cut_short_it_is_exact_within_its_radius_and_a_bound_beyond(seed):
    rng = random.Random(seed)
    for room in random_rooms(seed, 10):
        table = table_for(room, most=12)
        for state in positions(room, rng, 6):
            best = lexicographic_optimum(room, "pushes", state)
            value = bound_at(table, state)
            if table.complete:
                assert value == (UNREACHABLE if best is None else best[0])
            elif best is not None and best[0] <= table.radius:
                assert value == best[0]
            else:
                assert value == table.radius + 1 <= (UNREACHABLE if best is None else best[0])


def test_grown_in_pieces_it_is_the_same_table():
    lvl, _ = microban(30)[29]
    whole = table_for(lvl, most=5000)
    board = compile_board(lvl)
    pieces = PullTable(board, board.mask(lvl.boxes) & board.floor)
    for most in range(100, 5001, 700):
        pieces.grow(Control(), None, most)
    pieces.grow(Control(), None, 5000)
    assert pieces.table == whole.table and pieces.radius == whole.radius >= 5
    stopped = PullTable(board, board.mask(lvl.boxes) & board.floor)
    stopped.grow(Control(), 0.0, 5000)  # no time at all: nothing but the solved positions
    assert stopped.radius == 0 and set(stopped.table.values()) == {0}


def wait_for_the_child(monkeypatch, apart: bool) -> None:
    """Grow the table beside the search (`apart`) or in it; a table grown apart is taken
    at the search's first look (the search waits for it), so the tests see it used."""
    monkeypatch.setattr(sokoban_search, "spare_core", lambda: apart)
    monkeypatch.setattr(PullsApart, "ready", lambda self: self._receiver.poll(None))


@pytest.mark.parametrize("budget,apart", [({}, False), ({"seconds": 60.0}, False), ({"seconds": 60.0}, True)])
def test_the_push_search_proves_the_same_counts_with_it(monkeypatch, budget, apart):
    monkeypatch.setattr(sokoban_search, "PULLS_AFTER", 1)  # built on the first expansion
    monkeypatch.setattr(sokoban_search, "PULLS_APART_AFTER", 1)
    wait_for_the_child(monkeypatch, apart)
    asked = []
    real_bound = PullTable.bound
    monkeypatch.setattr(PullTable, "bound", lambda self, *a: asked.append(1) or real_bound(self, *a))
    for lvl, row in microban(40):  # (an overestimate in the table shows on #34 and #36)
        moves, pushes = checked(lvl, solve(lvl, "pushes", **budget))
        assert pushes == int(row["min_pushes"]), row["level"]
    assert asked


def test_grown_apart_it_is_the_same_table_and_grows_no_further():
    lvl = microban(20)[19][0]
    board = compile_board(lvl)
    start = board.mask(lvl.boxes) & board.floor
    apart = PullsApart(board, start, 30.0, 10**9, 0)
    sent = apart.take()  # (waits for it)
    assert sent.complete and sent.table == table_for(lvl).table
    with pytest.raises(ValueError):
        sent.grow(Control(), None, 10)
    assert PullsApart(board, start, 30.0, 10**9, 10**6).take() is None  # never past that matching


def test_no_child_process_from_a_thread():
    found = []
    worker = threading.Thread(target=lambda: found.append(spare_core()))
    worker.start()
    worker.join()
    assert found == [False]


@pytest.mark.parametrize("apart", [False, True])
def test_with_a_time_budget_a_table_that_stays_shallow_is_dropped_halfway(monkeypatch, apart):
    if apart:
        monkeypatch.setattr(sokoban_search, "PULLS_APART_AFTER", 1)
        wait_for_the_child(monkeypatch, True)
        monkeypatch.setattr(sokoban_search, "PULLS_SHARE", 0.0002)
        asked = []
        real_bound = PullTable.bound
        monkeypatch.setattr(PullTable, "bound", lambda self, *a: asked.append(1) or real_bound(self, *a))
        lvl, row = microban(36)[35]
        assert checked(lvl, solve(lvl, "pushes", seconds=60.0))[1] == int(row["min_pushes"])
        assert not asked  # dropped in the child: never asked
        monkeypatch.setattr(sokoban_search, "PULLS_SHARE", 0.25)  # ample: it completes
        lvl, row = microban(6)[5]  # (searched long enough to look for the table: 235 expansions)
        assert checked(lvl, solve(lvl, "pushes", seconds=60.0))[1] == int(row["min_pushes"])
        assert asked  # complete at once, sent and asked
        return
    wait_for_the_child(monkeypatch, False)
    monkeypatch.setattr(sokoban_search, "PULLS_AFTER", 1)
    monkeypatch.setattr(sokoban_search, "PULLS_SHARE", 0.0002)  # 6 ms a half: a few layers at most
    grown, asked = [], []
    real_grow, real_bound = PullTable.grow, PullTable.bound
    monkeypatch.setattr(PullTable, "grow", lambda self, *a: grown.append(self) or real_grow(self, *a))
    monkeypatch.setattr(PullTable, "bound", lambda self, *a: asked.append(1) or real_bound(self, *a))
    lvl, row = microban(36)[35]  # the start's matching is far beyond a few layers of pulls
    assert checked(lvl, solve(lvl, "pushes", seconds=60.0))[1] == int(row["min_pushes"])
    assert len(grown) == 1 and not grown[0].complete and not asked  # one half, then never asked
    lvl, row = microban(1)[0]  # a small level: complete at once, kept and asked
    grown.clear()
    assert checked(lvl, solve(lvl, "pushes", seconds=60.0))[1] == int(row["min_pushes"])
    assert len(grown) == 2 and grown[0].complete and asked

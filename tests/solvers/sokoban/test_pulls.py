"""The pull table: exact pushes left near the goal (a breadth-first search backwards over
pulls), a lower bound beyond its radius, deadlocks once complete; grown in pieces it is
the same table. Each holds for both kinds, the dict and the compact (numpy) one, and the
two are the same table. (The push search proves the same optimum with it, grown in each
way: test_switch_matrix.py.)"""

import pickle
import random
import threading
from math import comb

import numpy as np
import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control, Stopped
from fewest.solvers.sokoban.pulls import table as sokoban_pulls
from fewest.solvers.sokoban.pulls import apart as sokoban_pulls_apart
from fewest.solvers.sokoban.pulls import compact as sokoban_pulls_compact
from fewest.solvers.sokoban.pulls import policy as pull_policy
from fewest.solvers.sokoban.searches import push as sokoban_search
from fewest.solvers.sokoban.board.board import compile_board
from fewest.solvers.sokoban.pulls.interface import PullTableLike
from fewest.solvers.sokoban.pulls.table import CompactPullTable, PullTable, pull_table
from fewest.solvers.common.processes import spare_core
from fewest.solvers.sokoban.pulls.apart import PullsApart
from fewest.solvers.sokoban.pulls.compact import fits
from fewest.solvers.sokoban.board.tables import UNREACHABLE, build_tables
from fewest.solvers.sokoban.tuning import SokobanTuning
from tests.sokoban_support import (
    checked,
    level,
    lexicographic_optimum,
    microban,
    positions,
    pulled_away,
    random_rooms,
    room_level,
    search_position,
    solve,
    symmetric_room,
    tuned,
)

KINDS = {"dict": PullTable, "compact": CompactPullTable}


def table_for(lvl: S.Level, most: int = 10**9, kind: str = "dict", **sizes) -> PullTableLike:
    """`sizes`: the compact table's own (span, sample, seen_most, block_most)."""
    board = compile_board(lvl)
    table = KINDS[kind](board, board.mask(lvl.boxes) & board.floor, **sizes)
    table.grow(Control(), None, most)
    return table


def wide_room(rng: random.Random) -> S.Level | None:
    """A long low room (34 to 40 wide): its rows take 3 or 4 words, a step up or down more
    than half a word, so the compact table's shifts cross words whole and in part."""
    width, height = rng.randint(34, 40), rng.randint(6, 7)
    walls = {(r, c) for r in range(height) for c in range(width)}
    walls -= {(r, c) for r in range(1, height - 1) for c in range(1, width - 1)}
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]
    walls.update(cell for cell in inner if rng.random() < 0.2)
    open_cells = [cell for cell in inner if cell not in walls]
    goals = rng.sample(open_cells, 2)
    boxes, player = pulled_away(rng, walls, goals, open_cells, (5, 40))
    return room_level(width, height, walls, goals, boxes, player)


def bound_at(table: PullTable, state: S.State) -> int:
    return table.bound(*search_position(table.board, state))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(400, 404))
def test_complete_it_is_exact_and_its_gaps_are_deadlocks(seed, kind):
    rng = random.Random(seed)
    for room in random_rooms(seed, 10):
        table = table_for(room, kind=kind)
        assert table.complete
        for state in positions(room, rng, 6):
            best = lexicographic_optimum(room, "pushes", state)
            assert bound_at(table, state) == (UNREACHABLE if best is None else best[0])


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(410, 414))
def test_cut_short_it_is_exact_within_its_radius_and_a_bound_beyond(seed, kind):
    rng = random.Random(seed)
    for room in random_rooms(seed, 10):
        table = table_for(room, most=12, kind=kind)
        for state in positions(room, rng, 6):
            best = lexicographic_optimum(room, "pushes", state)
            value = bound_at(table, state)
            if table.complete:
                assert value == (UNREACHABLE if best is None else best[0])
            elif best is not None and best[0] <= table.radius:
                assert value == best[0]
            else:
                assert value == table.radius + 1 <= (UNREACHABLE if best is None else best[0])


def same_table(one: PullTableLike, other: PullTableLike) -> bool:
    """The same entries (a dict's looked up in the other), radius and completeness."""
    if (len(one), one.radius, one.complete) != (len(other), other.radius, other.complete):
        return False
    if isinstance(one, CompactPullTable) and isinstance(other, CompactPullTable):
        return np.array_equal(one._table.keys(), other._table.keys()) and np.array_equal(
            one._table.values(), other._table.values()
        )
    if isinstance(one, CompactPullTable):
        one, other = other, one
    shift = one.shift
    return all(other.bound(key >> shift, key & ((1 << shift) - 1)) == depth for key, depth in one.table.items())


def layers_up_to(table: PullTable, radius: int) -> PullTable:
    """The dict table cut to its complete layers up to `radius` (as the compact one keeps)."""
    table.table = {key: depth for key, depth in table.table.items() if depth <= radius}
    table.radius, table.beyond, table.complete = radius, radius + 1, False
    return table


def dict_table_like(room: S.Level, compact: CompactPullTable, most: int) -> PullTable:
    """The dict table for `room` with the compact one's layers: all of them when it is
    complete, else grown to `most` entries and cut to its radius."""
    if compact.complete:
        return table_for(room, kind="dict")
    return layers_up_to(table_for(room, most, "dict"), compact.radius)


@pytest.mark.parametrize("draw", [pytest.param(None, marks=pytest.mark.slow), wide_room])  # (None: with Microban)
def test_compact_it_is_the_dict_table(draw):
    rooms = random_rooms(420, 12, draw)
    if draw is None:  # and on Microban: box cells up to 64 (#93), boxes up to 16 (#144)
        rooms += [lvl for lvl, _ in microban(40)[::3]] + [microban(144)[n][0] for n in (92, 143)]
    for room in rooms:
        board = compile_board(room)
        start = board.mask(room.boxes) & board.floor
        assert fits(board, start)
        # (10,000 entries: #93 and #144 stop short of complete; 40,000 took 4 s of the 6. The dict
        # table, grown to a count and not by whole layers, needs over twice that to match)
        compact = table_for(room, 10_000, "compact")
        assert draw is None or compact._words >= 3
        assert same_table(dict_table_like(room, compact, 25_000), compact), room


def test_compact_in_small_blocks_and_spans_it_is_the_same_table():
    """Blocks cut and layers closed a few keys at a time (as the big tables are)."""
    for room in random_rooms(430, 6) + [microban(30)[29][0]]:
        compact = table_for(room, 20_000, "compact", block_most=40, span=64, sample=4)
        assert len(compact._table._keys) > 1 or len(compact) <= 40
        assert same_table(dict_table_like(room, compact, 40_000), compact), room


def test_compact_stopped_while_closing_a_layer_it_grows_on_to_the_same_table(monkeypatch):
    sizes = {"block_most": 40, "span": 16, "sample": 2}
    lvl = microban(6)[5][0]
    whole = table_for(lvl, 10**9, "compact", **sizes)
    board = compile_board(lvl)
    table = CompactPullTable(board, board.mask(lvl.boxes) & board.floor, **sizes)
    closing = [False]
    real_close = CompactPullTable._close_layer

    def close(self, control):
        closing[0] = True
        try:
            real_close(self, control)
        finally:
            closing[0] = False

    monkeypatch.setattr(CompactPullTable, "_close_layer", close)
    stopped = set()  # the radii stopped at: once each, at the 2nd look at the budget in a closing

    def should_stop() -> bool:
        if not closing[0] or table.radius in stopped:
            return False
        looks.append(1)
        if len(looks) == 2:
            stopped.add(table.radius)
        return len(looks) == 2

    for _ in range(100):
        looks = []
        try:
            table.grow(Control(should_stop=should_stop), None, 10**9)
            break
        except Stopped:
            pass
    assert table.complete and len(stopped) > 5 and same_table(table, whole)


def test_compact_its_numbers_are_one_to_one():
    lvl = microban(93)[92][0]  # 8 boxes on 64 cells
    board = compile_board(lvl)
    table = CompactPullTable(board, board.mask(lvl.boxes) & board.floor)
    rng = random.Random(5)
    cells = list(table._live_index)
    sets = {frozenset(rng.sample(cells, 8)) for _ in range(3000)}
    packed = np.array([sum(1 << table._live_index[c] for c in s) for s in sets], dtype=np.uint64)
    numbers = table._numbers(packed)
    # the combinatorial number system: the i-th lowest box on live cell j adds C(j, i)
    defined = [sum(comb(j, i) for i, j in enumerate(sorted(table._live_index[c] for c in s), 1)) for s in sets]
    assert [int(n) for n in numbers] == defined
    assert [table._number(sum(1 << c for c in s)) for s in sets] == defined
    assert len(set(numbers.tolist())) == len(sets) and int(numbers.max()) < 2**64 >> table._rank_bits
    off = next(c for c in range(board.size) if board.floor >> c & 1 and c not in table._live_index)
    assert all(table._number(sum(1 << c for c in sorted(s)[1:]) | 1 << off) is None for s in list(sets)[:100])


def test_a_board_too_big_to_pack_keeps_the_dict():
    rows = ["#" * 13] + ["#" + " " * 11 + "#"] * 10 + ["#" * 13]
    rows[5] = "#    $.@    #"
    lvl = level("\n".join(rows))
    board = compile_board(lvl)
    start = board.mask(lvl.boxes) & board.floor
    assert not fits(board, start)  # 72 cells a pull can put a box on
    assert isinstance(pull_table(board, start), PullTable)
    small = microban(1)[0][0]
    small_board = compile_board(small)
    assert isinstance(pull_table(small_board, small_board.mask(small.boxes) & small_board.floor), CompactPullTable)


@pytest.mark.parametrize("kind", KINDS)
def test_both_kinds_are_pull_tables_to_their_users(kind):
    """Each class declares the interface its users see (PullTableLike) and has all of it;
    only the dict's entries are let go of a step at a time when a search ends."""
    table = table_for(microban(5)[4][0], 500, kind)
    assert PullTableLike in KINDS[kind].__mro__ and isinstance(table, PullTableLike)
    assert [type(part) for part in table.big_containers()] == ([dict] if kind == "dict" else [])


@pytest.mark.parametrize("kind", KINDS)
def test_grown_in_pieces_it_is_the_same_table(kind):
    lvl, _ = microban(30)[29]
    whole = table_for(lvl, 5000, kind)
    board = compile_board(lvl)
    pieces = KINDS[kind](board, board.mask(lvl.boxes) & board.floor)
    for most in range(100, 5001, 700):
        pieces.grow(Control(), None, most)
    pieces.grow(Control(), None, 5000)
    assert same_table(pieces, whole) and pieces.radius >= 5
    stopped = KINDS[kind](board, board.mask(lvl.boxes) & board.floor)
    stopped.grow(Control(), 0.0, 5000)  # no time at all: nothing but the solved positions
    assert stopped.radius == 0 and {stopped.bound(board.goals, cell) for cell in range(board.size) if board.floor >> cell & 1 and not board.goals >> cell & 1} == {0}


@pytest.mark.parametrize("kind", KINDS)
def test_done_growing_it_lets_go_of_its_frontier_and_answers_the_same(kind):
    lvl = microban(93)[92][0]
    table = table_for(lvl, 30_000, kind)
    asked = list(positions(lvl, random.Random(7), 40))
    before = [bound_at(table, state) for state in asked], len(table), table.radius, table.beyond
    held = table.nbytes()
    table.stop_growing()
    assert ([bound_at(table, state) for state in asked], len(table), table.radius, table.beyond) == before
    with pytest.raises(ValueError):
        table.grow(Control(), None, 10**9)
    assert held > table.nbytes() and held < table.bytes_per_entry * len(table)
    if kind == "compact":  # the frontier was most of it; a key and a depth an entry are left
        assert held > 2 * table.nbytes() and table.nbytes() < 10 * len(table) + 2**16


@pytest.mark.slow
def test_the_dict_tables_memory_is_not_underestimated():
    """What a growing dict table says it holds against what it allocated (its keys, ints
    and frontier), on a big board with big ints (620 cells: a flat 150 bytes an entry
    said three quarters of it; on Microban II #130, half)."""
    import tracemalloc

    wide = "\n".join(["#" * 60, *["#" + " " * 58 + "#"] * 5, "# $$$$$$$$ @ ........" + " " * 39 + "#", "#" * 60])
    board = compile_board(level(wide))
    tracemalloc.start()
    table = PullTable(board, board.mask(level(wide).boxes) & board.floor)
    table.grow(Control(), None, 1_000)  # (1,145 entries, 14 pulls deep; tracemalloc makes each allocation dear)
    allocated = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert 0.9 * allocated <= table.nbytes() < 2 * allocated
    assert allocated <= table.bytes_per_entry * len(table)  # what its size limit counts on


@pytest.mark.slow
@pytest.mark.parametrize("symmetric", [True, False])
def test_the_compact_tables_peak_while_growing_is_within_its_size_limit(monkeypatch, symmetric):
    """The compact table's size limit counts entries (what a layer made, with its
    duplicates) at `bytes_per_entry`, besides a span's copies (`fixed_bytes`): its peak
    while growing to the limit (a layer made and closed into the next) stays within that,
    on Microban #144 (three words a row), 300,000 entries at most (16 to 19 pulls deep)."""
    import tracemalloc

    if not symmetric:
        plain(monkeypatch)
    lvl = microban(144)[143][0]
    board = compile_board(lvl)
    table = CompactPullTable(board, board.mask(lvl.boxes) & board.floor, span=1 << 14)  # (the entries' share shows)
    most = 300_000
    tracemalloc.start()
    table.grow(Control(), None, most)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert table.radius >= 16 and len(table) < most
    assert peak <= table.fixed_bytes + table.bytes_per_entry * most


@pytest.mark.slow
@pytest.mark.parametrize("symmetric", [True, False])
def test_grown_a_layer_at_a_time_within_a_memory_its_peak_stays_within(monkeypatch, symmetric):
    """`most_within`, asked again after each layer (as the tie-break grows its table,
    sokoban_tie_break.py): what the table holds and makes next, counted from what it holds
    now, keeps its peak while growing within the memory given (Microban #144, stopped by
    it 16 to 18 pulls deep, 145k to 170k entries)."""
    import tracemalloc

    if not symmetric:
        plain(monkeypatch)
    lvl = microban(144)[143][0]
    board = compile_board(lvl)
    table = CompactPullTable(board, board.mask(lvl.boxes) & board.floor, span=1 << 14)
    memory = 16 << 20
    tracemalloc.start()
    while True:
        radius = table.radius
        table.grow(Control(), None, table.most_within(memory), until=radius + 1)
        if table.radius == radius:
            break
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert not table.complete and table.radius >= 15
    assert peak <= memory


@pytest.mark.parametrize("kind", KINDS)
def test_grown_a_layer_at_a_time_it_counts_what_it_already_holds(kind):
    """Given the memory of four fifths of the whole table (Microban #36, 12,090 entries, 66
    pulls deep: its last layers small), `most_within` stops it short: what it holds counts,
    not only what a layer makes."""
    lvl = microban(36)[35][0]
    board = compile_board(lvl)
    whole = table_for(lvl, kind=kind)
    assert whole.complete and len(whole) == 12_090
    table = KINDS[kind](board, board.mask(lvl.boxes) & board.floor)
    memory = table.fixed_bytes + whole.nbytes() * 4 // 5
    while True:
        radius = table.radius
        table.grow(Control(), None, table.most_within(memory), until=radius + 1)
        if table.radius == radius:
            break
    assert not table.complete and len(table) > len(whole) // 3


@pytest.mark.parametrize("kind", KINDS)
def test_a_search_asked_to_keep_its_table_hands_it_over_still_growing(monkeypatch, kind):
    """push_search's keep_pulls: the table grown in the search's process (here in halves,
    with a time budget and no spare core, and held to 500 entries: dropped halfway) comes
    back with its frontier, taken up or not, and grows on to the table a fresh one grows to."""
    monkeypatch.setattr(pull_policy, "spare_core", lambda: False)
    real = pull_policy.grown_in_halves
    monkeypatch.setattr(pull_policy, "grown_in_halves", lambda table, control, half, most, *args, **kwargs: real(
        table, control, half, 500, *args, **kwargs))
    use_kind(monkeypatch, kind)
    board, boxes, (table,) = kept_by_the_pushes_alone(36, tuned(pulls={"after": 1}))
    assert isinstance(table, KINDS[kind]) and table.can_grow and 0 < table.radius and not table.complete
    fresh = KINDS[kind](board, boxes)
    for grown in (table, fresh):
        grown.grow(Control(), None, 10**9)
    assert table.complete and fresh.complete
    assert len(table) == len(fresh) == 12_090 and table.radius == fresh.radius


def test_a_table_grown_in_a_child_beside_the_search_is_not_handed_over(monkeypatch):
    """What the child grew comes back without its frontier (it cannot grow on), and the
    search's own copy was never grown: keep_pulls stays empty (the tie-break grows its own)."""
    if not spare_core():
        pytest.skip("needs two cores")
    wait_for_the_child(monkeypatch, True)
    assert kept_by_the_pushes_alone(36, tuned(pulls={"apart_after": 1}))[2] == []


def kept_by_the_pushes_alone(number: int, tuning: SokobanTuning) -> tuple:
    """(board, start boxes, what push_search put in keep_pulls) after proving the pushes
    alone on Microban `number` with a time budget (their count checked)."""
    lvl, row = microban(number)[number - 1]
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    kept: list = []
    control = Control(Budget(seconds=60))
    found = sokoban_search.push_search(
        build_tables(board), boxes, player, control, "pushes", pushes_only=True, keep_pulls=kept, tuning=tuning
    )
    assert found[1] // sokoban_search.MAJOR == int(row["min_pushes"])
    return board, boxes, kept


def use_kind(monkeypatch, kind: str) -> type:
    """Make the search build tables of this kind; the class whose methods to watch."""
    monkeypatch.setattr(sokoban_pulls, "fits", lambda *a: kind == "compact")
    return KINDS[kind]


def wait_for_the_child(monkeypatch, apart: bool) -> None:
    """Grow the table beside the search (`apart`) or in it; a table grown apart is taken
    at the search's first look (the search waits for it), so the tests see it used."""
    monkeypatch.setattr(pull_policy, "spare_core", lambda: apart)
    monkeypatch.setattr(PullsApart, "ready", lambda self: self._receiver.poll(None))


def test_a_node_raised_by_the_table_is_asked_again_once_the_table_has_grown(monkeypatch):
    """Grown in step with the search, a layer at a time (so the run is the same on any
    machine): a node the table raised and that comes out after the table grew is asked
    again (else a shallow table's bound stays with it). Microban #36: 1,809 positions
    are asked at more than one radius; 20 (nodes opened again) without."""
    real_grow, real_bound = CompactPullTable.grow, CompactPullTable.bound
    monkeypatch.setattr(CompactPullTable, "grow", lambda self, control, seconds, most, limit: real_grow(
        self, control, None, most, until=self.radius + 1, limit=limit))
    radii: dict = {}
    monkeypatch.setattr(CompactPullTable, "bound", lambda self, boxes, player: radii.setdefault(
        (boxes, player), set()).add(self.radius) or real_bound(self, boxes, player))
    lvl, row = microban(36)[35]
    assert checked(lvl, solve(lvl, "pushes", tuning=tuned(pulls={"after": 1})))[1] == int(row["min_pushes"])
    assert sum(len(seen) > 1 for seen in radii.values()) > 900


@pytest.mark.parametrize("kind", KINDS)
def test_grown_apart_it_is_sent_a_layer_at_a_time_then_whole_and_grows_no_further(kind):
    lvl = microban(20)[19][0]
    board = compile_board(lvl)
    start = board.mask(lvl.boxes) & board.floor
    apart = PullsApart(KINDS[kind](board, start), 30.0, 10**9, 0, start)
    messages = [apart._receiver.recv()]  # (each as it was sent: `take` keeps the newest)
    while not messages[-1][1]:
        messages.append(apart._receiver.recv())
    apart.close()
    assert messages[-1][0] is not None  # (complete: the last word brings it)
    sent = [table for table, _ in messages]
    assert len(sent) >= 3 and all(one.radius < other.radius for one, other in zip(sent, sent[1:]))
    assert all(len(other) >= 1.5 * len(one) for one, other in zip(sent, sent[1:-1]))
    assert sent[-1].complete and same_table(sent[-1], table_for(lvl, kind=kind))
    for table in sent[:-1]:  # a layer at a time, each the whole table to its radius
        assert same_table(layers_up_to(table_for(lvl), table.radius), table)
    for table in sent:
        with pytest.raises(ValueError):
            table.grow(Control(), None, 10)
    again, taken = PullsApart(KINDS[kind](board, start), 30.0, 10**9, 0, start), []
    while not again.finished:  # each take: the newest sent by then
        taken.append(again.take())
    assert [table.radius for table in taken] == sorted({table.radius for table in taken})
    assert taken[-1].complete and same_table(taken[-1], sent[-1])
    assert PullsApart(KINDS[kind](board, start), 30.0, 10**9, 10**6, start).take() is None  # never past that matching


class ScriptedPipe:
    """The receiving end of a child's pipe, with its words written in advance."""

    def __init__(self, words: list) -> None:
        self.words = words

    def recv(self):
        if not self.words:
            raise EOFError
        return self.words.pop(0)

    def poll(self, timeout=None) -> bool:
        return bool(self.words)

    def close(self) -> None:
        pass


class GoneChild:
    def is_alive(self) -> bool:
        return False

    def join(self) -> None:
        pass


def scripted(words: list) -> PullsApart:
    apart = PullsApart.__new__(PullsApart)  # (no child: its words are scripted)
    apart._receiver, apart._child, apart.finished = ScriptedPipe(words), GoneChild(), False
    return apart


def test_a_take_keeps_the_newest_table_through_a_last_word_without_one():
    one, two = (PullTable(compile_board(microban(1)[0][0]), 0) for _ in range(2))
    apart = scripted([(one, False), (two, False), (None, True)])
    assert apart.take() is two and apart.finished  # (all three were waiting)
    apart = scripted([(one, False)])
    assert apart.take() is one and not apart.finished
    apart._receiver.words += [(None, True)]
    assert apart.take() is None and apart.finished  # (the search keeps `one`)
    apart = scripted([(one, False)])
    apart.take()
    assert apart.take() is None and apart.finished  # the child died: no more words


def test_a_table_growing_apart_counts_in_the_memory_budget(monkeypatch):
    """The budget is for both processes: while the child may still be growing its share,
    the search counts that share as held (else the two together could pass the budget)."""
    from fewest.solvers.sokoban.board.tables import build_tables

    tuning = tuned(pulls={"apart_after": 1})
    monkeypatch.setattr(pull_policy, "spare_core", lambda: True)
    monkeypatch.setattr(PullsApart, "ready", lambda self: False)  # still growing
    lvl = microban(93)[92][0]
    board = compile_board(lvl)
    memory = 256 << 20
    for helper in (True, False):
        if not helper:
            monkeypatch.setattr(pull_policy, "spare_core", lambda: False)
        control = Control(Budget(seconds=60.0, nodes=3_000, memory_bytes=memory))
        with pytest.raises(Stopped) as stopped:
            sokoban_search.push_search(
                build_tables(board), board.mask(lvl.boxes) & board.floor, board.inside(lvl.player), control, "pushes",
                tuning=tuning,
            )
        counted = stopped.value.report.peak_bytes  # (what the search told its memory check it held)
        assert (counted >= tuning.pulls.memory * memory * 0.9) is helper


def test_off_the_main_thread_the_table_is_grown_apart_all_the_same(monkeypatch):
    """In a worker thread (the app's hints) the child comes from a server process and makes
    its own table from the board and the start (a table pickles without what it grows
    from): the counts are the same, and tables it sent are used."""
    tuning = tuned(pulls={"apart_after": 1})
    wait_for_the_child(monkeypatch, True)
    made, taken = [], []
    real_init, real_take = PullsApart.__init__, PullsApart.take

    def init(self, *args):
        real_init(self, *args)
        made.append(type(self._child).__name__)

    monkeypatch.setattr(PullsApart, "__init__", init)
    monkeypatch.setattr(PullsApart, "take", lambda self: taken.append(real_take(self)) or taken[-1])
    counts = []

    def work():
        for lvl, row in microban(40)[30:]:
            counts.append((checked(lvl, solve(lvl, "pushes", tuning=tuning, seconds=60.0))[1], int(row["min_pushes"])))

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    assert len(counts) == 10 and all(got == want for got, want in counts)
    assert made and set(made) == {"ForkServerProcess"}
    assert any(table is not None and len(table) > 1 for table in taken)


class Clock:
    """A control's clock that moves only when a stand-in table says so."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def check(self) -> None:
        pass


class TimedLayers:
    """A stand-in table whose layer k takes costs[k] seconds of `clock` to pull."""

    def __init__(self, clock: Clock, costs: list[float]) -> None:
        self.clock, self.costs, self.spent = clock, costs, 0.0  # (spent: on the layer under way)
        self.radius, self.beyond, self.complete = 0, 1, False

    def __len__(self) -> int:
        return 10**self.radius

    def grow(self, control, seconds: float | None, most: int, until: int | None = None, limit=None) -> None:
        deadline = float("inf") if seconds is None else self.clock.seconds + seconds
        while self.radius < len(self.costs):
            need = self.costs[self.radius] - self.spent
            if self.clock.seconds + need > deadline:
                self.spent += deadline - self.clock.seconds
                self.clock.seconds = deadline
                return
            self.clock.seconds += need
            self.spent, self.radius, self.beyond = 0.0, self.radius + 1, self.radius + 2
            if until is not None and self.radius >= until:
                return
        self.complete, self.beyond = True, UNREACHABLE

    def stop_growing(self) -> None:
        pass


class Sent(list):
    def send(self, word) -> None:
        self.append(word)


# (seconds per layer; a matching of 5 and halves of 10 s: 4 layers at 4 s, the table's
# bound then 5; the fifth layer done at 12 s takes it past, the sixth at 20 s, the
# seventh would end past the second half)
ONE_LAYER_SHORT = [1, 1, 1, 1, 8, 8, 8]
TWO_LAYERS_SHORT = [1, 1, 1, 8, 8, 8]
NEVER_PAST = [1, 1, 1, 1, 20]


@pytest.mark.parametrize("apart", [False, True])
def test_a_table_one_layer_short_of_the_matching_at_halfway_grows_on(monkeypatch, apart):
    """At the first half a table is kept growing if it is past the start's matching or the
    layer under way would take it past; dropped if not, or if it is not past it at the end."""

    def grown(costs: list[float]) -> TimedLayers | None:
        clock = Clock()
        table = TimedLayers(clock, costs)
        if not apart:
            return sokoban_pulls.grown_in_halves(table, clock, 10.0, 10**9, 5)
        monkeypatch.setattr(sokoban_pulls_apart, "Control", lambda: clock)
        sent = Sent()
        sokoban_pulls_apart._grow_and_send(sent, table, 10.0, 10**9, 5, lambda: None)
        assert sent[-1][1] and not any(last for _, last in sent[:-1])
        return sent[-1][0] or next((table for table, _ in reversed(sent) if table is not None), None)

    kept = grown(ONE_LAYER_SHORT)
    assert kept is not None and kept.radius == 6 and kept.beyond > 5 and not kept.complete
    assert grown(TWO_LAYERS_SHORT) is None
    assert grown(NEVER_PAST) is None


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("apart", [False, True])
def test_with_a_time_budget_a_table_that_stays_shallow_is_dropped_halfway(monkeypatch, apart, kind):
    table_class = use_kind(monkeypatch, kind)
    if apart:
        wait_for_the_child(monkeypatch, True)
        short = tuned(pulls={"apart_after": 1, "apart_share": 0.0002})
        asked = []
        real_bound = table_class.bound
        monkeypatch.setattr(table_class, "bound", lambda self, *a: asked.append(1) or real_bound(self, *a))
        lvl, row = microban(36)[35]
        assert checked(lvl, solve(lvl, "pushes", tuning=short, seconds=60.0))[1] == int(row["min_pushes"])
        assert not asked  # dropped in the child: never asked
        ample = tuned(short, pulls={"apart_share": 0.25})  # ample: it completes
        lvl, row = microban(6)[5]  # (searched long enough to look for the table: 235 expansions)
        assert checked(lvl, solve(lvl, "pushes", tuning=ample, seconds=60.0))[1] == int(row["min_pushes"])
        assert asked  # complete at once, sent and asked
        return
    wait_for_the_child(monkeypatch, False)
    short = tuned(pulls={"after": 1, "share": 0.0002})  # 6 ms a half: a few layers at most
    grown, asked = [], []
    real_grow, real_bound = table_class.grow, table_class.bound
    monkeypatch.setattr(table_class, "grow", lambda self, *a: grown.append(self) or real_grow(self, *a))
    monkeypatch.setattr(table_class, "bound", lambda self, *a: asked.append(1) or real_bound(self, *a))
    lvl, row = microban(36)[35]  # the start's matching is far beyond a few layers of pulls
    assert checked(lvl, solve(lvl, "pushes", tuning=short, seconds=60.0))[1] == int(row["min_pushes"])
    assert len(grown) == 1 and not grown[0].complete and not asked  # one half, then never asked
    longer = tuned(short, pulls={"share": 0.02})  # 0.6 s a half (60 ms was too short under load 7)
    lvl, row = microban(1)[0]  # a small level: complete at once, kept and asked
    grown.clear()
    assert checked(lvl, solve(lvl, "pushes", tuning=longer, seconds=60.0))[1] == int(row["min_pushes"])
    assert len(grown) == 2 and grown[0].complete and asked


def plain(monkeypatch) -> None:
    """Tables made from here on key every position apart (no symmetry)."""
    for module in (sokoban_pulls, sokoban_pulls_compact):
        monkeypatch.setattr(module, "symmetry_keeping", lambda board, mask: None)


@pytest.mark.parametrize("kind", KINDS)
def test_on_a_symmetric_board_images_share_an_entry_and_it_is_exact(kind):
    rng = random.Random(430)
    shared = 0
    for room in random_rooms(430, 30, symmetric_room):
        table = table_for(room, kind=kind)
        symmetry = table._symmetry
        shared += symmetry is not None
        for state in positions(room, rng, 5):
            best = lexicographic_optimum(room, "pushes", state)
            value = bound_at(table, state)
            assert value == (UNREACHABLE if best is None else best[0])
            if symmetry is not None:  # every image of the position: the same answer
                boxes, player = search_position(table.board, state)
                for image, cells in zip(symmetry.images(boxes), symmetry.maps):
                    assert table.bound(image, cells[player]) == value
    assert shared >= 10  # (the rooms' start boxes mostly reach a symmetric set of cells)


@pytest.mark.parametrize("kind", KINDS)
def test_on_microban_144_a_quarter_of_the_entries_answer_for_all(monkeypatch, kind):
    # four rotations keep its floor, goals and the cells its boxes reach
    lvl = microban(144)[143][0]
    symmetric = table_for(lvl, 6_000, kind)
    assert symmetric._symmetry is not None and len(symmetric._symmetry.maps) == 3
    plain(monkeypatch)
    whole = layers_up_to(table_for(lvl, 4 * len(symmetric) + 4_000, "dict"), symmetric.radius)
    assert whole._symmetry is None and symmetric.radius >= 9
    if isinstance(symmetric, PullTable):
        within = sum(depth <= symmetric.radius for depth in symmetric.table.values())
    else:
        within = int(np.count_nonzero(symmetric._table.values() <= symmetric.radius))
    assert within * 4 - 40 <= len(whole) <= within * 4  # (few positions are their own image)
    shift = whole.shift
    for key, depth in whole.table.items():
        assert symmetric.bound(key >> shift, key & ((1 << shift) - 1)) == depth


@pytest.mark.parametrize("most", [3, 1 << 18])
def test_what_a_symmetric_tables_lookups_remember_is_bounded_counted_and_not_sent(monkeypatch, most):
    # each box set's least image is remembered, then forgotten past `most`: the answers stay
    # those of a table that keys every image apart
    lvl = microban(144)[143][0]
    symmetric = table_for(lvl, 3_000, "compact", seen_most=most)
    bare = symmetric.nbytes()
    plain(monkeypatch)
    whole = layers_up_to(table_for(lvl, 4 * len(symmetric) + 2_000, "dict"), symmetric.radius)
    shift = whole.shift
    asked = [(key >> shift, key & ((1 << shift) - 1), depth) for key, depth in whole.table.items()]
    walked = [search_position(whole.board, state) for state in positions(lvl, random.Random(144), 300)]
    asked += [(boxes, player, whole.bound(boxes, player)) for boxes, player in walked]
    for _ in range(2):  # (the second time round, remembered or forgotten)
        assert [symmetric.bound(boxes, player) for boxes, player, _ in asked] == [d for _, _, d in asked]
    remembered = len(symmetric._seen)
    assert 0 < remembered <= 3 if most == 3 else remembered == len({boxes for boxes, _, _ in asked})
    assert symmetric.nbytes() == bare + remembered * sokoban_pulls_compact.SEEN_BYTES
    sent = pickle.loads(pickle.dumps(symmetric))
    assert sent._seen == {} and sent.bound(*asked[0][:2]) == asked[0][2]


def test_a_position_is_keyed_by_the_image_the_dict_table_keys_it_by():
    # box sets that are their own image too (their images tie: the region decides), as the
    # solved one is; `Symmetry.least` (the dict table's key) is the oracle
    lvl = microban(144)[143][0]
    table = table_for(lvl, 100, "compact")
    symmetry, board, shift = table._symmetry, table.board, table.board.size.bit_length()
    live, rng, ties = list(table._live_index), random.Random(144), 0
    for _ in range(400):
        boxes = sum(1 << cell for cell in rng.sample(live, rng.randint(1, 8)))
        if rng.random() < 0.5:
            boxes |= symmetry.image(boxes, rng.randrange(len(symmetry.maps)))
        player = rng.choice([cell for cell in range(board.size) if (board.floor & ~boxes) >> cell & 1])
        region = board.reach(player, board.floor & ~boxes)
        least = symmetry.least(boxes, region, shift)
        expected = (table._number(least >> shift) << table._rank_bits) | table._rank_of[least & ((1 << shift) - 1)]
        number, which = table._looked_up(boxes)
        ties += which is None
        assert table._key(number, which, boxes, region) == expected
    assert ties >= 50

"""The rotation solver: the distance table proven by its own equation, then checked against
IDA* and the oracle BFS (plan string AND digit) on thousands of seeded boards.

The table is built once for this module in a temporary cache directory, so nothing here
depends on (or writes to) the user's cache.
"""

import random
from importlib import resources

import numpy as np
import pytest

from fewest.engine import rotation as rules
from fewest.engine.base import format_plan, parse_plan
from fewest.levels import rotation as files
from fewest.levels import read_text
from fewest.solvers import api
from fewest.solvers import rotation as solver
from fewest.solvers import rotation_table as table_module
from fewest.solvers.control import Budget, Control
from fewest.solvers.solution import Status
from tests.oracle import replay_length, shortest_plan

RULE_BOOK = [
    ("1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3", "AC", 2),
    ("1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3", "DDHH", 2),
    ("1 1 3 2 1 3 3 1 3 1 2 1 3 2 2 3 1 2 2 3 1 3 3 2", "CDFFDBHF", 3),
    ("3 2 1 3 2 1 2 1 1 2 1 2 3 2 3 3 3 2 3 1 1 1 2 3", "AABGAHBBDHFDB", 3),
]
# Digit counts other than 8/8/8: the table must not assume them.
COUNTS = [(8, 8, 8), (9, 7, 8), (10, 10, 4), (12, 6, 6), (3, 11, 10), (16, 4, 4), (0, 24, 0), (8, 0, 16)]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(table_module.CACHE_ENV, str(tmp_path_factory.mktemp("rotation-cache")))
        table_module.forget_shared_table()
        solver.warm_up(None)
        yield table_module.shared_table()


def board(text):
    return rules.make_level(int(t) for t in text.split())


def answer(level, state=None):
    state = rules.initial_state(level) if state is None else state
    found = solver.solve(level, state, Control(), "moves")
    assert found.status is Status.OPTIMAL
    return format_plan(rules, found.moves), found.extra["digit"]


def depth(table, level):
    return table.board_distance(solver.digit_masks(rules.initial_state(level)).values())


# ----- the table is exact ---------------------------------------------------------
def test_table_satisfies_its_defining_equation(table):
    """dist = 0 exactly on the goal masks, else 1 + the least over the eight moves; 255
    exactly on masks with fewer than 8 cells. Its only solution is the true distance."""
    dist = table.dist
    masks = np.arange(table_module.MASKS, dtype=np.uint32)
    best = np.full(masks.shape, 255, dtype=np.uint8)
    for move in range(8):
        best = np.minimum(best, dist[table_module.move_images(masks, move)])
    goal = (masks & table_module.CENTRE_MASK) == table_module.CENTRE_MASK
    assert np.array_equal(dist == 0, goal)
    finite = (dist < 255) & ~goal
    assert np.array_equal(dist[finite].astype(np.int16), best[finite].astype(np.int16) + 1)
    popcount = np.zeros(masks.shape, dtype=np.uint8)
    for bit in range(24):
        popcount += ((masks >> np.uint32(bit)) & np.uint32(1)).astype(np.uint8)
    assert np.array_equal(dist == 255, popcount < 8)
    assert int(dist[finite].max()) == 14  # one digit's 8 cells, worst placed


def test_mask_images_follow_the_engine(table):
    rng = random.Random(7)
    for _ in range(300):
        level = solver.random_board(rng, rng.choice(COUNTS[:6]))
        state = rules.initial_state(level)
        for number, move in enumerate(rules.MOVES):
            after = solver.digit_masks(rules.apply(level, state, move))
            before = solver.digit_masks(state)
            assert {d: table.image(m, number) for d, m in before.items()} == after


# ----- answers ----------------------------------------------------------------------
@pytest.mark.parametrize("text, plan, digit", RULE_BOOK)
def test_rule_book_answers_through_the_api(table, text, plan, digit):
    level = board(text)
    found = api.solve("rotation", level)
    assert found.status is Status.OPTIMAL
    assert format_plan(rules, found.moves) == plan and found.extra == {"digit": digit}
    assert replay_length(rules, level, list(found.moves)) == len(plan)


@pytest.mark.parametrize("text, plan, digit", RULE_BOOK[:3])
def test_rule_book_answers_by_the_idastar_baseline(text, plan, digit):
    level = board(text)
    found = solver.baseline(level, rules.initial_state(level), Control())
    assert found.status is Status.OPTIMAL
    assert (format_plan(rules, found.moves), found.extra["digit"]) == (plan, digit)


def test_contest_output_for_the_rule_book_file(table):
    text = "\n".join(t for t, _, _ in RULE_BOOK) + "\n0\n"
    entries = read_text(text, "rotation.in")
    out = [files.contest_answer(e, api.solve("rotation", e.level)) for e in entries]
    assert out == [f"{plan}\n{digit}" for _, plan, digit in RULE_BOOK]
    solved = rules.Level(tuple(2 if i in rules.CENTRE else 1 for i in range(24)))
    entry = files.read_contest(" ".join(map(str, solved.cells)))[0]
    assert files.contest_answer(entry, api.solve("rotation", entry.level)) == "No moves needed\n2"


def test_matches_the_oracle_bfs_on_shallow_boards(table):
    rng = random.Random(2024)
    seen = {}
    for trial in range(300):
        level = solver.scrambled_board(rng, rng.randint(0, 5), COUNTS[trial % 6])
        d = depth(table, level)
        if d == 5 and seen.get(5, 0) >= 8:
            continue
        seen[d] = seen.get(d, 0) + 1
        expected = shortest_plan(rules, level)
        plan, digit = answer(level)
        assert plan == format_plan(rules, expected), rules.initial_state(level)
        end = rules.initial_state(level)
        for move in expected:
            end = rules.apply(level, end, move)
        assert digit == rules.centre_digit(end)
    assert set(seen) == set(range(6))


def test_matches_idastar_string_and_digit(table):
    """IDA* (generic search, centre-count bound) agrees on plan and digit wherever it is cheap."""
    rng = random.Random(99)
    checked, ties, by_depth = 0, 0, {}
    while checked < 1200:
        counts = COUNTS[checked % 6]
        if checked % 3:
            level = solver.scrambled_board(rng, rng.randint(1, 9), counts)
        else:
            level = solver.random_board(rng, counts)
        d = depth(table, level)
        if d > 7 or (d == 7 and checked % 4):
            continue
        state = rules.initial_state(level)
        found = solver.baseline(level, state, Control())
        plan, digit = answer(level)
        assert (plan, digit) == (format_plan(rules, found.moves), found.extra["digit"]), state
        masks = solver.digit_masks(state)
        ties += sum(table.distance(m) == d for m in masks.values()) > 1
        by_depth[d] = by_depth.get(d, 0) + 1
        checked += 1
    assert ties >= 10  # boards where two digits tie, so the letter order picks the digit
    assert set(range(1, 8)) <= set(by_depth)


def test_thousands_of_boards_replay_at_the_table_distance(table):
    rng = random.Random(5)
    lengths = set()
    for trial in range(3000):
        level = solver.random_board(rng, COUNTS[trial % len(COUNTS)])
        state = rules.initial_state(level)
        found = solver.solve(level, state, Control(), "moves")
        assert found.optimal and len(found.moves) == depth(table, level)
        end = state
        for move in found.moves:
            end = rules.apply(level, end, move)
        assert rules.centre_digit(end) == found.extra["digit"]
        assert replay_length(rules, level, list(found.moves)) == len(found.moves)
        lengths.add(len(found.moves))
    assert max(lengths) >= 11 and 0 in lengths


def test_hints_mid_game_follow_the_same_plan(table):
    level = board(RULE_BOOK[3][0])
    state = rules.initial_state(level)
    plan = parse_plan(rules, RULE_BOOK[3][1])
    for done, move in enumerate(plan):
        found = solver.solve(level, state, Control(), "moves")
        assert list(found.moves) == plan[done:]
        state = rules.apply(level, state, move)
    assert solver.solve(level, state, Control(), "moves").moves == ()


def test_heuristic_is_admissible_and_consistent(table):
    rng = random.Random(11)
    for trial in range(2000):
        level = solver.random_board(rng, COUNTS[trial % 6])
        state = rules.initial_state(level)
        h = solver.centre_heuristic(state)
        assert h <= depth(table, level)
        for move in rules.MOVES:
            assert abs(h - solver.centre_heuristic(rules.apply(level, state, move))) <= 1


def test_bundled_pack_pars_are_the_optimal_lengths(table):
    text = (resources.files("fewest.levels.packs") / "rotation_classic.fewest").read_text("utf-8")
    entries = files.read_pack(text, "rotation_classic")
    samples = {rules.Level(board(t).cells): (plan, digit) for t, plan, digit in RULE_BOOK}
    for entry in entries:
        plan, digit = answer(entry.level)
        assert len(plan) == entry.par, entry.title
        assert replay_length(rules, entry.level, parse_plan(rules, plan)) == entry.par
        if entry.level in samples:
            assert (plan, digit) == samples[entry.level]
        if entry.par <= 6:
            found = solver.baseline(entry.level, rules.initial_state(entry.level), Control())
            assert format_plan(rules, found.moves) == plan
    assert sum(e.level in samples for e in entries) == 4
    assert {e.par for e in entries} == set(range(1, 14))


def test_bench_cases_are_seeded_and_shallow_when_quick(table):
    quick = solver.bench_cases(True)
    assert quick == solver.bench_cases(True)
    assert all(1 <= depth(table, level) <= 7 for _, level, _ in quick)
    assert all(state == rules.initial_state(level) for _, level, state in quick)
    assert len(solver.bench_cases(False)) > len(quick)


# ----- the cache --------------------------------------------------------------------
def test_cache_file_holds_the_table(table, tmp_path):
    path = tmp_path / table_module.CACHE_NAME
    table_module.write_cache(path, table.dist)
    assert np.array_equal(table_module.read_cache(path), table.dist)
    assert not list(tmp_path.glob("*.tmp"))


def test_damaged_cache_files_are_never_trusted(table, tmp_path):
    path = tmp_path / table_module.CACHE_NAME
    table_module.write_cache(path, table.dist)
    good = path.read_bytes()
    header_end = good.index(b"\n", len(b"fewest rotation distances 1\n")) + 1
    damaged = {
        "truncated": good[: len(good) // 2],
        "header only": good[:header_end],
        "flipped payload byte": good[:-100] + bytes([good[-100] ^ 0x40]) + good[-99:],
        "wrong digest": good.replace(b'"sha256": "', b'"sha256": "0', 1),
        "other rules": good.replace(b'"rules": "', b'"rules": "x', 1),
        "not json": good[:30] + b"{" + good[31:],
        "garbage": b"\x00" * 1000,
        "empty": b"",
    }
    for what, data in damaged.items():
        assert data != good, what
        path.write_bytes(data)
        assert table_module.read_cache(path) is None, what
    assert table_module.read_cache(tmp_path / "missing.bin") is None


def test_corrupted_cache_is_rebuilt_and_rewritten(table, tmp_path):
    path = tmp_path / table_module.CACHE_NAME
    path.write_bytes(b"fewest rotation distances 1\n{}\nnot a table")
    rebuilt = table_module.load_or_build(tmp_path)
    assert np.array_equal(rebuilt, table.dist)
    assert np.array_equal(table_module.read_cache(path), table.dist)


def test_environment_variable_chooses_the_cache_directory(monkeypatch, tmp_path):
    monkeypatch.setenv(table_module.CACHE_ENV, str(tmp_path))
    assert table_module.cache_dir() == tmp_path
    monkeypatch.delenv(table_module.CACHE_ENV)
    assert table_module.cache_dir().name  # the platform's user cache directory


def test_cancel_while_building_is_honest(table, monkeypatch, tmp_path):
    monkeypatch.setenv(table_module.CACHE_ENV, str(tmp_path))
    table_module.forget_shared_table()
    try:
        level = board(RULE_BOOK[0][0])
        stopped = api.solve("rotation", level, should_stop=lambda: True)
        assert stopped.status is Status.CANCELLED and stopped.moves == ()
        out_of_time = api.solve("rotation", level, budget=Budget(seconds=0.0))
        assert out_of_time.status is Status.BUDGET
        assert not (tmp_path / table_module.CACHE_NAME).exists()
    finally:
        table_module.forget_shared_table()  # later tests reload the module's cached table

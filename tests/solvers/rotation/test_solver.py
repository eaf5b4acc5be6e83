"""The rotation solver: checked against IDA* and the oracle BFS (plan string AND digit) on
thousands of seeded boards (the tables themselves: tests/test_rotation_table.py).

The tables are built for this module in a temporary cache directory, so nothing here
depends on (or writes to) the user's cache.
"""

import random
from importlib import resources

import pytest

from fewest.engine import rotation as rules
from fewest.engine.base import format_plan, parse_plan
from fewest.levels import read_text
from fewest.levels import rotation as files
from fewest.solvers import api
from fewest.solvers.rotation import solver
from fewest.solvers.rotation import cache
from fewest.solvers.rotation import distances
from fewest.solvers.common.control import Control
from fewest.solvers.common.solution import Status

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
        patch.setenv(cache.CACHE_ENV, str(tmp_path_factory.mktemp("rotation-cache")))
        distances.forget_shared_table()
        solver.warm_up(None)
        yield distances.shared_table()
        distances.forget_shared_table()


def board(text):
    return rules.make_level(int(t) for t in text.split())


def answer(level, state=None):
    state = rules.initial_state(level) if state is None else state
    found = solver.solve(level, state, Control(), "moves")
    assert found.status is Status.OPTIMAL
    return format_plan(rules, found.moves), found.extra["digit"]


def depth(table, level):
    return table.board_distance(solver.digit_masks(rules.initial_state(level)).values())


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

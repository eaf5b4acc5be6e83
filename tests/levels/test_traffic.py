"""Traffic level files: database lines, the grid format, the contest "Get out", packs, errors."""

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fewest.engine import traffic as T
from fewest.levels import pack, read_file, read_text, write_entries
from fewest.levels import traffic as LT
from fewest.levels import traffic_getout, traffic_grid
from fewest.levels.base import LevelEntry, LevelFormatError
from fewest.levels.bundled import find_pack
from fewest.solvers.common.solution import Solution, Status
from fewest.solvers.traffic.random_levels import random_level
from tests.paths import DATA_DIR

DATA = DATA_DIR
SAMPLE = DATA / "traffic" / "database_sample.txt"
CONTEST_SAMPLE = "5 4\n2 2 4\n0\n1 2\n0\n0\n1 3\n0\n1 4\n1 3\n0\n"


def error_of(reader, text: str) -> LevelFormatError:
    with pytest.raises(LevelFormatError) as info:
        reader(text, "t")
    return info.value


# ----- database lines -----------------------------------------------------------------


def test_database_sample_reads_with_par_and_cluster():
    entries = read_file(SAMPLE)
    assert len(entries) == 110
    assert all(e.family == "traffic" and e.format == LT.DATABASE for e in entries)
    first = entries[0]
    assert first.par == 1 and first.metadata == {"Cluster": "5"} and first.line == 1
    assert T.rows(first.level)[2] == "AA...." and first.level.goal == ("exit", "A")
    hardest = [e for e in entries if e.par == 60]
    assert len(hardest) == 1 and hardest[0].level.walls == frozenset({3})


def test_database_line_without_numbers_and_with_dots():
    (entry,) = read_text("....B.....B.AA..B...................\n", "x.txt")
    assert entry.par is None and entry.metadata == {}
    assert entry.level.cars[1] == T.Car("B", False, 3, 4)


def board(**cells: int) -> str:
    """A 36-character database board: `A=13` puts an A at index 13 (several: A=(12, 13))."""
    chars = ["o"] * 36
    for name, at in cells.items():
        for i in at if isinstance(at, tuple) else (at,):
            chars[i] = name
    return "".join(chars)


@pytest.mark.parametrize(
    "text, line, col, message",
    [
        (f"5 {board(A=(12, 13))} 5\nooo\n", 2, 1, "36-character"),
        (f"5 {board(A=(12, 13), B=35)} 5\n", 1, 38, "length 1"),
        (f"  {board(B=(34, 35))}\n", 1, None, "no car A"),
        (f"{board(A=(13, 25))}\n", 1, 26, "straight"),
        (f"{board(A=(13, 20))}\n", 1, 21, "bent"),
        (f"{board(A=(12, 13))}?\n", 1, 1, "36-character"),
        (f"{board(A=(12, 13), B=(4, 10))}\n7 {board(A=(0, 1), D=(6, 12, 18, 24))} 9\n", 2, 27, "length 4"),
    ],
)
def test_database_errors_are_located(text, line, col, message):
    err = error_of(LT.read_database, text)
    assert message in err.message and err.line == line and err.column == col and err.file == "t"


def test_database_lines_that_do_not_read_leave_the_others():
    from fewest.levels import read_text_each

    text = f"3 {board(A=(12, 13), B=(4, 10))} 1\n{board(A=(13, 20))}\n; note\n5 {board(A=(12, 13))} 2\n"
    collection = read_text_each(text, "db.txt")
    assert [(e.index, e.par, e.line) for e in collection.entries] == [(1, 3, 1), (3, 5, 4)]
    ((index, error),) = [(u.index, u.error) for u in collection.unreadable]
    assert index == 2 and (error.file, error.line, error.column) == ("db.txt", 2, 21) and "bent" in error.message


# ----- the grid format ------------------------------------------------------------------

GRID = """; two levels
goal: exit A
..B.
AAB.
....
x.CC

goal: clear-row 3
o...
....
B...
B...
"""


def test_grid_reads_levels_and_goals():
    entries = read_text(GRID, "g.traffic")
    assert [e.format for e in entries] == [traffic_grid.FORMAT_NAME] * 2
    assert [e.line for e in entries] == [2, 8]
    assert entries[0].level.goal == ("exit", "A") and entries[0].level.walls == frozenset({12})
    assert entries[1].level.goal == ("clear-row", 3)
    assert read_text(traffic_grid.write(entries), "again.grid") == [
        LevelEntry("traffic", e.level, index=e.index, source="again.grid", line=l, format=e.format)
        for e, l in zip(entries, (1, 7))
    ]


@pytest.mark.parametrize(
    "text, line, col, message",
    [
        ("goal: exit A\nAA.\n.B.\n...\n", 3, 2, "length 1"),
        ("goal: exit A\nAA.\n.BB\n.B.\n", 4, 2, "bent"),
        ("goal: exit A\nAA.B\n...B\n....\n...B\n", 5, 4, "straight"),
        ("goal: exit A\nAA.\n...\n", 2, None, "needs 3 rows"),
        ("goal: exit A\nAA.\n..\n...\n", 3, 3, "2 cells"),
        ("goal: exit A\nAA.\n.#.\n...\n", 3, 2, "unknown character '#'"),
        ("goal: exit B\nAA.\n...\n...\n", 1, None, "no car B"),
        ("goal: clear-row x\nAA.\n...\n...\n", 1, None, "row number"),
        ("goal: clear-row 7\nAA.\n...\n...\n", 1, None, "rows are 0..2"),
        ("goal: exit A\n", 1, None, "no board"),
        ("goal: exit A\nAAAA\n....\n....\n....\n", 2, 4, "length 4"),
    ],
)
def test_grid_errors_are_located(text, line, col, message):
    err = error_of(traffic_grid.read, text)
    assert message in err.message and err.line == line and err.column == col


def test_grid_needs_the_goal_line_first():
    err = error_of(lambda text, src: traffic_grid.parse_body(text.splitlines(), src, 4), "AA.\n...\n...")
    assert "goal:" in err.message and err.line == 4


# ----- the contest format ---------------------------------------------------------------


def test_contest_sample_matches_the_picture():
    (entry,) = read_text(CONTEST_SAMPLE, "getout.in")
    assert entry.format == traffic_getout.FORMAT_NAME
    assert T.rows(entry.level) == [
        "..E..",
        "D.EF.",  # contest row 4: the row to clear
        "DCCF.",
        ".....",
        ".AABB",
    ]
    assert entry.level.goal == ("clear-row", 1)
    assert [c.name for c in entry.level.cars] == list("ABCDEF")


def test_contest_answer_is_the_length_or_minus_one():
    (entry,) = read_text(CONTEST_SAMPLE, "getout.in")
    fmt = next(f for f in LT.FORMATS if f.name == traffic_getout.FORMAT_NAME)
    moves = tuple(T.parse_move(m) for m in ["DD2", "CL1", "ED2", "FD1"])
    assert fmt.contest_answer(entry, Solution(Status.OPTIMAL, moves)) == "4"
    assert fmt.contest_answer(entry, Solution(Status.UNSOLVABLE)) == "-1"


def test_contest_names_beyond_z():
    # 8x8: 4 horizontal cars in each of 7 rows = 28 cars, then 2 vertical in the last row's columns
    rows = ["4 1 3 5 7"] * 7 + ["0"]
    cols = ["0"] * 8
    (entry,) = traffic_getout.read("8 8\n" + "\n".join(rows + cols) + "\n", "t")
    names = [c.name for c in entry.level.cars]
    assert len(names) == 28 and names[25:] == ["Z", "a", "b"]


@pytest.mark.parametrize(
    "text, line, col, message",
    [
        ("5 4\n2 2 3\n0\n0\n0\n0\n0\n0\n0\n0\n0\n", 2, 5, "cars A and B overlap at contest row 1, column 3"),
        ("5 4\n1 2\n0\n0\n0\n0\n0\n1 1\n0\n0\n0\n", 8, 3, "cars A and B overlap at contest row 1, column 2"),
        ("5 4\n2 2\n0\n0\n0\n0\n0\n0\n0\n0\n0\n", 2, 1, "says 2 cars but lists 1"),
        ("5 4\n1 5\n0\n0\n0\n0\n0\n0\n0\n0\n0\n", 2, 3, "leaves the board"),
        ("5 4\n0\n0\n0\n0\n0\n0\n0\n0\n0\n", 10, None, "expected 10 lines"),
        ("5 4\n0\n0\n0\n0\n0\n0\n0\n0\n0\n0\n0\n", 12, None, "expected 10 lines"),
        ("3 1\n0\n0\n0\n0\n0\n0\n", 1, 1, "N must be 4..8"),
        ("5 6\n0\n0\n0\n0\n0\n0\n0\n0\n0\n0\n", 1, 3, "R must be 1..5"),
        ("5\n0\n", 1, 1, "N and R"),
        ("5 4\n1 x\n0\n0\n0\n0\n0\n0\n0\n0\n0\n", 2, 3, "whole number"),
    ],
)
def test_contest_errors_are_located(text, line, col, message):
    err = error_of(traffic_getout.read, text)
    assert message in err.message and err.line == line and err.column == col


# ----- detection, packs, round trips ----------------------------------------------------


def test_each_format_is_detected_from_its_text():
    db = "51 GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo 4780\n"
    packed = pack.write_pack(read_text(GRID, "g"), LT.CODEC)
    for text, name in [(db, LT.DATABASE), (GRID, traffic_grid.FORMAT_NAME),
                       (CONTEST_SAMPLE, traffic_getout.FORMAT_NAME), (packed, "pack")]:
        assert read_text(text, "unnamed")[0].format == name
    for fmt in LT.FORMATS:
        others = [text for text in (db, GRID, CONTEST_SAMPLE, packed)]
        assert sum(fmt.sniff(text) for text in others) == 1


def test_write_entries_gives_a_pack_that_reads_back():
    entries = read_file(SAMPLE)[:5]
    text = write_entries(entries)
    again = read_text(text, "p.fewest")
    assert [e.level for e in again] == [e.level for e in entries]
    assert [e.par for e in again] == [e.par for e in entries]
    assert [e.metadata for e in again] == [e.metadata for e in entries]


@st.composite
def levels(draw):
    rng = random.Random(draw(st.integers(0, 2**32)))
    n = draw(st.integers(3, 8))
    goal = draw(st.sampled_from(["exit", "clear-row"]))
    return random_level(rng, n, draw(st.integers(0, 20)), goal=goal, walls=draw(st.integers(0, n)))


@given(st.lists(levels(), min_size=1, max_size=4), st.lists(st.integers(0, 99), min_size=4, max_size=4))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_pack_and_grid_read_write_read_identity(some_levels, pars):
    entries = [LevelEntry("traffic", lvl, title=f"L{i}", par=p) for i, (lvl, p) in enumerate(zip(some_levels, pars))]
    packed = pack.read_pack(pack.write_pack(entries, LT.CODEC), "p", LT.CODEC)
    assert [(e.level, e.title, e.par) for e in packed] == [(e.level, e.title, e.par) for e in entries]
    assert pack.read_pack(pack.write_pack(packed, LT.CODEC), "p", LT.CODEC) == packed
    grid = traffic_grid.read(traffic_grid.write(entries), "g")
    assert [e.level for e in grid] == some_levels


def _mutations(text: str, rng: random.Random, count: int) -> list[str]:
    alphabet = "AaBxo.\n 0123456789-#:;goal"
    found = []
    for _ in range(count):
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(chars) + 1)
            action = rng.random()
            if action < 0.4 and chars:
                chars[min(at, len(chars) - 1)] = rng.choice(alphabet)
            elif action < 0.7 and chars:
                del chars[min(at, len(chars) - 1)]
            else:
                chars.insert(at, rng.choice(alphabet))
        found.append("".join(chars))
    return found


@pytest.mark.parametrize(
    "reader, text",
    [
        (LT.read_database, "51 GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo 4780\n03 oBBBoooooDooAAoDoooooooooCCCoooooooo 156\n"),
        (traffic_grid.read, GRID),
        (traffic_getout.read, CONTEST_SAMPLE),
        (lambda text, src: pack.read_pack(text, src, LT.CODEC), "Family: traffic\n\nTitle: x\nPar: 3\n" + GRID),
        (read_text, GRID),
        (read_text, CONTEST_SAMPLE),
    ],
)
def test_mutated_files_only_raise_level_format_errors(reader, text):
    rng = random.Random(len(text))
    for mutated in _mutations(text, rng, 300):
        try:
            entries = reader(mutated, "m")
        except LevelFormatError:
            continue
        assert entries and all(isinstance(e.level, T.Level) for e in entries)


@given(st.text(alphabet="ABCo.x \n0123456789goal:exit-rw;", max_size=120))
@settings(max_examples=200, deadline=None)
def test_fuzzed_text_only_raises_level_format_errors(text):
    for reader in (LT.read_database, traffic_grid.read, traffic_getout.read):
        try:
            reader(text, "f")
        except LevelFormatError:
            pass


# ----- the bundled packs ----------------------------------------------------------------


def test_rush_hour_pack_is_database_positions_easy_to_hard():
    bundled = find_pack("traffic_rush_hour")
    assert bundled.family == "traffic" and len(bundled.entries) >= 20
    pars = [e.par for e in bundled.entries]
    assert pars == sorted(pars) and pars[0] <= 5 and pars[-1] == 60
    boards = [e.metadata["Database"] for e in bundled.entries]
    assert "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo" in boards  # the hardest without walls, 51
    assert boards[-1] == "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM"  # the hardest, 60
    by_board = {"".join(T.rows(e.level)).replace(".", "o"): e for e in read_file(SAMPLE)}
    for entry in bundled.entries:
        board = entry.metadata["Database"]
        assert "".join(T.rows(entry.level)).replace(".", "o") == board
        assert by_board[board].par == entry.par
        assert by_board[board].metadata["Cluster"] == entry.metadata["Cluster"]

"""Rotation level files: the POJ 2286 contest input, its answers, and the native pack."""

from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fewest.engine.rotation import Level, MOVES
from fewest.levels import read_text
from fewest.levels import rotation as files
from fewest.levels.base import LevelEntry, LevelFormatError
from fewest.solvers.common.solution import Solution, Status

CONTEST = """\
1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3
1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3
1 1 3 2 1 3 3 1 3 1 2 1 3 2 2 3 1 2 2 3 1 3 3 2
3 2 1 3 2 1 2 1 1 2 1 2 3 2 3 3 3 2 3 1 1 1 2 3
0
"""
FIRST = Level(tuple(int(t) for t in CONTEST.split("\n")[0].split()))
PICTURE = """\
    1   1
    1   1
3 2 3 2 3 1 3
    2   2
3 1 2 2 2 3 1
    2   1
    3   3"""

boards = st.lists(st.integers(1, 3), min_size=24, max_size=24).map(lambda v: Level(tuple(v)))


# ----- contest input ----------------------------------------------------------
def test_contest_file_reads_every_board():
    entries = read_text(CONTEST, "boards.in")
    assert [e.line for e in entries] == [1, 2, 3, 4]
    assert [e.index for e in entries] == [1, 2, 3, 4]
    assert {(e.family, e.format, e.source) for e in entries} == {("rotation", files.CONTEST, "boards.in")}
    assert entries[0].level == FIRST
    assert entries[1].level.cells == (1,) * 8 + (2,) * 8 + (3,) * 8


def test_text_after_the_zero_is_ignored_and_the_zero_is_optional():
    after = CONTEST + "this is not a board\n7 7 7\n"
    assert files.sniff_contest(after)
    assert [e.level for e in files.read_contest(after)] == [e.level for e in files.read_contest(CONTEST)]
    without = CONTEST.replace("0\n", "")
    assert len(files.read_contest(without)) == 4
    spaced = "\n  " + CONTEST.replace("\n", "\n\n").replace(" ", "\t ")
    assert [e.level for e in files.read_contest(spaced)] == [e.level for e in files.read_contest(CONTEST)]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "0\n",
        "1 1 1\n0\n",
        "1 " * 23 + "\n0\n",
        "1 " * 25 + "\n0\n",
        "1 " * 23 + "4\n0\n",
        "1 " * 23 + "01\n",
        CONTEST.replace("2 3\n0", "2 3 x\n0"),
        "Family: rotation\n\n" + "1" * 24 + "\n",
        "1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n",
    ],
)
def test_sniff_is_strict(text):
    assert not files.sniff_contest(text)


def test_contest_sniffer_and_pack_sniffer_do_not_overlap():
    pack_text = files.write_pack(read_text(CONTEST))
    assert files.sniff_contest(CONTEST) and not files.FORMATS[0].sniff(CONTEST)
    assert files.FORMATS[0].sniff(pack_text) and not files.sniff_contest(pack_text)


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ("1 " * 24 + "\n1 1 5" + " 1" * 21 + "\n0\n", 2, 5, "not '5'"),
        ("1 " * 24 + "\n\n" + "2 " * 23 + "\n0\n", 3, None, "found 23"),
        ("1 " * 12 + "abc " + "1 " * 11 + "\n", 1, 25, "not 'abc'"),
        ("0\n" + "1 " * 24, 1, None, "no boards"),
    ],
)
def test_contest_errors_are_located(text, line, column, words):
    with pytest.raises(LevelFormatError) as info:
        files.read_contest(text, "b.in")
    error = info.value
    assert (error.file, error.line, error.column) == ("b.in", line, column)
    assert words in error.message


@pytest.mark.parametrize("text, line", [("0\n", 1), ("\n  0  \n", 2)])
def test_a_file_ending_before_any_board_is_known_and_says_so(text, line):
    with pytest.raises(LevelFormatError) as info:
        read_text(text, "empty.in")
    assert (info.value.line, info.value.message) == (line, "no boards before the terminating 0")


def solution(plan, digit):
    moves = tuple(MOVES["ABCDEFGH".index(ch)] for ch in plan)
    return Solution(Status.OPTIMAL, moves, extra={"digit": digit})


def test_contest_answers_are_the_judges_two_lines():
    entry = read_text(CONTEST)[0]
    assert files.contest_answer(entry, solution("AC", 2)) == "AC\n2"
    assert files.contest_answer(entry, solution("", 3)) == "No moves needed\n3"
    with pytest.raises(ValueError):
        files.contest_answer(entry, Solution(Status.BUDGET))


def test_only_the_contest_format_answers():
    pack_format, contest_format = files.FORMATS
    assert pack_format.contest_answer is None and contest_format.contest_answer is files.contest_answer
    assert pack_format.write is not None and contest_format.write is None


# ----- the native pack ----------------------------------------------------------
def test_both_body_forms_read_the_same_board():
    line = "".join(map(str, FIRST.cells))
    spaced = " ".join(map(str, FIRST.cells))
    assert files.parse_body([line], "p", 1) == FIRST
    assert files.parse_body([spaced], "p", 1) == FIRST
    assert files.parse_body(PICTURE.splitlines(), "p", 1) == FIRST
    assert files.parse_body([row.strip().replace(" ", "") for row in PICTURE.splitlines()], "p", 1) == FIRST


def test_writer_draws_the_picture():
    assert "\n".join(files.format_body(FIRST)) == PICTURE


@pytest.mark.parametrize(
    "lines, line, column, words",
    [
        (["1" * 23], 10, None, "found 23"),
        (["1" * 12 + "x" + "1" * 11], 10, 13, "not 'x'"),
        (["11", "11"], 10, None, "found 2 lines"),
        (PICTURE.splitlines()[:3] + ["    2 2 2"] + PICTURE.splitlines()[4:], 13, None, "row 4"),
        (PICTURE.splitlines()[:6] + ["    3   0"], 16, 9, "not '0'"),
    ],
)
def test_body_errors_are_located(lines, line, column, words):
    with pytest.raises(LevelFormatError) as info:
        files.parse_body(lines, "p.fewest", 10)
    assert (info.value.line, info.value.column) == (line, column)
    assert words in info.value.message


def test_pack_errors_carry_file_lines():
    text = "Family: rotation\n\nTitle: one\nPar: 2\n" + "\n".join(PICTURE.splitlines()[:6]) + "\n    3   9\n"
    with pytest.raises(LevelFormatError) as info:
        read_text(text, "mine.fewest")
    assert (info.value.file, info.value.line, info.value.column) == ("mine.fewest", 11, 9)


titles = st.text("abc XYZ", max_size=8).map(str.strip)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(boards, titles, st.none() | st.integers(0, 20)), min_size=1, max_size=4))
def test_pack_read_write_read_is_identity(items):
    entries = [LevelEntry("rotation", level, title=title, par=par) for level, title, par in items]
    text = files.write_pack(entries)
    first = read_text(text, "x.fewest")
    again = read_text(files.write_pack(first), "x.fewest")
    for got in (first, again):
        assert [(e.level, e.title, e.par) for e in got] == [(e.level, e.title, e.par) for e in entries]


@settings(max_examples=60, deadline=None)
@given(st.lists(boards, min_size=1, max_size=5))
def test_contest_text_round_trips(levels):
    text = "\n".join(" ".join(map(str, level.cells)) for level in levels) + "\n0\n"
    assert files.sniff_contest(text)
    assert [e.level for e in read_text(text)] == levels


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from("0123 4\n\t:;xFamily-rotationTitlePar"), max_size=200))
def test_fuzzed_text_only_raises_level_format_errors(text):
    for read in (files.read_contest, files.read_pack):
        try:
            read(text, "fuzz")
        except LevelFormatError:
            pass
    try:
        read_text(text, "fuzz", family="rotation")
    except LevelFormatError:
        pass


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 400), st.sampled_from(["", "4", "x", "\n", " ", "0\n", "Par: q\n", ";"]))
def test_damaged_packs_only_raise_level_format_errors(where, insert):
    text = files.write_pack([LevelEntry("rotation", FIRST, title="t", par=2)] * 2)
    where %= len(text) + 1
    damaged = text[:where] + insert + text[where:]
    try:
        entries = read_text(damaged, "d.fewest")
    except LevelFormatError:
        return
    assert all(e.family == "rotation" for e in entries)


def test_bundled_pack_is_well_formed():
    text = (resources.files("fewest.levels.packs") / "rotation_classic.fewest").read_text("utf-8")
    entries = files.read_pack(text, "rotation_classic")
    assert len(entries) >= 20
    pars = [e.par for e in entries]
    assert None not in pars and pars == sorted(pars) and pars[0] == 1 and pars[-1] == 13
    assert all(e.title for e in entries)
    assert len({e.level for e in entries}) == len(entries)
    assert sum(e.title.startswith("POJ 2286 sample") for e in entries) == 4

"""Shift files: the CHESSCBG contest input, the native pack, located errors, round trips."""

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fewest.engine import shift
from fewest.levels import shift as shift_files
from fewest.levels.base import LevelEntry, LevelFormatError
from fewest.levels.files import detect, read_file, read_text, write_entries
from fewest.solvers.api import solve
from tests.paths import DATA_DIR

DATA = os.path.join(DATA_DIR, "rulebook")
FIRST = shift.make_level(["1111", "0000", "1110", "0010"], ["1010", "0101", "1010", "0101"])
HARDEST = shift.make_level(["1111", "1110", "1000", "0000"], ["0001", "0011", "0011", "0111"])
IOI_TEXT = "1111\n0000\n1110\n0010\n\n1010\n0101\n1010\n0101\n"


@pytest.mark.parametrize("name, level", [("shift_4.in", FIRST), ("shift_20.in", HARDEST)])
def test_reads_the_rulebook_files(name, level):
    (entry,) = read_file(os.path.join(DATA, name))
    assert entry.family == "shift" and entry.format == shift_files.CONTEST
    assert entry.level == level and entry.line == 1


def test_blank_lines_count_line_and_several_boards():
    assert read_text(IOI_TEXT)[0].level == FIRST
    hardest = ["1111", "1110", "1000", "0000", "0001", "0011", "0011", "0111"]
    two = "2\n" + IOI_TEXT + "\n" + "\n".join(hardest)
    entries = read_text(two)
    assert [e.level for e in entries] == [FIRST, HARDEST]
    assert [e.index for e in entries] == [1, 2] and entries[1].line == 12
    without_count = read_text(two.split("\n", 1)[1])
    assert [e.level for e in without_count] == [FIRST, HARDEST]


def test_windows_line_ends_and_stray_blanks_are_fine():
    text = IOI_TEXT.replace("\n", "  \r\n")
    assert read_text(text)[0].level == FIRST


def test_contest_answer_is_the_number():
    (entry,) = read_text(IOI_TEXT)
    fmt = detect(IOI_TEXT, "x.in")
    assert fmt.contest_answer(entry, solve("shift", entry.level)) == "4"


@pytest.mark.parametrize(
    "text, line, column, message",
    [
        ("1111\n0000\n11x0\n0010\n1010\n0101\n1010\n0101\n", 3, 3, "cells are 0 or 1, not 'x'"),
        ("1111\n0000\n1110\n0010\n1010\n0101\n1010\n01011\n", 8, None, "holds 4 digits"),
        ("1111\n0000\n1110\n0010\n1010\n0101\n1010\n0100\n", 1, None, "start has 8 pieces but target has 7"),
        ("3\n1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n", 1, None, "promises 3 boards"),
        ("1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n1111\n", 9, None, "the last one has only 1"),
    ],
)
def test_contest_errors_are_located(text, line, column, message):
    with pytest.raises(LevelFormatError) as info:
        shift_files.read_contest(text, "bad.in")
    err = info.value
    assert message in err.message and (err.file, err.line, err.column) == ("bad.in", line, column)


@pytest.mark.parametrize(
    "text",
    [
        "1111\n0000\n1110\n0010\n",  # only the start
        "11111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n",
        "1 1 1 1\n" * 8,
        "____\n____\n____\n___S\n",
        "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n",
        "2\n3\n.S.M\n..SD\n",
    ],
)
def test_sniff_is_strict(text):
    assert not shift_files.sniff_contest(text)


def test_detects_contest_and_pack_among_all_formats():
    assert detect(IOI_TEXT, "x.txt").name == shift_files.CONTEST
    assert detect("Family: shift\n\n10 01\n", "x.fewest").name == shift_files.PACK


PACK_TEXT = """\
Family: shift
Title: Tiny

Title: Swap
Par: 2
10 01
01 10

1111 1010
0000 0101
1110 1010
0010 0101
"""


def test_reads_pack_bodies():
    entries = read_text(PACK_TEXT, "tiny.fewest")
    assert [e.level for e in entries] == [shift.make_level(["10", "01"], ["01", "10"]), FIRST]
    assert entries[0].title == "Swap" and entries[0].par == 2 and entries[1].line == 9


@pytest.mark.parametrize(
    "body, line, column, message",
    [
        ("10 01\n0x 10\n", 5, 2, "not 'x'"),
        ("10 01\n01\n", 5, None, "found 1 words"),
        ("10 01\n010 100\n", 5, None, "has 2 cells"),
        ("10 01\n11 10\n", 4, None, "start has 3 pieces but target has 2"),
        ("111111111 111111111\n", 4, None, "at most 8 columns"),
        ("1 1\n" * 9, 12, None, "at most 8 rows"),
    ],
)
def test_pack_errors_are_located(body, line, column, message):
    with pytest.raises(LevelFormatError) as info:
        read_text("Family: shift\n\n; a level\n" + body, "p.fewest")
    err = info.value
    assert message in err.message and (err.file, err.line, err.column) == ("p.fewest", line, column)


@st.composite
def levels(draw, min_side=1, max_side=8):
    rows = draw(st.integers(min_side, max_side))
    cols = draw(st.integers(min_side, max_side))
    cells = rows * cols
    pieces = draw(st.integers(0, cells))
    start = draw(st.sets(st.integers(0, cells - 1), min_size=pieces, max_size=pieces))
    target = draw(st.sets(st.integers(0, cells - 1), min_size=pieces, max_size=pieces))
    return shift.Level(rows, cols, sum(1 << c for c in start), sum(1 << c for c in target))


@given(st.lists(levels(), min_size=1, max_size=4), st.data())
def test_pack_round_trips(levels_, data):
    entries = [
        LevelEntry("shift", level, title=data.draw(st.sampled_from(["", "A level", "Zwei"])), index=i + 1,
                   par=data.draw(st.none() | st.integers(0, 200)))
        for i, level in enumerate(levels_)
    ]
    text = write_entries(entries)
    again = read_text(text, "round.fewest")
    assert [(e.level, e.title, e.par) for e in again] == [(e.level, e.title, e.par) for e in entries]


@given(st.lists(levels(min_side=4, max_side=4), min_size=1, max_size=3))
def test_contest_writer_round_trips(levels_):
    entries = [LevelEntry("shift", level) for level in levels_]
    text = shift_files.write_contest(entries)
    assert shift_files.sniff_contest(text)
    assert [e.level for e in read_text(text)] == levels_


def test_contest_writer_refuses_other_sizes():
    with pytest.raises(ValueError, match="4x4"):
        shift_files.write_contest([LevelEntry("shift", shift.make_level(["10"], ["01"]))])


@settings(max_examples=300)
@given(st.text(alphabet="01 \n\t2x;:FamilyTtle", max_size=120))
def test_fuzzed_text_only_raises_level_format_errors(text):
    for candidate in (text, "Family: shift\n\n" + text):
        try:
            read_text(candidate, "fuzz.txt", family="shift")
        except LevelFormatError:
            pass
    try:
        shift_files.read_contest(text, "fuzz.in")
    except LevelFormatError:
        pass

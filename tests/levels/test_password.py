"""Password files: the contest code, the native pack (rail, start grid), located errors, round trips."""

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fewest.engine import password
from fewest.levels import password as password_files
from fewest.levels.base import LevelEntry, LevelFormatError
from fewest.levels.files import detect, read_file, read_text, write_entries
from fewest.solvers.api import solve
from tests.paths import DATA_DIR

DATA = os.path.join(DATA_DIR, "rulebook")


@pytest.mark.parametrize(
    "name, rows",
    [
        ("password_4.in", ["____", "____", "____", "___S"]),
        ("password_15.in", ["_H__", "_Y__", "_Y__", "_SH_"]),
        ("password_41.in", ["HYSH", "SYHY", "YSHS", "HSYH"]),
    ],
)
def test_reads_the_rulebook_files(name, rows):
    (entry,) = read_file(os.path.join(DATA, name))
    assert entry.family == "password" and entry.format == password_files.CONTEST
    assert entry.level == password.make_level(rows)


def test_several_codes_and_other_rectangles():
    entries = read_text("\n_H_\nYS_\n\n\n  S  \n")
    assert [e.level for e in entries] == [password.make_level(["_H_", "YS_"]), password.make_level(["S"])]
    assert [e.line for e in entries] == [2, 6]


def test_contest_answer_is_the_swedish_line():
    text = "_H__\n_Y__\n_Y__\n_SH_\n"
    (entry,) = read_text(text)
    fmt = detect(text, "code.in")
    assert fmt.contest_answer(entry, solve("password", entry.level)) == "Minsta antal kommandon: 15"


@pytest.mark.parametrize(
    "text, line, column, message",
    [
        ("____\n_x__\n", 2, 2, "'x' is not a figure"),
        ("____\n___\n", 2, None, "has 4 figures, this one 3"),
        ("_\n" * 7, 7, None, "at most 6 rows"),
        ("_______\n", 1, None, "at most 6 columns"),
    ],
)
def test_contest_errors_are_located(text, line, column, message):
    with pytest.raises(LevelFormatError) as info:
        password_files.read_contest(text, "bad.in")
    err = info.value
    assert message in err.message and (err.file, err.line, err.column) == ("bad.in", line, column)


@pytest.mark.parametrize(
    "text",
    [
        "1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n",
        "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n",
        "#####\n#@$.#\n#####\n",
        "2\n3\n.S.M\n..SD\n",
        "Family: password\n\n____\n",
        "",
        "HYS h\n",
    ],
)
def test_sniff_is_strict(text):
    assert not password_files.sniff_contest(text)


def test_detects_contest_and_pack_among_all_formats():
    assert detect("____\n____\n____\n___S\n", "code.txt").name == password_files.CONTEST
    assert detect("Family: password\n\n__\n", "x.fewest").name == password_files.PACK


PACK_TEXT = """\
Family: password
Title: Tiny

Title: Plain
Par: 4
____
____
____
___S

Title: Overwrite
rail: .ab
start: ab ..
.a
b.
"""


def test_reads_pack_bodies_with_rail_and_start():
    plain, over = read_text(PACK_TEXT, "tiny.fewest")
    assert plain.level == password.make_level(["____", "____", "____", "___S"]) and plain.par == 4
    assert over.level == password.make_level([".a", "b."], rail=".ab", start=["ab", ".."])
    assert over.title == "Overwrite" and over.line == 11


@pytest.mark.parametrize(
    "body, line, column, message",
    [
        ("rail: _HH\n__\n", 4, 9, "distinct visible characters"),
        ("rail: _H;\n__\n", 4, 9, "other than ':' and ';'"),
        ("rail:\n__\n", 4, None, "needs the figures"),
        ("start: H_ __\n__\n", 4, None, "the start grid is 2x2, the code 1x2"),
        ("start: H_ _X\n__\n__\n", 4, 12, "'X' is not a figure"),
        ("start:\n__\n", 4, None, "needs the grid's rows"),
        ("rail: _H\nrail: _H\n__\n", 5, None, "given twice"),
        ("rail: _H\n", 4, None, "rows are missing"),
        ("__\nrail: _H\n", 5, None, "come before the code"),
        ("_Z\n", 4, 2, "'Z' is not a figure of the rail _HYS"),
        ("rail: _H\n_S\n", 5, 2, "'S' is not a figure of the rail _H"),
    ],
)
def test_pack_errors_are_located(body, line, column, message):
    with pytest.raises(LevelFormatError) as info:
        read_text("Family: password\n\n; a level\n" + body, "p.fewest")
    err = info.value
    assert message in err.message and (err.file, err.line, err.column) == ("p.fewest", line, column)


RAIL_FIGURES = "_HYSabcXZ.#-+=@%"


@st.composite
def levels(draw, plain=False):
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    if plain:
        rail = password.DEFAULT_RAIL
    else:
        size = draw(st.integers(1, 8))
        rail = "".join(draw(st.permutations(RAIL_FIGURES))[:size])
    figures = st.integers(0, len(rail) - 1)
    code = tuple(draw(st.lists(figures, min_size=rows * cols, max_size=rows * cols)))
    start = None
    if not plain and draw(st.booleans()):
        start = tuple(draw(st.lists(figures, min_size=rows * cols, max_size=rows * cols)))
    return password.Level(rows, cols, code, rail, start)


@given(st.lists(levels(), min_size=1, max_size=4), st.data())
def test_pack_round_trips(levels_, data):
    entries = [
        LevelEntry("password", level, title=data.draw(st.sampled_from(["", "Code", "Zwei"])), index=i + 1,
                   par=data.draw(st.none() | st.integers(0, 300)))
        for i, level in enumerate(levels_)
    ]
    text = write_entries(entries)
    again = read_text(text, "round.fewest")
    assert [(e.level, e.title, e.par) for e in again] == [(e.level, e.title, e.par) for e in entries]


@given(st.lists(levels(plain=True), min_size=1, max_size=3))
def test_contest_writer_round_trips(levels_):
    text = password_files.write_contest([LevelEntry("password", level) for level in levels_])
    assert password_files.sniff_contest(text)
    assert [e.level for e in read_text(text)] == levels_


def test_writers_refuse_what_they_cannot_hold():
    custom = password.make_level(["ab"], rail=".ab")
    with pytest.raises(ValueError, match="_HYS rail"):
        password_files.write_contest([LevelEntry("password", custom)])
    odd = password.make_level(["a;"], rail=".a;")
    with pytest.raises(ValueError, match="reserved"):
        password_files.write_pack([LevelEntry("password", odd)])


@settings(max_examples=300)
@given(st.text(alphabet="_HYS \n\tx;:rail:start:Family", max_size=120))
def test_fuzzed_text_only_raises_level_format_errors(text):
    for candidate in (text, "Family: password\n\n" + text):
        try:
            read_text(candidate, "fuzz.txt", family="password")
        except LevelFormatError:
            pass
    try:
        password_files.read_contest(text, "fuzz.in")
    except LevelFormatError:
        pass

"""The native pack container: headers, blank-line separated levels, located errors."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fewest.levels.base import LevelEntry, LevelFormatError
from fewest.levels.pack import Codec, read_pack, sniff_family, write_pack


def parse_numbers(lines, source, first_line):
    for offset, line in enumerate(lines):
        for col, ch in enumerate(line, 1):
            if not (ch.isdigit() or ch == " "):
                raise LevelFormatError(f"unknown character {ch!r}", source, first_line + offset, col)
    return tuple(tuple(int(x) for x in line.split()) for line in lines)


CODEC = Codec("numbers", parse_numbers, lambda level: [" ".join(map(str, row)) for row in level])

TEXT = """; a pack of numbers
Family: numbers
Title: Test pack

Title: First
Par: 3
1 2
3 4

; between levels
Author: someone
5 6
"""


def test_reads_levels_with_metadata():
    entries = read_pack(TEXT, "t.fewest", CODEC)
    assert [e.level for e in entries] == [((1, 2), (3, 4)), ((5, 6),)]
    assert entries[0].title == "First" and entries[0].par == 3 and entries[0].line == 5
    assert entries[1].metadata == {"Author": "someone"} and entries[1].index == 2
    assert sniff_family(TEXT) == "numbers"
    assert sniff_family("1 2\n") is None


def test_body_errors_carry_file_lines():
    text = "Family: numbers\n\nTitle: x\n1 2\n3 Q\n"
    with pytest.raises(LevelFormatError) as info:
        read_pack(text, "bad.fewest", CODEC)
    err = info.value
    assert (err.file, err.line, err.column) == ("bad.fewest", 5, 3)
    assert str(err) == "bad.fewest, line 5, col 3: unknown character 'Q'"


@pytest.mark.parametrize(
    "text, message",
    [
        ("Family: other\n\n1\n", "expected numbers"),
        ("Family: numbers\n\nTitle: a\n", "no body"),
        ("Family: numbers\n\nPar: many\n1\n", "whole number"),
        ("Family: numbers\n", "no levels"),
    ],
)
def test_structural_errors(text, message):
    with pytest.raises(LevelFormatError, match=message):
        read_pack(text, "p.fewest", CODEC)


levels = st.lists(
    st.lists(st.integers(0, 999), min_size=1, max_size=4).map(tuple), min_size=1, max_size=4
).map(tuple)
titles = st.text(alphabet="abc XYZ-:;\u00e9\u2014", max_size=12).map(str.strip)
metadata = st.dictionaries(st.sampled_from(["Author", "Comment", "Source-Url"]), titles, max_size=2)


@given(st.lists(st.tuples(levels, titles, st.none() | st.integers(0, 99), metadata), min_size=1, max_size=5))
def test_write_read_identity(items):
    entries = [
        LevelEntry("numbers", level, title, i + 1, par, "x.fewest", format="pack", metadata=meta)
        for i, (level, title, par, meta) in enumerate(items)
    ]
    again = read_pack(write_pack(entries, CODEC, title="T"), "x.fewest", CODEC)
    assert [(e.level, e.title, e.par, dict(e.metadata)) for e in again] == [
        (e.level, e.title, e.par, dict(e.metadata)) for e in entries]


def test_written_headers_are_lines_the_reader_takes_as_headers():
    entry = LevelEntry("numbers", ((1,),), "two\nlines", 1, None, "x.fewest", format="pack",
                       metadata={"Comment": "a\r\nb"})
    [again] = read_pack(write_pack([entry], CODEC), "x.fewest", CODEC)
    assert (again.level, again.title, dict(again.metadata)) == (((1,),), "two lines", {"Comment": "a b"})
    for key in ("Date Created", "author", "Bad:key"):  # (the reader would take them for the body)
        with pytest.raises(ValueError, match="not a usable pack header key"):
            write_pack([LevelEntry("numbers", ((1,),), metadata={key: "x"})], CODEC)


def test_comment_inside_a_level_keeps_error_lines_true():
    text = "Family: numbers\n\nTitle: x\n1 2\n; a note\n3 Q\n"
    with pytest.raises(LevelFormatError) as info:
        read_pack(text, "c.fewest", CODEC)
    assert (info.value.line, info.value.column) == (6, 3)


@pytest.mark.parametrize("text, where, said", [
    ("Title: My pack\nFamily: shift\n\n0000\n", "line 2", "the Family line must come first in a pack (line 1"),
    ("Family: sokoban\n\n#####\n", "line 1, col 9", "Sokoban levels are not written as packs"),
    ("; mine\nFamily:  chess\n\n1 2\n", "line 2, col 10", "unknown family 'chess' (packs are for traffic, "),
    ("family: shift\n\n0000\n", "line 1, col 1", "write the key as 'Family', not 'family'"),
])
def test_a_pack_whose_family_line_is_wrong_gets_a_located_error(text, where, said):
    from fewest.levels import read_text

    with pytest.raises(LevelFormatError) as caught:
        read_text(text, "p.fewest")
    assert f"p.fewest, {where}: {said}" in str(caught.value)

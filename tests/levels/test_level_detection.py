"""A file that nearly matches one format is read as that format, so its error says
where it goes wrong; text that resembles nothing still says no format knows it."""

from __future__ import annotations

import pytest

from fewest.levels import read_text, read_text_each
from fewest.levels.base import LevelFormatError

ROTATION = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3"
RUSH = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"


def error_of(text: str) -> LevelFormatError:
    with pytest.raises(LevelFormatError) as caught:
        read_text(text, "in.txt")
    return caught.value


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        # sokoban contest: two rows promised, one given
        ("2\n4\n#MSD\n", 4, None, "expected 2 rows, found 1"),
        # rotation contest: a number missing, then one out of range
        (ROTATION[:-2] + "\n0\n", 1, None, "24 numbers on one line, found 23"),
        (ROTATION[:-1] + "4\n0\n", 1, 47, "not '4'"),
        # shift contest: the last row a digit short
        ("1111\n0000\n1110\n0010\n1010\n0101\n1010\n010\n", 8, None, "4 digits, this one 3"),
        # password contest: a figure the rail does not have
        ("HYSH\nSYHY\nYSXS\nHSYH\n", 3, 3, "'X' is not a figure"),
        # Rush Hour database: a board one character short
        (f"51 {RUSH[:-1]} 4780\n", 1, 4, "36 characters, this one 35"),
        # one-character typos of contest inputs, each of a family
        ("4 2\n1 x\n" + "0\n" * 7, 2, 3, "expected a whole number, not 'x'"),  # Get out
        ("4 2 1\n" + "0\n" * 8, 1, 1, "the first line must hold N and R"),
        (ROTATION[:-1] + "x\n0\n", 1, 47, "not 'x'"),
        ("_h__\n_y__\n_y__\n_sh_\n", 1, 2, "'h' is not a figure"),  # password, lower case
        ("\n3\n4\n.S M\n..SD\nMMS.\n", 4, 3, "unknown character ' '"),  # sokoban, after a blank line
        ("3\n4\n\n.S.M\n..SD\nMMS.\n", 3, None, "a blank line inside the grid"),
        ("1 1 1 1\n0 0 0 0\n1 1 1 0\n0 0 1 0\n1 0 1 0\n0 1 0 1\n1 0 1 0\n0 1 0 1\n", 1, 2, "not ' '"),
    ],
)
def test_near_misses_are_read_by_their_format_and_located(text, line, column, words):
    err = error_of(text)
    assert words in err.message, err
    assert (err.file, err.line, err.column) == ("in.txt", line, column)


@pytest.mark.parametrize("text", ["x\n", "Dear reader,\nthis is a letter.\n", "HYSH and more\n"])
def test_text_like_no_format_says_so(text):
    assert "not a level file of any known format" in error_of(text).message


def test_a_database_file_with_a_mistyped_line_keeps_its_other_boards():
    collection = read_text_each(f"51 {RUSH} 4780\n{RUSH[:-1]}\n", "db.txt")
    assert [e.par for e in collection.entries] == [51]
    [bad] = collection.unreadable
    assert bad.index == 2 and bad.error.line == 2 and "this one 35" in bad.error.message

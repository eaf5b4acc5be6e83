"""Numbers too long for int() and line breaks editors do not count are bad input like any
other: a located LevelFormatError, and line numbers as editors and `wc -l` give them."""

from __future__ import annotations

import pytest

from fewest.levels import read_text
from fewest.levels.base import MAX_NUMBER_DIGITS, LevelFormatError, text_lines, whole_number
from fewest.levels.files import detect
from fewest.tui.cli.main import main

HUGE = "1" * 5001  # past Python's 4300-digit limit for int()
ROTATION = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3"
RUSH = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"
XSB_LEVEL = "#####\n#@$.#\n#####\n"
GETOUT = "5 4\n2 2 4\n0\n1 2\n0\n0\n1 3\n0\n1 4\n1 3\n0\n"  # (the rule book's "Get out")
TRAFFIC_GRID = "......\n......\nAA..B.\n....B.\n......\n......\n"
SHIFT_PACK = "Family: shift\n\nTitle: x\nPar: 2\n10 01\n"
# What str.splitlines() breaks at besides \n and \r; no editor starts a line there.
NOT_LINE_ENDS = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]


def error_of(text: str, source: str) -> LevelFormatError:
    with pytest.raises(LevelFormatError) as caught:
        read_text(text, source)
    return caught.value


# ----- numbers -------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, source, line, column, words",
    [
        (f"Title: x\nPar: {HUGE}\n" + XSB_LEVEL, "a.xsb", 2, None, "Par is too large: a number of 5,001 digits"),
        (f"Family: shift\n\nTitle: x\nPar: {HUGE}\n10 01\n", "a.fewest", 4, None, "Par is too large"),
        (f"Family: traffic\n\nPar: {HUGE}\ngoal: exit A\n" + TRAFFIC_GRID, "a.fewest", 3, None, "Par is too large"),
        (f"{HUGE} 4\n" + GETOUT.split("\n", 1)[1], "a.in", 1, 1, "N is too large"),
        (GETOUT.replace("\n1 2\n", f"\n{HUGE} 2\n"), "a.in", 4, 1, "the car count of row 3 is too large"),  # (rows from the bottom)
        (f"; moves first\n{HUGE} {RUSH} 4780\n", "a.txt", 2, 1, "the move count is too large"),
        (f"goal: clear-row {HUGE}\n" + TRAFFIC_GRID, "a.traffic", 1, None, "the clear-row row is too large"),
        ("#####\n#@$.#\n#" + HUGE + "#\n", "a.xsb", 3, 2, "run length is too large"),
    ],
)
def test_a_number_too_long_for_int_is_a_located_error(text, source, line, column, words):
    err = error_of(text, source)
    assert (err.file, err.line, err.column) == (source, line, column)
    assert words in err.message
    assert "int_max_str_digits" not in str(err) and "Exceeds" not in str(err)


def test_a_number_just_past_the_limit_is_refused_and_one_at_it_reads():
    assert read_text(f"Par: {'9' * MAX_NUMBER_DIGITS}\n" + XSB_LEVEL, "a.xsb")[0].par == 10**MAX_NUMBER_DIGITS - 1
    assert "19 digits" in error_of(f"Par: {'9' * (MAX_NUMBER_DIGITS + 1)}\n" + XSB_LEVEL, "a.xsb").message


def test_leading_zeros_do_not_make_a_number_large():
    assert read_text(f"Par: {'0' * 5000}7\n" + XSB_LEVEL, "a.xsb")[0].par == 7
    assert read_text(SHIFT_PACK.replace("Par: 2", f"Par: {'0' * 5000}7"), "a.fewest")[0].par == 7


@pytest.mark.parametrize(
    "text, source, line, words",
    [
        ("Par: many\n" + XSB_LEVEL, "a.xsb", 1, "Par must be a whole number, not 'many'"),
        # a superscript passes str.isdigit() but not int(): still the reader's own words
        (SHIFT_PACK.replace("Par: 2", "Par: \u00b2"), "a.fewest", 4, "Par must be a whole number, not '\u00b2'"),
        ("goal: clear-row x\n" + TRAFFIC_GRID, "a.traffic", 1, "clear-row needs a row number from 0, not 'x'"),
    ],
)
def test_ordinary_bad_numbers_keep_their_readers_words(text, source, line, words):
    err = error_of(text, source)
    assert (err.line, err.message) == (line, words)


def test_whole_number_helper():
    assert whole_number("0042", "Par", "f", 3) == 42
    with pytest.raises(LevelFormatError, match=r"^f, line 3, col 5: Par is too large: a number of 5,001 digits$"):
        whole_number(HUGE, "Par", "f", 3, 5)
    with pytest.raises(LevelFormatError, match=r"^f, line 3: expected a count$"):
        whole_number("-1", "Par", "f", 3, invalid="expected a count")


def test_cli_check_says_where_a_huge_number_is(capsys, tmp_path):
    path = tmp_path / "huge.in"
    path.write_text(f"{HUGE} 4\n" + GETOUT.split("\n", 1)[1])
    code = main(["check", str(path)])
    out, err = capsys.readouterr()
    assert code == 2
    assert f"{path}, line 1, col 1: N is too large: a number of 5,001 digits" in out + err
    assert "Traceback" not in out + err and "Exceeds" not in out + err


# ----- lines ---------------------------------------------------------------------
def test_text_lines_ends_lines_only_at_newlines():
    assert text_lines("a\u2028b\r\nc\rd\x0ce\n") == ["a\u2028b", "c", "d\x0ce", ""]


@pytest.mark.parametrize("char", NOT_LINE_ENDS)
def test_an_odd_line_break_does_not_shift_line_numbers(char):
    err = error_of(f"{ROTATION} {char}\n{ROTATION[:-1]}4\n0\n", "a.in")
    assert (err.line, err.column) == (2, 47)


@pytest.mark.parametrize("char", NOT_LINE_ENDS)
def test_a_pack_with_an_odd_character_in_a_comment_reads(char):
    text = f"; caf{char}e\n" + SHIFT_PACK
    assert detect(text, "a.fewest").name == "shift-pack"
    assert detect(text, "<text>").name == "shift-pack"
    [entry] = read_text(text, "a.fewest")
    assert (entry.line, entry.par) == (4, 2)


@pytest.mark.parametrize(
    "text, source, line",
    [
        (f"goal: exit A\u2028\n{TRAFFIC_GRID.replace('B', 'Q', 1)}", "a.traffic", 5),  # B left 1 long
        (f"51 {RUSH} 4780\u2028\n51 {RUSH[:-1]} 4780\n", "a.txt", 2),
        ("HYSH\u2028\nSYHY\nYSXS\nHSYH\n", "a.in", 3),
        ("1111\u2028\n0000\n1110\n0010\n1010\n0101\n1010\n010\n", "a.in", 8),
        (f"Family: password\n; x\u2028y\n\n_H__\n_Y__\n_Y_X\n_SH_\n", "a.fewest", 6),
    ],
)
def test_every_reader_counts_lines_as_editors_do(text, source, line):
    assert error_of(text, source).line == line

"""Rotation level files: the POJ 2286 contest input and the native pack.

Contest format ("rotation-contest"): each line holds one board, 24 integers
1..3 in cell order separated by blanks; a line holding only `0` ends the
input and anything after it is ignored (the `0` may be missing). Blank lines
are skipped. The answer per board is two lines: the move string (or
`No moves needed` when the board is already solved), then the centre digit.

Native pack body ("rotation-pack", see levels/pack.py): either one line of
24 digits (blanks between them allowed) or the `#` picture, 7 rows holding
2, 2, 7, 2, 7, 2, 2 cells, which is what the writer produces:

        1   1
        1   1
    3 2 3 2 3 1 3
        2   2
    3 1 2 2 2 3 1
        2   1
        3   3

(the first board of the rule book: `1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3`).
"""

from __future__ import annotations

import re
from typing import Any

from fewest.engine.rotation import CELLS, DIGITS, NAME, Level
from fewest.levels import pack
from fewest.levels.base import Format, LevelEntry, LevelFormatError, text_lines

CONTEST = "rotation-contest"
PACK = "rotation-pack"
END = "0"
_DIGIT_TEXT = tuple(str(d) for d in DIGITS)
_TOKEN = re.compile(r"\S+")
PICTURE_ROWS = (2, 2, 7, 2, 7, 2, 2)  # cells per row of the `#`
_PICTURE_INDENT = 4  # the two-cell rows sit over columns 3 and 5 of the seven-cell rows


# ----- contest input ----------------------------------------------------------
def _numbers(line: str, source: str, number: int) -> tuple[int, ...]:
    """The 24 digits of one contest line; located errors for anything else."""
    values: list[int] = []
    for token in _TOKEN.finditer(line):
        if token.group() not in _DIGIT_TEXT:
            raise LevelFormatError(
                f"cells hold 1, 2 or 3, not {token.group()!r}", source, number, token.start() + 1
            )
        values.append(int(token.group()))
    if len(values) != CELLS:
        raise LevelFormatError(
            f"a board is {CELLS} numbers on one line, found {len(values)}", source, number
        )
    return tuple(values)


def _board_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) of every board line before the terminating `0`."""
    lines = []
    for number, line in enumerate(text_lines(text), 1):
        stripped = line.strip()
        if stripped == END:
            break
        if stripped:
            lines.append((number, line))
    return lines


def sniff_contest(text: str) -> bool:
    """Strict: at least one line, and every line before `0` is exactly 24 digits 1..3."""
    lines = _board_lines(text)
    if not lines:
        return False
    for _, line in lines:
        tokens = line.split()
        if len(tokens) != CELLS or any(t not in _DIGIT_TEXT for t in tokens):
            return False
    return True


def resembles_contest(text: str) -> bool:
    """Loose: some line before `0` has at least half a board's worth of numbers, and three
    in four of all the words there are whole numbers (a board with a number missing, out
    of range or mistyped, commas between them, a stray word after the `0`); or the text
    opens with the `0` (no boards at all, which only this format can say)."""
    if next((line.strip() for line in text_lines(text) if line.strip()), None) == END:
        return True
    rows = [re.split(r"[\s,;]+", line.strip()) for _, line in _board_lines(text)]
    words = [t for tokens in rows for t in tokens if t]
    numbers = sum(1 for t in words if t.isascii() and t.isdigit())
    return bool(rows) and max(map(len, rows)) >= CELLS // 2 and 4 * numbers >= 3 * len(words)


def read_contest(text: str, source: str = "<text>") -> list[LevelEntry]:
    entries = []
    for number, line in _board_lines(text):
        level = Level(_numbers(line, source, number))
        entries.append(
            LevelEntry(NAME, level, index=len(entries) + 1, source=source, line=number, format=CONTEST)
        )
    if not entries:  # (at the `0`, if there is one)
        zero = next((n for n, line in enumerate(text_lines(text), 1) if line.strip() == END), 1)
        raise LevelFormatError("no boards before the terminating 0", source, zero)
    return entries


def contest_answer(entry: LevelEntry, solution: Any) -> str:
    """The judge's two lines: the move string (or `No moves needed`), then the centre digit."""
    if not solution.solved:
        raise ValueError(f"level {entry.index} has no plan to print ({solution.status.value})")
    plan = "".join(str(m) for m in solution.moves) or "No moves needed"
    return f"{plan}\n{solution.extra['digit']}"


# ----- pack bodies --------------------------------------------------------------
def _digits(line: str, source: str, number: int) -> list[int]:
    """Every non-blank character of a body line, which must be a digit 1..3."""
    values = []
    for column, char in enumerate(line, 1):
        if char.isspace():
            continue
        if char not in _DIGIT_TEXT:
            raise LevelFormatError(f"cells hold 1, 2 or 3, not {char!r}", source, number, column)
        values.append(int(char))
    return values


def parse_body(lines: list[str], source: str, first_line: int) -> Level:
    """One line of 24 digits, or the 7-row `#` picture."""
    if len(lines) == 1:
        values = _digits(lines[0], source, first_line)
        if len(values) != CELLS:
            raise LevelFormatError(
                f"a one-line board has {CELLS} digits, found {len(values)}", source, first_line
            )
        return Level(tuple(values))
    if len(lines) != len(PICTURE_ROWS):
        raise LevelFormatError(
            f"a board is one line of {CELLS} digits or a {len(PICTURE_ROWS)}-row picture, "
            f"found {len(lines)} lines",
            source,
            first_line,
        )
    values = []
    for row, (line, wanted) in enumerate(zip(lines, PICTURE_ROWS)):
        found = _digits(line, source, first_line + row)
        if len(found) != wanted:
            raise LevelFormatError(
                f"row {row + 1} of the picture holds {wanted} cells, found {len(found)}",
                source,
                first_line + row,
            )
        values.extend(found)
    return Level(tuple(values))


def format_body(level: Level) -> list[str]:
    cells = iter(level.cells)
    rows = []
    for count in PICTURE_ROWS:
        row = [str(next(cells)) for _ in range(count)]
        rows.append(" ".join(row) if count == 7 else " " * _PICTURE_INDENT + "   ".join(row))
    return rows


CODEC = pack.Codec(NAME, parse_body, format_body)
FORMATS: tuple[Format, ...] = pack.pack_and_contest(
    CODEC, PACK, CONTEST, sniff=sniff_contest, read=read_contest,
    contest_answer=contest_answer, resembles=resembles_contest,
)
read_pack, write_pack = FORMATS[0].read, FORMATS[0].write  # (the pack)

"""Shift level files: the CHESSCBG contest input (IOI'96 "Game on the chessboard") and the native pack.

Contest format ("shift-contest"): 8 rows of 4 binary digits, the first 4 the
start pattern, the last 4 the target (`1` = piece, rows top to bottom).
Blank lines anywhere are ignored (the IOI original puts one between the two
patterns). A file may hold several boards back to back, optionally preceded
by a line holding their count. The answer per board is the fewest moves, one
integer per line.

    1111
    0000
    1110
    0010

    1010
    0101
    1010
    0101

Native pack body ("shift-pack", see levels/pack.py): one line per board row,
`<start row> <target row>` in binary digits, any R x C up to 8 x 8:

    1111 1010
    0000 0101
    1110 1010
    0010 0101
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from fewest.engine.base import InvalidLevelError
from fewest.engine.shift import MAX_SIDE, NAME, Level, pattern_from_rows, pattern_rows
from fewest.levels import pack
from fewest.levels.base import Format, LevelEntry, LevelFormatError, text_lines

CONTEST = "shift-contest"
PACK = "shift-pack"
CONTEST_SIDE = 4
ROWS_PER_BOARD = 2 * CONTEST_SIDE
_CONTEST_ROW = re.compile(r"^[01]{%d}$" % CONTEST_SIDE)
_COUNT = re.compile(r"^\d{1,6}$")
_WORD = re.compile(r"\S+")


# ----- contest input ----------------------------------------------------------
def _filled_lines(text: str) -> list[tuple[int, str]]:
    return [(n, line.strip()) for n, line in enumerate(text_lines(text), 1) if line.strip()]


def _lines_after_count(text: str) -> list[str]:
    """The filled lines, without the optional count line first."""
    lines = [line for _, line in _filled_lines(text)]
    if lines and _COUNT.match(lines[0]) and not _CONTEST_ROW.match(lines[0]):
        lines = lines[1:]
    return lines


def sniff_contest(text: str) -> bool:
    """Strict: an optional count line, then at least 8 lines, each exactly 4 binary digits."""
    lines = _lines_after_count(text)
    return len(lines) >= ROWS_PER_BOARD and all(_CONTEST_ROW.match(line) for line in lines)


def resembles_contest(text: str) -> bool:
    """Loose: most of a board's lines, each short, and three in four of them 4 binary
    digits, spaces aside (a row one digit short, a stray character, digits spaced out)."""
    lines = [line.replace(" ", "") for line in _lines_after_count(text)]
    rows = sum(1 for line in lines if _CONTEST_ROW.match(line))
    return (
        len(lines) >= ROWS_PER_BOARD - 2
        and all(len(line) <= 2 * CONTEST_SIDE for line in lines)
        and 4 * rows >= 3 * len(lines)
    )


def _contest_row(number: int, raw: str, source: str) -> str:
    line = raw.strip()
    offset = len(raw) - len(raw.lstrip())
    for column, char in enumerate(line, offset + 1):
        if char not in "01":
            raise LevelFormatError(f"cells are 0 or 1, not {char!r}", source, number, column)
    if len(line) != CONTEST_SIDE:
        raise LevelFormatError(
            f"a row holds {CONTEST_SIDE} digits, this one {len(line)}", source, number
        )
    return line


def read_contest(text: str, source: str = "<text>") -> list[LevelEntry]:
    raw_lines = text_lines(text)
    lines = [(n, raw_lines[n - 1]) for n, _ in _filled_lines(text)]
    count = count_line = None
    if lines and _COUNT.match(lines[0][1].strip()) and not _CONTEST_ROW.match(lines[0][1].strip()):
        count_line, count = lines[0][0], int(lines[0][1])
        lines = lines[1:]
    if not lines:
        raise LevelFormatError("no boards: expected rows of 4 binary digits", source, count_line or 1)
    rows = [(n, _contest_row(n, raw, source)) for n, raw in lines]
    boards, rest = divmod(len(rows), ROWS_PER_BOARD)
    if rest:
        raise LevelFormatError(
            f"a board is {ROWS_PER_BOARD} rows (4 start, 4 target); the last one has only {rest}",
            source,
            rows[boards * ROWS_PER_BOARD][0],
        )
    if count is not None and count != boards:
        raise LevelFormatError(
            f"the first line promises {count} boards, the file holds {boards}", source, count_line
        )
    entries = []
    for index in range(boards):
        block = rows[index * ROWS_PER_BOARD : (index + 1) * ROWS_PER_BOARD]
        first = block[0][0]
        texts = [row for _, row in block]
        level = _level(texts[:CONTEST_SIDE], texts[CONTEST_SIDE:], source, first)
        entries.append(
            LevelEntry(NAME, level, index=index + 1, source=source, line=first, format=CONTEST)
        )
    return entries


def write_contest(entries: Sequence[LevelEntry]) -> str:
    """The IOI layout: start rows, a blank line, target rows; boards separated by a blank line."""
    blocks = []
    for entry in entries:
        level = entry.level
        if (level.rows, level.cols) != (CONTEST_SIDE, CONTEST_SIDE):
            raise ValueError(f"the contest format holds 4x4 boards, not {level.rows}x{level.cols}")
        start, target = pattern_rows(level, level.start), pattern_rows(level, level.target)
        blocks.append("\n".join(start) + "\n\n" + "\n".join(target))
    return "\n\n".join(blocks) + "\n"


def contest_answer(entry: LevelEntry, solution: Any) -> str:
    """The judge's line: the fewest moves."""
    if not solution.solved:
        raise ValueError(f"level {entry.index} has no plan to print ({solution.status.value})")
    return str(len(solution.moves))


def _level(start: list[str], target: list[str], source: str, line: int) -> Level:
    try:
        return Level(len(start), len(start[0]), pattern_from_rows(start), pattern_from_rows(target))
    except InvalidLevelError as exc:
        raise LevelFormatError(str(exc), source, line) from None


# ----- pack bodies --------------------------------------------------------------
def parse_body(lines: list[str], source: str, first_line: int) -> Level:
    """One `<start row> <target row>` line per board row."""
    if len(lines) > MAX_SIDE:
        raise LevelFormatError(
            f"a board has at most {MAX_SIDE} rows, this one {len(lines)}", source, first_line + MAX_SIDE
        )
    start: list[str] = []
    target: list[str] = []
    for offset, line in enumerate(lines):
        number = first_line + offset
        words = list(_WORD.finditer(line))
        if len(words) != 2:
            raise LevelFormatError(
                f"a row is `<start> <target>` (two words of 0/1), found {len(words)} words", source, number
            )
        for word in words:
            for column, char in enumerate(word.group(), word.start() + 1):
                if char not in "01":
                    raise LevelFormatError(f"cells are 0 or 1, not {char!r}", source, number, column)
        first, second = (w.group() for w in words)
        width = len(start[0]) if start else len(first)
        if len(first) != width or len(second) != width:
            raise LevelFormatError(
                f"every row of both patterns has {width} cells, this one {len(first)} and {len(second)}",
                source,
                number,
            )
        if width > MAX_SIDE:
            raise LevelFormatError(
                f"a board has at most {MAX_SIDE} columns, this one {width}", source, number
            )
        start.append(first)
        target.append(second)
    return _level(start, target, source, first_line)


def format_body(level: Level) -> list[str]:
    return [
        f"{s} {t}" for s, t in zip(pattern_rows(level, level.start), pattern_rows(level, level.target))
    ]


CODEC = pack.Codec(NAME, parse_body, format_body)
FORMATS: tuple[Format, ...] = pack.pack_and_contest(
    CODEC, PACK, CONTEST, sniff=sniff_contest, read=read_contest, write=write_contest,
    contest_answer=contest_answer, resembles=resembles_contest,
)
read_pack, write_pack = FORMATS[0].read, FORMATS[0].write  # (the pack)

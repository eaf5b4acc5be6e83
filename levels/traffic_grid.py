"""The traffic grid text format (also the body of a traffic `.fewest` pack level).

    ; comment lines start with ';'
    goal: exit A             <- or `goal: clear-row 3` (rows numbered from 0 at the top)
    ......
    ......
    AA..B.                   <- N rows of N characters: `.` or `o` empty, `x` wall,
    ....B.                      car names (A-Z, then a-z except o and x, then 0-9);
    ......                      a car is every cell with its name: one straight
    ......                      piece, 2 or 3 long

Several levels in one file are separated by blank lines.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from fewest.engine.base import InvalidLevelError
from fewest.engine.traffic import CLEAR_ROW, EXIT, CellError, Goal, Level, level_from_rows, rows
from fewest.levels.base import LevelEntry, LevelFormatError, text_lines, whole_number

FORMAT_NAME = "traffic-grid"
_GOAL = re.compile(r"^goal:\s*(?:(exit)\s+(\S+)|(clear-row)\s+(\S+))\s*$", re.IGNORECASE)


def build_level(
    board: Sequence[str],
    goal: Goal,
    source: str,
    line: int,
    where: Callable[[int, int], tuple[int, int]],
) -> Level:
    """The level of `board`, every rule broken reported as a LevelFormatError.

    `where(row, col)` gives the (line, column) in the file of a board cell;
    `line` is where errors without a cell are reported.
    """
    try:
        return level_from_rows(board, goal)
    except CellError as exc:
        at_line, at_col = where(exc.row, exc.col)
        raise LevelFormatError(str(exc), source, at_line, at_col) from None
    except InvalidLevelError as exc:
        raise LevelFormatError(str(exc), source, line) from None


def parse_goal(text: str, source: str, line: int) -> Goal:
    match = _GOAL.match(text.strip())
    if not match:
        raise LevelFormatError(
            f"expected `goal: exit A` or `goal: clear-row R`, not {text.strip()!r}", source, line, 1
        )
    if match.group(1):
        return Goal(EXIT, match.group(2))
    row = match.group(4)
    invalid = f"clear-row needs a row number from 0, not {row!r}"
    return Goal(CLEAR_ROW, whole_number(row, "the clear-row row", source, line, invalid=invalid))


def parse_body(lines: list[str], source: str, first_line: int) -> Level:
    """One level: the goal line, then the rows (file line numbers start at `first_line`)."""
    return parse_numbered(list(enumerate(lines, first_line)), source)


def parse_numbered(numbered: list[tuple[int, str]], source: str) -> Level:
    """One level from (file line number, text) pairs: the goal line, then the rows."""
    goal_line, goal_text = numbered[0]
    goal = parse_goal(goal_text, source, goal_line)
    board = [text.rstrip() for _, text in numbered[1:]]
    if not board:
        raise LevelFormatError("the goal line has no board under it", source, goal_line)
    n = len(board[0])
    if len(board) != n:
        raise LevelFormatError(
            f"the first row has {n} cells, so the board needs {n} rows (it is square), found {len(board)}", source, numbered[1][0]
        )
    return build_level(board, goal, source, goal_line, lambda r, c: (numbered[1 + r][0], c + 1))


def format_body(level: Level) -> list[str]:
    return [f"goal: {level.goal}", *rows(level)]


def blocks(text: str) -> list[list[tuple[int, str]]]:
    """Blank-line separated blocks of (line number, text); `;` comment lines dropped."""
    found: list[list[tuple[int, str]]] = [[]]
    for number, raw in enumerate(text_lines(text), 1):
        line = raw.rstrip()
        if line.lstrip().startswith(";"):
            continue
        if line.strip():
            found[-1].append((number, line))
        elif found[-1]:
            found.append([])
    return [block for block in found if block]


def sniff(text: str) -> bool:
    found = blocks(text)
    return bool(found) and _GOAL.match(found[0][0][1].strip()) is not None


def read(text: str, source: str) -> list[LevelEntry]:
    entries = []
    for block in blocks(text):
        level = parse_numbered(block, source)
        entries.append(
            LevelEntry("traffic", level, index=len(entries) + 1, source=source, line=block[0][0],
                       format=FORMAT_NAME)
        )
    if not entries:
        raise LevelFormatError("no levels found", source)
    return entries


def write(entries: Sequence[LevelEntry]) -> str:
    return "\n\n".join("\n".join(format_body(entry.level)) for entry in entries) + "\n"

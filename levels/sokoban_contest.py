"""The Swedish contest's Sokoban input, and its answer.

    3        <- rows (the contest keeps to <= 5; we accept up to the cell limit)
    4        <- columns
    .S.M     <- rows: `.` floor, `#` wall, `S` box, `M` goal, `D` the player
    ..SD
    MMS.

The grid is not enclosed: its edge acts as a wall. The answer is the plan in
H (right), V (left), U (up), N (down), pushes and steps alike; an already
solved level answers with an empty line.
"""

from __future__ import annotations

from typing import Any

from fewest.engine.base import InvalidMoveError
from fewest.engine.sokoban import NAME, Level, Move, moves_from_directions
from fewest.levels.base import MAX_LEVEL_CELLS, LevelEntry, LevelFormatError, check_size, text_lines
from fewest.levels.sokoban_grid import BOX, GOAL, PLAYER, WALL, Row, build_level

FORMAT_NAME = "sokoban-contest"
EXTENSIONS = (".in", ".txt")

LEGEND = {
    ".": frozenset(),
    "#": frozenset({WALL}),
    "S": frozenset({BOX}),
    "M": frozenset({GOAL}),
    "D": frozenset({PLAYER}),
}
TO_CONTEST = {"r": "H", "l": "V", "u": "U", "d": "N"}
FROM_CONTEST = {letter: direction for direction, letter in TO_CONTEST.items()}


def _lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) from the first line with something on it to the last."""
    lines = [(number, line.rstrip()) for number, line in enumerate(text_lines(text), 1)]
    while lines and not lines[-1][1]:
        lines.pop()
    while lines and not lines[0][1]:
        lines.pop(0)
    return lines


def _number(line: str) -> int | None:
    line = line.strip()
    return int(line) if line.isascii() and line.isdigit() and len(line) <= 6 else None


def sniff_contest(text: str) -> bool:
    """Strict on shape: two whole numbers R and C, then exactly R rows of exactly C
    printable characters, with some contest letter (S, M or D) among them. A stray
    character does not stop the sniff, so the reader can say where it is."""
    lines = [line for _, line in _lines(text)]
    if len(lines) < 3:
        return False
    rows, cols = _number(lines[0]), _number(lines[1])
    if not rows or not cols or rows * cols > MAX_LEVEL_CELLS or len(lines) != rows + 2:
        return False
    body = lines[2:]
    if not all(len(line) == cols and line.isascii() and line.isprintable() for line in body):
        return False
    return any(ch in "SMD" for line in body for ch in line) and " " not in "".join(body)


def resembles_contest(text: str) -> bool:
    """Loose: a whole number on one of the first two lines (the other perhaps mistyped),
    then grid lines, three in four of their characters the contest's in either case (rows
    missing, a row too long or short, a stray character or space, lower case)."""
    lines = [line for _, line in _lines(text)]
    if len(lines) < 3 or (_number(lines[0]) is None and _number(lines[1]) is None):
        return False
    if any(len(line.split()) > 1 for line in lines[:2]):
        return False
    body = "".join(lines[2:]).upper()
    figures = sum(1 for ch in body if ch in ".#SMD")
    return any(ch in "SMD" for ch in body) and 4 * figures >= 3 * len(body)


def read_contest(text: str, source: str = "<text>") -> list[LevelEntry]:
    lines = _lines(text)
    dims = []
    for at, what in ((0, "rows"), (1, "columns")):
        number = lines[at][0] if len(lines) > at else at + 1
        value = _number(lines[at][1]) if len(lines) > at else None
        if not value:
            message = f"expected the number of {what} here (a whole number >= 1)"
            raise LevelFormatError(message, source, number)
        dims.append(value)
    rows, cols = dims
    check_size(rows * cols, source, lines[0][0])
    body = lines[2:]
    for number, line in body:
        if not line:
            raise LevelFormatError("a blank line inside the grid", source, number)
    if len(body) != rows:
        expected = f"{rows} {'row' if rows == 1 else 'rows'}"
        # the first missing or extra row
        where = body[rows][0] if len(body) > rows else (body[-1][0] + 1 if body else lines[1][0] + 1)
        raise LevelFormatError(f"expected {expected}, found {len(body)}", source, where)
    grid = []
    for number, line in body:
        if len(line) != cols:
            message = f"row has {len(line)} characters, expected {cols}"
            raise LevelFormatError(message, source, number)
        grid.append(Row.plain(line, number))
    level = build_level(grid, LEGEND, source)
    return [LevelEntry(family=NAME, level=level, source=source, line=body[0][0], format=FORMAT_NAME)]


def contest_answer(entry: LevelEntry, solution: Any) -> str:
    """The plan in HVUN letters; ValueError when the solution holds no plan."""
    if not solution.solved:
        raise ValueError(f"no plan to print: the search ended {solution.status.value}")
    return "".join(TO_CONTEST[str(move).lower()] for move in solution.moves)


def parse_contest_plan(level: Level, text: str) -> list[Move]:
    """Moves for an HVUN answer (push flags read off the position)."""
    try:
        directions = "".join(FROM_CONTEST[letter] for letter in text.strip().upper())
    except KeyError as exc:
        letter = exc.args[0]
        raise InvalidMoveError(f"not a contest move: {letter!r} (expected H, V, U or N)") from None
    return moves_from_directions(level, directions)

"""The contest format "Get out" (Greek olympiad): 2-long cars, empty row R.

    5 4          <- N (4..8) and R (1..N): the row to clear
    2 2 4        <- N lines, rows 1..N: k, then k starting columns of horizontal cars
    0               (a car at column c covers columns c and c+1)
    1 2
    0
    0
    1 3          <- N lines, columns 1..N: k, then k starting rows of vertical cars
    0               (a car at row r covers rows r and r+1)
    1 4
    1 3
    0

Contest rows count from 1 at the BOTTOM, so contest row r is internal row
N - r (row 0 at the top) and a vertical car starting at contest row r covers
internal rows N - r - 1 and N - r. Cars are named in input order: A, B, ...
(then a-z without o and x, then digits; see engine.traffic.CAR_NAMES).
The answer is the fewest moves (slides) to empty row R, or -1 when that is
impossible (for example when a horizontal car lies in row R).
"""

from __future__ import annotations

from typing import Any

from fewest.engine.base import InvalidLevelError
from fewest.engine.traffic import CAR_NAMES, CLEAR_ROW, Car, Goal, Level
from fewest.levels.base import LevelEntry, LevelFormatError, text_lines, whole_number

FORMAT_NAME = "traffic-contest"
MIN_N, MAX_N = 4, 8


def sniff(text: str) -> bool:
    """Two numbers on the first line and nothing but numbers after it."""
    lines = [line.split() for line in text_lines(text) if line.strip()]
    return (
        len(lines) >= 2
        and len(lines[0]) == 2
        and all(token.isdigit() and token.isascii() for line in lines for token in line)
    )


def resembles(text: str) -> bool:
    """Loose: a first line of one to three whole numbers (`N R`, give or take one), then
    lines of numbers, three in four of their words whole (a sign, a decimal point, a
    stray word)."""
    lines = [line.split() for line in text_lines(text) if line.strip()]
    if len(lines) < 2 or not 1 <= len(lines[0]) <= 3:
        return False
    if not all(t.isascii() and t.isdigit() and len(t) <= 2 for t in lines[0]):  # (N and R are small)
        return False
    words = [t for line in lines[1:] for t in line]
    numbers = sum(1 for t in words if t.isascii() and t.isdigit())
    return 4 * numbers >= 3 * len(words)


def _tokens(raw: str) -> list[tuple[int, str]]:
    """(1-based column, token) of each whitespace-separated token."""
    found, col = [], 0
    for token in raw.split():
        col = raw.index(token, col)
        found.append((col + 1, token))
        col += len(token)
    return found


def _int(token: str, what: str, source: str, line: int, col: int) -> int:
    return whole_number(token, what, source, line, col, f"expected a whole number, not {token!r}")


def read(text: str, source: str) -> list[LevelEntry]:
    numbered = [(i, raw) for i, raw in enumerate(text_lines(text), 1) if raw.strip()]
    if not numbered:
        raise LevelFormatError("empty file", source, 1)
    first_line, first = numbered[0]
    head = _tokens(first)
    if len(head) != 2:
        raise LevelFormatError("the first line must hold N and R", source, first_line, 1)
    n = _int(head[0][1], "N", source, first_line, head[0][0])
    goal_row = _int(head[1][1], "R", source, first_line, head[1][0])
    if not MIN_N <= n <= MAX_N:
        raise LevelFormatError(f"N must be {MIN_N}..{MAX_N}, not {n}", source, first_line, head[0][0])
    if not 1 <= goal_row <= n:
        raise LevelFormatError(f"R must be 1..{n}, not {goal_row}", source, first_line, head[1][0])
    specs = numbered[1:]
    if len(specs) != 2 * n:
        where = specs[2 * n][0] if len(specs) > 2 * n else (specs[-1][0] if specs else first_line)
        raise LevelFormatError(
            f"expected {2 * n} lines after `N R` ({n} rows then {n} columns), found {len(specs)}",
            source,
            where,
        )
    owner: dict[int, str] = {}
    cars: list[Car] = []
    start: list[int] = []
    for index, (line, raw) in enumerate(specs):
        horizontal = index < n
        number = index % n + 1  # contest row (from the bottom) or column
        what = f"row {number}" if horizontal else f"column {number}"
        tokens = _tokens(raw)
        count = _int(tokens[0][1], f"the car count of {what}", source, line, tokens[0][0])
        if count != len(tokens) - 1:
            raise LevelFormatError(
                f"{what} says {count} cars but lists {len(tokens) - 1} starts", source, line, tokens[0][0]
            )
        for col, token in tokens[1:]:
            at = _int(token, f"a car start in {what}", source, line, col)
            if not 1 <= at <= n - 1:
                raise LevelFormatError(
                    f"a car starting at {at} in {what} leaves the board (starts are 1..{n - 1})",
                    source, line, col,
                )
            if len(cars) == len(CAR_NAMES):
                raise LevelFormatError(f"more than {len(CAR_NAMES)} cars", source, line, col)
            name = CAR_NAMES[len(cars)]
            if horizontal:
                car, offset = Car(name, True, 2, n - number), at - 1
            else:
                car, offset = Car(name, False, 2, number - 1), n - at - 1
            for cell in car.cells(n, offset):
                if cell in owner:
                    raise LevelFormatError(
                        f"cars {owner[cell]} and {name} overlap at contest row {n - cell // n}, "
                        f"column {cell % n + 1}",
                        source, line, col,
                    )
                owner[cell] = name
            cars.append(car)
            start.append(offset)
    try:
        level = Level(n, frozenset(), tuple(cars), tuple(start), Goal(CLEAR_ROW, n - goal_row))
    except InvalidLevelError as exc:  # already checked above; kept so nothing else escapes
        raise LevelFormatError(str(exc), source, first_line) from None
    return [
        LevelEntry(
            "traffic", level, index=1, source=source, line=first_line, format=FORMAT_NAME
        )
    ]


def contest_answer(entry: LevelEntry, solution: Any) -> str:
    """The fewest moves, or -1 (proven impossible; also printed when no proof was reached)."""
    return str(solution.length) if solution.solved else "-1"

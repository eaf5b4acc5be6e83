"""Shift: move identical pieces into a target pattern (IOI'96 "Game on the chessboard", SPOJ CHESSCBG).

Rules. An R x C board (1..8 rows and columns; the contest's is 4 x 4) holds k
identical pieces. A move takes one piece to an orthogonally adjacent EMPTY
cell. The level gives a start and a target pattern with the same number of
pieces; it is solved when the pieces cover exactly the target cells.

Cells are numbered in reading order, cell = row * cols + col, row 0 at the
top; a pattern is an int whose bit `cell` is set where a piece stands.

Move text: the piece's cell in chess-like notation, column letter `a`..`h`
then row number `1`..`8`, with row 1 at the TOP (reading order, as the board
is drawn), then the direction `u` `d` `l` `r`: `b3r` moves the piece in
column b, row 3 one cell to the right. Plans separate moves by a blank
(PLAN_SEPARATOR = " "): `a1d b1l`.

`legal_moves` lists pieces in reading order and, for each, the directions in
the order u, d, l, r.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from fewest.engine.base import Counters, IllegalMoveError, InvalidLevelError, InvalidMoveError

NAME = "shift"
PLAN_SEPARATOR = " "

MAX_SIDE = 8
COLUMN_LETTERS = "abcdefgh"
DIRECTIONS = "udlr"
STEPS: dict[str, tuple[int, int]] = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
_MOVE_TEXT = re.compile(r"^([a-h])([1-8])([udlr])$")


@dataclass(frozen=True, slots=True)
class Level:
    """The board size and the start and target patterns (bitmasks over cells in reading order)."""

    rows: int
    cols: int
    start: int
    target: int

    def __post_init__(self) -> None:
        for what, side in (("rows", self.rows), ("columns", self.cols)):
            if type(side) is not int or not 1 <= side <= MAX_SIDE:
                raise InvalidLevelError(
                    f"board too large: {side!r} {what}; a shift board has 1 to {MAX_SIDE} rows and columns"
                )
        full = (1 << self.rows * self.cols) - 1
        for what, pattern in (("start", self.start), ("target", self.target)):
            if type(pattern) is not int or pattern < 0 or pattern & ~full:
                raise InvalidLevelError(
                    f"the {what} pattern has pieces off the {self.rows}x{self.cols} board"
                )
        have, want = self.start.bit_count(), self.target.bit_count()
        if have != want:
            raise InvalidLevelError(f"start has {have} pieces but target has {want}")

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def pieces(self) -> int:
        return self.start.bit_count()


@dataclass(frozen=True, slots=True)
class State:
    """Where the pieces stand now: a bitmask over cells in reading order."""

    pieces: int


@dataclass(frozen=True, slots=True)
class Move:
    """Move the piece at (row, col) (0-based, row 0 at the top) one cell in `direction`."""

    row: int
    col: int
    direction: str

    def __post_init__(self) -> None:
        if not (0 <= self.row < MAX_SIDE and 0 <= self.col < MAX_SIDE and self.direction in STEPS):
            raise InvalidMoveError(f"not a shift move: row {self.row}, col {self.col}, {self.direction!r}")

    def __str__(self) -> str:
        return f"{COLUMN_LETTERS[self.col]}{self.row + 1}{self.direction}"


def pattern_from_rows(rows: Sequence[str]) -> int:
    """The bitmask of rows of `0`/`1` characters (reading order); InvalidLevelError otherwise."""
    pattern = 0
    width = len(rows[0]) if rows else 0
    for r, line in enumerate(rows):
        if len(line) != width:
            raise InvalidLevelError(f"row {r + 1} has {len(line)} cells, row 1 has {width}")
        for c, char in enumerate(line):
            if char not in "01":
                raise InvalidLevelError(f"row {r + 1} holds {char!r}; cells are 0 or 1")
            if char == "1":
                pattern |= 1 << (r * width + c)
    return pattern


def pattern_rows(level: Level, pattern: int) -> list[str]:
    """Rows of `0`/`1` characters for a pattern on the level's board (inverse of pattern_from_rows)."""
    cols = level.cols
    return [
        "".join("1" if pattern >> (r * cols + c) & 1 else "0" for c in range(cols))
        for r in range(level.rows)
    ]


def make_level(start: Sequence[str], target: Sequence[str]) -> Level:
    """A Level from two pictures of equal size, e.g. make_level(["10", "01"], ["01", "10"])."""
    if not start or len(start) != len(target) or len(start[0]) != len(target[0]):
        raise InvalidLevelError("start and target must be non-empty pictures of the same size")
    return Level(len(start), len(start[0]), pattern_from_rows(start), pattern_from_rows(target))


def parse_move(text: str) -> Move:
    match = _MOVE_TEXT.match(text.strip().lower()) if isinstance(text, str) else None
    if match is None:
        raise InvalidMoveError(
            f"not a shift move: {text!r} (column a-h, row 1-8, direction u/d/l/r, e.g. b3r)"
        )
    col, row, direction = match.groups()
    return Move(int(row) - 1, COLUMN_LETTERS.index(col), direction)


def initial_state(level: Level) -> State:
    return State(level.start)


def _destination(level: Level, row: int, col: int, direction: str) -> int | None:
    """The cell a step from (row, col) lands on, or None when it leaves the board."""
    dr, dc = STEPS[direction]
    r, c = row + dr, col + dc
    if 0 <= r < level.rows and 0 <= c < level.cols:
        return r * level.cols + c
    return None


def legal_moves(level: Level, state: State) -> Sequence[Move]:
    """Every step of a piece onto an empty cell: pieces in reading order, then u, d, l, r."""
    pieces = state.pieces
    moves = []
    for cell in range(level.cells):
        if not pieces >> cell & 1:
            continue
        row, col = divmod(cell, level.cols)
        for direction in DIRECTIONS:
            to = _destination(level, row, col, direction)
            if to is not None and not pieces >> to & 1:
                moves.append(Move(row, col, direction))
    return moves


def apply(level: Level, state: State, move: Move) -> State:
    if not isinstance(move, Move):
        raise IllegalMoveError(f"not a shift move: {move!r}")
    if move.row >= level.rows or move.col >= level.cols:
        raise IllegalMoveError(f"{move}: {str(move)[:-1]} is off the {level.rows}x{level.cols} board")
    cell = move.row * level.cols + move.col
    if not state.pieces >> cell & 1:
        raise IllegalMoveError(f"{move}: no piece on {str(move)[:-1]}")
    to = _destination(level, move.row, move.col, move.direction)
    if to is None:
        raise IllegalMoveError(f"{move}: the piece would leave the board")
    if state.pieces >> to & 1:
        raise IllegalMoveError(f"{move}: the target cell is not empty")
    return State(state.pieces ^ (1 << cell) ^ (1 << to))


def is_solved(level: Level, state: State) -> bool:
    return state.pieces == level.target


def tally(moves: Sequence[Move]) -> Counters:
    return Counters(moves=len(moves))

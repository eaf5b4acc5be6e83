"""The rotation game (POJ 2286 "The Rotation Game"): line up one digit in the centre of a `#`.

Rules. 24 cells in the shape of `#`, each holding 1, 2 or 3, numbered in
reading order (1-based in this text; stored 0-based, cell n at index n - 1):

          1     2
          3     4
    5  6  7  8  9 10 11
         12    13
   14 15 16 17 18 19 20
         21    22
         23    24

Eight moves rotate one of the four 7-cell lines cyclically by one cell. Each
cell of the listed line takes the value of the NEXT cell in the list, and the
first cell's value goes to the last cell:

    A: column 1,3,7,12,16,21,23 moves up
    B: column 2,4,9,13,18,22,24 moves up
    C: row 11,10,9,8,7,6,5 moves right
    D: row 20,19,18,17,16,15,14 moves right
    E: B reversed (24,22,18,13,9,4,2 — moves down)
    F: A reversed (23,21,16,12,7,3,1 — moves down)
    G: D reversed (14,15,16,17,18,19,20 — moves left)
    H: C reversed (5,6,7,8,9,10,11 — moves left)

Goal: the 8 centre cells (7, 8, 9, 12, 13, 16, 17, 18) all hold the same
digit. Every move is always legal; `legal_moves` lists them in order A..H, so
searches that try moves in that order find the lexicographically smallest of
the shortest plans, which is the answer the contest asks for.

Move text: one capital letter `A`..`H` (lower case is accepted when parsing);
plans are the letters run together (`CDFFDBHF`), PLAN_SEPARATOR = "".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from fewest.engine.base import Counters, IllegalMoveError, InvalidLevelError, InvalidMoveError

NAME = "rotation"
PLAN_SEPARATOR = ""

CELLS = 24
DIGITS = (1, 2, 3)
LETTERS = "ABCDEFGH"

# The lines exactly as the rule book lists them (1-based cell numbers).
LINES_1BASED: dict[str, tuple[int, ...]] = {
    "A": (1, 3, 7, 12, 16, 21, 23),
    "B": (2, 4, 9, 13, 18, 22, 24),
    "C": (11, 10, 9, 8, 7, 6, 5),
    "D": (20, 19, 18, 17, 16, 15, 14),
    "E": (24, 22, 18, 13, 9, 4, 2),
    "F": (23, 21, 16, 12, 7, 3, 1),
    "G": (14, 15, 16, 17, 18, 19, 20),
    "H": (5, 6, 7, 8, 9, 10, 11),
}
LINES: dict[str, tuple[int, ...]] = {k: tuple(c - 1 for c in v) for k, v in LINES_1BASED.items()}
INVERSE: dict[str, str] = {"A": "F", "B": "E", "C": "H", "D": "G", "E": "B", "F": "A", "G": "D", "H": "C"}

CENTRE_1BASED = (7, 8, 9, 12, 13, 16, 17, 18)
CENTRE: tuple[int, ...] = tuple(c - 1 for c in CENTRE_1BASED)


def _sources(line: tuple[int, ...]) -> tuple[int, ...]:
    """For each cell, the cell whose value it takes after the move (identity off the line)."""
    source = list(range(CELLS))
    for i, cell in enumerate(line):
        source[cell] = line[(i + 1) % len(line)]
    return tuple(source)


SOURCES: dict[str, tuple[int, ...]] = {k: _sources(v) for k, v in LINES.items()}


@dataclass(frozen=True, slots=True)
class Level:
    """The start board: 24 digits in cell order."""

    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        _check_cells(self.cells, "level")


@dataclass(frozen=True, slots=True)
class State:
    """The board now: 24 digits in cell order."""

    cells: tuple[int, ...]

    def __str__(self) -> str:
        return "".join(map(str, self.cells))


@dataclass(frozen=True, slots=True)
class Move:
    """One of the eight rotations, named by its letter."""

    letter: str

    def __post_init__(self) -> None:
        if self.letter not in LINES:
            raise InvalidMoveError(f"not a rotation move: {self.letter!r} (moves are A..H)")

    def __str__(self) -> str:
        return self.letter


MOVES: tuple[Move, ...] = tuple(Move(letter) for letter in LETTERS)
_BY_LETTER = {m.letter: m for m in MOVES}


def _check_cells(cells: object, what: str) -> None:
    if not isinstance(cells, tuple):
        raise InvalidLevelError(f"a rotation {what}'s cells are a tuple, not {type(cells).__name__}")
    if len(cells) != CELLS:
        raise InvalidLevelError(f"a rotation {what} has exactly {CELLS} cells, not {len(cells)}")
    for number, value in enumerate(cells, 1):
        if type(value) is not int or value not in DIGITS:
            raise InvalidLevelError(f"cell {number} holds {value!r}; cells hold 1, 2 or 3")


def make_level(values: Sequence[int]) -> Level:
    """A Level from any sequence of 24 digits (InvalidLevelError otherwise)."""
    try:
        cells = tuple(values)
    except TypeError:
        raise InvalidLevelError(f"a rotation level is 24 digits, not {values!r}") from None
    return Level(cells)


def parse_move(text: str) -> Move:
    move = _BY_LETTER.get(text.strip().upper()) if isinstance(text, str) else None
    if move is None:
        raise InvalidMoveError(f"not a rotation move: {text!r} (moves are A..H)")
    return move


def initial_state(level: Level) -> State:
    return State(level.cells)


def legal_moves(level: Level, state: State) -> Sequence[Move]:
    """All eight moves, always, in order A..H."""
    return MOVES


def apply(level: Level, state: State, move: Move) -> State:
    source = SOURCES.get(getattr(move, "letter", None))
    if source is None:
        raise IllegalMoveError(f"not a rotation move: {move!r}")
    cells = state.cells
    return State(tuple([cells[i] for i in source]))


def centre_digit(state: State) -> int | None:
    """The digit filling all 8 centre cells, or None while they differ."""
    cells = state.cells
    digit = cells[CENTRE[0]]
    return digit if all(cells[i] == digit for i in CENTRE) else None


def is_solved(level: Level, state: State) -> bool:
    return centre_digit(state) is not None


def tally(moves: Sequence[Move]) -> Counters:
    return Counters(moves=len(moves))

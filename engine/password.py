"""Password: key a code into a wrapping grid (the Castlevania IV password screen).

Rules. An R x C grid (1..6 rows and columns; the game's is 4 x 4). Above it a
rail of figures in a fixed order, by default `_HYS`: blank `_`, heart `H`,
axe `Y`, sword `S`. The first rail figure is the blank: a fresh grid shows it
in every cell (a level may instead give a start grid, whose wrong cells must
then be overwritten). The rail cursor starts on the first figure, the grid
cursor on the top-left cell. Every command costs 1:

    u d l r   move the grid cursor one cell up/down/left/right, wrapping at the edges
    < >       move the rail cursor one figure left/right, wrapping at the ends
    *         place: write the rail's active figure into the cell under the grid cursor

Solved when the grid shows the level's code (where the cursors stand does not
matter). Every command is always legal; `legal_moves` lists them in the order
u d l r < > *. Plans are the command characters run together
(PLAN_SEPARATOR = ""), e.g. `<ul*`.

Cells are numbered in reading order, cell = row * cols + col, row 0 at the
top; grids hold rail indices (0 = the blank).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from fewest.engine.base import Counters, IllegalMoveError, InvalidLevelError, InvalidMoveError

NAME = "password"
PLAN_SEPARATOR = ""

DEFAULT_RAIL = "_HYS"
MAX_SIDE = 6
MAX_RAIL = 16
COMMANDS = "udlr<>*"
GRID_STEPS: dict[str, tuple[int, int]] = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
RAIL_STEPS: dict[str, int] = {"<": -1, ">": 1}
PLACE = "*"


@dataclass(frozen=True, slots=True)
class Level:
    """The grid size, the code to key in and the rail (figure indices into `rail`, reading order).

    `start` is the grid before the first command; None means all blank (index 0).
    """

    rows: int
    cols: int
    code: tuple[int, ...]
    rail: str = DEFAULT_RAIL
    start: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        for what, side in (("rows", self.rows), ("columns", self.cols)):
            if type(side) is not int or not 1 <= side <= MAX_SIDE:
                raise InvalidLevelError(
                    f"grid too large: {side!r} {what}; a password grid has 1 to {MAX_SIDE} rows and columns"
                )
        rail = self.rail
        if not isinstance(rail, str) or not 1 <= len(rail) <= MAX_RAIL:
            raise InvalidLevelError(f"the rail holds 1 to {MAX_RAIL} figures, not {rail!r}")
        if len(set(rail)) != len(rail) or any(ch.isspace() or not ch.isprintable() for ch in rail):
            raise InvalidLevelError(f"rail figures must be distinct visible characters: {rail!r}")
        if self.start is None:
            object.__setattr__(self, "start", (0,) * (self.rows * self.cols))
        for what, grid in (("code", self.code), ("start grid", self.start)):
            _check_grid(grid, self.rows * self.cols, len(rail), what)

    @property
    def cells(self) -> int:
        return self.rows * self.cols


@dataclass(frozen=True, slots=True)
class State:
    """The grid now (rail indices in reading order), the grid cursor's cell and the rail cursor's index."""

    grid: tuple[int, ...]
    cursor: int = 0
    rail: int = 0


@dataclass(frozen=True, slots=True)
class Move:
    """One command: a character of `udlr<>*`."""

    key: str

    def __post_init__(self) -> None:
        if self.key not in COMMANDS or len(self.key) != 1:
            raise InvalidMoveError(f"not a password command: {self.key!r} (commands are {COMMANDS})")

    def __str__(self) -> str:
        return self.key


MOVES: tuple[Move, ...] = tuple(Move(key) for key in COMMANDS)
_BY_KEY = {m.key: m for m in MOVES}


def _check_grid(grid: object, cells: int, figures: int, what: str) -> None:
    if not isinstance(grid, tuple) or len(grid) != cells:
        size = len(grid) if isinstance(grid, (tuple, list)) else "no"
        raise InvalidLevelError(f"the {what} has {size} cells; the grid has {cells}")
    for cell, value in enumerate(grid):
        if type(value) is not int or not 0 <= value < figures:
            raise InvalidLevelError(f"cell {cell + 1} of the {what} holds {value!r}, not a rail figure")


def grid_from_rows(rows: Sequence[str], rail: str = DEFAULT_RAIL) -> tuple[int, ...]:
    """Rail indices of rows of figure characters; InvalidLevelError for anything else."""
    width = len(rows[0]) if rows else 0
    values = []
    for r, line in enumerate(rows):
        if len(line) != width:
            raise InvalidLevelError(f"row {r + 1} has {len(line)} cells, row 1 has {width}")
        for char in line:
            index = rail.find(char)
            if index < 0:
                raise InvalidLevelError(f"row {r + 1} holds {char!r}, which is not on the rail {rail!r}")
            values.append(index)
    return tuple(values)


def grid_rows(level: Level, grid: Sequence[int]) -> list[str]:
    """Rows of figure characters for a grid of the level (inverse of grid_from_rows)."""
    cols, rail = level.cols, level.rail
    return ["".join(rail[grid[r * cols + c]] for c in range(cols)) for r in range(level.rows)]


def make_level(code: Sequence[str], rail: str = DEFAULT_RAIL, start: Sequence[str] | None = None) -> Level:
    """A Level from rows of figures, e.g. make_level(["____", "____", "____", "___S"])."""
    if not code:
        raise InvalidLevelError("a code has at least one row")
    rows, cols = len(code), len(code[0])
    if start is not None and (len(start) != rows or any(len(line) != cols for line in start)):
        raise InvalidLevelError(f"the start grid must be {rows}x{cols} like the code")
    return Level(
        rows,
        cols,
        grid_from_rows(code, rail),
        rail,
        None if start is None else grid_from_rows(start, rail),
    )


def parse_move(text: str) -> Move:
    move = _BY_KEY.get(text.strip().lower()) if isinstance(text, str) else None
    if move is None:
        raise InvalidMoveError(f"not a password command: {text!r} (commands are {COMMANDS})")
    return move


def initial_state(level: Level) -> State:
    return State(level.start, 0, 0)


def legal_moves(level: Level, state: State) -> Sequence[Move]:
    """Every command, always, in the order u d l r < > *."""
    return MOVES


def apply(level: Level, state: State, move: Move) -> State:
    key = getattr(move, "key", None)
    if key in GRID_STEPS:
        dr, dc = GRID_STEPS[key]
        row, col = divmod(state.cursor, level.cols)
        cursor = (row + dr) % level.rows * level.cols + (col + dc) % level.cols
        return State(state.grid, cursor, state.rail)
    if key in RAIL_STEPS:
        return State(state.grid, state.cursor, (state.rail + RAIL_STEPS[key]) % len(level.rail))
    if key == PLACE:
        grid = list(state.grid)
        grid[state.cursor] = state.rail
        return State(tuple(grid), state.cursor, state.rail)
    raise IllegalMoveError(f"not a password command: {move!r}")


def is_solved(level: Level, state: State) -> bool:
    return state.grid == level.code


def tally(moves: Sequence[Move]) -> Counters:
    return Counters(moves=len(moves))

"""Traffic: slide cars until the way is clear (Rush Hour and the contest "Get out").

Rules. An N x N board (3 <= N <= 8) of cells numbered `row * n + col`, row 0
at the top, with walls and straight cars, each 2 or 3 cells long, horizontal
or vertical. A move slides ONE car along its own axis by one or more cells
through empty cells. Two goal kinds:
  ("exit", "A")     the target car A (horizontal) touches the right edge;
  ("clear-row", r)  no car covers any cell of row r (walls may stay there).

Car names are single characters from CAR_NAMES: A-Z, then the lower-case
letters except `o` and `x` (which mean "empty" and "wall" in the level files),
then the digits 0-9: 60 names, enough for any 8 x 8 board.

Move text: car name, direction (L R U D), distance: `AR2` slides A two cells
right; `AR` is read as `AR1`. A plan separates its moves with spaces.
In play, consecutive moves of the same car count as ONE move (tally), so a
car stepped cell by cell costs what one slide costs; solver plans never hold
two consecutive slides of the same car.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple, Sequence

from fewest.engine.base import Counters, IllegalMoveError, InvalidLevelError, InvalidMoveError

NAME = "traffic"
PLAN_SEPARATOR = " "

MIN_SIZE, MAX_SIZE = 3, 8
CAR_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnpqrstuvwyz0123456789"
EXIT, CLEAR_ROW = "exit", "clear-row"
DIRECTIONS = frozenset("LRUD")  # L/R move horizontal cars, U/D vertical ones


class Goal(NamedTuple):
    """("exit", car name) or ("clear-row", row index from 0 at the top)."""

    kind: str
    target: str | int

    def __str__(self) -> str:
        return f"{self.kind} {self.target}"


@dataclass(frozen=True)
class Car:
    name: str
    horizontal: bool
    length: int
    line: int  # the row of a horizontal car, the column of a vertical one

    def cells(self, n: int, offset: int) -> tuple[int, ...]:
        """Its cells when its top/left end is `offset` cells along its line."""
        if self.horizontal:
            return tuple(self.line * n + offset + i for i in range(self.length))
        return tuple((offset + i) * n + self.line for i in range(self.length))

    def mask(self, n: int, offset: int) -> int:
        bits = 0
        for cell in self.cells(n, offset):
            bits |= 1 << cell
        return bits


@dataclass(frozen=True)
class Level:
    """A board: size, wall cells, cars with their start offsets, and the goal."""

    n: int
    walls: frozenset[int]
    cars: tuple[Car, ...]
    start: tuple[int, ...]  # each car's offset along its line (column / row of its top-left cell)
    goal: Goal

    def __post_init__(self) -> None:
        object.__setattr__(self, "walls", frozenset(self.walls))
        object.__setattr__(self, "cars", tuple(self.cars))
        object.__setattr__(self, "start", tuple(self.start))
        try:
            object.__setattr__(self, "goal", Goal(*self.goal))
        except TypeError:
            raise InvalidLevelError(f"a goal is (kind, target), not {self.goal!r}") from None
        _validate(self)

    @cached_property
    def index(self) -> dict[str, int]:
        """Car name -> its position in `cars`."""
        return {car.name: i for i, car in enumerate(self.cars)}

    @cached_property
    def wall_mask(self) -> int:
        return sum(1 << cell for cell in self.walls)


def _validate(level: Level) -> None:
    n = level.n
    if not (isinstance(n, int) and MIN_SIZE <= n <= MAX_SIZE):
        raise InvalidLevelError(f"board size must be {MIN_SIZE}..{MAX_SIZE}, not {n!r}")
    if any(not 0 <= cell < n * n for cell in level.walls):
        raise InvalidLevelError("a wall lies off the board")
    if len(level.start) != len(level.cars):
        raise InvalidLevelError(f"{len(level.cars)} cars but {len(level.start)} start offsets")
    owner: dict[int, str] = {cell: "a wall" for cell in level.walls}
    seen: set[str] = set()
    for car, offset in zip(level.cars, level.start):
        if len(car.name) != 1 or car.name not in CAR_NAMES:
            raise InvalidLevelError(f"car name {car.name!r} is not one of {CAR_NAMES}")
        if car.name in seen:
            raise InvalidLevelError(f"two cars are named {car.name}")
        seen.add(car.name)
        if car.length not in (2, 3):
            raise InvalidLevelError(f"car {car.name} has length {car.length}; cars are 2 or 3 long")
        if not 0 <= car.line < n or not 0 <= offset <= n - car.length:
            raise InvalidLevelError(f"car {car.name} lies off the board")
        for cell in car.cells(n, offset):
            if cell in owner:
                other = owner[cell]
                what = other if other == "a wall" else f"car {other}"
                raise InvalidLevelError(
                    f"car {car.name} overlaps {what} at row {cell // n}, col {cell % n}"
                )
            owner[cell] = car.name
    kind, target = level.goal
    if kind == EXIT:
        if target not in seen:
            raise InvalidLevelError(f"goal: exit {target}, but there is no car {target}")
        if not next(car for car in level.cars if car.name == target).horizontal:
            raise InvalidLevelError(f"goal: exit {target}, but car {target} is not horizontal")
    elif kind == CLEAR_ROW:
        if not (isinstance(target, int) and 0 <= target < n):
            raise InvalidLevelError(f"goal: clear-row {target!r}, but rows are 0..{n - 1}")
    else:
        raise InvalidLevelError(f"unknown goal kind {kind!r} (exit or clear-row)")


@dataclass(frozen=True)
class State:
    offsets: tuple[int, ...]  # each car's offset along its line, in `Level.cars` order


@dataclass(frozen=True)
class Move:
    car: str
    direction: str  # L R U D
    distance: int = 1

    def __post_init__(self) -> None:
        if not (isinstance(self.car, str) and len(self.car) == 1 and self.car in CAR_NAMES):
            raise InvalidMoveError(f"no car can be named {self.car!r}")
        if not (isinstance(self.direction, str) and self.direction in DIRECTIONS):
            raise InvalidMoveError(f"direction must be L, R, U or D, not {self.direction!r}")
        if not (isinstance(self.distance, int) and 1 <= self.distance <= MAX_SIZE):
            raise InvalidMoveError(f"distance must be 1..{MAX_SIZE}, not {self.distance!r}")

    def __str__(self) -> str:
        return f"{self.car}{self.direction}{self.distance}"


def parse_move(text: str) -> Move:
    """`AR2` -> Move("A", "R", 2); `AR` means distance 1."""
    text = text.strip()
    digits = text[2:] or "1"
    if len(text) < 2 or not (digits.isdigit() and digits.isascii() and len(digits) == 1):
        raise InvalidMoveError(f"not a traffic move: {text!r} (e.g. AR2: car, L/R/U/D, distance)")
    return Move(text[0], text[1], int(digits))


def initial_state(level: Level) -> State:
    return State(level.start)


def occupancy(level: Level, state: State) -> int:
    """Bitmask of the cells covered by walls and cars."""
    bits = level.wall_mask
    for car, offset in zip(level.cars, state.offsets):
        bits |= car.mask(level.n, offset)
    return bits


def _reach(level: Level, occupied: int, car: Car, offset: int, forward: bool) -> int:
    """How far `car` can slide backward (L/U) or forward (R/D) from `offset`."""
    n, step = level.n, 0
    while True:
        ahead = offset + car.length + step if forward else offset - step - 1
        if not 0 <= ahead < n:
            return step
        cell = car.line * n + ahead if car.horizontal else ahead * n + car.line
        if occupied >> cell & 1:
            return step
        step += 1


def legal_moves(level: Level, state: State) -> list[Move]:
    """Every slide: cars in `Level.cars` order; per car L then R (or U then D); distances ascending."""
    occupied = occupancy(level, state)
    moves: list[Move] = []
    for car, offset in zip(level.cars, state.offsets):
        back, fore = ("L", "R") if car.horizontal else ("U", "D")
        for direction, forward in ((back, False), (fore, True)):
            for distance in range(1, _reach(level, occupied, car, offset, forward) + 1):
                moves.append(Move(car.name, direction, distance))
    return moves


def apply(level: Level, state: State, move: Move) -> State:
    i = level.index.get(move.car)
    if i is None:
        raise IllegalMoveError(f"there is no car {move.car}")
    car, offset = level.cars[i], state.offsets[i]
    forward = move.direction in "RD"
    if (move.direction in "LR") != car.horizontal:
        axis = "left/right" if car.horizontal else "up/down"
        raise IllegalMoveError(f"car {car.name} moves {axis} only")
    others = occupancy(level, state) & ~car.mask(level.n, offset)
    if _reach(level, others, car, offset, forward) < move.distance:
        raise IllegalMoveError(f"car {car.name} cannot slide {move.direction}{move.distance}: blocked")
    offsets = list(state.offsets)
    offsets[i] = offset + move.distance if forward else offset - move.distance
    return State(tuple(offsets))


def is_solved(level: Level, state: State) -> bool:
    kind, target = level.goal
    if kind == EXIT:
        i = level.index[target]
        return state.offsets[i] + level.cars[i].length == level.n
    return all(
        car.line != target if car.horizontal else not offset <= target < offset + car.length
        for car, offset in zip(level.cars, state.offsets)
    )


def compact(moves: Sequence[Move]) -> list[Move]:
    """The same plan with each run of one car's slides the same way as one slide (AR1 AR1 is
    AR2): it replays to the same position and the counter counts it the same."""
    out: list[Move] = []
    for move in moves:
        if out and out[-1].car == move.car and out[-1].direction == move.direction:
            out[-1] = Move(move.car, move.direction, out[-1].distance + move.distance)
        else:
            out.append(move)
    return out


def tally(moves: Sequence[Move]) -> Counters:
    """A run of consecutive moves of the same car counts as one move."""
    count, last = 0, None
    for move in moves:
        if move.car != last:
            count += 1
            last = move.car
    return Counters(moves=count)


# ----- helpers for drawing and level files (no I/O) --------------------------------------


def rows(level: Level, state: State | None = None) -> list[str]:
    """The board as N strings: `.` empty, `x` wall, car names."""
    n = level.n
    grid = [["."] * n for _ in range(n)]
    for cell in level.walls:
        grid[cell // n][cell % n] = "x"
    offsets = level.start if state is None else state.offsets
    for car, offset in zip(level.cars, offsets):
        for cell in car.cells(n, offset):
            grid[cell // n][cell % n] = car.name
    return ["".join(row) for row in grid]


class CellError(InvalidLevelError):
    """A board-text problem at one cell (0-based row, col), so readers can locate it."""

    def __init__(self, message: str, row: int, col: int) -> None:
        super().__init__(message)
        self.row, self.col = row, col


def level_from_rows(board: Sequence[str], goal: Goal | tuple[str, str | int]) -> Level:
    """A level from N strings of N characters (`.`/`o` empty, `x` wall, car names).

    Cars are listed in CAR_NAMES order. Raises CellError (with the cell) for
    unknown characters and bent, gappy, too short or too long cars.
    """
    n = len(board)
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise InvalidLevelError(f"board must have {MIN_SIZE}..{MAX_SIZE} rows, not {n}")
    walls: set[int] = set()
    spots: dict[str, list[tuple[int, int]]] = {}
    for r, text in enumerate(board):
        if len(text) != n:
            raise CellError(
                f"row {r} has {len(text)} cells; the board has {n} rows, so each row needs {n}", r, min(len(text), n)
            )
        for c, ch in enumerate(text):
            if ch in ".o":
                continue
            if ch == "x":
                walls.add(r * n + c)
            elif ch in CAR_NAMES:
                spots.setdefault(ch, []).append((r, c))
            else:
                raise CellError(f"unknown character {ch!r}", r, c)
    cars, start = [], []
    for name in sorted(spots, key=CAR_NAMES.index):
        car, offset = _car_from_spots(name, spots[name])
        cars.append(car)
        start.append(offset)
    return Level(n, frozenset(walls), tuple(cars), tuple(start), goal)


def _car_from_spots(name: str, spots: list[tuple[int, int]]) -> tuple[Car, int]:
    """The car covering `spots` (in reading order), or a CellError at the first bad cell."""
    (r0, c0), (r1, c1) = spots[0], spots[-1]
    if len(spots) == 1:
        raise CellError(f"car {name} has length 1; cars are 2 or 3 long", r0, c0)
    horizontal = all(r == r0 for r, _ in spots)
    if not horizontal and any(c != c0 for _, c in spots):
        raise CellError(f"car {name} is bent (not in one row or column)", r1, c1)
    for i, (r, c) in enumerate(spots):
        if (r, c) != ((r0, c0 + i) if horizontal else (r0 + i, c0)):
            raise CellError(f"car {name} is not one straight piece", r, c)
    if len(spots) > 3:
        raise CellError(f"car {name} has length {len(spots)}; cars are 2 or 3 long", r1, c1)
    if horizontal:
        return Car(name, True, len(spots), r0), c0
    return Car(name, False, len(spots), c0), r0

"""The small changes a traffic layout climbs by: a car added, removed or replaced, made a
truck or a car (3 or 2 cells), or turned about its first cell (never car A, and never a
horizontal car but A across the exit row, which would block the exit for good).

Measured at the farthest position of the layout's cluster over 4 000 changes (6x6, the
share that made the cluster's longest par longer, CPU per change): an added car 7.5 %
(its cluster small: 4 ms), replaced 4.8 % (10 ms), reshaped 4.5 %, turned 2.8 %, removed
0.9 % (13 ms: its cluster grows); a car moved along its line past another almost never
helps. `changed` draws them in about those proportions.
"""

from __future__ import annotations

import random

from fewest.engine.traffic import CAR_NAMES, Car, Level

TRUCKS = 0.25  # the share of added cars 3 long
# how often each change is drawn (out of the sum)
WEIGHTS = (("add", 3), ("replace", 2), ("reshape", 1), ("turn", 1), ("remove", 1))
_DRAW = [name for name, weight in WEIGHTS for _ in range(weight)]
TRIES = 30  # draws before giving up on a layout no change fits (then it comes back as it was)


def exit_row(n: int) -> int:
    return (n - 1) // 2


def changed(rng: random.Random, level: Level) -> Level:
    """The level with one change drawn at random; the level itself only when none fits."""
    for _ in range(TRIES):
        placed, start = list(level.cars), list(level.start)
        change = rng.choice(_DRAW)
        if change == "add":
            _add(rng, level.n, placed, start)
        elif len(placed) > 1:
            at = rng.randrange(1, len(placed))
            if change in ("remove", "replace"):
                del placed[at], start[at]
                if change == "replace":
                    _add(rng, level.n, placed, start)
            else:
                _reshaped(level.n, placed, start, at, turn=change == "turn")
        if placed != list(level.cars) or start != list(level.start):
            return renamed(level, placed, start)
    return level


def place(rng: random.Random, n: int, placed: list[Car], start: list[int], taken: set[int],
          car: Car | None = None) -> None:
    """Put `car` (None: a random one) at a random free offset, if it fits there."""
    if car is None:
        horizontal = rng.random() < 0.5
        line = rng.randrange(n)
        if horizontal and line == exit_row(n):
            return
        car = Car(CAR_NAMES[len(placed)], horizontal, 3 if rng.random() < TRUCKS else 2, line)
    offset = rng.randrange(n - car.length + 1)
    cells = car.cells(n, offset)
    if not taken.intersection(cells):
        taken.update(cells)
        placed.append(car)
        start.append(offset)


def renamed(level: Level, placed: list[Car], start: list[int]) -> Level:
    """The level with these cars, named A, B, C... in order."""
    cars = tuple(Car(CAR_NAMES[i], car.horizontal, car.length, car.line) for i, car in enumerate(placed))
    return Level(level.n, level.walls, cars, tuple(start), level.goal)


def _add(rng: random.Random, n: int, placed: list[Car], start: list[int]) -> None:
    taken = _taken(n, placed, start)
    for _ in range(50):
        before = len(placed)
        place(rng, n, placed, start, taken)
        if len(placed) > before:
            return


def _reshaped(n: int, placed: list[Car], start: list[int], at: int, turn: bool) -> None:
    """Car `at` turned about its first cell, or else made 3 cells long from 2 (or 2 from 3),
    where the cells it needs are free."""
    car, offset = placed[at], start[at]
    taken = _taken(n, placed[:at] + placed[at + 1:], start[:at] + start[at + 1:])
    if turn:
        row, col = divmod(car.cells(n, offset)[0], n)
        new = Car(car.name, not car.horizontal, car.length, row if not car.horizontal else col)
        offsets = [col if new.horizontal else row]
    else:
        new = Car(car.name, car.horizontal, 5 - car.length, car.line)
        offsets = [offset, offset - 1] if new.length == 3 else [offset, offset + 1]
    if new.horizontal and new.line == exit_row(n):
        return
    for spot in offsets:
        if 0 <= spot <= n - new.length and not taken.intersection(new.cells(n, spot)):
            placed[at], start[at] = new, spot
            return


def _taken(n: int, placed: list[Car], start: list[int]) -> set[int]:
    return {cell for car, offset in zip(placed, start) for cell in car.cells(n, offset)}

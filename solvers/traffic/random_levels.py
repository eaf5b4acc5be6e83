"""Seeded random traffic boards for benchmarks, tests and generated packs."""

from __future__ import annotations

import random

from fewest.engine.traffic import CAR_NAMES, CLEAR_ROW, EXIT, Car, Goal, Level


def random_level(
    rng: random.Random,
    n: int,
    cars: int,
    *,
    goal: str = EXIT,
    walls: int = 0,
    lengths: tuple[int, ...] = (2, 3),
    spare_goal_row: bool = False,
) -> Level:
    """A board with up to `cars` cars (fewer when the board fills up) and `walls` walls.

    goal "exit": car A (2 long, horizontal) in a random row; "clear-row": a random
    row, kept free of horizontal cars when `spare_goal_row` (else it may be unsolvable).
    """
    wall_cells = frozenset(rng.sample(range(n * n), walls))
    taken: set[int] = set(wall_cells)
    placed: list[Car] = []
    start: list[int] = []
    goal_row = rng.randrange(n)

    def try_place(horizontal: bool, length: int, line: int) -> bool:
        offset = rng.randrange(n - length + 1)
        car = Car(CAR_NAMES[len(placed)], horizontal, length, line)
        cells = car.cells(n, offset)
        if taken.intersection(cells):
            return False
        taken.update(cells)
        placed.append(car)
        start.append(offset)
        return True

    if goal == EXIT:
        for _ in range(100):
            if try_place(True, 2, goal_row):
                break
        else:
            return random_level(rng, n, cars, goal=goal, walls=walls, lengths=lengths)
    for _ in range(cars * 20):
        if len(placed) >= cars:
            break
        horizontal = rng.random() < 0.5
        line = rng.randrange(n)
        if horizontal and goal == CLEAR_ROW and spare_goal_row and line == goal_row:
            continue
        try_place(horizontal, rng.choice(lengths), line)
    target: str | int = "A" if goal == EXIT else goal_row
    return Level(n, wall_cells, tuple(placed), tuple(start), Goal(goal, target))

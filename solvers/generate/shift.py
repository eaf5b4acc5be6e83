"""Shift boards: a random start and target with the same number of pieces, filling a
quarter to a half of the board (pars grow with the board; targets.py picks the size)."""

from __future__ import annotations

import random
from typing import Iterator

from fewest.engine.shift import Level
from fewest.solvers.generate.targets import Target


def candidates(rng: random.Random, target: Target) -> Iterator[Level]:
    assert target.size is not None
    rows, cols = target.size
    cells = range(rows * cols)
    while True:
        pieces = max(1, round(len(cells) * rng.uniform(0.25, 0.5)))
        start, goal = (sum(1 << cell for cell in rng.sample(cells, pieces)) for _ in range(2))
        if start != goal:
            yield Level(rows, cols, start, goal)

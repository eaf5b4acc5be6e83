"""Password codes: each cell a random figure of the rail (the blank included) on a fresh
grid, a random share of the cells written (pars grow with the grid and that share)."""

from __future__ import annotations

import random
from typing import Iterator

from fewest.engine.password import DEFAULT_RAIL, Level
from fewest.solvers.generate.targets import Target


def candidates(rng: random.Random, target: Target) -> Iterator[Level]:
    assert target.size is not None
    rows, cols = target.size
    figures = len(DEFAULT_RAIL)
    while True:
        written = rng.uniform(0.2, 1.0)
        code = tuple(rng.randrange(1, figures) if rng.random() < written else 0 for _ in range(rows * cols))
        if any(code):
            yield Level(rows, cols, code)

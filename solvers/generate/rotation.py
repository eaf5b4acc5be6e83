"""Rotation boards: eight of each digit. Short pars come from scrambling a solved board
by a few rotations (a uniform board almost never needs fewer than five); longer ones
from uniform shuffles, which need 7-10 moves mostly."""

from __future__ import annotations

import random
from typing import Iterator

from fewest.engine import rotation as rules
from fewest.engine.rotation import CENTRE, CELLS, MOVES, Level
from fewest.solvers.generate.targets import Target

SCRAMBLED_UP_TO = 6  # pars up to this come from scrambles


def candidates(rng: random.Random, target: Target) -> Iterator[Level]:
    while True:
        if target.low <= SCRAMBLED_UP_TO:
            yield _scrambled(rng, rng.randint(target.low, min(target.high, SCRAMBLED_UP_TO)))
        else:
            yield _shuffled(rng)


def _shuffled(rng: random.Random) -> Level:
    cells = [digit for digit in rules.DIGITS for _ in range(8)]
    rng.shuffle(cells)
    return Level(tuple(cells))


def _scrambled(rng: random.Random, turns: int) -> Level:
    """A board with the centre all one digit, then `turns` random rotations."""
    centre = rng.choice(rules.DIGITS)
    rest = [digit for digit in rules.DIGITS if digit != centre for _ in range(8)]
    rng.shuffle(rest)
    cells = [0] * CELLS
    for cell in CENTRE:
        cells[cell] = centre
    for cell in (c for c in range(CELLS) if c not in CENTRE):
        cells[cell] = rest.pop()
    state = rules.State(tuple(cells))
    for _ in range(turns):
        state = rules.apply(Level(state.cells), state, rng.choice(MOVES))
    return Level(state.cells)

"""Exact rotation solver: one table lookup per candidate move.

The distance of a board is the least, over its digits, of the distance of
that digit's cell mask in the shared tables (`rotation/distances.py`; only the
tables of the board's digit counts are loaded or built). The contest's
answer, the lexicographically smallest of the shortest plans, then follows
greedily: from distance D, play the first move A..H after which the board's
distance is D - 1. (Plans of length D starting with move m exist exactly when
the board after m is at distance D - 1, so the first such m starts the
smallest plan; repeat.) The digit left in the centre is reported in
`Solution.extra["digit"]`.

`baseline` is the plain method: the generic IDA* over the engine with the
heuristic 8 - (most centre cells holding one digit). It is admissible and
consistent because a move shifts its line by one cell, so exactly one value
enters the centre and one leaves: no digit's centre count changes by more
than 1 per move.
"""

from __future__ import annotations

import random

from fewest.engine import rotation as rules
from fewest.engine.base import replay
from fewest.engine.rotation import CENTRE, DIGITS, MOVES, Level, State
from fewest.solvers.common.control import Check, Control, Stopped, no_check
from fewest.solvers.rotation.distances import DistanceTable, shared_table
from fewest.solvers.rotation.masks import GOAL_CELLS, image, rank
from fewest.solvers.common.search import RulesProblem, idastar
from fewest.solvers.common.solution import Solution, Status, stats_of, stopped_status

METRICS = ("moves",)


def digit_masks(state: State) -> dict[int, int]:
    """For each digit on the board with at least 8 cells, the mask of its cells."""
    masks: dict[int, int] = {}
    for cell, digit in enumerate(state.cells):
        masks[digit] = masks.get(digit, 0) | 1 << cell
    return {d: m for d, m in sorted(masks.items()) if m.bit_count() >= GOAL_CELLS}


def lexicographic_plan(
    table: DistanceTable, state: State, control: Control | None = None
) -> tuple[tuple, int]:
    """(moves, digit): the lexicographically smallest shortest plan and the digit it centres."""
    masks = digit_masks(state)
    current = list(masks.values())
    if not current:  # impossible with 24 cells and 3 digits, kept for honesty
        raise ValueError("board cannot be solved")
    # Each digit's table once (moves keep the counts): the loop below is the hot path.
    table.require([m.bit_count() for m in current], None if control is None else control.check)
    tables = [table.raw(m.bit_count()) for m in current]
    distances = [t[rank(m)] for t, m in zip(tables, current)]
    depth = min(distances)
    plan = []
    while depth:
        if control is not None:
            control.tick()
        for number, move in enumerate(MOVES):
            after = [image(m, number) for m in current]
            distances = [t[rank(m)] for t, m in zip(tables, after)]
            if min(distances) < depth:
                current, depth = after, depth - 1
                plan.append(move)
                break
        else:
            raise AssertionError("distance table is inconsistent")
    return tuple(plan), list(masks)[distances.index(0)]


def solve(level: Level, state: State, control: Control, metric: str = "moves") -> Solution:
    with control.metered() as meter:
        done = rules.centre_digit(state)
        if done is not None:  # no table needed to know that nothing is needed
            return Solution(Status.OPTIMAL, (), stats_of(control, meter), {"digit": done})
        try:
            moves, digit = lexicographic_plan(shared_table(), state, control)
        except Stopped as stop:
            return Solution(stopped_status(stop.reason), (), stats_of(control, meter, stop.reason))
        meter.bound = len(moves)
        return Solution(Status.OPTIMAL, moves, stats_of(control, meter), {"digit": digit})


def warm_up(level: Level | None = None, check: Check = no_check) -> None:
    """Load (or build once and cache) the tables of the level's digit counts (8/8/8 without a
    level), so every later hint is a lookup: moves never change the counts."""
    if level is None:
        counts = [GOAL_CELLS]
    else:
        counts = [m.bit_count() for m in digit_masks(rules.initial_state(level)).values()]
    shared_table().require(counts, check)


def centre_heuristic(state: State) -> int:
    """8 minus the most centre cells that one digit holds (admissible: see module docstring)."""
    cells = state.cells
    centre = [cells[i] for i in CENTRE]
    return len(CENTRE) - max(centre.count(d) for d in DIGITS)


def baseline(level: Level, state: State, control: Control) -> Solution:
    """Generic IDA* over the engine; moves tried A..H, so its plan is the contest's answer too."""
    found = idastar(RulesProblem(rules, level, state), centre_heuristic, control)
    if not found.solved:
        return found
    final = replay(rules, level, found.moves, state)
    return Solution(found.status, found.moves, found.stats, {"digit": rules.centre_digit(final)})


def random_board(rng: random.Random, counts: tuple[int, int, int] = (8, 8, 8)) -> Level:
    """A shuffled board holding counts[i] cells of digit i + 1."""
    cells = [d for d, n in zip(DIGITS, counts) for _ in range(n)]
    rng.shuffle(cells)
    return Level(tuple(cells))


def bench_cases(quick: bool) -> list[tuple[str, Level, State]]:
    """Seeded 8/8/8 boards scrambled by 3..7 moves (quick) or 3..12 plus uniformly random (full).

    Picked without the table, so the bench's warm-up time is the honest table load or build;
    quick keeps them shallow enough for the IDA* baseline."""
    rng = random.Random(2286)
    lengths = range(3, 8) if quick else range(3, 13)
    cases: list[tuple[str, Level, State]] = []
    for length in lengths:
        for copy in range(1, 3):
            level = scrambled_board(rng, length)
            while rules.centre_digit(rules.initial_state(level)) is not None:
                level = scrambled_board(rng, length)
            cases.append((f"scramble {length} #{copy}", level, rules.initial_state(level)))
    if not quick:  # typical boards, mostly 8 to 10 moves deep
        for copy in range(1, 7):
            level = random_board(rng)
            cases.append((f"random #{copy}", level, rules.initial_state(level)))
    return cases


def scrambled_board(
    rng: random.Random, length: int, counts: tuple[int, int, int] = (8, 8, 8)
) -> Level:
    """A board solved for a digit with 8+ cells, then `length` random moves (shallow on purpose:
    uniformly random boards are mostly 8 to 10 moves deep)."""
    digit = rng.choice([d for d, n in zip(DIGITS, counts) if n >= len(CENTRE)])
    rest = [d for d, n in zip(DIGITS, counts) for _ in range(n - len(CENTRE) * (d == digit))]
    rng.shuffle(rest)
    others = iter(rest)
    state = State(tuple(digit if i in CENTRE else next(others) for i in range(rules.CELLS)))
    for _ in range(length):
        state = rules.apply(None, state, rng.choice(MOVES))
    return Level(state.cells)

"""Exact password solver: the cheapest write order, then the commands that realise it.

`password/tour.py` explains why the fewest commands is a shortest path through
the cells whose figure is wrong. The best order is found exactly by
Held-Karp (`password/heldkarp.py`: a fixed 2^n x n^2 numpy programme, about
2.5 ms for a full 4x4 code, whatever the code) up to HELD_KARP_LIMIT cells,
and by A* with a strong bound (`password/astar.py`) beyond. Held-Karp is used
even where A* is often quicker (half the full 4x4 codes take it under 2 ms):
its bound starts 1-4 commands short on most codes, and on one in five A*
expands thousands of nodes (tens to hundreds of ms); the fixed cost is the
better worst case. Between two writes
the plan moves the rail cursor the short way round (`>` on a tie), then the
grid cursor the short way round, rows first (`d`, `r` on a tie), then
places (`*`).

`baseline` is the plain reference: the generic A* over the same write-order
states with the weakest bound (one command per cell still to write), i.e.
little more than Dijkstra. A generic BFS over the engine's states would be
the plainest of all, but it only finishes on codes of two or three figures.
"""

from __future__ import annotations

import random

from fewest.engine import password as rules
from fewest.engine.password import Level, Move, State
from fewest.solvers.common.control import Check, Control, Stopped, no_check
from fewest.solvers.password.astar import OrderProblem, astar_order
from fewest.solvers.password.heldkarp import HELD_KARP_LIMIT, held_karp, prepare, value_type
from fewest.solvers.password.tour import Tour, tour_of
from fewest.solvers.common.search import astar
from fewest.solvers.common.solution import Solution, Status, stats_of, stopped_status

METRICS = ("moves",)
WARM_UP_CELLS = 16  # every count of wrong cells on a 4x4 grid
_MOVE = {key: rules.Move(key) for key in rules.COMMANDS}


def _wrapped(steps: int, size: int, forward: str, backward: str) -> list[Move]:
    """The short way round a cycle of `size` for a forward offset of `steps` (forward on a tie)."""
    steps %= size
    if steps <= size - steps:
        return [_MOVE[forward]] * steps
    return [_MOVE[backward]] * (size - steps)


def commands(tour: Tour, order: tuple[int, ...]) -> tuple[Move, ...]:
    """The command list that writes tour.cells in `order`, starting from the tour's cursors."""
    plan: list[Move] = []
    cell, figure = tour.cursor, tour.rail
    for j in order:
        target, wanted = tour.cells[j], tour.figures[j]
        (row, col), (to_row, to_col) = divmod(cell, tour.cols), divmod(target, tour.cols)
        plan += _wrapped(wanted - figure, tour.rail_size, ">", "<")
        plan += _wrapped(to_row - row, tour.rows, "d", "u")
        plan += _wrapped(to_col - col, tour.cols, "r", "l")
        plan.append(_MOVE[rules.PLACE])
        cell, figure = target, wanted
    return tuple(plan)


def exact_order(tour: Tour, control: Control) -> tuple[int, ...] | Solution:
    """The best write order, or the Solution explaining why there is none (budget, cancel, beyond A*).

    Raises Stopped when the caller's budget or cancel fires during Held-Karp.
    """
    if len(tour.cells) <= HELD_KARP_LIMIT:
        return held_karp(tour, control)
    found = astar_order(tour, control)
    return found.moves if found.solved else Solution(found.status, (), found.stats)


def solve(level: Level, state: State, control: Control, metric: str = "moves") -> Solution:
    tour = tour_of(level, state)
    with control.metered() as meter:
        try:
            order = exact_order(tour, control)
        except Stopped as stop:
            return Solution(stopped_status(stop.reason), (), stats_of(control, meter, stop.reason))
        if isinstance(order, Solution):
            return order
        moves = commands(tour, order)
        meter.bound = len(moves)
        return Solution(Status.OPTIMAL, moves, stats_of(control, meter))


def warm_up(level: Level, check: Check = no_check) -> None:
    """Build the Held-Karp subset tables for every count of wrong cells a position of this level
    can have (any cell may hold a wrong figure mid-game), and its scratch arrays, so no hint pays for them.

    Up to WARM_UP_CELLS (about 10 MB, 50-100 ms); the rare larger counts build on first use.
    """
    dtype = value_type(tour_of(level, rules.initial_state(level)))
    for n in range(1, min(level.cells, WARM_UP_CELLS) + 1):
        check()
        prepare(n, dtype)


def baseline(level: Level, state: State, control: Control) -> Solution:
    """Generic A* over write orders with the bound 'one command per cell still to write'."""
    tour = tour_of(level, state)
    problem = OrderProblem(tour)
    found = astar(problem, lambda s: problem.full.bit_count() - s[0].bit_count(), control)
    if not found.solved:
        return found
    return Solution(found.status, commands(tour, found.moves), found.stats)


def random_code(
    rng: random.Random, figures: int, rows: int = 4, cols: int = 4, rail: str = rules.DEFAULT_RAIL
) -> Level:
    """A code with `figures` non-blank cells at random places, each a random non-blank figure."""
    code = [0] * (rows * cols)
    for cell in rng.sample(range(rows * cols), figures):
        code[cell] = rng.randrange(1, len(rail))
    return Level(rows, cols, tuple(code), rail)


def bench_cases(quick: bool) -> list[tuple[str, Level, State]]:
    """Seeded random 4x4 codes, fewest figures first (the baseline runs on the first few), up to 16."""
    rng = random.Random(1991)
    counts = [3, 4, 5, 6, 7, 8, 9, 10, 12, 14] + [16] * 6
    if not quick:
        counts = [n for n in range(3, 17) for _ in range(3)] + [16] * 12
    cases = []
    for number, figures in enumerate(counts, 1):
        level = random_code(rng, figures)
        cases.append((f"4x4 {figures} figures #{number}", level, rules.initial_state(level)))
    return cases


def bench_notes() -> list[str]:
    return [
        f"password: Held-Karp (numpy, uint8 layers) up to {HELD_KARP_LIMIT} cells, A* beyond; "
        "baseline = generic A* on write orders with the places-left bound"
    ]

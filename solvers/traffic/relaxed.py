"""Answers for hard "Get out" boards from the same board with fewer cars.

Taking cars off a board only frees cells, so every plan of the full board,
with the removed cars' slides dropped, is a plan of the smaller one (its
kept cars slide through cells that are free on the full board). Hence:
- the smaller board has no plan: neither has the full one;
- the smaller board's fewest moves is a lower bound for the full one's, and
  a shortest plan of it that never passes through a cell a removed car
  holds (those never move) is a plan of the full board too, so it is a
  shortest one.

The cars kept start as those covering the row to clear (the goal concerns
them alone; the others stay out of the row) and grow by refinement: each
round solves the smaller board and adds the cars its shortest plan passes
through, until that board has no plan, its plan is real, or the rounds'
budget is spent. Some dense boards whose cluster runs to tens of millions of
positions are settled here by a dozen cars in a second.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from fewest.engine import traffic as rules
from fewest.engine.traffic import Level, Move
from fewest.solvers.common.control import Budget, Control, Stopped
from fewest.solvers.traffic.tuning import TUNING, TrafficTuning

# Positions the rounds may expand between them, for all their searches: about a second
# of work, then the full board's own search is the better use of the time. A board with
# most of the cars is no smaller a search (freed cars roam: one car less can make the
# cluster six times larger), so the rounds stop before that.


@dataclass(frozen=True)
class Relaxed:
    """What the rounds settled: `moves` None when no plan exists, else a shortest plan."""

    moves: list[Move] | None


def settle(
    level: Level, control: Control, solve_smaller: Callable[[Level, Control], list[Move] | None],
    tuning: TrafficTuning = TUNING,
) -> Relaxed | None:
    """A proven answer for `level` from its start, from boards with fewer cars, or None when
    the rounds end without one. `solve_smaller(level, control)` gives a smaller board's
    shortest plan, or None when it has none (it raises Stopped past its control's budget)."""
    n, row = level.n, level.goal.target
    holder = {cell: i for i, (car, offset) in enumerate(zip(level.cars, level.start))
              for cell in car.cells(n, offset)}
    kept = {i for cell, i in holder.items() if cell // n == row}
    budget, nodes = control.budget, tuning.round_nodes
    seconds = None if budget.seconds is None else max(0.0, budget.seconds - control.seconds) * tuning.round_share
    if budget.nodes is not None:
        nodes = min(nodes, max(0, budget.nodes - control.expanded))
    report = control.on_progress
    rounds = Control(Budget(seconds=seconds, nodes=nodes, memory_bytes=budget.memory_bytes),
                     should_stop=control.should_stop, progress_interval=control.progress_interval,
                     # the caller's own figures, counted on: its nodes never run backwards, and
                     # its bound stays (a smaller board's is no bound on the full board's moves)
                     on_progress=None if report is None else lambda progress: report(
                         replace(progress, expanded=control.expanded + progress.expanded,
                                 bound=control.progress().bound, seconds=control.seconds)))
    try:
        while len(kept) <= tuning.kept_share * len(level.cars):
            smaller = _with_cars(level, kept)
            moves = solve_smaller(smaller, rounds)
            if moves is None:
                return Relaxed(None)
            passed = {holder[cell] for cell in _cells_passed(smaller, moves) if cell in holder} - kept
            if not passed:
                return Relaxed(moves)
            kept |= passed
    except Stopped as stop:
        if stop.reason == "cancelled":
            raise
        return None
    finally:
        control.expanded += rounds.expanded
    return None


def _with_cars(level: Level, kept: set[int]) -> Level:
    chosen = sorted(kept)
    return Level(level.n, level.walls, tuple(level.cars[i] for i in chosen),
                 tuple(level.start[i] for i in chosen), level.goal)


def _cells_passed(level: Level, moves: list[Move]) -> set[int]:
    """Every cell a car covers at some time while `moves` are played from the start."""
    n, state, cells = level.n, rules.initial_state(level), set()
    for move in moves:
        i = level.index[move.car]
        before = state.offsets[i]
        state = rules.apply(level, state, move)
        after = state.offsets[i]
        for offset in range(min(before, after), max(before, after) + 1):
            cells.update(level.cars[i].cells(n, offset))
    return cells

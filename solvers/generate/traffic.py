"""Rush Hour boards by Fogleman's cluster method, with a climb towards long pars.

A random layout (car A across the exit row, other cars of length 2 or 3 anywhere) has a
cluster: every position reachable from it. The exact solver's table (traffic/table.py)
gives every position of it its distance to the goal, so one search says the longest par
the cluster holds; a position at the distance wanted (the farthest one, up to the
target's highest par) is kept. Random layouts seldom hold more than 15 moves, so a
population of layouts then climbs: a random member gets a change at its farthest
position (a car added, removed, replaced, reshaped or turned: traffic_changes.py); the
change replaces it when its cluster's longest par does not fall, else the population's
weakest member when it beats that. A cluster too large to be deep is dropped unexplored
(CLUSTER_EDGES), and one met before is not searched again (traffic_clusters.py). (One
layout climbing alone gets to 20 moves soonest but stalls on plateaus; with the changes
above, a population of twelve reached 40 moves in a median of 2 350 clusters over six
seeds, the lone climb restarted when stalled in 3 800: the population grows with the par
wanted.) Last, the level is made minimal: each car whose removal keeps the par is
removed, so every car left matters.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Iterator

import numpy as np

from fewest.engine.traffic import EXIT, Car, Goal, Level, State
from fewest.solvers.common.control import Control
from fewest.solvers.generate.targets import Target
from fewest.solvers.generate.traffic_clusters import ClusterMemo, Known
from fewest.solvers.generate.traffic_changes import changed, exit_row, place, renamed
from fewest.solvers.traffic.solver import search, solve
from fewest.solvers.traffic.table import DistanceTable
from fewest.solvers.traffic.tuning import TUNING

# Layouts climbing together: one for pars up to SOLO_UP_TO (a lone greedy climb gets there
# soonest), one more for every two moves beyond, up to POPULATION (12 at 40 moves).
POPULATION, SOLO_UP_TO = 12, 18
STALL = 3  # changes without a new longest par, per layout and move wanted, before the climb starts afresh
# A cluster whose adjacency passes this many entries (about 20 000 positions) is dropped
# unexplored on boards up to 6x6: deep clusters are small there (the database's 51-move one
# has 4 780 positions), and the few large ones a climb meets took 90 % of its time. Larger
# boards keep the solver's own limit: most of their clusters are larger.
CLUSTER_EDGES = 150_000
_CLUSTER_TUNING = replace(TUNING, edge_limit=CLUSTER_EDGES)


def candidates(rng: random.Random, target: Target) -> Iterator[Level]:
    assert target.size is not None
    n = target.size[0]
    control, memo = Control(), ClusterMemo()
    while True:
        want = rng.randint(target.low, target.high)  # (pars spread over the range)
        found = _climbed(rng, n, want, control, memo)
        if found is not None:
            level, longest = found
            yield _minimal(_at_distance(rng, level, min(longest, target.high), control), control)


def _climbed(rng: random.Random, n: int, want: int, control: Control,
             memo: ClusterMemo) -> tuple[Level, int] | None:
    """A layout whose cluster holds a position `want` moves or more from the goal (at its
    farthest position), and that distance; None when the population stalls."""
    size = min(POPULATION, 1 + max(0, want - SOLO_UP_TO) // 2)
    population: list[tuple[Level, int]] = []
    while len(population) < size:
        population.append(_fresh(rng, n, control, memo))
        if population[-1][1] >= want:
            return population[-1]
    best, stall = max(far for _, far in population), 0
    while stall < STALL * size * want:
        at = rng.randrange(size)
        level, far = _cluster(changed(rng, population[at][0]), control, memo)
        weakest = min(range(size), key=lambda i: population[i][1])
        if far >= population[at][1]:
            population[at] = (level, far)
        elif far > population[weakest][1]:
            population[weakest] = (level, far)
        if far >= want:
            return level, far
        stall = 0 if far > best else stall + 1
        best = max(best, far)
    return None


def _fresh(rng: random.Random, n: int, control: Control, memo: ClusterMemo) -> tuple[Level, int]:
    """A random layout with a goal in its cluster, moved to its farthest position."""
    while True:
        level, far = _cluster(_random_layout(rng, n, rng.randrange(n + 2, 2 * n + 2)), control, memo)
        if far >= 1:
            return level, far


def _random_layout(rng: random.Random, n: int, cars: int) -> Level:
    placed: list[Car] = []
    start: list[int] = []
    taken: set[int] = set()
    place(rng, n, placed, start, taken, Car("A", True, 2, exit_row(n)))
    for _ in range(cars * 20):
        if len(placed) >= cars:
            break
        place(rng, n, placed, start, taken)
    return Level(n, frozenset(), tuple(placed), tuple(start), Goal(EXIT, "A"))


def _table(level: Level, control: Control) -> DistanceTable | None:
    """The level's whole cluster with every position's distance; None when it is larger than
    a deep cluster ever is (see CLUSTER_EDGES)."""
    tuning = _CLUSTER_TUNING if level.n <= 6 else TUNING
    found = search(level, State(level.start), control, None, table_only=True, tuning=tuning)
    return found if isinstance(found, DistanceTable) else None


def _cluster(level: Level, control: Control, memo: ClusterMemo) -> tuple[Level, int]:
    """The level moved to the farthest position of its cluster, and that distance (-1: no goal
    or too large); a cluster met before is not searched again."""
    found = memo.find(level)
    if found is not None:
        return found
    table = _table(level, control)
    if table is None or not len(table):
        memo.keep(level, None)
        return level, -1
    at = int(np.argmax(table.distance))
    farthest, far = _moved(level, table, int(table.keys[at])), int(table.distance[at])
    memo.keep(level, Known(table.layout, table.keys, farthest, far))
    return farthest, far


def _at_distance(rng: random.Random, level: Level, distance: int, control: Control) -> Level:
    """The level moved to a random position of its cluster `distance` moves from the goal."""
    table = _table(level, control)
    assert table is not None
    keys = table.keys[table.distance == distance]
    return _moved(level, table, int(keys[rng.randrange(len(keys))]))


def _moved(level: Level, table: DistanceTable, key: int) -> Level:
    layout = table.layout
    configs = layout.line_configs(np.array([key], dtype=layout.dtype))[0]
    offsets = list(level.start)
    for line, cars in enumerate(layout.lines):
        for slot, car in enumerate(cars):
            offsets[car] = layout.configs[line][configs[line]][slot]
    return Level(level.n, level.walls, level.cars, tuple(offsets), level.goal)


def par_of(level: Level, control: Control) -> int:
    """The proven par of the level's start (-1: no plan). A one-off solve: a board with a car
    fewer may have a cluster of millions, whose whole table would take seconds to build."""
    solution = solve(level, State(level.start), control)
    return len(solution.moves) if solution.optimal else -1


def _minimal(level: Level, control: Control) -> Level:
    """The level with every car removed whose removal keeps the par (car A stays)."""
    par = par_of(level, control)
    at = len(level.cars) - 1
    while at >= 1:
        placed, start = list(level.cars), list(level.start)
        del placed[at], start[at]
        fewer = renamed(level, placed, start)
        if par_of(fewer, control) == par:
            level = fewer
        at -= 1
    return level

"""Exact traffic solver: one numpy BFS over the whole cluster, cached per level.

The first solve (or `warm_up`) of a level enumerates every position reachable
from it and stores each one's distance to the goal (see traffic/table.py); every
later hint or solve from any position of that cluster follows decreasing
distance, so it is a lookup. A one-off solve skips the table when the cluster
is large and the goal near; clusters too large for any table (sparse 8 x 8
"Get out" boards) are searched by A* from the position
(traffic/astar.py). A line (row or column) whose cars can never meet the goal
proves a level unsolvable at once. A one-off "Get out" solve first tries a
plain-Python A* (traffic/small.py), which needs no numpy at all when the search
is small, as contest boards mostly are; when the larger search is still going
after a while, the same board with fewer cars (traffic/relaxed.py) may prove
there is no plan, or find a shortest one, in a fraction of its cluster. Plans
are counted in slides and never hold two consecutive slides of one car (those
would merge into a shorter plan).
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from fewest.engine import traffic as rules
from fewest.engine.traffic import CLEAR_ROW, EXIT, Level, Move, State, level_from_rows
from fewest.solvers.common.control import Budget, Check, Control, Meter, Stopped, no_check
from fewest.solvers.common.search import RulesProblem, bfs
from fewest.solvers.common.solution import Solution, Status, stats_of, stopped_status
from fewest.solvers.traffic.random_levels import random_level
from fewest.solvers.traffic.relaxed import settle
from fewest.solvers.traffic.small import TooLarge, forward_search, goal_unreachable, order_signature
from fewest.solvers.traffic.tuning import TUNING, TrafficTuning

if TYPE_CHECKING:  # numpy-backed: imported on first use, so small solves never load numpy
    from fewest.solvers.traffic.bfs import ForwardPlan
    from fewest.solvers.traffic.lines import Layout
    from fewest.solvers.traffic.table import DistanceTable

METRICS = ("moves",)
CACHED_LEVELS = 16

# (level, in-line car order) -> (layout, tables of the clusters met so far)
_cache: OrderedDict[tuple, tuple[Layout, list[DistanceTable]]] = OrderedDict()
_lock = threading.Lock()


def _layout_and_tables(level: Level, state: State) -> tuple[Layout, list[DistanceTable]]:
    from fewest.solvers.traffic.lines import Layout

    cache_key = (level, order_signature(level, state))
    with _lock:
        entry = _cache.get(cache_key)
        if entry is None:
            entry = _cache[cache_key] = (Layout(level, state), [])
            while len(_cache) > CACHED_LEVELS:
                _cache.popitem(last=False)
        _cache.move_to_end(cache_key)
    return entry


def _cached_table(level: Level, state: State) -> DistanceTable | None:
    """The table already built for the cluster holding `state`, if any."""
    with _lock:
        entry = _cache.get((level, order_signature(level, state)))
    if entry is None or not entry[1]:
        return None
    key = entry[0].encode(state)
    return next((table for table in entry[1] if key in table), None)


def search(
    level: Level, state: State, control: Control, table_states: int | None, table_only: bool = False,
    tuning: TrafficTuning = TUNING,
) -> DistanceTable | ForwardPlan | None:
    """The cached table of the cluster holding `state`, else a new search from it: a table
    (then cached) or, past `table_states` positions (None: no limit), maybe just a plan.
    With `table_only`, a table or None (see table.explore)."""
    from fewest.solvers.traffic.bfs import ForwardPlan
    from fewest.solvers.traffic.table import DistanceTable, explore

    table = _cached_table(level, state)
    if table is not None:
        return table
    if goal_unreachable(level, state):
        return ForwardPlan(None, 0)
    layout, tables = _layout_and_tables(level, state)
    found = explore(layout, layout.encode(state), control, table_states, table_only, tuning)
    if isinstance(found, DistanceTable):
        with _lock:
            tables.append(found)
    return found


def warm_up(level: Level, check: Check = no_check, tuning: TrafficTuning = TUNING) -> None:
    """Build the table of the level's start cluster (bounded: the tuning's warm_up_seconds). A cluster
    too large for a table is left at once: searching on would only take a core from the
    player's own hints and solves. `check` may raise Stopped to stop sooner."""
    try:
        control = Control(Budget(seconds=tuning.warm_up_seconds), should_stop=lambda: check() or False)
        search(level, rules.initial_state(level), control, None, table_only=True, tuning=tuning)
    except Stopped:
        pass


def _answer(control: Control, meter: Meter, moves: list[Move] | None, extra: dict | None = None) -> Solution:
    if moves is None:
        return Solution(Status.UNSOLVABLE, (), stats_of(control, meter), extra or {})
    return Solution(Status.OPTIMAL, tuple(moves), stats_of(control, meter), extra or {})


def solve(
    level: Level, state: State, control: Control, metric: str = "moves", tuning: TrafficTuning = TUNING
) -> Solution:
    if metric not in METRICS:
        raise ValueError(f"traffic has no metric {metric!r} (choose from {', '.join(METRICS)})")
    with control.metered() as meter:
        return _solve(level, state, control, meter, tuning)


def _solve(level: Level, state: State, control: Control, meter: Meter, tuning: TrafficTuning) -> Solution:
    """(Its searches count what they hold on `meter`, the solve's own.)"""
    if rules.is_solved(level, state):
        return Solution(Status.OPTIMAL, (), stats_of(control, meter))
    if goal_unreachable(level, state):
        return Solution(Status.UNSOLVABLE, (), stats_of(control, meter))
    try:
        # "Get out" boards are mostly one-off contest solves: a small search needs no table.
        # Exit puzzles (Rush Hour) keep building theirs so later hints are lookups.
        if level.goal.kind == CLEAR_ROW and _cached_table(level, state) is None:
            try:
                return _answer(control, meter, forward_search(level, state, control, tuning.small_states))
            except TooLarge:
                pass
            midway = control.expanded + tuning.midway_nodes
            control.call_at(midway, partial(_settle_midway, level, state, control, tuning))
        found = search(level, state, control, tuning.solve_table_states, tuning=tuning)
        assert found is not None  # only a warm-up asks for a table or nothing
    except _Settled as settled:
        return _answer(control, meter, settled.moves)
    except Stopped as stop:
        return Solution(stopped_status(stop.reason), (), stats_of(control, meter, stop.reason))
    finally:
        control.call_at(0, None)
    from fewest.solvers.traffic.table import DistanceTable  # loaded by `search` already

    extra = {"cluster": len(found)} if isinstance(found, DistanceTable) else {}
    return _answer(control, meter, _moves_in(found, state), extra)


def _moves_in(found: DistanceTable | ForwardPlan, state: State) -> list[Move] | None:
    """The shortest plan from `state` that a search found: read off its table, or its own
    plan; None when there is none."""
    from fewest.solvers.traffic.table import DistanceTable

    if isinstance(found, DistanceTable):
        key = found.layout.encode(state)
        return found.plan(key) if found.distance_of(key) >= 0 else None
    return found.moves


class _Settled(Exception):
    """Raised from the middle of a search: boards with fewer cars gave the answer."""

    def __init__(self, moves: list[Move] | None) -> None:
        super().__init__()
        self.moves = moves


def _settle_midway(level: Level, state: State, control: Control, tuning: TrafficTuning) -> None:
    settled = settle(replace(level, start=state.offsets), control, partial(_smaller_plan, tuning=tuning), tuning)
    if settled is not None:
        raise _Settled(settled.moves)


def _smaller_plan(level: Level, control: Control, tuning: TrafficTuning = TUNING) -> list[Move] | None:
    """A shortest plan of one of traffic/relaxed.py's smaller boards, or None when it has none:
    this module's one-off search, kept out of the cache (those boards are seen once)."""
    from fewest.solvers.traffic.lines import Layout
    from fewest.solvers.traffic.table import explore

    state = rules.initial_state(level)
    if goal_unreachable(level, state):
        return None
    try:
        return forward_search(level, state, control, tuning.small_states)
    except TooLarge:
        pass
    layout = Layout(level, state)
    found = explore(layout, layout.encode(state), control, tuning.solve_table_states, tuning=tuning)
    assert found is not None  # only a warm-up asks for a table or nothing
    return _moves_in(found, state)


def baseline(level: Level, state: State, control: Control) -> Solution:
    """The plain method: generic BFS over the engine's tuples (the bench's denominator)."""
    return bfs(RulesProblem(rules, level, state), control)


# Lines of Michael Fogleman's Rush Hour database (https://www.michaelfogleman.com/rush/),
# `moves board cluster-size`: easy to the hardest, largest clusters included.
DATABASE_LINES = (
    "51 GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo 4780",
    "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332",
    "58 BBoKMxDDDKMoIAALooIoJLEEooJFFNoGGoxN 9192",
    "55 ooBBMxDDDKMoAAJKoNooJEENIFFLooIGGLox 9712",
    "50 BBIooMGHIoLMGHAALNGCCKoNooJKDDooJEEx 14385",
    "45 GBBoLxGHIoLoGHIAAMDDDKoMooJKEEFFJooo 13617",
    "39 IooxoxIoKLDDAAKLMNEEFFMNoJoGGooJoHHo 23812",
    "31 BBCCoMIDDLoMIAALooEEKLoooJKFFooJGGHH 25396",
    "16 oGoJBBxGoJKLFHAAKLFHDDDLooIoooEEIooo 12336",
    "03 oBBBoooooDooAAoDoooooooooCCCoooooooo 156",
)


def _database_level(line: str) -> tuple[str, Level]:
    moves, board, _cluster = line.split()
    level = level_from_rows([board[r * 6 : r * 6 + 6] for r in range(6)], (EXIT, "A"))
    return f"database {moves} {board}", level


def bench_cases(quick: bool) -> list[tuple[str, Level, State]]:
    """Database lines, then seeded random Get-out boards (8 x 8 full ones in the full run)."""
    lines = DATABASE_LINES[:4] if quick else DATABASE_LINES
    cases = []
    for line in lines:
        name, level = _database_level(line)
        cases.append((name, level, rules.initial_state(level)))
    rng = random.Random(20240611)
    for i in range(4 if quick else 16):
        n = rng.choice((6, 7) if quick else (6, 7, 8))
        cars = rng.randrange(n + 2, 2 * n + 2)
        level = random_level(rng, n, cars, goal=CLEAR_ROW, lengths=(2,), spare_goal_row=True)
        cases.append((f"get-out {n}x{n} #{i}", level, rules.initial_state(level)))
    return cases

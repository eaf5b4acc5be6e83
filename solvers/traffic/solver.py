"""Exact traffic solver: one numpy BFS over the whole cluster, cached per level.

The first solve (or `warm_up`) of a level enumerates every position reachable
from it and stores each one's distance to the goal (see traffic_table); every
later hint or solve from any position of that cluster follows decreasing
distance, so it is a lookup. A one-off solve skips the table when the cluster
is large and the goal near; clusters too large for any table (sparse 8 x 8
"Get out" boards) are searched by A* from the position
(traffic_astar). A line (row or column) whose cars can never meet the goal
proves a level unsolvable at once. A one-off "Get out" solve first tries a
plain-Python A* (traffic_small), which needs no numpy at all when the search
is small, as contest boards mostly are; when the larger search is still going
after a while, the same board with fewer cars (traffic_relaxed) may prove
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
from fewest.solvers.common.control import Budget, Check, Control, Stopped, no_check
from fewest.solvers.common.search import RulesProblem, bfs
from fewest.solvers.common.solution import Solution, Stats, Status, stopped_status
from fewest.solvers.traffic.random_levels import random_level
from fewest.solvers.traffic.relaxed import settle
from fewest.solvers.traffic.small import TooLarge, forward_search, goal_unreachable, order_signature

if TYPE_CHECKING:  # numpy-backed: imported on first use, so small solves never load numpy
    from fewest.solvers.traffic.bfs import ForwardPlan
    from fewest.solvers.traffic.lines import Layout
    from fewest.solvers.traffic.table import DistanceTable

METRICS = ("moves",)
CACHED_LEVELS = 16
WARM_UP_SECONDS = 10.0  # warm_up runs unattended: never let a huge board keep a core busy for long
# A solve finishing the whole-cluster table after the goal is seen, while the cluster is
# this small (every Rush Hour database cluster in the tests is): later hints are lookups.
SOLVE_TABLE_STATES = 100_000
# A "Get out" solve first tries a plain-Python A* up to this many positions (contest boards
# need a few hundred at most). Measured on random 6-8 boards: it beats the numpy search on
# solvable boards up to ~40 000 positions; a cluster with no plan, met whole, is ~3x faster
# in numpy from ~4 000 on.
SMALL_STATES = 50_000
# Past this many more positions, the search of a hard "Get out" board stops once to ask the
# board with fewer cars (traffic_relaxed): boards settled sooner never pay for those rounds,
# and a search they cannot settle goes on where it was. About two seconds of search.
MIDWAY_NODES = 500_000

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
    level: Level, state: State, control: Control, table_states: int | None, table_only: bool = False
) -> DistanceTable | ForwardPlan | None:
    """The cached table of the cluster holding `state`, else a new search from it: a table
    (then cached) or, past `table_states` positions (None: no limit), maybe just a plan.
    With `table_only`, a table or None (see traffic_table.explore)."""
    from fewest.solvers.traffic.bfs import ForwardPlan
    from fewest.solvers.traffic.table import DistanceTable, explore

    table = _cached_table(level, state)
    if table is not None:
        return table
    if goal_unreachable(level, state):
        return ForwardPlan(None, 0)
    layout, tables = _layout_and_tables(level, state)
    found = explore(layout, layout.encode(state), control, table_states, table_only)
    if isinstance(found, DistanceTable):
        with _lock:
            tables.append(found)
    return found


def warm_up(level: Level, check: Check = no_check) -> None:
    """Build the table of the level's start cluster (bounded: see WARM_UP_SECONDS). A cluster
    too large for a table is left at once: searching on would only take a core from the
    player's own hints and solves. `check` may raise Stopped to stop sooner."""
    try:
        control = Control(Budget(seconds=WARM_UP_SECONDS), should_stop=lambda: check() or False)
        search(level, rules.initial_state(level), control, None, table_only=True)
    except Stopped:
        pass


def _stats(control: Control, reason: str | None = None) -> Stats:
    return Stats(control.expanded, control.stored, control.seconds, control.bound, reason)


def _answer(control: Control, moves: list[Move] | None, extra: dict | None = None) -> Solution:
    if moves is None:
        return Solution(Status.UNSOLVABLE, (), _stats(control), extra or {})
    return Solution(Status.OPTIMAL, tuple(moves), _stats(control), extra or {})


def solve(level: Level, state: State, control: Control, metric: str = "moves") -> Solution:
    if metric not in METRICS:
        raise ValueError(f"traffic has no metric {metric!r} (choose from {', '.join(METRICS)})")
    if rules.is_solved(level, state):
        return Solution(Status.OPTIMAL, (), _stats(control))
    if goal_unreachable(level, state):
        return Solution(Status.UNSOLVABLE, (), _stats(control))
    try:
        # "Get out" boards are mostly one-off contest solves: a small search needs no table.
        # Exit puzzles (Rush Hour) keep building theirs so later hints are lookups.
        if level.goal.kind == CLEAR_ROW and _cached_table(level, state) is None:
            try:
                return _answer(control, forward_search(level, state, control, SMALL_STATES))
            except TooLarge:
                pass
            midway = control.expanded + MIDWAY_NODES
            control.call_at(midway, partial(_settle_midway, level, state, control))
        found = search(level, state, control, SOLVE_TABLE_STATES)
        assert found is not None  # only a warm-up asks for a table or nothing
    except _Settled as settled:
        return _answer(control, settled.moves)
    except Stopped as stop:
        return Solution(stopped_status(stop.reason), (), _stats(control, stop.reason))
    finally:
        control.call_at(0, None)
    from fewest.solvers.traffic.table import DistanceTable  # loaded by `search` already

    extra = {"cluster": len(found)} if isinstance(found, DistanceTable) else {}
    return _answer(control, _moves_in(found, state), extra)


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


def _settle_midway(level: Level, state: State, control: Control) -> None:
    settled = settle(replace(level, start=state.offsets), control, _smaller_plan)
    if settled is not None:
        raise _Settled(settled.moves)


def _smaller_plan(level: Level, control: Control) -> list[Move] | None:
    """A shortest plan of one of traffic_relaxed's smaller boards, or None when it has none:
    this module's one-off search, kept out of the cache (those boards are seen once)."""
    from fewest.solvers.traffic.lines import Layout
    from fewest.solvers.traffic.table import explore

    state = rules.initial_state(level)
    if goal_unreachable(level, state):
        return None
    try:
        return forward_search(level, state, control, SMALL_STATES)
    except TooLarge:
        pass
    layout = Layout(level, state)
    found = explore(layout, layout.encode(state), control, SOLVE_TABLE_STATES)
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

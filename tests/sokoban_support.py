"""Helpers shared by the Sokoban solver tests: read a level, solve it, replay the plan,
and an independent lexicographic Dijkstra over single steps to compare against."""

import heapq
import itertools

from fewest.engine import sokoban as S
from fewest.levels import sokoban as L
from fewest.solvers import Budget, Control, Status
from fewest.solvers import sokoban as solver
from tests import oracle


def level(text: str) -> S.Level:
    return L.read_xsb(text)[0].level


def solve(lvl: S.Level, metric: str, state: S.State | None = None, **budget) -> "solver.Solution":
    state = S.initial_state(lvl) if state is None else state
    return solver.solve(lvl, state, Control(Budget(**budget)), metric)


def checked(lvl: S.Level, solution, state: S.State | None = None) -> tuple[int, int]:
    """Replays the plan through the engine; (moves, pushes) it really took."""
    assert solution.status is Status.OPTIMAL
    moves = oracle.replay_length(S, lvl, list(solution.moves), state)
    pushes = S.tally(solution.moves).pushes
    assert solution.extra["pushes"] == pushes
    return moves, pushes


def lexicographic_optimum(lvl: S.Level, metric: str, state: S.State | None = None) -> tuple[int, int] | None:
    """Independent Dijkstra over single steps: the best (moves, pushes) or (pushes, moves)."""
    start = S.initial_state(lvl) if state is None else state
    best = {start: (0, 0)}
    order = itertools.count()
    heap = [((0, 0), next(order), start)]
    while heap:
        cost, _, current = heapq.heappop(heap)
        if best[current] < cost:
            continue
        if S.is_solved(lvl, current):
            return cost
        for move in S.legal_moves(lvl, current):
            step = (1, int(move.push)) if metric == "moves" else (int(move.push), 1)
            nxt = S.apply(lvl, current, move)
            new = (cost[0] + step[0], cost[1] + step[1])
            if new < best.get(nxt, (1 << 30, 0)):
                best[nxt] = new
                heapq.heappush(heap, (new, next(order), nxt))
    return None

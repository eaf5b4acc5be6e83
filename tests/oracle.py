"""An independent exhaustive search for cross-checking solvers on small cases.

Deliberately shares no code with `fewest.solvers`: plain BFS over the engine's
own rules, moves tried in `legal_moves` order (so the first plan found is the
lexicographically smallest shortest one when moves are listed in order).
"""

from __future__ import annotations

from collections import deque
from typing import Any


def shortest_plan(rules: Any, level: Any, state: Any = None, limit: int = 2_000_000) -> list | None:
    """A shortest plan (list of moves) or None when no plan exists; AssertionError past `limit` states."""
    start = rules.initial_state(level) if state is None else state
    if rules.is_solved(level, start):
        return []
    parent: dict = {start: None}
    queue = deque([start])
    while queue:
        current = queue.popleft()
        for move in rules.legal_moves(level, current):
            nxt = rules.apply(level, current, move)
            if nxt in parent:
                continue
            parent[nxt] = (current, move)
            if rules.is_solved(level, nxt):
                plan = []
                while parent[nxt] is not None:
                    nxt, move = parent[nxt]
                    plan.append(move)
                return plan[::-1]
            queue.append(nxt)
        assert len(parent) <= limit, "oracle: state space too large for an exhaustive check"
    return None


def replay_length(rules: Any, level: Any, moves: list, state: Any = None) -> int:
    """Replays `moves` through the engine, asserts they solve the level, returns how many there were."""
    current = rules.initial_state(level) if state is None else state
    for move in moves:
        current = rules.apply(level, current, move)
    assert rules.is_solved(level, current), "plan does not solve the level"
    return len(moves)


def fewest_counted(rules: Any, level: Any, state: Any, last: Any = None, limit: int = 2_000_000) -> int | None:
    """The fewest moves the game's counter adds on the way to solved from `state`, `last`
    the move just played (traffic counts a run of one car's slides as one move), or None
    when no plan exists. Dijkstra over (position, last move), each move costing what
    `tally` adds for it."""
    import heapq
    from itertools import count

    def added(before: Any, move: Any) -> int:
        if before is None:
            return rules.tally([move]).moves
        return rules.tally([before, move]).moves - rules.tally([before]).moves

    order = count()
    best = {(state, last): 0}
    heap = [(0, next(order), state, last)]
    while heap:
        cost, _, current, before = heapq.heappop(heap)
        if best[(current, before)] < cost:
            continue
        if rules.is_solved(level, current):
            return cost
        for move in rules.legal_moves(level, current):
            key = (rules.apply(level, current, move), move)
            total = cost + added(before, move)
            if total < best.get(key, total + 1):
                best[key] = total
                heapq.heappush(heap, (total, next(order), key[0], move))
        assert len(best) <= limit, "oracle: state space too large for an exhaustive check"
    return None

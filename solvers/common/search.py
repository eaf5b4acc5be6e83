"""Generic exact searches over any problem: BFS, A* and IDA*.

A problem (aima-style) is defined apart from the algorithms: a start state,
`successors(state)` yielding `(move, next_state, cost)` and `is_goal(state)`.
`RulesProblem` adapts any engine family to it with unit costs. Algorithms are
plain functions; budgets, cancellation and progress come in through `Control`.
"""

from __future__ import annotations

import heapq
import itertools
import sys
from collections import deque
from typing import Any, Callable, Hashable, Iterable, Protocol

from fewest.engine.base import Rules
from fewest.solvers.common.control import Control, Meter, Stopped
from fewest.solvers.common.solution import Solution, Status, stats_of, stopped_status

Heuristic = Callable[[Any], float]


class Problem(Protocol):
    start: Hashable

    def successors(self, state: Any) -> Iterable[tuple[Any, Any, float]]: ...
    def is_goal(self, state: Any) -> bool: ...


class RulesProblem:
    """An engine family's level as a search problem: each legal move costs 1."""

    def __init__(self, rules: Rules, level: Any, start: Any = None) -> None:
        self.rules = rules
        self.level = level
        self.start = rules.initial_state(level) if start is None else start

    def successors(self, state: Any) -> Iterable[tuple[Any, Any, float]]:
        apply, level = self.rules.apply, self.level
        for move in self.rules.legal_moves(level, state):
            yield move, apply(level, state, move), 1

    def is_goal(self, state: Any) -> bool:
        return self.rules.is_solved(self.level, state)


def _walk_back(parents: dict, state: Any) -> tuple:
    moves = []
    while True:
        parent, move = parents[state]
        if parent is None:
            break
        moves.append(move)
        state = parent
    return tuple(reversed(moves))


def bfs(problem: Problem, control: Control | None = None) -> Solution:
    """Breadth-first search with parent links: fewest moves (unit costs).

    With successors listed in a fixed move order, the plan found is also the
    lexicographically smallest among the shortest ones (first discovery wins).
    """
    control = control or Control()
    start = problem.start
    with control.metered(sys.getsizeof(start) + 120) as meter:
        return _bfs(problem, control, meter)


def _bfs(problem: Problem, control: Control, meter: Meter) -> Solution:
    start = problem.start
    parents: dict = {start: (None, None)}
    if problem.is_goal(start):
        return Solution(Status.OPTIMAL, (), stats_of(control, meter))
    queue = deque([start])
    try:
        while queue:
            state = queue.popleft()
            control.tick()
            for move, nxt, _cost in problem.successors(state):
                if nxt in parents:
                    continue
                parents[nxt] = (state, move)
                if problem.is_goal(nxt):
                    meter.stored = len(parents)
                    return Solution(Status.OPTIMAL, _walk_back(parents, nxt), stats_of(control, meter))
                queue.append(nxt)
            meter.stored = len(parents)
    except Stopped as stop:
        return Solution(stopped_status(stop.reason), (), stats_of(control, meter, stop.reason))
    return Solution(Status.UNSOLVABLE, (), stats_of(control, meter))


def astar(problem: Problem, heuristic: Heuristic, control: Control | None = None) -> Solution:
    """A* with an admissible (and, for the proof, consistent) heuristic.

    Ties on f prefer the deeper node, which reaches goals sooner on plateaus.
    A heuristic value of infinity marks a dead state and prunes it.
    """
    control = control or Control()
    start = problem.start
    with control.metered(sys.getsizeof(start) + 200) as meter:
        return _astar(problem, heuristic, control, meter)


def _astar(problem: Problem, heuristic: Heuristic, control: Control, meter: Meter) -> Solution:
    start = problem.start
    h0 = heuristic(start)
    if h0 == float("inf"):
        return Solution(Status.UNSOLVABLE, (), stats_of(control, meter))
    best_g: dict = {start: 0}
    parents: dict = {start: (None, None)}
    counter = itertools.count()
    heap = [(h0, 0, next(counter), start)]
    try:
        while heap:
            f, neg_g, _, state = heapq.heappop(heap)
            g = -neg_g
            if g > best_g.get(state, float("inf")):
                continue  # a stale heap entry
            meter.bound = int(f)
            if problem.is_goal(state):
                return Solution(Status.OPTIMAL, _walk_back(parents, state), stats_of(control, meter))
            control.tick()
            for move, nxt, cost in problem.successors(state):
                ng = g + cost
                if ng >= best_g.get(nxt, float("inf")):
                    continue
                h = heuristic(nxt)
                if h == float("inf"):
                    continue
                best_g[nxt] = ng
                parents[nxt] = (state, move)
                heapq.heappush(heap, (ng + h, -ng, next(counter), nxt))
            meter.stored = len(best_g)
    except Stopped as stop:
        return Solution(stopped_status(stop.reason), (), stats_of(control, meter, stop.reason))
    return Solution(Status.UNSOLVABLE, (), stats_of(control, meter))


def idastar(
    problem: Problem,
    heuristic: Heuristic,
    control: Control | None = None,
    max_bound: float = float("inf"),
) -> Solution:
    """Iterative-deepening A*: memory linear in the depth.

    Successors are tried in the order given, so with unit costs and moves
    listed in lexicographic order the first plan found is the lexicographically
    smallest of the shortest. `max_bound` proves unsolvability up to a depth
    for problems whose state space is known to be bounded.
    """
    control = control or Control()
    with control.metered() as meter:
        return _idastar(problem, heuristic, control, meter, max_bound)


def _idastar(problem: Problem, heuristic: Heuristic, control: Control, meter: Meter, max_bound: float) -> Solution:
    start = problem.start
    path_states = {start}
    path_moves: list = []
    found: list = []

    def search(state: Any, g: float, bound: float) -> float:
        h = heuristic(state)
        f = g + h
        if f > bound:
            return f
        if problem.is_goal(state):
            found.append(tuple(path_moves))
            return -1
        control.tick()
        smallest = float("inf")
        for move, nxt, cost in problem.successors(state):
            if nxt in path_states:
                continue
            path_states.add(nxt)
            path_moves.append(move)
            t = search(nxt, g + cost, bound)
            path_moves.pop()
            path_states.discard(nxt)
            if t < 0:
                return t
            smallest = min(smallest, t)
        return smallest

    bound = heuristic(start)
    try:
        while bound <= max_bound:
            meter.bound = int(bound) if bound != float("inf") else None
            t = search(start, 0, bound)
            if found:
                return Solution(Status.OPTIMAL, found[0], stats_of(control, meter))
            if t == float("inf"):
                return Solution(Status.UNSOLVABLE, (), stats_of(control, meter))
            bound = t
    except Stopped as stop:
        return Solution(stopped_status(stop.reason), (), stats_of(control, meter, stop.reason))
    return Solution(Status.UNSOLVABLE, (), stats_of(control, meter, f"no plan within {max_bound}"))


def steps_back(came: dict, key: Hashable) -> list:
    """The steps from the start to `key` in a search's map of each key to (its parent's key,
    the step from there), the start's entry None."""
    steps = []
    while came[key] is not None:
        key, step = came[key]
        steps.append(step)
    return steps[::-1]

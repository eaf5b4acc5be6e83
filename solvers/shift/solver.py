"""Exact shift solver: a min-cost matching proves the bound, a construction meets it.

Lower bound. Match every piece off the target to a target cell without a
piece, each pair costing their Manhattan distance, as cheaply as possible
(the Hungarian method, `assignment.assign`). A move takes one piece
one cell, so it changes the cost of any matching by at most 1, and the
cheapest matching by at most 1: no plan is shorter than that cost W.
(Pieces already on target cells never need a partner: for distances of a
grid graph the cheapest transport depends only on start minus target.)

Construction. Keep an optimal matching of the misplaced pieces and repeat:
1. While a piece s is matched to a cell t that holds another misplaced piece
   q, give q's goal to s and let q stay on t: by the triangle inequality the
   cost does not rise, so the matching stays optimal, and one more piece is
   settled (this ends).
2. Now every unsettled goal t is empty. Walk a shortest path from some s to
   its goal t (rows first, then columns); let c be the first empty cell on it
   and p the piece just before c. Move p into c and hand the rest of the
   path to it: p takes goal t (now one step nearer) and s takes p's old goal.
   Again by the triangle inequality the cost drops by exactly 1.
Each move lowers the cheapest matching by one, so the plan has exactly W
moves: it meets the lower bound and is proven optimal. Cost: one O(k^3)
matching plus O(W (k + R + C)) for the walk, far below a millisecond on 4x4.

`baseline` is the generic breadth-first search over the engine.
"""

from __future__ import annotations

import random

from fewest.engine import shift as rules
from fewest.engine.shift import Level, Move, State
from fewest.solvers.common.control import Control, Stopped
from fewest.solvers.common.search import RulesProblem, bfs
from fewest.solvers.common.assignment import assign
from fewest.solvers.common.solution import Solution, Status, stats_of, stopped_status

METRICS = ("moves",)


def goal_matching(level: Level, pieces: int) -> tuple[dict[int, int], int]:
    """A cheapest matching {misplaced piece: empty target cell} and its cost, the lower bound W."""
    movers = _cells(pieces & ~level.target)
    holes = _cells(level.target & ~pieces)
    if not movers:
        return {}, 0
    cols = level.cols
    costs = [
        [abs(s // cols - t // cols) + abs(s % cols - t % cols) for t in holes] for s in movers
    ]
    _, _, row_of = assign(costs)  # row_of[j] = 1-based row matched to 1-based column j
    goals = {movers[row_of[j] - 1]: holes[j - 1] for j in range(1, len(holes) + 1)}
    return goals, sum(costs[movers.index(s)][holes.index(t)] for s, t in goals.items())


def _cells(pattern: int) -> list[int]:
    cells = []
    while pattern:
        low = pattern & -pattern
        cells.append(low.bit_length() - 1)
        pattern ^= low
    return cells


def _path(level: Level, start: int, goal: int) -> list[int]:
    """The cells after `start` on a shortest path to `goal`: along the column first, then the row."""
    cols = level.cols
    r, c = divmod(start, cols)
    gr, gc = divmod(goal, cols)
    cells = []
    while r != gr:
        r += 1 if gr > r else -1
        cells.append(r * cols + c)
    while c != gc:
        c += 1 if gc > c else -1
        cells.append(r * cols + c)
    return cells


def _step(level: Level, frm: int, to: int) -> Move:
    (row, col), (to_row, to_col) = divmod(frm, level.cols), divmod(to, level.cols)
    direction = {(-1, 0): "u", (1, 0): "d", (0, -1): "l", (0, 1): "r"}[to_row - row, to_col - col]
    return Move(row, col, direction)


def _settle(goals: dict[int, int], pieces: int) -> None:
    """Step 1: hand goals that hold an unsettled piece over until every unsettled goal is empty."""
    changed = True
    while changed:
        changed = False
        for s in list(goals):
            t = goals.get(s)
            if t is None or not pieces >> t & 1:
                continue
            # The piece on t is unsettled (a settled piece sits on its own goal, not on s's).
            goals[s] = goals.pop(t)
            if goals[s] == s:
                del goals[s]
            changed = True


def shortest_plan(level: Level, pieces: int, control: Control | None = None) -> tuple[Move, ...]:
    """A shortest plan from the pattern `pieces` to the level's target (see the module docstring)."""
    goals, bound = goal_matching(level, pieces)
    plan: list[Move] = []
    while goals:
        if control is not None:
            control.tick()
        _settle(goals, pieces)
        s = min(goals)
        t = goals[s]
        p = s
        for c in _path(level, s, t):
            if not pieces >> c & 1:
                break
            p = c
        # p -> c is a step onto the first empty cell of the path (t itself is empty).
        plan.append(_step(level, p, c))
        pieces ^= (1 << p) | (1 << c)
        if p != s:
            p_goal = goals.pop(p, p)  # a settled piece's goal is its own cell
            del goals[s]
            if p_goal != s:
                goals[s] = p_goal
        else:
            del goals[s]
        if c != t:
            goals[c] = t
    if pieces != level.target or len(plan) != bound:
        raise AssertionError("shift construction missed the matching bound")  # a bug, never input
    return tuple(plan)


def solve(level: Level, state: State, control: Control, metric: str = "moves") -> Solution:
    with control.metered() as meter:
        try:
            moves = shortest_plan(level, state.pieces, control)
        except Stopped as stop:
            return Solution(stopped_status(stop.reason), (), stats_of(control, meter, stop.reason))
        meter.bound = len(moves)
        return Solution(Status.OPTIMAL, moves, stats_of(control, meter))


def baseline(level: Level, state: State, control: Control) -> Solution:
    """Generic breadth-first search over the engine's moves."""
    return bfs(RulesProblem(rules, level, state), control)


def random_level(rng: random.Random, rows: int, cols: int, pieces: int) -> Level:
    """Start and target drawn independently with `pieces` pieces each."""
    cells = range(rows * cols)
    start = sum(1 << c for c in rng.sample(cells, pieces))
    target = sum(1 << c for c in rng.sample(cells, pieces))
    return Level(rows, cols, start, target)


def bench_cases(quick: bool) -> list[tuple[str, Level, State]]:
    """Seeded random 4x4 boards with 8 pieces (the contest's size), then a few larger boards.

    The baseline runs on the first cases only, which are all 4x4.
    """
    rng = random.Random(1996)
    cases = []
    for number in range(1, (24 if quick else 100) + 1):
        level = random_level(rng, 4, 4, 8)
        cases.append((f"4x4 k=8 #{number}", level, rules.initial_state(level)))
    larger = [(5, 5, 10), (6, 6, 18), (8, 8, 32)]
    if not quick:
        larger += [(6, 6, 12), (7, 7, 24), (8, 8, 16)]
    for rows, cols, pieces in larger:
        level = random_level(rng, rows, cols, pieces)
        cases.append((f"{rows}x{cols} k={pieces}", level, rules.initial_state(level)))
    return cases


def bench_notes() -> list[str]:
    return ["shift: matching bound + construction; baseline = generic BFS (larger boards exceed its budget)"]

"""Helpers shared by the Sokoban solver tests: read a level, solve it, replay the plan,
and an independent lexicographic Dijkstra over single steps to compare against."""

import csv
import functools
import heapq
import itertools
import random
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

from fewest.engine import sokoban as S
from fewest.levels import sokoban as L
from fewest.solvers import Budget, Control, Status
from fewest.solvers.sokoban import solver
from fewest.solvers.sokoban.board.board import Board
from fewest.solvers.sokoban.tuning import TUNING, SokobanTuning
from tests import oracle

DATA = Path(__file__).parent / "data"


def level(text: str) -> S.Level:
    return L.read_xsb(text)[0].level


def tuned(base: SokobanTuning = TUNING, **parts: dict) -> SokobanTuning:
    """`base` (the solver's tuning) with some fields of its parts changed, e.g.
    tuned(pulls={"after": 1}) (sokoban/tuning.py names the parts and their fields)."""
    return replace(base, **{part: replace(getattr(base, part), **fields) for part, fields in parts.items()})


def solve(
    lvl: S.Level, metric: str, state: S.State | None = None, tuning: SokobanTuning = TUNING, **budget
) -> "solver.Solution":
    state = S.initial_state(lvl) if state is None else state
    return solver.solve(lvl, state, Control(Budget(**budget)), metric, tuning=tuning)


def checked(lvl: S.Level, solution, state: S.State | None = None) -> tuple[int, int]:
    """Replays the plan through the engine; (moves, pushes) it really took."""
    assert solution.status is Status.OPTIMAL
    moves = oracle.replay_length(S, lvl, list(solution.moves), state)
    pushes = S.tally(solution.moves).pushes
    assert solution.extra["pushes"] == pushes
    return moves, pushes


@functools.cache  # (the same room is asked again by the next case of a parametrised test)
def lexicographic_optimum(lvl: S.Level, metric: str, state: S.State | None = None) -> tuple[int, int] | None:
    """Independent Dijkstra over single steps: the best (moves, pushes) or (pushes, moves).

    The engine's rules (a step onto any cell of the grid but a wall or a box; a push when
    the cell beyond the box is neither), on positions held as one int each: the boxes' bit
    set above the player's cell. The same answers as `lexicographic_optimum_by_engine`,
    several times faster (test_oracle.py compares them). The queue holds a list of
    positions a cost and a heap of the costs alone: every step costs something, so a
    cost's list is whole when its turn comes (half the time of a heap of positions)."""
    start = S.initial_state(lvl) if state is None else state
    steps = [[(to, beyond, 1 << to, 1 << beyond if beyond >= 0 else 0) for to, beyond in ways] for ways in step_table(lvl)]
    shift = (lvl.width * lvl.height).bit_length()
    player_bits = (1 << shift) - 1
    goals = sum(1 << cell for cell in lvl.goals)
    first = sum(1 << cell for cell in start.boxes) << shift | start.player
    # (a, b) as a * MAJOR + b: a step and a push cost (1, 0) and (1, 1) under moves, (0, 1) and (1, 1) under pushes
    step, push = (_MAJOR, _MAJOR + 1) if metric == "moves" else (1, _MAJOR + 1)
    best = {first: 0}
    at_cost = {0: [first]}
    costs = [0]
    pop, push_onto, best_of = heapq.heappop, heapq.heappush, best.get
    while costs:
        cost = pop(costs)
        for key in at_cost.pop(cost):
            if best[key] != cost:
                continue  # (reached again more cheaply since)
            boxes = key >> shift
            if boxes == goals:
                return divmod(cost, _MAJOR)
            standing = key - (key & player_bits)
            for target, beyond, target_bit, beyond_bit in steps[key & player_bits]:
                if boxes & target_bit:
                    if not beyond_bit or boxes & beyond_bit:
                        continue
                    nxt, new = (boxes ^ target_bit | beyond_bit) << shift | target, cost + push
                else:
                    nxt, new = standing | target, cost + step
                if new < best_of(nxt, _NEVER):
                    best[nxt] = new
                    bucket = at_cost.get(new)
                    if bucket is None:
                        at_cost[new] = [nxt]
                        push_onto(costs, new)
                    else:
                        bucket.append(nxt)
    return None


_MAJOR = 1 << 32  # (more than any count of moves or pushes here)
_NEVER = 1 << 80


def step_table(lvl: S.Level) -> list[list[tuple[int, int]]]:
    """For each cell, (the next cell, the one beyond it or -1) each way the player may step
    from it (in "lurd" order): the next cell on the grid and no wall, the one beyond, -1
    when off the grid or a wall (a box there can not be pushed that way)."""
    table = []
    for cell in range(lvl.width * lvl.height):
        ways = []
        for direction in S.DIRECTIONS:
            target = S.neighbour(lvl, cell, direction)
            if target is None or target in lvl.walls:
                continue
            beyond = S.neighbour(lvl, target, direction)
            ways.append((target, -1 if beyond is None or beyond in lvl.walls else beyond))
        table.append(ways)
    return table


def lexicographic_optimum_by_engine(lvl: S.Level, metric: str, state: S.State | None = None) -> tuple[int, int] | None:
    """`lexicographic_optimum` through the engine's own legal_moves and apply (slower)."""
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


def search_position(board: Board, state: S.State) -> tuple[int, int]:
    """A position in the push search's terms: (boxes as a padded bit set, player's padded cell)."""
    return board.mask(state.boxes) & board.floor, board.inside(state.player)


def random_room(rng: random.Random, walled: float = 0.15, most: int = 3) -> S.Level | None:
    """A small walled room with random inner walls (each inner cell one with odds
    `walled`). Mostly the boxes are pulled away from their goals by random reverse
    moves (so it is solvable); sometimes they are simply scattered (often unsolvable).
    None when the draw makes no valid level. At most `most` boxes (2 on more than 20 cells)."""
    width, height = rng.randint(4, 8), rng.randint(4, 7)
    walls = {(r, c) for r in range(height) for c in range(width)}
    walls -= {(r, c) for r in range(1, height - 1) for c in range(1, width - 1)}
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]
    walls.update(cell for cell in inner if rng.random() < walled)
    open_cells = [cell for cell in inner if cell not in walls]
    count = rng.randint(1, most if len(open_cells) <= 20 else 2)
    if len(open_cells) < count + 1:
        return None
    goals = rng.sample(open_cells, count)
    if rng.random() < 0.2:
        boxes = set(rng.sample(open_cells, count))
        player = rng.choice([cell for cell in open_cells if cell not in boxes])
    else:
        boxes, player = pulled_away(rng, walls, goals, open_cells, (5, 40))
    return room_level(width, height, walls, goals, boxes, player)


def pulled_away(
    rng: random.Random, walls: set, goals, open_cells: list, steps: tuple[int, int]
) -> tuple[set, tuple]:
    """Boxes on the goals and the player on a random free cell, then a random number (in
    `steps`) of reverse moves, each a step often pulling the box behind: a solvable position."""
    boxes = set(goals)
    player = rng.choice([cell for cell in open_cells if cell not in boxes])
    for _ in range(rng.randint(*steps)):
        dr, dc = rng.choice([(0, 1), (0, -1), (1, 0), (-1, 0)])
        nxt = (player[0] + dr, player[1] + dc)
        if nxt in walls or nxt in boxes:
            continue
        behind = (player[0] - dr, player[1] - dc)
        if behind in boxes and rng.random() < 0.7:
            boxes.remove(behind)
            boxes.add(player)
        player = nxt
    return boxes, player


def scrambled_room(rng: random.Random, most: int = 3) -> S.Level | None:
    """A small room whose boxes were taken off their goals by random pulls, each made from
    anywhere the player can walk to and mostly away from the goals: the boxes travel, where
    `pulled_away`'s random walk leaves half the rooms solved and most of the rest a push or
    two from it (so the search has real work, and the position is solvable). The goals
    often lie together. 1 to `most` boxes; None when the draw makes no valid level or the
    player soon shut itself in."""
    width, height = rng.randint(6, 9), rng.randint(5, 8)
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]
    walls = {(r, c) for r in range(height) for c in range(width)} - set(inner)
    walls.update(cell for cell in inner if rng.random() < rng.choice((0.2, 0.3, 0.4)))
    open_cells = [cell for cell in inner if cell not in walls]
    count = rng.randint(1, most)
    if not count + 3 <= len(open_cells) <= 22:  # (the exhaustive searches stay quick)
        return None
    if rng.random() < 0.5:  # together, around one of them
        r0, c0 = rng.choice(open_cells)
        goals = sorted(open_cells, key=lambda cell: abs(cell[0] - r0) + abs(cell[1] - c0) + rng.random())[:count]
    else:
        goals = rng.sample(open_cells, count)
    blocked = {r * width + c for r, c in walls}
    boxes = set(goals)
    player = rng.choice([cell for cell in open_cells if cell not in boxes])

    def far(cell: tuple) -> int:  # from the nearest goal, as the crow flies on the grid
        return min(abs(cell[0] - r) + abs(cell[1] - c) for r, c in goals)

    def area() -> set:  # the player's, as cell numbers
        return flood(width, height, blocked | {r * width + c for r, c in boxes}, player[0] * width + player[1])

    pulled, pulls_wanted = 0, rng.randint(10, 60)
    while pulled < pulls_wanted:
        here = area()
        pulls = []
        for r, c in boxes:
            for dr, dc in S.DELTA.values():
                stand, back = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
                if stand[0] * width + stand[1] in here and back not in walls and back not in boxes:
                    pulls.append(((r, c), stand, back))
        if not pulls:
            break
        away = [pull for pull in pulls if far(pull[1]) > far(pull[0])]
        box, stand, player = rng.choice(away if away and rng.random() < 0.8 else pulls)  # (it steps back)
        boxes.remove(box)
        boxes.add(stand)
        pulled += 1
    if pulled < 4 or boxes == set(goals):
        return None
    player = divmod(rng.choice(sorted(area())), width)  # (anywhere it can walk to)
    return room_level(width, height, walls, goals, boxes, player)


def room_level(width: int, height: int, walls: set, goals, boxes: set, player: tuple) -> S.Level | None:
    """The level drawn from (row, col) cells; None when it is not a valid level."""
    rows = [["#" if (r, c) in walls else " " for c in range(width)] for r in range(height)]
    for r, c in goals:
        rows[r][c] = "."
    for r, c in boxes:
        rows[r][c] = "*" if rows[r][c] == "." else "$"
    rows[player[0]][player[1]] = "+" if rows[player[0]][player[1]] == "." else "@"
    try:
        return level("\n".join("".join(row) for row in rows))
    except ValueError:
        return None


def flood(width: int, height: int, blocked: frozenset | set, start: int) -> set:
    """Cells connected to `start` around the `blocked` ones (the tests' own flood fill,
    not the engine's or the solver's)."""
    reach, queue = {start}, deque([start])
    while queue:
        row, col = divmod(queue.popleft(), width)
        for drow, dcol in S.DELTA.values():
            r, c = row + drow, col + dcol
            nxt = r * width + c
            if 0 <= r < height and 0 <= c < width and nxt not in blocked and nxt not in reach:
                reach.add(nxt)
                queue.append(nxt)
    return reach


def random_rooms(seed: int, count: int, draw=None) -> list[S.Level]:
    """`count` levels made by `draw(rng)` (by default `random_room`), skipping its Nones."""
    rng = random.Random(seed)
    rooms: list[S.Level] = []
    while len(rooms) < count:
        room = (draw or random_room)(rng)
        if room is not None:
            rooms.append(room)
    return rooms


def exactness_rooms(seed: int, count: int) -> list[S.Level]:
    """`count` rooms of each kind: `random_room`'s (some unsolvable, half solved already)
    and `scrambled_room`'s, whose boxes travel. (A walk bound one step too high failed 1 of
    test_sokoban_solver.py's 10 push-search cases with the first kind alone, 8 with both;
    300 rooms of each kind, both metrics: a pushes metric ignoring moves gave 39 wrong
    answers against 288, that walk bound 2 against 13.)"""
    return random_rooms(seed, count) + random_rooms(seed, count, lambda rng: scrambled_room(rng, 4))


def microban(count: int) -> list[tuple[S.Level, Mapping[str, str]]]:
    """The first `count` Microban levels, each with its row of the table of proven counts."""
    return list(_microban()[:count])


@functools.cache
def _microban() -> tuple[tuple[S.Level, Mapping[str, str]], ...]:
    """Read once per process (levels are immutable, the rows read-only)."""
    entries = L.read_xsb((DATA / "Microban_155.xsb").read_text(), "Microban_155.xsb")
    with open(DATA / "microban_optimal.csv", newline="") as handle:
        table = {int(row["level"]): MappingProxyType(row) for row in csv.DictReader(handle)}
    return tuple((entry.level, table[entry.index]) for entry in entries)


def positions(lvl: S.Level, rng: random.Random, count: int):
    """The start and a few positions of a random walk from it."""
    state = S.initial_state(lvl)
    yield state
    for _ in range(count):
        moves = S.legal_moves(lvl, state)
        if not moves:
            return
        state = S.apply(lvl, state, rng.choice(moves))
        yield state


def symmetric_room(rng: random.Random) -> S.Level | None:
    """A room mirrored left-right (and sometimes top-bottom) with mirrored goals; its boxes
    are pulled off the goals by random reverse moves, so the position is not symmetric."""
    width, height = rng.choice([6, 7, 8, 9]), rng.choice([5, 6, 7])
    both = rng.random() < 0.5
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]

    def orbit(cell):
        r, c = cell
        cells = {(r, c), (r, width - 1 - c)}
        if both:
            cells |= {(height - 1 - r, col) for _, col in cells}
        return cells

    walls = {(r, c) for r in range(height) for c in range(width)} - set(inner)
    for cell in inner:
        if rng.random() < 0.1:
            walls |= orbit(cell)
    open_cells = [cell for cell in inner if cell not in walls]
    goals: set = set()
    for cell in rng.sample(open_cells, len(open_cells)):
        if len(goals | orbit(cell)) <= 4:
            goals |= orbit(cell)
        if len(goals) >= 3:
            break
    if not goals or len(open_cells) < len(goals) + 2:
        return None
    boxes, player = pulled_away(rng, walls, goals, open_cells, (20, 80))
    return room_level(width, height, walls, goals, boxes, player)


def children_made(monkeypatch) -> list:
    """The solver's second processes (SearchApart) made from now on, in order."""
    made: list = []
    real = solver.SearchApart

    def apart(*args):
        made.append(real(*args))
        return made[-1]

    monkeypatch.setattr(solver, "SearchApart", apart)
    return made


REACHED = 40  # the bound a climbing search reaches at once


def climbing(control: Control) -> None:
    """A search that reaches the bound REACHED at once, then only expands, until stopped."""
    with control.metered() as meter:  # (as a search tells its bound)
        meter.bound = REACHED
        while True:
            control.tick(100)
            time.sleep(0.001)


def idle(control: Control) -> None:
    """A search with no bound and no expansions: it looks at its control until stopped."""
    while True:
        control.check()
        time.sleep(0.005)


def reports_until_reached(
    lvl: S.Level, metric: str, tuning: SokobanTuning = TUNING
) -> tuple["solver.Solution", list]:
    """Solve `lvl` under `metric` (and `tuning`) while the progress reports are kept, cancelled
    by the first report of REACHED (a budget of 10 s otherwise): (the solution, the reports)."""
    reports: list = []
    # (4 GiB: a helper's share must hold a copy of this process, big after a long run of tests)
    control = Control(Budget(seconds=10.0, memory_bytes=4 << 30), on_progress=reports.append,
                      progress_interval=0.02, should_stop=lambda: any(r.bound == REACHED for r in reports))
    return solver.solve(lvl, S.initial_state(lvl), control, metric, best_effort=False, tuning=tuning), reports

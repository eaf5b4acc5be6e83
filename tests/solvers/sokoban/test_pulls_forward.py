"""A pull table limited by a known plan: the bound on the pushes from the start never
overestimates (against a search of the positions reached from the start), the limited
table is exact on every position of a plan within the limit and smaller than the whole
one, and the push search proves the same counts with it."""

import functools
import random
from collections import deque

import numpy as np
import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Control, Status
from fewest.solvers.sokoban.board.board import cells_of, compile_board
from fewest.solvers.sokoban.pulls.interface import PullTableLike
from fewest.solvers.sokoban.pulls.table import CompactPullTable, PullTable
from fewest.solvers.sokoban.pulls.apart import PullsApart
from fewest.solvers.sokoban.pulls.forward import FAR, ForwardBound, ForwardSums, push_distances
from fewest.solvers.sokoban.board.symmetry import board_symmetry
from fewest.solvers.sokoban.board.tables import UNREACHABLE
from tests.sokoban_support import checked, lexicographic_optimum, microban, random_rooms, search_position, solve
from tests.sokoban_support import symmetric_room, tuned

MOVES = ((0, 1), (0, -1), (1, 0), (-1, 0))


@functools.cache  # (three tests ask it of the same rooms; the callers only read it)
def pushes_from_start(lvl: S.Level) -> dict[S.State, int]:
    """Every position reached from the start and its fewest pushes (walks cost nothing)."""
    start = S.initial_state(lvl)
    best = {start: 0}
    queue = deque([start])
    while queue:  # (0-1 breadth first: a step goes to the front, a push to the back)
        state = queue.popleft()
        for move in S.legal_moves(lvl, state):
            child = S.apply(lvl, state, move)
            cost = best[state] + int(move.push)
            if cost < best.get(child, 1 << 30):
                best[child] = cost
                (queue.append if move.push else queue.appendleft)(child)
    return best


def neighbours(lvl: S.Level, cell: int) -> list[tuple[int, int]]:
    """(the cell one step on, the cell one step back) for each way that stays on the grid."""
    r, c = divmod(cell, lvl.width)
    out = []
    for dr, dc in MOVES:
        ahead, behind = (r + dr, c + dc), (r - dr, c - dc)
        if all(0 <= y < lvl.height and 0 <= x < lvl.width for y, x in (ahead, behind)):
            out.append((ahead[0] * lvl.width + ahead[1], behind[0] * lvl.width + behind[1]))
    return out


def lone_box_pushes(lvl: S.Level, floor: set) -> dict[int, int]:
    """Cell -> pushes from the nearest start box, a box alone on the floor with the player
    anywhere on it (the test's own search over cells)."""
    distance = {box: 0 for box in lvl.boxes if box in floor}
    queue = deque(distance)
    while queue:
        cell = queue.popleft()
        for ahead, behind in neighbours(lvl, cell):
            if ahead in floor and behind in floor and ahead not in distance:
                distance[ahead] = distance[cell] + 1
                queue.append(ahead)
    return distance


def player_floor(lvl: S.Level) -> set:
    """The cells the player can ever stand on (boxes aside)."""
    start = S.initial_state(lvl).player
    seen, queue = {start}, deque([start])
    while queue:
        cell = queue.popleft()
        r, c = divmod(cell, lvl.width)
        for dr, dc in MOVES:
            y, x = r + dr, c + dc
            step = y * lvl.width + x
            if 0 <= y < lvl.height and 0 <= x < lvl.width and step not in lvl.walls and step not in seen:
                seen.add(step)
                queue.append(step)
    return seen


def rooms() -> list[S.Level]:
    return random_rooms(440, 12) + random_rooms(441, 12, symmetric_room)


def test_push_distances_are_a_lone_box_searched_cell_by_cell():
    for room in rooms():
        board = compile_board(room)
        floor = player_floor(room)
        mine = lone_box_pushes(room, floor)
        theirs = push_distances(board, board.mask(room.boxes) & board.floor)
        assert {cell: theirs[board.inside(cell)] for cell in floor} == {cell: mine.get(cell, FAR) for cell in floor}


def test_the_bound_from_the_start_never_exceeds_the_pushes_to_any_image():
    images_seen = 0
    for room in rooms():
        board = compile_board(room)
        symmetry = board_symmetry(board)
        maps = symmetry.maps if symmetry is not None else ()
        cells = sorted(board.inside(cell) for cell in player_floor(room))
        if len(cells) > 64:
            continue
        bound = ForwardBound(board, board.mask(room.boxes) & board.floor, cells, symmetry)
        one_at_a_time = ForwardSums(board, board.mask(room.boxes) & board.floor, symmetry)  # (the dict table's)
        index = {cell: i for i, cell in enumerate(cells)}
        reached = pushes_from_start(room)
        pushes = np.array(list(reached.values()))
        boxes = [list(cells_of(search_position(board, state)[0])) for state in reached]  # (a box sealed off is a wall)
        # the position and each of its images: the bound of each is at most these pushes
        for image in [None, *maps]:
            moved = [sets if image is None else [image[box] for box in sets] for sets in boxes]
            packed = np.array([sum(1 << index[box] for box in sets) for sets in moved], dtype=np.uint64)
            assert (bound.pushes(packed) <= pushes).all()
            sums = [min(one_at_a_time.sums(sum(1 << box for box in sets))) for sets in moved]
            assert sums == bound.pushes(packed).tolist()
            images_seen += (image is not None) * len(packed)
    assert images_seen > 100


def limited_table(room: S.Level, limit: int | None, kind: type = CompactPullTable) -> PullTableLike:
    board = compile_board(room)
    table = kind(board, board.mask(room.boxes) & board.floor)
    table.grow(Control(), None, 10**9, limit=lambda: limit)
    return table


@pytest.mark.parametrize("kind", [PullTable, CompactPullTable])
def test_limited_by_a_plan_it_is_exact_on_every_position_of_a_plan_within_the_limit(kind):
    whole_entries = limited_entries = checked_positions = 0
    for room in rooms():
        whole = limited_table(room, None, kind)
        start = S.initial_state(room)
        fewest = whole.bound(*search_position(whole.board, start))
        if fewest >= UNREACHABLE:
            continue
        reached = pushes_from_start(room)
        for extra in (0, 2):
            limit = fewest + extra
            limited = limited_table(room, limit, kind)
            whole_entries += len(whole)
            limited_entries += len(limited)
            for state, pushes in reached.items():
                left = whole.bound(*search_position(whole.board, state))
                if pushes + left <= limit:  # on a plan of `limit` pushes or fewer
                    assert limited.bound(*search_position(limited.board, state)) == left
                    checked_positions += 1
    assert checked_positions > 500
    assert limited_entries < 0.8 * whole_entries


def test_the_push_search_proves_the_same_counts_with_the_table_limited(monkeypatch):
    """Grown in step with the search (as with no time budget, here a layer at a time), the
    table gets the pushes of the best plan the search knows; under pushes the counts are the independent search's
    and Microban's, under moves no limit is given."""
    at_once = tuned(pulls={"after": 1})
    real_grow = CompactPullTable.grow  # (a layer each time: the same run on any machine)
    monkeypatch.setattr(CompactPullTable, "grow", lambda self, control, seconds, most, limit: real_grow(
        self, control, None, most, until=self.radius + 1, limit=limit))
    limits: list = []
    real_pull = CompactPullTable._pull
    monkeypatch.setattr(CompactPullTable, "_pull", lambda self, *a: limits.append(a[-1]) or real_pull(self, *a))
    for room in random_rooms(442, 12):
        for metric in ("pushes", "moves"):
            limits.clear()
            solution, best = solve(room, metric, tuning=at_once), lexicographic_optimum(room, metric)
            if best is None:
                assert solution.status is Status.UNSOLVABLE
                continue
            assert checked(room, solution) == (best if metric == "moves" else best[::-1])
            told = {limit for limit in limits if limit is not None}
            # a limit is the pushes of a real plan: never below the fewest
            assert (not told or min(told) >= best[0]) if metric == "pushes" else not told
    limited = tight = 0
    for lvl, row in microban(12):
        limits.clear()
        assert checked(lvl, solve(lvl, "pushes", tuning=at_once))[1] == int(row["min_pushes"])
        told = {limit for limit in limits if limit is not None}
        assert not told or min(told) >= int(row["min_pushes"])
        limited += bool(told)
        tight += int(row["min_pushes"]) in told
    assert limited >= 3 and tight >= 1


def test_the_child_growing_the_table_is_told_the_fewest_pushes_known():
    room = random_rooms(443, 1)[0]
    board = compile_board(room)
    start = board.mask(room.boxes) & board.floor
    apart = PullsApart(CompactPullTable(board, start), 30.0, 10**9, 0, start)
    try:
        assert apart._limit.value == 0  # none known
        apart.limit(40)
        apart.limit(44)  # (a longer plan tells it nothing)
        assert apart._limit.value == 40
        apart.limit(36)
        assert apart._limit.value == 36
    finally:
        apart.close()


@pytest.mark.parametrize("kind", [PullTable, CompactPullTable])
def test_a_table_sent_on_leaves_its_forward_bound_behind(kind):
    room = random_rooms(444, 1)[0]
    table = limited_table(room, 10, kind)
    assert table._forward is not None
    table.stop_growing()
    assert table._forward is None

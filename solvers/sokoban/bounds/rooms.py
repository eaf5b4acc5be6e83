"""A lower bound on pushes for levels whose goals all lie behind one or two doorways.

When one floor cell (a door), or two, are the only way into the part of the
level that holds every goal (the room), every box outside must come in
through a door, and the room must take them one at a time. Split each push
by where it puts its box: inside the room (the doors included) or outside.

- Outside: a box outside needs at least its pushes to a cell in front of a
  door (a lone box, never entering the room on the way, the player starting
  on its side of the box: where a box splits the floor, its side counts as
  in the push-distance tables).
- Inside: drop every box outside, and let a box appear on an empty door
  whenever the player stands behind it outside (one push: the push through
  the door); a box pushed out through a door vanishes, and costs the push
  out and the pushes that bring it back, as a lone box from where it
  landed with the player on the door, to a cell in front of a door.
  The fewest such pushes that fill every goal from the room's boxes and the
  boxes still to come, with the player where it stands, is read from a
  table built once per level by a search backwards from the filled room
  (a bit at a time, as the push search that asks for it grows).

A plan for the level, read this way, is a plan for the room: each push
outside belongs to one box's stay outside, either one begun before (the
first part) or one begun by a push out (the second), so the sum of the two
parts never overestimates the pushes left; unlike the matching it sees the
order in which a crowded room must be filled, and what a box pushed out of
the way costs. A room position the backward search never reaches can never
be finished: a deadlock.

A level may have two such rooms: the smallest behind one doorway and the
smallest behind two (Microban #153: the left third of the level behind one
cell, the goal corner alone behind two). Each is a bound; the search takes
the larger. The large room sees more of the level's order, the small one
counts the long way each box takes to reach it.
"""

from __future__ import annotations

import heapq
import threading
import time
from itertools import combinations
from math import comb
from typing import Iterable

from fewest.solvers.common.control import Check, no_check
from fewest.solvers.sokoban.board.board import Board, cells_of
from fewest.solvers.sokoban.board.regions import Regions, where
from fewest.solvers.sokoban.board.tables import UNREACHABLE, pull_distances, sides_of
from fewest.solvers.sokoban.tuning import TUNING, RoomsTuning

CHECK_EVERY = 256  # candidates tried between two calls of the search's check


class RoomBound:
    """The room's table and each outside cell's pushes to a door."""

    def __init__(self, board: Board, room: int, to_door: list, table: dict) -> None:
        self.room = room
        self.outside = board.floor & ~room
        self._to_door = to_door
        self._table = table

    def bound(self, boxes: int, player: int) -> int:
        """A lower bound on the pushes that put these boxes on goals."""
        value = self._table.get(boxes & self.room)
        if value is None:
            return UNREACHABLE
        if value.__class__ is not int:
            value = where(value, player)
        to_door = self._to_door
        for cell in cells_of(boxes & self.outside):
            pushes = to_door[cell]
            value += pushes if pushes.__class__ is int else _side(pushes, player)
        return value


def _to_door(board: Board, doors: int, room: int) -> list:
    """Per cell (a list): pushes that bring a lone box from there, outside, to a cell in
    front of a door, the box staying outside (UNREACHABLE where it cannot); where the
    side of the box the player starts on matters, ((side's region mask, pushes), ...)."""
    outside = board.floor & ~room
    sides = sides_of(board)  # the player may walk anywhere, through the room too
    by_side: dict[tuple[int, int], int] = {}  # (cell, side label) -> pushes
    for door in cells_of(doors):
        for key, count in pull_distances(board, sides, door, outside | (1 << door)).items():
            if key[0] != door:  # the push through the door is the room's
                by_side[key] = min(by_side.get(key, UNREACHABLE), count - 1)
    pushes: list = [UNREACHABLE] * board.size
    for cell in cells_of(outside):
        labels = sorted(set(sides[cell]) - {-1})
        values = [by_side.get((cell, label), UNREACHABLE) for label in labels]
        if len(set(values)) <= 1:
            pushes[cell] = values[0] if values else UNREACHABLE
        else:
            around = board.floor & ~(1 << cell)
            regions = [board.reach(cell + board.steps[label], around) for label in labels]
            pushes[cell] = tuple(zip(regions, values))
    return pushes


def _side(sides: tuple, player: int) -> int:
    """The pushes for the side the player is on; the least of them when it is on none
    (it cannot reach the box at all: every side still bounds)."""
    for region, pushes in sides:
        if (region >> player) & 1:
            return pushes
    return min(pushes for _, pushes in sides)


class _RoomSearch:
    """The search behind a room's table: Dijkstra's over (room boxes, player's region)
    backwards from the filled room, resumable (a search asks for a table in step with
    its own work, and one that outgrew the first ask goes on from there). Its answers:
    {room boxes: pushes, or ((region mask, pushes), ...) where the player's side
    matters}."""

    def __init__(self, board: Board, live: int, doors: int, room: int, box_count: int, max_states: int) -> None:
        """`max_states`: the most positions its table may hold (a larger room gets none)."""
        self._board, self._live, self._room, self._box_count = board, live, room, box_count
        self._max_states = max_states
        self._regions = Regions(board)
        self.to_door = _to_door(board, doors, room)
        floor, steps = board.floor, board.steps
        # (door, step to an outside neighbour): the ways a box comes in (and goes out)
        self._entries = [
            (door, step)
            for door in cells_of(doors)
            for step in steps
            if not (room >> (door + step)) & 1 and (floor >> (door + step)) & 1
        ]
        self._distance: dict[tuple[int, int], int] = {}
        self._queue: list = []  # heap of (pushes, room boxes, player's region)
        self._taken = 0  # states taken from the queue (check is called every 1024)
        goals = board.goals
        for region in self._regions.masks(goals):
            self._distance[goals, region] = 0
            self._queue.append((0, goals, region))

    def __len__(self) -> int:
        return len(self._distance)

    def grow(self, check: Check, most: int | None = None) -> bool:
        """Search on until every position is found (True) or `most` are (False; None: its
        max_states); raises _TooLarge past max_states. `check` is called now and then,
        before a state is taken: when it raises to stop the build, the search is whole and
        can go on later."""
        board, live, room, box_count = self._board, self._live, self._room, self._box_count
        floor, steps, to_door = board.floor, board.steps, self.to_door
        regions, entries, distance, queue = self._regions, self._entries, self._distance, self._queue
        if most is None:
            most = self._max_states
        while queue:
            if len(distance) >= most:
                if most >= self._max_states:
                    raise _TooLarge
                return False
            if not self._taken & 1023:
                check()
            self._taken += 1
            here, mask, region = heapq.heappop(queue)
            if distance[mask, region] != here:
                continue  # reached more cheaply since it was queued
            following = []  # (state, added cost)
            for box in cells_of(mask):
                for step in steps:
                    # the player on box - step pulls the box there and backs onto box - 2 step
                    into, behind = box - step, box - 2 * step
                    if not (region >> into) & 1 or not (room >> into) & 1 or not (live >> into) & 1:
                        continue
                    if not (floor >> behind) & 1 or (mask >> behind) & 1:
                        continue
                    pulled = mask ^ (1 << box) ^ (1 << into)
                    following.append(((pulled, regions.of(pulled, behind)), 1))
            for door, step in entries:
                if (mask >> door) & 1:
                    # undo a box's arrival: pushed from door + step by a player on door + 2 step
                    start = door + 2 * step
                    if (region >> (door + step)) & 1 and (floor >> start) & 1 and not (mask >> start) & 1:
                        emptied = mask ^ (1 << door)
                        following.append(((emptied, regions.of(emptied, start)), 1))
                elif (region >> door) & 1 and bin(mask).count("1") < box_count:
                    # undo a box leaving: pushed from the door onto door + step, the player
                    # behind (then on the door); it costs that push and its way back
                    start, landed = door - step, to_door[door + step]
                    back = landed if landed.__class__ is int else _side(landed, door)
                    if (floor >> start) & 1 and not (mask >> start) & 1 and back < UNREACHABLE:
                        filled = mask | (1 << door)
                        following.append(((filled, regions.of(filled, start)), 1 + back))
            for after, cost in following:
                known = distance.get(after)
                if known is None or known > here + cost:
                    distance[after] = here + cost
                    heapq.heappush(queue, (here + cost, *after))
        return True

    def answers(self) -> dict:
        return self._regions.fold(self._distance)


class _TooLarge(Exception):
    """The room has more positions than its table may hold."""


def find_rooms(board: Board, check: Check = no_check, tuning: RoomsTuning = TUNING.rooms) -> list[tuple[int, int]]:
    """(door cells, room) as masks: the smallest room that holds every goal behind one
    doorway, then the smallest behind two, where there are such rooms (not all the floor).
    (The smallest room of all would often be a tight ring of cells around the goals,
    which sees no order of filling: the one-doorway room is not left out for it.) With
    a one-doorway room, the two doors are looked for inside it (a room within the room),
    and not at all when it has more than the tuning's nested_pairs pairs of cells (seconds
    of work on a large level, for a room that would rarely be small enough for a table);
    without one, not past door_pairs pairs. `check` may raise to stop the work."""
    floor, goals = board.floor, board.goals
    if not goals:
        return []
    one = _smallest(board, (1 << door for door in cells_of(floor & ~goals)), check)
    doorways = [1 << door for door in cells_of((floor if one is None else one[1]) & ~goals)]
    two = None
    if comb(len(doorways), 2) <= (tuning.door_pairs if one is None else tuning.nested_pairs):
        two = _smallest(board, (a | b for a, b in combinations(doorways, 2)), check)
    return [room for room in (one, two) if room is not None]


def _smallest(board: Board, candidates: Iterable[int], check: Check) -> tuple[int, int] | None:
    """The smallest room behind the cells of one candidate (mask): (doors, room)."""
    floor, goals = board.floor, board.goals
    best = None
    for tried, doors in enumerate(candidates):
        if tried % CHECK_EVERY == 0:
            check()
        rest = floor & ~doors
        part = board.reach((goals & -goals).bit_length() - 1, rest)
        if part & goals != goals or part == rest:
            continue  # the goals are not all on one side, or nothing is cut off
        if board.spread(part) & doors != doors:
            continue  # a cell of the candidate does not lead into the room: not a door
        room = part | doors
        if best is None or bin(room).count("1") < bin(best[1]).count("1"):
            best = (doors, room)
    return best


# (board, live cells, box count, the rooms' tuning) -> {(doors, room): None (not begun), its
# search (begun, not done), its RoomBound, or TOO_LARGE}; searches begun are kept for one
# board only
_built: dict[tuple, dict] = {}
KEEP = 16  # boards remembered
TOO_LARGE = False
# One thread at a time grows the tables (the app's workers may warm a level up and search
# it at once; a search half done is shared); one that finds it taken waits this long.
_growing = threading.Lock()
WAIT = 0.01


def room_bounds(
    board: Board, live: int, box_count: int, check: Check = no_check, tuning: RoomsTuning = TUNING.rooms
) -> list[RoomBound]:
    """The room bounds of a board (remembered): none when it has no such room or the
    rooms are too large for a table. `check` may raise to stop a long build."""
    while True:
        bounds, more = room_bounds_within(board, live, box_count, tuning.max_states, check, tuning)
        if not more:
            return bounds
        check()  # another thread is growing the tables (the app's workers): wait for it
        time.sleep(WAIT)


def room_bounds_within(
    board: Board, live: int, box_count: int, most: int, check: Check = no_check, tuning: RoomsTuning = TUNING.rooms
) -> tuple[list[RoomBound], bool]:
    """The room bounds whose tables are done within `most` positions each (at most the
    tuning's max_states), and whether a larger `most` might give more. A search asks in
    step with its own work: a table of 100,000 positions takes a second or two, which a
    search that ends sooner should not pay for; a room's search cut short goes on from
    there when asked again (the rooms with the fewest box sets first). While another
    thread grows them, the tables done so far come back at once, with more to come. The
    tables are remembered per board and per `tuning` (the rooms' part of the record)."""
    if not _growing.acquire(blocking=False):
        built = _built.get((board, live, box_count, tuning))
        return _done(list(built.values()) if built else []), True
    try:
        return _grown(board, live, box_count, min(most, tuning.max_states), check, tuning)
    finally:
        _growing.release()


def _grown(
    board: Board, live: int, box_count: int, most: int, check: Check, tuning: RoomsTuning
) -> tuple[list[RoomBound], bool]:
    key = (board, live, box_count, tuning)
    built = _built.get(key)
    if built is None:
        rooms = find_rooms(board, check, tuning) if box_count == bin(board.goals).count("1") else []
        sizes = {room: comb(bin(room[1] & live).count("1"), box_count) for room in rooms}
        hopeless = tuning.hopeless * tuning.max_states
        built = {room: None for room in sorted(rooms, key=sizes.get) if sizes[room] <= hopeless}
        if len(_built) >= KEEP:
            _built.pop(next(iter(_built)))
        _built[key] = built
    for other, rooms in _built.items():  # (a search cut short may hold a few tens of MB)
        if other != key:
            rooms.update([(room, None) for room, known in rooms.items() if isinstance(known, _RoomSearch)])
    for (doors, room), known in built.items():
        if known is None:
            known = built[doors, room] = _RoomSearch(board, live & room, doors, room, box_count, tuning.max_states)
        if isinstance(known, _RoomSearch):
            try:
                if known.grow(check, most):
                    built[doors, room] = RoomBound(board, room, known.to_door, known.answers())
            except _TooLarge:
                built[doors, room] = TOO_LARGE
    known = list(built.values())
    return _done(known), any(value is None or isinstance(value, _RoomSearch) for value in known)


def _done(known: list) -> list[RoomBound]:
    """The finished bounds among a board's rooms, the large room first (as found)."""
    bounds = [value for value in known if isinstance(value, RoomBound)]
    bounds.sort(key=lambda bound: -bin(bound.room).count("1"))
    return bounds

"""The goal room bounds: they find the doorways to the goals, they never exceed the
optimum (checked against an independent Dijkstra over single steps), its deadlocks
are real, and the search that uses it proves the same optimum as without it."""

import random
import threading
import time
from dataclasses import replace

import pytest

from fewest.engine import sokoban as S
from fewest.solvers.common.control import Stopped
from fewest.solvers.common.assignment import assign, matching_cost
from fewest.solvers.sokoban.board.board import cells_of, compile_board
from fewest.solvers.sokoban.bounds import rooms as sokoban_room
from fewest.solvers.sokoban.bounds.rooms import find_rooms, room_bounds, room_bounds_within
from fewest.solvers.sokoban.board.tables import UNREACHABLE, build_tables
from fewest.solvers.sokoban.tuning import TUNING
from tests.sokoban_support import (
    checked,
    level,
    lexicographic_optimum,
    microban,
    positions,
    room_level,
    search_position,
    solve,
)

MAX_STATES = TUNING.rooms.max_states  # (a room table's positions at most)

TWO_ROOMS = """\
#########
#.  #   #
#.    $ #
#   #$@ #
#########"""


def bounds_of(lvl: S.Level, state: S.State) -> tuple[int, int] | None:
    """(matching, the larger room bound) of the position; None where the board has no goal room."""
    board = compile_board(lvl)
    tables = build_tables(board)
    boxes, player = search_position(board, state)
    rooms = room_bounds(board, tables.live, bin(boxes).count("1"))
    if not rooms:
        return None
    rows = [tables.rows[cell] for cell in cells_of(boxes)]
    return matching_cost(rows, assign(rows)), max(room.bound(boxes, player) for room in rooms)


def doorway_level(rng: random.Random) -> S.Level | None:
    """Two rooms joined by one or two open cells in a wall, the goals in the small left
    one and the boxes mostly in the right one (so they must come in one by one, in some
    order); None when the draw makes no valid level."""
    width, height = rng.randint(8, 9), rng.randint(5, 6)
    split = 4
    doors = {rng.randint(2, height - 3)}  # a box can turn behind it
    if rng.random() < 0.5:
        doors.add(rng.choice([row for row in range(1, height - 1) if row not in doors]))
    walls = {(r, c) for r in range(height) for c in range(width)}
    walls -= {(r, c) for r in range(1, height - 1) for c in range(1, width - 1)}
    walls |= {(r, split) for r in range(height) if r not in doors}
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1) if (r, c) not in walls]
    if len(doors) == 1:
        # inner walls keep off the columns beside the doorway wall (so the door stays usable),
        # and off a two-door level (where a pocket behind one cell would make the room)
        walls.update(cell for cell in inner if abs(cell[1] - split) > 1 and rng.random() < 0.1)
    open_cells = [cell for cell in inner if cell not in walls]
    left = [cell for cell in open_cells if cell[1] < split]
    # boxes off the outer walls, mostly (a box against a wall there is usually dead)
    right = [cell for cell in open_cells if cell[1] > split and 1 < cell[0] < height - 2 and cell[1] < width - 2]
    count = rng.randint(2, 3)
    if len(left) < count or len(right) < count + 1:
        return None
    goals = rng.sample(left, count)
    boxes = set(rng.sample(right if rng.random() < 0.7 else open_cells, count))
    player = rng.choice([cell for cell in open_cells if cell not in boxes])
    return room_level(width, height, walls, goals, boxes, player)


def doorway_levels(seed: int, count: int) -> list[S.Level]:
    rng = random.Random(seed)
    found: list[S.Level] = []
    while len(found) < count:
        lvl = doorway_level(rng)
        if lvl is not None and bounds_of(lvl, S.initial_state(lvl)) is not None:
            found.append(lvl)
    return found


@pytest.mark.parametrize("seed", range(4))
def test_the_room_bound_never_exceeds_the_optimum(seed):
    rng = random.Random(seed)
    exact = dead = 0
    for lvl in doorway_levels(400 + seed, 20):
        for state in positions(lvl, rng, 1):
            best = lexicographic_optimum(lvl, "pushes", state)
            value = bounds_of(lvl, state)[1]
            if best is None:
                dead += value >= UNREACHABLE
                continue
            assert value <= best[0]
            exact += value == best[0]
    assert exact > 0 and dead > 0  # not vacuous: it is often exact and finds deadlocks


@pytest.mark.parametrize("number", [15, 20, 57, 63])
def test_it_sees_the_order_a_room_is_filled_in(number):
    """Microban levels with two boxes and a goal room, where the matching falls far short."""
    lvl = microban(number)[number - 1][0]
    rng = random.Random(number)
    raised = 0
    for state in positions(lvl, rng, 6):
        best = lexicographic_optimum(lvl, "pushes", state)
        matching, value = bounds_of(lvl, state)
        if best is not None:  # (a random walk may push a box into a deadlock)
            assert value <= best[0]
            raised += value > matching
    assert raised > 0


def test_the_doorway_is_found():
    lvl = level(TWO_ROOMS)
    board = compile_board(lvl)
    doors, room = find_rooms(board)[0]
    assert doors == 1 << board.inside(2 * lvl.width + 3)  # the first cell on the way out: the smallest room
    assert room & board.goals == board.goals and bin(room).count("1") == 9  # the door with it


def test_two_doorways_make_a_room_when_one_does_not():
    lvl = level("#########\n#.  #   #\n#.    $ #\n#   # @ #\n#     $ #\n#########")
    board = compile_board(lvl)
    [(doors, room)] = find_rooms(board)
    assert doors == (1 << board.inside(2 * lvl.width + 3)) | (1 << board.inside(4 * lvl.width + 3))
    assert room & board.goals == board.goals and bin(room).count("1") == 3 * 4


def test_a_level_without_a_doorway_has_no_room():
    # one open room: only a corner is cut off by one or two cells, and every corner is a goal
    lvl = level("######\n#.$ .#\n# $@ #\n#.$$.#\n######")
    board = compile_board(lvl)
    assert room_bounds(board, build_tables(board).live, 4) == []


def test_a_room_far_too_large_for_a_table_is_not_tried(monkeypatch):
    lvl = microban(105)[104][0]  # eight boxes already in a room of some forty cells
    board = compile_board(lvl)

    def built(*args):
        raise AssertionError("the table build was started")

    monkeypatch.setattr(sokoban_room._RoomSearch, "grow", built)
    assert room_bounds(board, build_tables(board).live, 8) == []


def stopper(calls_allowed: int):
    """A check that raises Stopped on its call after `calls_allowed`."""
    calls = []

    def check():
        calls.append(1)
        if len(calls) > calls_allowed:
            raise Stopped("cancelled")

    return check


@pytest.fixture
def microban_153(monkeypatch) -> tuple:
    """Microban #153's board and live cells, with no room tables remembered yet: the goal
    corner's table is small, the left third's takes some forty thousand positions."""
    monkeypatch.setattr(sokoban_room, "_built", {})
    board = compile_board(microban(153)[152][0])
    return board, build_tables(board).live


def test_a_build_stops_when_the_search_is_stopped(microban_153):
    board, live = microban_153
    with pytest.raises(Stopped):
        room_bounds(board, live, 10, stopper(3))
    assert len(room_bounds(board, live, 10)) == 2  # what was left half-built was not taken for done


def test_a_build_cut_short_goes_on_from_there_when_asked_again(microban_153, monkeypatch):
    """A search asks for tables in step with its own work."""
    board, live = microban_153
    assert room_bounds_within(board, live, 10, 0) == ([], True)  # no positions: nothing done yet
    begun = []  # the positions each room's search held when asked to grow
    grow = sokoban_room._RoomSearch.grow

    def counted(search, check, most):
        begun.append(len(search))
        return grow(search, check, most)

    monkeypatch.setattr(sokoban_room._RoomSearch, "grow", counted)
    with pytest.raises(Stopped):
        room_bounds_within(board, live, 10, MAX_STATES, stopper(20))
    small, more = room_bounds_within(board, live, 10, 5_000)  # the small room was done first
    assert [bin(room.room).count("1") for room in small] == [12] and more
    both, more = room_bounds_within(board, live, 10, MAX_STATES)
    assert len(both) == 2 and both[1] is small[0] and not more
    assert begun[-1] == begun[-2] > 2_000  # the large room's search went on from where it stopped
    assert room_bounds(board, live, 10) == both


def test_a_room_too_large_for_a_table_is_given_up(microban_153):
    rooms = replace(TUNING.rooms, max_states=5_000, hopeless=1_000)  # (still tried up to 5M box sets, as by default)
    board, live = microban_153
    bounds, more = room_bounds_within(board, live, 10, 10**6, tuning=rooms)
    assert len(bounds) == 1 and not more
    assert sokoban_room._built[board, live, 10, rooms][find_rooms(board)[0]] is sokoban_room.TOO_LARGE


def test_a_search_cut_short_is_kept_for_the_last_board_asked_only(microban_153):
    big, live = microban_153
    with pytest.raises(Stopped):
        room_bounds_within(big, live, 10, MAX_STATES, stopper(20))
    rooms = sokoban_room._built[big, live, 10, TUNING.rooms]
    [begun] = [known for known in rooms.values() if isinstance(known, sokoban_room._RoomSearch)]
    assert len(begun) > 2_000
    other = compile_board(level(TWO_ROOMS))
    assert room_bounds_within(other, build_tables(other).live, 2, MAX_STATES)[0]
    assert None in rooms.values() and begun not in rooms.values()  # dropped: its memory


def test_while_another_thread_grows_the_tables_a_search_goes_on_and_a_warm_up_waits(microban_153, monkeypatch):
    """The app warms a level up and searches it in two threads: one grows the shared
    half-done searches at a time; the other takes what is done and asks again later."""
    board, live = microban_153
    small, _ = room_bounds_within(board, live, 10, 5_000)  # the goal corner's table is done
    results, others_growing = [], [True]
    grow = sokoban_room._RoomSearch.grow

    def guarded(*args):
        assert not others_growing[0], "grown by two threads at once"
        return grow(*args)

    monkeypatch.setattr(sokoban_room._RoomSearch, "grow", guarded)
    with sokoban_room._growing:  # another thread is growing them
        assert room_bounds_within(board, live, 10, MAX_STATES) == (small, True)
        waiting = threading.Thread(target=lambda: results.append(room_bounds(board, live, 10)))
        waiting.start()
        time.sleep(0.1)
        assert waiting.is_alive() and not results
        with pytest.raises(Stopped):  # a wait is cancelled like a build
            room_bounds(board, live, 10, stopper(2))
        others_growing[0] = False
    waiting.join(timeout=30)
    assert len(results) == 1 and len(results[0]) == 2 and results[0][1] is small[0]


def test_a_box_outside_counts_from_the_side_the_player_is_on():
    # The player stands in the doorway, west of the box: it cannot get round to push the
    # box in, so the box first goes east. Either side alone would say 11.
    lvl = level("#########\n#   #  ##\n#.  # $ #\n#   @$  #\n# . #   #\n#########")
    state = S.initial_state(lvl)
    assert bounds_of(lvl, state) == (11, 13)
    assert lexicographic_optimum(lvl, "pushes", state)[0] == 13


def test_a_box_pushed_out_of_the_room_costs_its_way_back():
    # A box stands in the doorway with the player inside: it must go out, once more so
    # that the player can get round it, and back (3 pushes), then in onto the lower goal
    # (2 more); the other box takes 1. Counted as vanishing once out, it cost 3 in all.
    lvl = level("#########\n# $.#   #\n#@  #   #\n#  .$   #\n# # #   #\n#########")
    state = S.initial_state(lvl)
    assert bounds_of(lvl, state)[1] == 6
    assert lexicographic_optimum(lvl, "pushes", state)[0] == 6


def test_the_rooms_behind_one_doorway_and_behind_two_are_both_bounds():
    """Microban #153: the left third of the level lies behind one cell, the goal corner
    alone behind two; the small room counts the long way each box takes to reach it, the
    large one the long way back of the box in its doorway, which must go out first."""
    lvl = microban(153)[152][0]
    board = compile_board(lvl)
    tables = build_tables(board)
    (one_door, large), (two_doors, small) = find_rooms(board)
    assert bin(one_door).count("1") == 1 and bin(two_doors).count("1") == 2
    assert small & large == small and bin(small).count("1") == 12  # ten goals and two doors
    state = S.initial_state(lvl)
    boxes, player = search_position(board, state)
    values = [room.bound(boxes, player) for room in room_bounds(board, tables.live, 10)]
    assert values == [318, 318]  # (the large room: 231 when a box pushed out vanished)


def test_an_open_hall_is_not_searched_for_doors_pair_by_pair():
    # 900 floor cells and no room behind one door: 400,000 pairs of cells as two doors would
    # take a minute and gigabytes, past any budget. They are not tried, and the cells that
    # are tried call the search's check, which may stop the work.
    rows = ["#" * 32] + ["#" + " " * 30 + "#"] * 30 + ["#" * 32]
    rows[3] = "#  @" + " " * 27 + "#"
    rows[4] = "#   $ $" + " " * 24 + "#"
    rows[28] = "#" + " " * 26 + ".  .#"
    board = compile_board(level("\n".join(rows)))
    checks = []
    assert find_rooms(board, lambda: checks.append(1)) == []
    assert 1 <= len(checks) <= 900 // sokoban_room.CHECK_EVERY + 1  # the one-door cells alone

    def stop() -> None:
        raise Stopped("time")

    with pytest.raises(Stopped):
        find_rooms(board, stop)

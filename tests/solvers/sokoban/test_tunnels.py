"""Dead-end corridors (solvers/sokoban_tunnels.py): which cells they are, and that forcing
the push deeper loses no plan under either metric, against an independent Dijkstra over
single steps on rooms where the rule fires. Every plan is replayed."""

import random

import pytest

from fewest.engine import sokoban as S
from fewest.solvers.sokoban import solver
from fewest.solvers.sokoban.board.board import DIRECTIONS, compile_board
from fewest.solvers.sokoban.pruning.tunnels import Tunnels
from tests.sokoban_support import checked, level, lexicographic_optimum, random_rooms, room_level, solve


def corridor_cells(text: str) -> dict[str, set[tuple[int, int]]]:
    """{direction letter: the (row, col) first cells of dead-end corridors that way}."""
    board = compile_board(level(text))
    tunnels = Tunnels(board)
    return {
        DIRECTIONS[d]: {(cell // board.width - 1, cell % board.width - 1) for cell in found}
        for d, found in enumerate(tunnels.corridors)
        if found
    }


def test_a_straight_one_wide_dead_end_is_a_corridor_towards_its_end():
    # row 1 is one wide from column 3 on, and ends at column 5
    assert corridor_cells("#######\n#@$.  #\n## ####\n#######") == {"r": {(1, 3), (1, 4)}}


def test_a_door_a_corridor_open_at_both_ends_or_a_two_wide_one_is_none():
    assert corridor_cells("#######\n#  #  #\n#@$ .$#\n#  #. #\n#######") == {}
    assert corridor_cells("#######\n#     #\n# ### #\n#@$ . #\n#######") == {}
    assert corridor_cells("######\n#@   #\n#$.  #\n######") == {}


def test_the_push_is_forced_only_while_the_corridor_has_more_goals_than_boxes():
    board = compile_board(level("########\n#@$$ ..#\n########"))
    tunnels = Tunnels(board)
    right = board.steps[2]
    player, mouth, inside = board.inside(9), board.inside(10), board.inside(12)
    push = [(2, right, 1 << mouth)]
    assert tunnels.forced(1 << mouth, player, push) == push  # two goals, one box: another comes after
    assert tunnels.forced((1 << mouth) | (1 << inside), player, push) is None  # (the plan may end with it)


@pytest.mark.parametrize("metric", ["moves", "pushes"])
def test_a_corridor_the_plan_may_end_in_is_not_forced(metric, forced_count):
    # Pushing the top box into its corridor first leaves the player at its end, with the
    # walk out still to make: 5 moves. The fewest: the other box down, then the top one.
    room = level("######\n#. $@#\n####$#\n####.#\n######")
    found = checked(room, solve(room, metric))
    assert found == (4, 3) == lexicographic_optimum(room, "moves")
    assert not forced_count


def tunnel_room(rng: random.Random) -> S.Level | None:
    """A room with a one-wide dead end off its left side, with two or three goals at its
    end (as in Microban #153's goal corridor), and their boxes in the room on the
    corridor's row, none with a box or wall to its right; half of them with one more goal
    and box in the room (some rooms have no plan: the check is then that the solver
    finds none either)."""
    width, height = rng.randint(7, 9), rng.randint(4, 6)
    walls = {(r, c) for r in range(height) for c in range(width)}
    inner = {(r, c) for r in range(1, height - 1) for c in range(1, width - 1)}
    walls -= inner
    row, depth = rng.randint(1, height - 2), rng.randint(2, 3)
    walls |= {(r, c) for r, c in inner if c <= depth and r != row}
    walls |= {cell for cell in inner - walls if cell[1] > depth + 1 and rng.random() < 0.08}
    open_cells = sorted(inner - walls)
    goals = [(row, c) for c in range(1, rng.randint(2, depth) + 1)]
    in_line = [(row, c) for r, c in open_cells if r == row and c > depth and (row, c + 1) in open_cells]
    if len(in_line) < len(goals):
        return None
    boxes = set(rng.sample(in_line, len(goals)))
    if any((row, c + 1) in boxes for _, c in boxes):
        return None  # (side by side on the row, the right one could never be pushed in)
    if rng.random() < 0.5:  # and a goal in the room, with a box anywhere
        room = [cell for cell in open_cells if cell[1] > depth and cell not in boxes]
        goals.append(rng.choice(room))
        boxes.add(rng.choice([cell for cell in room if cell != goals[-1]]))
    player = rng.choice([cell for cell in open_cells if cell not in boxes])
    return room_level(width, height, walls, goals, boxes, player)


@pytest.fixture
def forced_count(monkeypatch):
    """How many times the rule picked a push (so that the checks below are not vacuous)."""
    fired = []
    forced = Tunnels.forced

    def counted(self, boxes, player, candidates):
        push = forced(self, boxes, player, candidates)
        if push is not None:
            fired.append(push)
        return push

    monkeypatch.setattr(Tunnels, "forced", counted)
    monkeypatch.setattr(solver, "_meet_first", lambda *_: None)  # (the push search, under moves too)
    return fired


@pytest.mark.parametrize("metric", ["moves", "pushes"])
@pytest.mark.parametrize("seed", range(3))
def test_forcing_the_push_loses_no_plan(seed, metric, forced_count):
    """On random rooms until 15 where the rule fired in the search (each room checked)."""
    fired_in = 0
    for room in random_rooms(500 + seed, 400, tunnel_room):
        before = len(forced_count)
        expected = lexicographic_optimum(room, metric)
        solution = solve(room, metric)
        if expected is None:
            assert not solution.moves
        else:
            found = checked(room, solution)
            assert (found if metric == "moves" else found[::-1]) == expected
        fired_in += len(forced_count) > before
        if fired_in == 15:
            return
    pytest.fail(f"the rule fired in {fired_in} rooms only")

"""Board symmetries in the Sokoban search: which mirrors a board has, that the canonical
key is the same for every image of a position, and that searching symmetric rooms with
one node per set of images still finds the optimum of an independent Dijkstra."""

import random

import pytest

from fewest.solvers import Status
from fewest.solvers.sokoban import solver
from fewest.solvers.sokoban.board.board import cells_of, compile_board
from fewest.solvers.sokoban.board.symmetry import board_symmetry
from tests.sokoban_support import checked, level, lexicographic_optimum, solve, symmetric_room


@pytest.mark.parametrize(
    "text, count",
    [
        ("#######\n#*   *#\n#  @  #\n#*   *#\n#######", 3),  # a 5x3 room: two mirrors and a half turn
        ("#####\n#* *#\n# @ #\n#* *#\n#####", 7),  # a square room: all eight
        ("######\n#*   #\n# @  #\n#   *#\n######", 1),  # goals in opposite corners: the half turn
        ("#####\n#*  #\n# @ #\n#   #\n#####", 1),  # one corner goal of a square: its diagonal
        ("######\n#*   #\n# @ ##\n#   *#\n######", None),  # a wall breaks the half turn
    ],
)
def test_board_symmetries_keep_floor_and_goals(text, count):
    # (boxes on goals: the position does not matter, only walls and goals do)
    board = compile_board(level(text))
    symmetry = board_symmetry(board)
    assert (None if symmetry is None else len(symmetry.maps)) == count
    for cells in symmetry.maps if symmetry else ():
        assert sorted(cells[c] for c in cells_of(board.floor)) == list(cells_of(board.floor))
        assert sorted(cells[c] for c in cells_of(board.goals)) == list(cells_of(board.goals))


def test_every_image_of_a_position_has_the_same_key():
    board = compile_board(level("#######\n#.   .#\n#  $  #\n#$ @ $#\n#  $  #\n#.   .#\n#######"))
    symmetry = board_symmetry(board)
    assert symmetry is not None
    shift = board.size.bit_length()
    rng = random.Random(3)
    floor = list(cells_of(board.floor))
    for _ in range(200):
        picked = rng.sample(floor, 4)
        boxes = sum(1 << cell for cell in picked[:3])
        player = picked[3]
        images = symmetry.images(boxes)
        key = symmetry.keyer(boxes, images, shift)(player)
        for image, cells in zip(images, symmetry.maps):
            assert image == sum(1 << cells[cell] for cell in picked[:3])
            again = symmetry.keyer(image, symmetry.images(image), shift)(cells[player])
            assert again == key
        moved = symmetry.moved(images, picked[0], picked[3])
        assert moved == symmetry.images(boxes ^ (1 << picked[0]) ^ (1 << picked[3]))


def test_images_on_a_large_board_reach_its_last_cells():
    # a 16x16 room with a goal in each corner: the box sets span many bytes, up to the
    # highest floor cell
    inner = " " * 14
    rows = ["#" * 16, "#*" + inner[2:] + "*#"] + ["#" + inner + "#"] * 12 + ["#*" + inner[2:] + "*#", "#" * 16]
    rows[7] = "#" + inner[:6] + "@" + inner[7:] + "#"
    board = compile_board(level("\n".join(rows)))
    symmetry = board_symmetry(board)
    assert symmetry is not None and len(symmetry.maps) == 7
    floor = list(cells_of(board.floor))
    rng = random.Random(8)
    for count in (1, 5, 40, len(floor)):
        for _ in range(20):
            picked = rng.sample(floor, count)
            boxes = sum(1 << cell for cell in picked)
            for image, cells in zip(symmetry.images(boxes), symmetry.maps):
                assert image == sum(1 << cells[cell] for cell in picked)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("metric", ["moves", "pushes"])
def test_symmetric_rooms_match_an_independent_dijkstra(seed, metric):
    rng = random.Random(seed)
    symmetric = 0
    for _ in range(25):
        room = symmetric_room(rng)
        if room is None:
            continue
        symmetric += board_symmetry(compile_board(room)) is not None
        expected = lexicographic_optimum(room, metric)
        solution = solve(room, metric)
        if expected is None:
            assert solution.status is Status.UNSOLVABLE
            continue
        moves, pushes = checked(room, solution)
        assert ((moves, pushes) if metric == "moves" else (pushes, moves)) == expected
    assert symmetric >= 10  # the rooms really are symmetric, so the canonical keys are used


def test_mirror_images_share_one_node(monkeypatch):
    # Four boxes around the player in a square room: every first push has three mirror twins.
    lvl = level("#######\n#.   .#\n#  $  #\n# $@$ #\n#  $  #\n#.   .#\n#######")
    monkeypatch.setattr(solver, "_meet_first", lambda *_: None)  # the push search's table (moves)
    with_images = solve(lvl, "moves")
    monkeypatch.setattr("fewest.solvers.sokoban.searches.push.board_symmetry", lambda board: None)
    without = solve(lvl, "moves")
    assert checked(lvl, with_images) == checked(lvl, without) == lexicographic_optimum(lvl, "moves")
    assert with_images.stats.stored * 2 < without.stats.stored

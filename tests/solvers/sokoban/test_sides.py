"""The neighbour labels of one walk over the floor (board/sides.py) are those of a flood
fill round each cell, on rooms, mazes with holes, floors in several pieces and Microban;
and the walk stops when its check says so."""

import random

import pytest

from fewest.engine import sokoban as S
from fewest.solvers.common.control import Stopped
from fewest.solvers.sokoban.board.board import Board, cells_of, compile_board
from fewest.solvers.sokoban.board.sides import neighbour_labels
from tests.sokoban_support import level, microban, random_rooms


def flooded(board: Board, floor: int) -> list:
    """The labels by definition: the neighbours the player joins, a box on the cell."""
    labels: list = [None] * board.size
    for cell in cells_of(floor):
        around = floor & ~(1 << cell)
        labels[cell] = tuple(
            -1 if not (floor >> (cell + step)) & 1
            else next(e for e, other in enumerate(board.steps) if (board.reach(cell + step, around) >> (cell + other)) & 1)
            for step in board.steps
        )
    return labels


def test_the_walk_labels_as_a_flood_fill_per_cell_does():
    rng = random.Random(75)
    boards = [compile_board(room) for room in random_rooms(75, 60)]
    boards += [compile_board(entry) for entry, _ in microban(40)]
    cut = 0
    for board in boards:
        holed = board.floor
        for cell in cells_of(board.floor):
            if rng.random() < 0.3:  # (floors in pieces, dead ends and cut cells everywhere)
                holed &= ~(1 << cell)
        for floor in (board.floor, holed):
            labels = neighbour_labels(board, floor)
            assert labels == flooded(board, floor)
            cut += sum(1 for row in labels if row is not None and len(set(row) - {-1}) > 1)
    assert cut > 100  # (cells that split the floor were among them)


def test_the_walk_stops_when_its_check_says_so():
    calls = []

    def check() -> None:
        calls.append(1)
        raise Stopped("time")

    big = compile_board(_open_room(60))
    with pytest.raises(Stopped):
        neighbour_labels(big, big.floor, check)
    assert calls == [1]  # (3,364 cells: the first check, after 256 of them, stopped it)


def _open_room(side: int) -> S.Level:
    rows = ["#" * side] + ["#" + " " * (side - 2) + "#"] * (side - 2) + ["#" * side]
    rows[1] = "#@$." + " " * (side - 5) + "#"
    return level("\n".join(rows))


def test_doorways_are_the_cells_whose_loss_splits_the_floor():
    from fewest.solvers.sokoban.anytime.fess import doorways

    split = 0
    for board in [compile_board(room) for room in random_rooms(77, 40)] + [compile_board(e) for e, _ in microban(20)]:
        whole = len(board.parts(board.floor))
        by_definition = sum(
            1 << cell for cell in cells_of(board.floor) if len(board.parts(board.floor & ~(1 << cell))) > whole
        )
        assert doorways(board) == by_definition
        split += by_definition.bit_count()
    assert split > 20

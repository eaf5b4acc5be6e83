"""Board.distances_from: one breadth-first search from many player cells at once, each
joining at its own moves so far (the tie-break's fewest moves, sokoban_tie_break.py),
against the single-start search from each cell, the least over them."""

import random

from fewest.solvers.sokoban.board.board import cells_of, compile_board
from tests.sokoban_support import level, random_rooms


def test_from_many_cells_it_is_the_least_of_each_cell_s_own_walks():
    rng = random.Random(5)
    asked = 0
    for lvl in random_rooms(61, 60):
        board = compile_board(lvl)
        free = board.floor & ~board.mask(lvl.boxes)
        cells = list(cells_of(free))
        if len(cells) < 4:
            continue
        starts = {cell: rng.randrange(0, 12) for cell in rng.sample(cells, rng.randint(1, min(5, len(cells))))}
        targets = 0
        for cell in rng.sample(cells, rng.randint(1, len(cells))):
            targets |= 1 << cell
        expected: dict[int, int] = {}
        for start, moves in starts.items():
            for cell, steps in board.distances(start, targets, free):
                expected[cell] = min(expected.get(cell, steps + moves), steps + moves)
        got = board.distances_from(starts, targets, free)
        assert len(got) == len({cell for cell, _ in got})  # (each target once)
        assert dict(got) == expected
        asked += 1
    assert asked >= 40


def test_a_start_cut_off_from_the_others_still_counts():
    """Two starts the free floor keeps apart: the search from the first dies out before the
    second's moves come up, and goes on from there (not given up)."""
    lvl = level("\n".join(["#######", "#@ $ .#", "#     #", "#######"]))
    board = compile_board(lvl)

    def cell(row: int, col: int) -> int:  # (the level's own rows and columns, walls in)
        return board.inside(row * lvl.width + col)

    free = board.floor & ~board.mask(lvl.boxes) & ~(1 << cell(1, 3)) & ~(1 << cell(2, 3))
    assert board.distances_from({cell(1, 1): 0, cell(2, 5): 30}, 1 << cell(1, 4), free) == [(cell(1, 4), 32)]
    assert board.distances_from({cell(1, 1): 0, cell(2, 5): 30}, 1 << cell(2, 2), free) == [(cell(2, 2), 2)]

"""The player's region after a push, from the one before it (Board.pushed_region), against a flood fill."""

from __future__ import annotations

import random

from fewest.engine import sokoban as S
from fewest.levels import sokoban as L
from fewest.solvers.sokoban.board.board import _RING_JOINS, cells_of, compile_board
from tests.sokoban_support import microban, positions, random_rooms, search_position


def _every_push(board, boxes: int, seen: int):
    """(box set after, the box's cell, its new cell) for each push from the region `seen`."""
    for box in cells_of(boxes):
        for step in board.steps:
            target = box + step
            if seen >> (box - step) & 1 and board.floor >> target & 1 and not boxes >> target & 1:
                yield boxes ^ (1 << box) ^ (1 << target), box, target


def _checked(lvl: S.Level, rng: random.Random, walk: int) -> tuple[int, int]:
    """Every push from the positions of a random walk checked: (pushes, those whose region
    is the one before less the target, plus the player's new cell)."""
    board = compile_board(lvl)
    checked = kept = 0
    for state in positions(lvl, rng, walk):
        boxes, player = search_position(board, state)
        seen = board.reach(player, board.floor & ~boxes)
        for after, cell, target in _every_push(board, boxes, seen):
            free = board.floor & ~after
            expected = board.reach(cell, free)
            assert board.pushed_region(seen, free, cell, target) == expected, (lvl, state, cell, target)
            checked += 1
            kept += expected == (seen & ~(1 << target)) | (1 << cell)
    return checked, kept


def test_the_region_after_a_push_is_the_flood_fills():
    rng = random.Random(7)
    checked = kept = 0
    for lvl, _ in microban(155)[::3]:
        done = _checked(lvl, rng, 60)
        checked, kept = checked + done[0], kept + done[1]
    for lvl in random_rooms(11, 150):  # (small rooms: boxes against walls and each other, cut regions)
        done = _checked(lvl, rng, 40)
        checked, kept = checked + done[0], kept + done[1]
    assert checked > 10_000 and kept < checked  # (both kinds: the region joined, and cut or grown)


def test_the_ring_joins_as_counted_by_hand():
    # bits: 0-2 the row above, 3 right, 4-6 the row below, 7 left
    n, ne, e, se, s, sw, w, nw = 1 << 1, 1 << 2, 1 << 3, 1 << 6, 1 << 5, 1 << 4, 1 << 7, 1 << 0
    assert _RING_JOINS[n] and _RING_JOINS[0xFF] and _RING_JOINS[n | ne | e]
    assert not _RING_JOINS[n | s] and not _RING_JOINS[w | e]  # (a corridor: cut in two)
    assert not _RING_JOINS[n | e]  # (a corner with its diagonal blocked)
    assert _RING_JOINS[n | ne | e | se | s] and not _RING_JOINS[n | ne | e | s]
    assert _RING_JOINS[w | nw | n | ne | e | se | s | sw] and not _RING_JOINS[nw | ne | sw | se | n | s]

"""Deadlocks that are certain: positions no sequence of moves can ever solve.

Every test here only ever condemns unsolvable positions, so pruning with
them loses no solution, optimal or not:
- dead squares: a box off every goal's pull-reach can never reach a goal;
- freeze: a set S of boxes in which every box is blocked on both axes, each
  axis blocked by a wall, by dead squares on both sides, or by a box of S,
  can never move (the first of them to move would need an unblocked axis).
  S is found as the largest such set around a box (a greatest fixed point:
  start from the touching boxes, drop any box with a free axis, repeat);
- immovable boxes: grow the set of boxes that might ever move (those the
  player could push, walking where the boxes that might move have gone);
  the rest can never move, by the same first-mover argument;
- pairs (sokoban/bounds/pairs.py): two boxes that even alone on the board can never
  both reach goals;
- a box that can never move off its goal is a wall from then on: the other
  boxes' distances are measured around it (`with_walls`), which finds goals
  nobody can reach any more and box sets with no one-to-one assignment to
  the goals at all.
"""

from __future__ import annotations

from typing import Any

from fewest.solvers.common.assignment import min_cost
from fewest.solvers.sokoban.board.board import Board, cells_of, compile_board
from fewest.solvers.sokoban.bounds.pairs import pair_bound
from fewest.solvers.sokoban.board.tables import UNREACHABLE, Tables, build_tables, with_walls


def frozen_group(tables: Tables, boxes: int, cell: int) -> int:
    """The largest frozen set of boxes holding the box on `cell` (a mask; 0 if it can move)."""
    board = tables.board
    floor, dead = board.floor, tables.dead
    horizontal, vertical = board.steps[2], board.steps[3]
    if not board.spread(1 << cell) & boxes:  # (a box alone: no flood fill; most pushes in the tie-break)
        alone = 1 << cell
        if _blocked(cell, horizontal, alone, floor, dead) and _blocked(cell, vertical, alone, floor, dead):
            return alone
        return 0
    group = board.reach(cell, boxes)  # the boxes touching this one, transitively
    changed = True
    while changed:
        changed = False
        for box in cells_of(group):
            if not (
                _blocked(box, horizontal, group, floor, dead) and _blocked(box, vertical, group, floor, dead)
            ):
                group ^= 1 << box
                changed = True
    return group if (group >> cell) & 1 else 0


def _blocked(cell: int, step: int, stuck: int, floor: int, dead: int) -> bool:
    before, after = cell - step, cell + step
    if not (floor >> before) & 1 or not (floor >> after) & 1:
        return True  # a wall on one side: no push along this axis at all
    if (dead >> before) & 1 and (dead >> after) & 1:
        return True  # either push along it lands on a dead square
    return bool((stuck >> before) & 1 or (stuck >> after) & 1)


def immovable(board: Board, player: int, boxes: int, idle: int, movable: int, live: int) -> int:
    """Those `idle` boxes that can never move, whatever happens first.

    `movable` are boxes known to be pushable (e.g. right now), `live` the cells
    a box may be pushed onto. Boxes that may move are taken as gone, the player
    walks where that opens, and every idle box that could then be pushed onto
    a live cell not held by a box still in place joins them, until nothing
    changes. The first push of any box left over would need a cell the player
    never reaches or a target that stays blocked, so none of them ever moves.
    """
    floor, width = board.floor, board.width
    while idle:
        fixed = boxes & ~movable
        area = board.reach(player, floor & ~fixed)
        open_cells = live & ~fixed
        moving = 0
        for step in (1, width):
            moving |= idle & (area << step) & (open_cells >> step)  # pushed right / down
            moving |= idle & (area >> step) & (open_cells << step)  # pushed left / up
        if not moving:
            return idle
        movable |= moving
        idle &= ~moving
    return 0


def settle(tables: Tables, boxes: int, stuck: int = 0) -> tuple[int, Tables] | None:
    """(boxes that never move, tables with them as walls), or None when the position is dead.

    `stuck` are boxes already known never to move (all on goals); frozen sets are added.
    """
    if boxes & tables.dead:
        return None
    for box in cells_of(boxes & ~stuck):
        if not (stuck >> box) & 1:
            stuck |= frozen_group(tables, boxes, box)
    if stuck & ~tables.board.goals:
        return None
    if stuck:
        tables = with_walls(tables, stuck)
    rest = boxes & ~stuck
    if rest & tables.dead or min_cost([tables.rows[box] for box in cells_of(rest)]) >= UNREACHABLE:
        return None
    return stuck, tables


def is_dead(level: Any, state: Any) -> bool:
    """Whether the engine position `state` of `level` can certainly never be solved.

    Cheap (the tests above, once each; the pair table is built once per level and
    kept); never says True for a solvable position, may say False for an unsolvable one.
    """
    board = compile_board(level)
    tables = build_tables(board)
    boxes = board.mask(state.boxes) & board.floor  # sealed boxes on sealed goals never move
    settled = settle(tables, boxes)
    if settled is None:
        return True
    stuck, walls = settled
    player = board.inside(state.player)
    never = immovable(board, player, boxes, boxes & ~stuck, 0, walls.live)
    if never & ~board.goals:
        return True
    if never and settle(tables, boxes, stuck | never) is None:
        return True
    pairs = pair_bound(board)
    return pairs is not None and pairs.bound(boxes, player) >= UNREACHABLE


def blamed_boxes(level: Any, state: Any) -> frozenset[int]:
    """The engine cells of the boxes a dead position can be blamed on, for the player to
    see: on a dead square, frozen off a goal (with the rest of their frozen set off goals),
    else never movable off a goal. Empty for a deadlock of the boxes as a whole (pairs,
    no way to give each box a goal), and for a position not dead by these tests."""
    board = compile_board(level)
    tables = build_tables(board)
    boxes = board.mask(state.boxes) & board.floor
    blamed = boxes & tables.dead
    for box in cells_of(boxes & ~board.goals & ~blamed):
        blamed |= frozen_group(tables, boxes, box) & ~board.goals
    if not blamed:
        never = immovable(board, board.inside(state.player), boxes, boxes, 0, tables.live)
        blamed = never & ~board.goals
    width, level_width = board.width, level.width
    return frozenset((cell // width - 1) * level_width + cell % width - 1 for cell in cells_of(blamed))

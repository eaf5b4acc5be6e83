"""Sokoban rules: push every box onto a goal.

The player steps left, up, right or down onto a free cell (floor or goal, no
box). Stepping into a box pushes it one cell further, only when that cell is
free; boxes are never pulled and two boxes cannot be pushed at once. The
level is solved when every box stands on a goal. Cells outside the grid act
as walls (contest levels are not enclosed by `#`).

Cells are ints `row * width + col`. A move's text is one LURD letter: `l u r d`
for a step, `L U R D` for a push; a plan is those letters joined with nothing
(`PLAN_SEPARATOR = ""`). `legal_moves` lists moves in "lurd" order.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

from fewest.engine.base import Counters, IllegalMoveError, InvalidLevelError, InvalidMoveError

NAME = "sokoban"
PLAN_SEPARATOR = ""

DIRECTIONS = "lurd"
DELTA = {"l": (0, -1), "u": (-1, 0), "r": (0, 1), "d": (1, 0)}  # (row, col)


def _count(count: int, singular: str, plural: str) -> str:
    return f"{count} {singular if count == 1 else plural}"


@dataclass(frozen=True)
class Level:
    """The static warehouse plus its start position (validated on construction).

    A box standing on a goal in a walled-off pocket is allowed (collections use
    them as decoration: it is solved for ever); any other box or goal the player
    can never reach makes the level invalid. No boxes (and so no goals) is a level
    solved from the start, as the rules have it.
    """

    width: int
    height: int
    walls: frozenset[int]
    goals: frozenset[int]
    boxes: frozenset[int]
    player: int

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise InvalidLevelError(f"a level needs cells, not {self.width}x{self.height}")
        size = self.width * self.height
        for name in ("walls", "goals", "boxes"):
            cells = getattr(self, name)
            if any(not 0 <= c < size for c in cells):
                raise InvalidLevelError(f"{name} outside the {self.width}x{self.height} grid")
        if not 0 <= self.player < size:
            raise InvalidLevelError("the player is outside the grid")
        if self.player in self.walls:
            raise InvalidLevelError(f"the player stands on a wall at {self.where(self.player)}", self.player)
        if self.player in self.boxes:
            raise InvalidLevelError(f"the player stands on a box at {self.where(self.player)}", self.player)
        for name, cells in (("box", self.boxes), ("goal", self.goals)):
            if cells & self.walls:
                cell = min(cells & self.walls)
                raise InvalidLevelError(f"a {name} on a wall at {self.where(cell)}", cell)
        if len(self.boxes) != len(self.goals):
            boxes = _count(len(self.boxes), "box", "boxes")
            raise InvalidLevelError(f"{boxes} but {_count(len(self.goals), 'goal', 'goals')}")
        sealed = self.boxes & self.goals  # decoration is fine where box and goal coincide
        for name, cells in (("box", self.boxes - sealed), ("goal", self.goals - sealed)):
            stray = cells - self.floor
            if stray:
                cell = min(stray)
                raise InvalidLevelError(f"the player can never reach the {name} at {self.where(cell)}", cell)

    def where(self, cell: int) -> str:
        """A cell in words, 1-based, for messages."""
        row, col = divmod(cell, self.width)
        return f"row {row + 1}, col {col + 1}"

    @cached_property
    def floor(self) -> frozenset[int]:
        """Cells the player could ever reach: flood fill from the start, boxes ignored."""
        seen = {self.player}
        queue = deque([self.player])
        while queue:
            cell = queue.popleft()
            for direction in DIRECTIONS:
                nxt = neighbour(self, cell, direction)
                if nxt is not None and nxt not in self.walls and nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return frozenset(seen)

    @cached_property
    def outside(self) -> frozenset[int]:
        """Cells that are neither wall, floor, box nor goal (drawn blank)."""
        every = frozenset(range(self.width * self.height))
        return every - self.walls - self.floor - self.boxes - self.goals


@dataclass(frozen=True)
class State:
    player: int
    boxes: frozenset[int]


@dataclass(frozen=True)
class Move:
    direction: str  # one of "lurd"
    push: bool

    def __post_init__(self) -> None:
        if self.direction not in DELTA:
            raise InvalidMoveError(f"not a direction: {self.direction!r} (expected one of lurd)")

    def __str__(self) -> str:
        return self.direction.upper() if self.push else self.direction


_MOVES = {(d, p): Move(d, p) for d in DIRECTIONS for p in (False, True)}


def neighbour(level: Level, cell: int, direction: str) -> int | None:
    """The cell one step from `cell` in `direction`, or None off the grid."""
    row, col = divmod(cell, level.width)
    drow, dcol = DELTA[direction]
    row, col = row + drow, col + dcol
    if 0 <= row < level.height and 0 <= col < level.width:
        return row * level.width + col
    return None


def parse_move(text: str) -> Move:
    """One of "lurdLURD"; upper case is a push."""
    if len(text) != 1 or text.lower() not in DELTA:
        raise InvalidMoveError(f"not a Sokoban move: {text!r} (expected one of lurdLURD)")
    return _MOVES[text.lower(), text.isupper()]


def initial_state(level: Level) -> State:
    return State(level.player, level.boxes)


def legal_moves(level: Level, state: State) -> list[Move]:
    """Every legal step or push, in "lurd" order."""
    moves = []
    walls, boxes = level.walls, state.boxes
    for direction in DIRECTIONS:
        target = neighbour(level, state.player, direction)
        if target is None or target in walls:
            continue
        if target in boxes:
            beyond = neighbour(level, target, direction)
            if beyond is None or beyond in walls or beyond in boxes:
                continue
            moves.append(_MOVES[direction, True])
        else:
            moves.append(_MOVES[direction, False])
    return moves


def apply(level: Level, state: State, move: Move) -> State:
    """The state after `move`; IllegalMoveError for a wall, the grid edge, a blocked
    push, or a push flag that does not match whether a box is there."""
    target = neighbour(level, state.player, move.direction)
    if target is None:
        raise IllegalMoveError(f"move {move}: the grid ends there")
    if target in level.walls:
        raise IllegalMoveError(f"move {move}: a wall is in the way")
    if target not in state.boxes:
        if move.push:
            raise IllegalMoveError(f"move {move}: there is no box to push")
        return State(target, state.boxes)
    if not move.push:
        push = move.direction.upper()
        raise IllegalMoveError(f"move {move}: a box is there, so the move is a push ({push})")
    beyond = neighbour(level, target, move.direction)
    if beyond is None or beyond in level.walls or beyond in state.boxes:
        raise IllegalMoveError(f"move {move}: the box is blocked")
    return State(target, (state.boxes - {target}) | {beyond})


def is_solved(level: Level, state: State) -> bool:
    return state.boxes == level.goals


def tally(moves: Sequence[Move]) -> Counters:
    return Counters(moves=len(moves), pushes=sum(1 for m in moves if m.push))


# ----- helpers for input and plans (not part of the Rules protocol) ------------
def walk_path(level: Level, state: State, target: int) -> list[Move] | None:
    """A shortest walk (no pushes) from the player to `target`, or None when boxes
    or walls cut it off. Neighbours are tried in "lurd" order, so the walk is stable."""
    if target == state.player:
        return []
    blocked = level.walls | state.boxes
    parent: dict[int, tuple[int, str]] = {state.player: (-1, "")}
    queue = deque([state.player])
    while queue:
        cell = queue.popleft()
        for direction in DIRECTIONS:
            nxt = neighbour(level, cell, direction)
            if nxt is None or nxt in blocked or nxt in parent:
                continue
            parent[nxt] = (cell, direction)
            if nxt == target:
                path = []
                while nxt != state.player:
                    nxt, step = parent[nxt]
                    path.append(_MOVES[step, False])
                return path[::-1]
            queue.append(nxt)
    return None


def moves_from_directions(level: Level, directions: str, state: State | None = None) -> list[Move]:
    """Moves for a plan written without push marks (any case of "lurd"): each move's
    push flag is read off the position. IllegalMoveError when a step cannot be made."""
    state = initial_state(level) if state is None else state
    moves = []
    for letter in directions:
        lower = letter.lower()
        if lower not in DELTA:
            raise InvalidMoveError(f"not a direction: {letter!r}")
        target = neighbour(level, state.player, lower)
        move = _MOVES[lower, target is not None and target in state.boxes]
        state = apply(level, state, move)
        moves.append(move)
    return moves

"""Sokoban grids as text: building a Level from rows of characters, and back.

Shared by the XSB and the contest readers, which differ only in their legend
(which character means wall, goal, box, player) and in where rows come from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from fewest.engine.base import InvalidLevelError
from fewest.engine.sokoban import Level
from fewest.levels.base import LevelFormatError, check_size

WALL, GOAL, BOX, PLAYER = "wall", "goal", "box", "player"

# XSB: the standard Sokoban characters (`-` and `_` are floor too; readers map them to space).
XSB_LEGEND: Mapping[str, frozenset[str]] = {
    "#": frozenset({WALL}),
    " ": frozenset(),
    ".": frozenset({GOAL}),
    "$": frozenset({BOX}),
    "*": frozenset({BOX, GOAL}),
    "@": frozenset({PLAYER}),
    "+": frozenset({PLAYER, GOAL}),
}


@dataclass(frozen=True)
class Row:
    """One grid row: its characters, its line in the file, and each character's column there."""

    text: str
    line: int
    columns: tuple[int, ...]

    @classmethod
    def plain(cls, text: str, line: int) -> "Row":
        return cls(text, line, tuple(range(1, len(text) + 1)))


def build_level(rows: Sequence[Row], legend: Mapping[str, frozenset[str]], source: str) -> Level:
    """The Level drawn by `rows` (ragged rows are padded with empty cells).

    Every character must be in `legend`; errors name the line and column.
    """
    first = rows[0].line
    width = max(len(row.text) for row in rows)
    check_size(width * len(rows), source, first)
    walls: set[int] = set()
    goals: set[int] = set()
    boxes: set[int] = set()
    players: list[int] = []
    for r, row in enumerate(rows):
        for c, char in enumerate(row.text):
            roles = legend.get(char)
            if roles is None:
                message = f"unknown character {char!r}"
                raise LevelFormatError(message, source, row.line, row.columns[c])
            cell = r * width + c
            if PLAYER in roles:
                players.append(cell)
                if len(players) == 2:
                    raise LevelFormatError("2 players", source, row.line, row.columns[c])
            if WALL in roles:
                walls.add(cell)
            if GOAL in roles:
                goals.add(cell)
            if BOX in roles:
                boxes.add(cell)
    if not players:
        raise LevelFormatError("no player", source, first)
    try:
        return Level(
            width, len(rows), frozenset(walls), frozenset(goals), frozenset(boxes), players[0]
        )
    except InvalidLevelError as exc:
        if exc.cell is None or not 0 <= exc.cell // width < len(rows):
            raise LevelFormatError(str(exc), source, first) from None
        row, col = rows[exc.cell // width], exc.cell % width  # (its line and column in the file)
        column = row.columns[col] if col < len(row.columns) else None
        raise LevelFormatError(str(exc), source, row.line, column) from None


def xsb_rows(level: Level) -> list[str]:
    """The level's start position in XSB characters, one string per row.

    Empty cells are spaces, trailing ones dropped; a row left empty becomes `-`
    (a blank line would end the level) and the first row is padded with `-` when
    no row reaches the full width, so reading the rows back gives the same Level.
    """
    rows = []
    for r in range(level.height):
        chars = []
        for cell in range(r * level.width, (r + 1) * level.width):
            if cell in level.walls:
                chars.append("#")
            elif cell == level.player:
                chars.append("+" if cell in level.goals else "@")
            elif cell in level.boxes:
                chars.append("*" if cell in level.goals else "$")
            else:
                chars.append("." if cell in level.goals else " ")
        rows.append("".join(chars).rstrip() or "-")
    if max(len(row) for row in rows) < level.width:
        rows[0] = rows[0].ljust(level.width, "-")
    return rows

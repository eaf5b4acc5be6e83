"""Traffic level files: Rush Hour database lines, the grid format, the contest "Get out",
and the native pack.

Database lines (Michael Fogleman's Rush Hour database, 6 x 6):

    51 GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo 4780

the optimal move count (optional; becomes the entry's Par), 36 board
characters in reading order (`o` or `.` empty, `x` wall, letters cars, `A` the
target, which must leave by the right edge) and the cluster size (optional;
kept as metadata `Cluster`). One level per line; `;` lines are comments.
The grid format (traffic_grid) and the contest format (traffic_getout) have
their own modules; a `.fewest` pack level's body is the grid format.
"""

from __future__ import annotations

import re

from fewest.engine.traffic import EXIT, NAME, Goal
from fewest.levels import pack, traffic_getout, traffic_grid
from fewest.levels.base import (
    Collection, Format, LevelEntry, LevelFormatError, Unreadable, text_lines, whole_number,
)

DATABASE = "traffic-database"
SIZE = 6
# Move count, board, cluster size; numbers in ASCII digits (`\d` would take any script's).
_LINE = re.compile(r"^(\s*)(?:([0-9]+)\s+)?(\S+)(?:\s+([0-9]+))?\s*$")
_BOARD = re.compile(r"^[A-Za-z.]{36}$")
_NEAR_BOARD = re.compile(r"^[A-Za-z.]{30,42}$")


def _content_lines(text: str) -> list[tuple[int, str]]:
    return [
        (number, raw)
        for number, raw in enumerate(text_lines(text), 1)
        if raw.strip() and not raw.lstrip().startswith(";")
    ]


def _every_board_matches(text: str, board: re.Pattern) -> bool:
    lines = _content_lines(text)
    matches = (_LINE.match(raw) for _, raw in lines)
    return bool(lines) and all(m is not None and board.match(m.group(3)) for m in matches)


def sniff_database(text: str) -> bool:
    return _every_board_matches(text, _BOARD)


def resembles_database(text: str) -> bool:
    """Loose: every line one board-like word of letters and dots, give or take a few
    characters, among its numbers (a mistyped line in a database file)."""
    return _every_board_matches(text, _NEAR_BOARD)


def read_database(text: str, source: str) -> list[LevelEntry]:
    """Every board line; the first bad line spoils the whole file."""
    return read_database_each(text, source).strict()


def read_database_each(text: str, source: str) -> Collection:
    """The board lines that read, and the others with their errors (a line is a level:
    the rest keep their numbers)."""
    entries, unreadable = [], []
    for index, (number, raw) in enumerate(_content_lines(text), 1):
        try:
            entries.append(_database_entry(raw, number, index, source))
        except LevelFormatError as exc:
            unreadable.append(Unreadable(index, exc))
    if not entries and not unreadable:
        raise LevelFormatError("no board lines found", source)
    return Collection(entries, unreadable)


def _database_entry(raw: str, number: int, index: int, source: str) -> LevelEntry:
    match = _LINE.match(raw)
    if not match or len(match.group(3)) != SIZE * SIZE:
        if match and _NEAR_BOARD.match(match.group(3)):  # a board, mistyped: say by how much
            raise LevelFormatError(
                f"a board is {SIZE * SIZE} characters, this one {len(match.group(3))}",
                source, number, match.start(3) + 1,
            )
        raise LevelFormatError(
            "expected a 36-character board, optionally as `MOVES BOARD CLUSTER`",
            source, number, len(raw) - len(raw.lstrip()) + 1,
        )
    board = match.group(3)
    first_col = match.start(3) + 1
    level = traffic_grid.build_level(
        [board[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)],
        Goal(EXIT, "A"),
        source,
        number,
        lambda r, c: (number, first_col + r * SIZE + c),
    )
    moves, cluster = match.group(2), match.group(4)
    par = whole_number(moves, "the move count", source, number, match.start(2) + 1) if moves else None
    return LevelEntry(
        NAME, level, index=index, par=par,
        source=source, line=number, format=DATABASE,
        metadata={"Cluster": cluster} if cluster else {},
    )


CODEC = pack.Codec(NAME, traffic_grid.parse_body, traffic_grid.format_body)

FORMATS: tuple[Format, ...] = (
    pack.pack_format(CODEC, "traffic-pack"),
    Format(
        traffic_grid.FORMAT_NAME, NAME, (".traffic", ".grid"),
        traffic_grid.sniff, traffic_grid.read, traffic_grid.write,
    ),
    Format(
        DATABASE, NAME, (".txt", ".rh"), sniff_database, read_database,
        read_each=read_database_each, resembles=resembles_database,
    ),
    Format(
        traffic_getout.FORMAT_NAME, NAME, (".in",), traffic_getout.sniff, traffic_getout.read,
        contest_answer=traffic_getout.contest_answer, resembles=traffic_getout.resembles,
    ),
)

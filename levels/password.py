"""Password level files: the contest input (a code of `_HYS` figures) and the native pack.

Contest format ("password-contest"): the code, one line per grid row, each
character a figure of the default rail `_HYS` (the contest's is 4 lines of
4; any rectangle up to 6 x 6 is read). Blank lines separate codes when a
file holds several. The answer per code is one line,
`Minsta antal kommandon: N` (Swedish: "fewest commands: N").

    _H__
    _Y__
    _Y__
    _SH_

Native pack body ("password-pack", see levels/pack.py): optional lower-case
body keys, then the code rows:

    rail: _HYS                 <- optional: the rail's figures in order, the first one the blank
    start: H___ ____ ____ __SS <- optional: the grid before the first command, its rows
                                  separated by blanks (default: all blank)
    _H__                       <- the code, one line per row
    _Y__
    _Y__
    _SH_

Rail figures are distinct visible characters other than `:` and `;` (those
would read as a header or a comment in a pack).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from fewest.engine.base import InvalidLevelError
from fewest.engine.password import DEFAULT_RAIL, MAX_SIDE, NAME, Level, grid_from_rows, grid_rows
from fewest.levels import pack
from fewest.levels.base import Format, LevelEntry, LevelFormatError, text_lines

CONTEST = "password-contest"
PACK = "password-pack"
ANSWER = "Minsta antal kommandon: {}"
_BODY_KEY = re.compile(r"^\s*(rail|start)\s*:(.*)$")
_FORBIDDEN = ":;"


# ----- shared checks ------------------------------------------------------------
def _grid(rows: list[tuple[int, int, str]], rail: str, source: str, what: str) -> list[str]:
    """Check rows given as (line, first column, text): figures on the rail, one width, at most 6 x 6."""
    if len(rows) > MAX_SIDE:
        raise LevelFormatError(
            f"a {what} has at most {MAX_SIDE} rows, this one {len(rows)}", source, rows[MAX_SIDE][0]
        )
    width = len(rows[0][2])
    for number, column, text in rows:
        for offset, char in enumerate(text):
            if char not in rail:
                raise LevelFormatError(
                    f"{char!r} is not a figure of the rail {rail}", source, number, column + offset
                )
        if len(text) != width:
            raise LevelFormatError(
                f"every row of the {what} has {width} figures, this one {len(text)}", source, number
            )
        if width > MAX_SIDE:
            raise LevelFormatError(
                f"a {what} has at most {MAX_SIDE} columns, this one {width}", source, number
            )
    return [text for _, _, text in rows]


def _level(code: list[str], rail: str, start: list[str] | None, source: str, line: int) -> Level:
    try:
        return Level(
            len(code),
            len(code[0]),
            grid_from_rows(code, rail),
            rail,
            None if start is None else grid_from_rows(start, rail),
        )
    except InvalidLevelError as exc:
        raise LevelFormatError(str(exc), source, line) from None


# ----- contest input ----------------------------------------------------------
def _blocks(text: str) -> list[list[tuple[int, int, str]]]:
    """Blank-line separated blocks of (line, first column, stripped text)."""
    blocks: list[list[tuple[int, int, str]]] = [[]]
    for number, raw in enumerate(text_lines(text), 1):
        stripped = raw.strip()
        if not stripped:
            if blocks[-1]:
                blocks.append([])
            continue
        blocks[-1].append((number, len(raw) - len(raw.lstrip()) + 1, stripped))
    return [b for b in blocks if b]


def sniff_contest(text: str) -> bool:
    """Strict: some non-blank line, and every non-blank line only figures of `_HYS`."""
    lines = [line.strip() for line in text_lines(text) if line.strip()]
    return bool(lines) and all(set(line) <= set(DEFAULT_RAIL) for line in lines)


def resembles_contest(text: str) -> bool:
    """Loose: every line one short word (at most two past the widest code), three in four
    of all characters figures of `_HYS` in either case (a code with a mistyped figure)."""
    lines = [line.strip() for line in text_lines(text) if line.strip()]
    chars = "".join(lines)
    figures = sum(1 for ch in chars.upper() if ch in DEFAULT_RAIL)
    return (
        bool(lines)
        and all(len(line) <= MAX_SIDE + 2 and " " not in line for line in lines)
        and 4 * figures >= 3 * len(chars)
    )


def read_contest(text: str, source: str = "<text>") -> list[LevelEntry]:
    entries = []
    for block in _blocks(text):
        code = _grid(block, DEFAULT_RAIL, source, "code")
        level = _level(code, DEFAULT_RAIL, None, source, block[0][0])
        entries.append(
            LevelEntry(NAME, level, index=len(entries) + 1, source=source, line=block[0][0], format=CONTEST)
        )
    if not entries:
        raise LevelFormatError("no code found", source, 1)
    return entries


def write_contest(entries: Sequence[LevelEntry]) -> str:
    """The codes, blank-line separated (plain rail, blank start grids only)."""
    blocks = []
    for entry in entries:
        level = entry.level
        if level.rail != DEFAULT_RAIL or any(level.start):
            raise ValueError("the contest format holds codes on the _HYS rail with a blank start grid")
        blocks.append("\n".join(grid_rows(level, level.code)))
    return "\n\n".join(blocks) + "\n"


def contest_answer(entry: LevelEntry, solution: Any) -> str:
    if not solution.solved:
        raise ValueError(f"level {entry.index} has no plan to print ({solution.status.value})")
    return ANSWER.format(len(solution.moves))


# ----- pack bodies --------------------------------------------------------------
def parse_body(lines: list[str], source: str, first_line: int) -> Level:
    """Optional `rail:` and `start:` lines, then the code rows."""
    rail = DEFAULT_RAIL
    start_words: list[tuple[int, int, str]] | None = None
    start_line = first_line
    code_at = 0
    seen: set[str] = set()
    for offset, line in enumerate(lines):
        match = _BODY_KEY.match(line)
        if not match:
            break
        key, value = match.group(1), match.group(2)
        number = first_line + offset
        if key in seen:
            raise LevelFormatError(f"`{key}:` given twice", source, number)
        seen.add(key)
        value_column = match.start(2) + 1
        if key == "rail":
            rail = value.strip()
            _check_rail(rail, source, number, value_column + len(value) - len(value.lstrip()))
        else:
            start_line = number
            start_words = [
                (number, value_column + word.start(), word.group()) for word in re.finditer(r"\S+", value)
            ]
            if not start_words:
                raise LevelFormatError("`start:` needs the grid's rows, separated by blanks", source, number)
        code_at = offset + 1
    rows = [
        (first_line + offset, len(line) - len(line.lstrip()) + 1, line.strip())
        for offset, line in enumerate(lines[code_at:], code_at)
    ]
    if not rows:
        raise LevelFormatError("the code's rows are missing", source, first_line + len(lines) - 1)
    if key_line := next((r for r in rows if _BODY_KEY.match(r[2])), None):
        raise LevelFormatError("`rail:` and `start:` come before the code's rows", source, key_line[0])
    code = _grid(rows, rail, source, "code")
    start = None
    if start_words is not None:
        start = _grid(start_words, rail, source, "start grid")
        if (len(start), len(start[0])) != (len(code), len(code[0])):
            raise LevelFormatError(
                f"the start grid is {len(start)}x{len(start[0])}, the code {len(code)}x{len(code[0])}",
                source,
                start_line,
            )
    return _level(code, rail, start, source, first_line)


def _check_rail(rail: str, source: str, number: int, column: int) -> None:
    if not rail:
        raise LevelFormatError("`rail:` needs the figures, e.g. `rail: _HYS`", source, number)
    for offset, char in enumerate(rail):
        if char.isspace() or char in _FORBIDDEN or not char.isprintable() or rail.index(char) != offset:
            raise LevelFormatError(
                f"rail figures are distinct visible characters other than ':' and ';', not {char!r}",
                source,
                number,
                column + offset,
            )


def format_body(level: Level) -> list[str]:
    if any(char in _FORBIDDEN for char in level.rail):
        raise ValueError(f"a pack cannot hold the rail {level.rail!r} (':' and ';' are reserved)")
    lines = []
    if level.rail != DEFAULT_RAIL:
        lines.append(f"rail: {level.rail}")
    if any(level.start):
        lines.append("start: " + " ".join(grid_rows(level, level.start)))
    return lines + grid_rows(level, level.code)


CODEC = pack.Codec(NAME, parse_body, format_body)
FORMATS: tuple[Format, ...] = pack.pack_and_contest(
    CODEC, PACK, CONTEST, sniff=sniff_contest, read=read_contest, write=write_contest,
    contest_answer=contest_answer, resembles=resembles_contest,
)
read_pack, write_pack = FORMATS[0].read, FORMATS[0].write  # (the pack)

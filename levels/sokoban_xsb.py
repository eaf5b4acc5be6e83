"""The XSB / .sok text format every Sokoban collection uses: reader and writer.

    ; Learning to push            <- `;` lines are comments
    Title: Learning to push       <- headers before the first level, followed by a
    Author: someone                  blank line, describe the whole pack

    Title: First steps            <- a level: `Key: value` headers right before ...
    Par: 7                           (Par = proven optimal MOVE count, our own key;
    Push-par: 3                       Push-par = the proven fewest pushes, ours too)
    #######
    #@ $ .#                       <- `#` wall, ` ` `-` `_` floor, `.` goal, `$` box,
    #######                          `*` box on goal, `@` player, `+` player on goal
    Author: someone               <- ... or right after its grid (no blank line between)

Conventions the reader follows (collections differ, so it is lenient):
- Levels are runs of grid lines; anything else (blank lines, text) separates them.
  Rows may be ragged (padded with empty cells) and run-length encoded: digits
  repeat the next character (`3#` is `###`) and `|` breaks a row.
- A line starting with `#` is always a grid row, so `#  X #` is an error
  ("unknown character 'X'") rather than silently skipped text.
- Headers and a plain text line directly after a grid (no blank line in between)
  belong to that level; otherwise they belong to the next level. Before the first
  level, headers followed by a blank line describe the pack, and text above them
  (a file format's legend in `::` lines) names no level.
- The title is the `Title:` header, else a plain text line next to the level,
  else a single-line `;` comment before it (`; 12` or `;screen.01`), else one
  right under its grid and followed by a blank line (`; MINICOSMOS 01`).
- `Key:` with nothing after it, closed later by a `Key-End:` line, is a
  multi-line value (collections use `Comment:` ... `Comment-End:`).
- Any other `Key: value` is kept in the entry's metadata.
- A solution saved under a level (`Solution (moves 97, pushes 10)`, `Solution/Pushes`,
  `Solution:`, then lines of LURD moves, which may be run-length encoded, up to a blank
  line or the next label) is kept with it, unchecked; a `Snapshot` (moves part of the
  way) is skipped. Neither names a level.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Sequence

from fewest.engine.sokoban import NAME
from fewest.levels.base import (
    MAX_LEVEL_CELLS, Collection, LevelEntry, LevelFormatError, Unreadable, text_lines, whole_number,
)
from fewest.levels.pack import sniff_family
from fewest.levels.sokoban_contest import sniff_contest
from fewest.levels.sokoban_grid import XSB_LEGEND, Row, build_level, xsb_rows

FORMAT_NAME = "xsb"
EXTENSIONS = (".xsb", ".sok", ".txt")

_HEADER = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*(?: [A-Za-z0-9_-]+)*)[ \t]*:(.*)$")
# A saved solution's label, as Sokoban programs write one under a level (`Solution (moves 97,
# pushes 10)`, `Solution/Pushes`, `Snapshot 12/3`): it and the move lines after it name nothing.
_SOLUTION = re.compile(r"^(?:solution|snapshot)s?(?:$|[\s(/\d])", re.IGNORECASE)
_MOVES = re.compile(r"^(?:\d*[lurdLURD])+$")  # a line of a saved solution (digits: run lengths)
_RUN = re.compile(r"(\d*)([lurdLURD])")
_MOVES_PER_LINE = 70  # as written
MAX_SOLUTION_MOVES = 1_000_000  # (a run length can spell a great many: memory stays bounded)
_MAX_KEY = 40
_BOARD = "#@+$*. -_"
_OBJECTS = "#@+$*"
_PLAIN = frozenset(_BOARD)


# ----- lines -------------------------------------------------------------------
@dataclass
class _Line:
    kind: str  # "blank", "comment", "header", "grid", "text"
    number: int
    text: str = ""  # comment text, header value or the line itself
    key: str = ""
    rows: list[Row] = field(default_factory=list)
    objects: bool = False  # a grid line drawing a wall, box or player
    error: LevelFormatError | None = None  # a grid line's fault: its level cannot be read
    starts: tuple[int, int] = (0, 1)  # (line, column) where `text` starts in the file (text and header lines)


def _decode(raw: str, number: int, source: str) -> list[Row] | None:
    """The grid rows one line draws (run lengths expanded), or None when it is not a
    grid line. A line starting with `#` must be one: its faults raise LevelFormatError."""
    if len(raw) <= MAX_LEVEL_CELLS and _PLAIN.issuperset(raw):  # (most grid lines: no run lengths, one row)
        return [Row(raw.replace("-", " ").replace("_", " "), number, tuple(range(1, len(raw) + 1)))]
    must = raw.lstrip().startswith("#")
    rows: list[Row] = []
    text: list[str] = []
    cols: list[int] = []
    count, count_col = "", 0
    for col, char in enumerate(raw, 1):
        if char.isdigit() and char.isascii():
            count, count_col = count + char, count_col or col
            continue
        if char == "|" and not count:
            rows.append(Row("".join(text), number, tuple(cols)))
            text, cols = [], []
            continue
        if char not in _BOARD:
            if must:
                raise LevelFormatError(f"unknown character {char!r}", source, number, col)
            return None
        try:  # (a run length of too many digits is bad input, as a row too long is)
            repeat = whole_number(count, "run length", source, number, count_col) if count else 1
        except LevelFormatError:
            if must or _all_grid(raw):
                raise
            return None
        if len(text) + repeat > MAX_LEVEL_CELLS:
            if must or _all_grid(raw):
                message = f"row is longer than {MAX_LEVEL_CELLS} cells"
                raise LevelFormatError(message, source, number, col)
            return None
        char = " " if char in "-_" else char
        text.extend(char * repeat)
        cols.extend([count_col or col] * repeat)
        count, count_col = "", 0
    if count:
        if must:
            message = f"run length {count!r} without a character"
            raise LevelFormatError(message, source, number, count_col)
        return None
    rows.append(Row("".join(text), number, tuple(cols)))
    return rows


def _all_grid(raw: str) -> bool:
    """Is the line nothing but run-length grid (`10001#`, `3#|#@$.#`)? A digit-led row too
    long is then refused as a `#`-led one is, not taken for a title."""
    return any(char in _OBJECTS for char in raw) and all(
        char in _BOARD or char == "|" or (char.isdigit() and char.isascii()) for char in raw
    )


def _bare_headers(lines: list[str]) -> dict[str, list[int]]:
    """Line indexes of each header with no value (`Comment:`, `Comment-End:`), by lower-case key."""
    found: dict[str, list[int]] = {}
    for index, raw in enumerate(lines):
        match = _HEADER.match(raw.strip())
        if match and not match.group(2).strip():
            found.setdefault(match.group(1).lower(), []).append(index)
    return found


def _multiline_end(bare: dict[str, list[int]], key: str, index: int) -> int | None:
    """Where the multi-line value opened by a bare `key:` at `index` is closed by
    `Key-End:`, provided no other bare `key:` opens first (so one unclosed opener
    does not swallow the levels up to a later level's closer)."""
    closers = bare.get(key.lower() + "-end", [])
    at = bisect.bisect_right(closers, index)
    if at == len(closers):
        return None
    openers = bare.get(key.lower(), [])
    nxt = bisect.bisect_right(openers, index)
    if nxt < len(openers) and openers[nxt] < closers[at]:
        return None
    return closers[at]


def _classify(text: str, source: str) -> list[_Line]:
    lines = text_lines(text)
    bare = _bare_headers(lines)
    out: list[_Line] = []
    run_cells = 0  # cells drawn by the current run of grid lines (a bound on memory)
    index = 0
    while index < len(lines):
        raw = lines[index].rstrip()
        number = index + 1
        index += 1
        stripped = raw.strip()
        if not stripped:
            out.append(_Line("blank", number))
        elif stripped.startswith(";"):
            out.append(_Line("comment", number, stripped[1:].strip()))
        elif (match := _HEADER.match(stripped)) and len(match.group(1)) <= _MAX_KEY:
            key, value = match.group(1), match.group(2).strip()
            starts = (number, len(raw) - len(value) + 1)  # (the value ends the line, stripped)
            end = None if value else _multiline_end(bare, key, index - 1)
            if end is not None:
                value = "\n".join(line.rstrip() for line in lines[index:end])
                starts = (number + 1, 1)
                index = end + 1
            if not key.lower().endswith("-end"):
                out.append(_Line("header", number, value, key, starts=starts))
        else:
            try:
                rows = _decode(raw, number, source)
            except LevelFormatError as exc:  # (the level it is in is unreadable, not the file)
                out.append(_Line("grid", number, raw, objects=True, error=exc))
                continue
            if rows is None:
                out.append(_Line("text", number, stripped, starts=(number, len(raw) - len(raw.lstrip()) + 1)))
                run_cells = 0
                continue
            run_cells += sum(len(row.text) for row in rows)
            if run_cells > MAX_LEVEL_CELLS:  # (its rows are not kept: memory stays bounded)
                error = LevelFormatError(f"level is larger than {MAX_LEVEL_CELLS} cells", source, number)
                out.append(_Line("grid", number, raw, objects=True, error=error))
                continue
            objects = any(ch in _OBJECTS for row in rows for ch in row.text)
            out.append(_Line("grid", number, raw, rows=rows, objects=objects))
            continue
        run_cells = 0
    return _demote_plain_runs(_typos_in_grids(out, lines, source))


def _typos_in_grids(out: list[_Line], lines: list[str], source: str) -> list[_Line]:
    """A line between two grid lines that is mostly grid (`@$ X.#`) is a row with a typo,
    not text splitting its level in two: its level gets the error, at the character."""
    for at in range(1, len(out) - 1):
        line = out[at]
        if line.kind != "text" or out[at - 1].kind != "grid" or out[at + 1].kind != "grid":
            continue
        raw = lines[line.number - 1].rstrip()
        marks = [char for char in raw if not char.isspace()]
        board = [char for char in marks if _draws(char)]
        if 2 * len(board) <= len(marks) or not any(char in _OBJECTS for char in marks):
            continue  # (a title between two levels: mostly letters)
        col = next((col for col, char in enumerate(raw, 1) if not _draws(char) and char != " "), None)
        if col is None:  # (nothing but grid characters: a run length with no character after it, left as text)
            continue
        error = LevelFormatError(f"unknown character {raw[col - 1]!r}", source, line.number, col)
        out[at] = _Line("grid", line.number, raw, objects=True, error=error)
    return out


def _draws(char: str) -> bool:
    """Is `char` one a grid row may hold (a board character, a run length or a row break)?"""
    return char in _BOARD or char.isdigit() or char == "|"


def _demote_plain_runs(lines: list[_Line]) -> list[_Line]:
    """A run of grid-like lines drawing no wall, box or player (`----`, `...`) is text."""
    start = 0
    while start < len(lines):
        if lines[start].kind != "grid":
            start += 1
            continue
        end = start
        while end < len(lines) and lines[end].kind == "grid":
            end += 1
        if not any(line.objects for line in lines[start:end]):
            for line in lines[start:end]:
                line.kind = "text"
        start = end
    return lines


# ----- levels ------------------------------------------------------------------
@dataclass
class _Notes:
    """Headers, a text line and a comment gathered next to one level."""

    headers: list[tuple[str, str, int]] = field(default_factory=list)
    text: str | None = None
    comment: str | None = None


@dataclass
class _Found:
    rows: list[Row]
    before: _Notes
    after: _Notes = field(default_factory=_Notes)
    error: LevelFormatError | None = None  # the first fault in its grid lines
    solutions: list[str | _Unread] = field(default_factory=list)  # saved under it


@dataclass(frozen=True)
class _Unread:
    """A saved solution that is not moves: where and why (`line 9, col 4: ...`)."""

    why: str


@dataclass(frozen=True)
class XsbFile:
    metadata: dict[str, str]  # pack-wide headers (before the first level, then a blank line)
    entries: list[LevelEntry]
    unreadable: list[Unreadable] = field(default_factory=list)  # levels with faults, in order


def _title_text(text: str | None) -> str | None:
    """Plain text names a level only when it has a letter or digit in it."""
    return text if text and any(ch.isalnum() for ch in text) else None


def parse_xsb(text: str, source: str = "<text>") -> XsbFile:
    """Every level of an XSB file, with the pack's own headers; a level with a fault is
    left out (in `unreadable`, with its error) and the rest keep their numbers."""
    found: list[_Found] = []
    pack: dict[str, str] = {}
    before = _Notes()
    grid: _Found | None = None
    last: _Found | None = None  # the level whose trailing lines we are reading
    comment_lines = 0
    trailing: _Found | None = None  # the level a comment line came right under
    previous = "blank"
    solution = False  # in a solution's lines (its label, then its moves, up to a blank line)
    saving: list[str | None] | None = None  # the solutions that one goes into
    for line in _classify(text, source):
        if line.kind != "comment":
            if line.kind == "blank":
                _name_from_below(trailing, before, previous, comment_lines)
            trailing = None
        if line.kind == "grid":
            if grid is None:
                grid = _Found([], before)
                before = _Notes()
                found.append(grid)
            grid.rows.extend(line.rows)
            grid.error = grid.error or line.error
            previous, solution = line.kind, False
            continue
        if grid is not None:
            last, grid = grid, None
        # (a label may read as a header too: `Solution: lurR`, `Solution:` over the moves)
        header = line.kind == "header"
        label = (header or line.kind == "text") and _SOLUTION.match(line.key if header else line.text)
        if label or (solution and line.kind == "text"):
            if label:  # the level above gets a solution (a snapshot is not one)
                snapshot = label.group().lower().startswith("snapshot")
                saving = found[-1].solutions if found and not snapshot else None
                if saving is not None:
                    # (moves may follow on the label's line: `Solution (moves 4): lurR`)
                    colon, moves = (":", line.text) if header else line.text.partition(":")[1:]
                    number, column = line.starts
                    column += 0 if header or not colon else line.text.index(":") + 1
                    saving.append(_more_moves("", moves, number, column) if colon else "")
            elif saving is not None:
                saving[-1] = _more_moves(saving[-1], line.text, *line.starts)
            solution = True
            previous = line.kind
            continue
        solution = False
        if line.kind == "blank":
            last = None
            if not found and before.headers:
                pack.update((key, value) for key, value, _ in before.headers)
                before = _Notes()  # (text over the pack's headers, a format's legend, names no level)
        elif line.kind == "comment":
            trailing = last if previous == "grid" else trailing
            last = None
            comment_lines = comment_lines + 1 if previous == "comment" else 1
            before.comment = line.text if comment_lines == 1 else None
        elif line.kind == "header":
            (last.after if last else before).headers.append((line.key, line.text, line.number))
        elif last is not None:
            if last.after.text is None:
                last.after.text = _title_text(line.text) or ""
        else:
            before.text = _title_text(line.text) or before.text
        previous = line.kind
    _name_from_below(trailing, before, previous, comment_lines)
    if not found:
        raise LevelFormatError("no Sokoban level found", source, 1)
    entries: list[LevelEntry] = []
    unreadable: list[Unreadable] = []
    for index, item in enumerate(found, 1):
        try:
            if item.error is not None:
                raise item.error
            entries.append(_entry(item, index, source))
        except LevelFormatError as exc:
            unreadable.append(Unreadable(index, exc))
    return XsbFile(pack, entries, unreadable)


def _more_moves(moves: str | _Unread, text: str, number: int, column: int) -> str | _Unread:
    """A saved solution's moves so far, and one more of its lines (`text`, from line
    `number` and `column` of the file; run lengths spelled out); once a line is not moves,
    or they come to over MAX_SOLUTION_MOVES, what is wrong where (the solution is not one
    to keep, but its author is told)."""
    if isinstance(moves, _Unread):
        return moves
    line = "".join(text.split())
    if line and not _MOVES.match(line):
        offset, why = _moves_fault(text)
        newline = text.rfind("\n", 0, offset)  # (a header's value may run over lines, each whole)
        where = column + offset if newline < 0 else offset - newline
        number += text.count("\n", 0, offset)
        return _Unread(f"line {number}, col {where}: {why}")
    runs = [(int(count or 1), move) for count, move in _RUN.findall(line)]
    if len(moves) + sum(count for count, _ in runs) > MAX_SOLUTION_MOVES:
        return _Unread(f"line {number}: over {MAX_SOLUTION_MOVES:,} moves")
    return moves + "".join(move * count for count, move in runs)


def _moves_fault(text: str) -> tuple[int, str]:
    """Where in `text`, not moves, the first fault is, and what it is."""
    digits = None  # where a run length being read began
    for offset, ch in enumerate(text):
        if ch in "lurdLURD":
            digits = None
        elif ch.isdigit() and ch.isascii():
            digits = offset if digits is None else digits
        elif not ch.isspace():
            return offset, f"{ch!r} is not a LURD move"
    assert digits is not None, "text that is not moves has a fault"
    return digits, "a run length with no move after it"


def _name_from_below(level: _Found | None, before: _Notes, previous: str, comment_lines: int) -> None:
    """A single comment line right under a level's grid, then a blank line (or the end),
    names that level (`; MINICOSMOS 01` after its level), not the next one."""
    if level is not None and previous == "comment" and comment_lines == 1:
        level.after.comment, before.comment = before.comment, None


def _entry(item: _Found, index: int, source: str) -> LevelEntry:
    level = build_level(item.rows, XSB_LEGEND, source)
    title = (
        _title_text(item.after.text) or _title_text(item.before.text) or item.before.comment
        or item.after.comment or ""
    )
    par: int | None = None
    push_par: int | None = None
    metadata: dict[str, str] = {}
    for key, value, number in item.before.headers + item.after.headers:
        if key.lower() == "title":
            title = value
        elif key.lower() == "par":
            par = whole_number(value, "Par", source, number)
        elif key.lower() == "push-par":
            push_par = whole_number(value, "Push-par", source, number)
        else:
            metadata[key] = value
    return LevelEntry(
        family=NAME,
        level=level,
        title=title,
        index=index,
        par=par,
        push_par=push_par,
        source=source,
        line=item.rows[0].line,
        format=FORMAT_NAME,
        metadata=metadata,
        solutions=tuple(moves for moves in item.solutions if isinstance(moves, str) and moves),
        unread_solutions=tuple(moves.why for moves in item.solutions if isinstance(moves, _Unread)),
    )


def read_xsb(text: str, source: str = "<text>") -> list[LevelEntry]:
    """Every level; the first fault (in file order) spoils the whole file."""
    return read_xsb_each(text, source).strict()


def read_xsb_each(text: str, source: str = "<text>") -> Collection:
    """The levels that read, and the others with their errors."""
    parsed = parse_xsb(text, source)
    return Collection(parsed.entries, parsed.unreadable)


def sniff_xsb(text: str) -> bool:
    """Some line is a grid row with a wall or the player in it (a board copied from a
    contest file has no walls), and the text is neither a fewest pack nor a contest
    file (whose `#..` rows would look like XSB)."""
    if sniff_family(text) is not None or sniff_contest(text):
        return False
    for raw in text_lines(text):
        stripped = raw.strip()
        if ("#" in stripped or "@" in stripped or "+" in stripped) and not stripped.startswith(";"):
            try:
                if _decode(raw.rstrip(), 1, "") is not None:
                    return True
            except LevelFormatError:
                continue
    return False


# ----- writing -----------------------------------------------------------------
def _header(key: str, value: str) -> list[str]:
    if not _HEADER.match(f"{key}:") or len(key) > _MAX_KEY or key.lower().endswith("-end"):
        raise ValueError(f"not a usable XSB header key: {key!r}")
    if "\n" in value:
        return [f"{key}:", *value.split("\n"), f"{key}-End:"]
    return [f"{key}: {value}".rstrip()]


def write_xsb(
    entries: Sequence[LevelEntry], title: str = "", metadata: dict[str, str] | None = None
) -> str:
    """XSB text for `entries`; `title`/`metadata` become the pack's leading header block.

    Each level is written as its headers (Title, Par, Push-par, metadata), its grid, then its
    solutions (`Solution (moves N, pushes M)` over lines of moves), levels separated by
    blank lines; `parse_xsb` reads it back unchanged.
    """
    out: list[str] = []
    pack = ({"Title": title} if title else {}) | dict(metadata or {})
    for key, value in pack.items():
        out.extend(_header(key, value))
    for entry in entries:
        if out:
            out.append("")
        if entry.title:
            out.extend(_header("Title", " ".join(text_lines(entry.title)).strip()))  # (one line)
        if entry.par is not None:
            out.extend(_header("Par", str(entry.par)))
        if entry.push_par is not None:
            out.extend(_header("Push-par", str(entry.push_par)))
        for key, value in entry.metadata.items():
            out.extend(_header(key, value))
        out.extend(xsb_rows(entry.level))
        for moves in entry.solutions:
            out.append(f"Solution (moves {len(moves)}, pushes {sum(move.isupper() for move in moves)})")
            out.extend(moves[at:at + _MOVES_PER_LINE] for at in range(0, len(moves), _MOVES_PER_LINE))
    return "\n".join(out) + "\n"

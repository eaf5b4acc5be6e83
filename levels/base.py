"""Shared types of level files: the located error, a loaded level, a format."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Mapping, Sequence

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_LEVEL_CELLS = 10_000
# No count in a level file (a Par, a run length, a board size) comes near 10**18; a longer
# number is refused before int(), which past 4300 digits fails in Python's own words.
MAX_NUMBER_DIGITS = 18


MAX_SHOWN_TITLE = 200  # characters of a title shown (a multi-megabyte title line is cut)


def shown_name(name: str) -> str:
    """A file name as messages print it: control characters (a newline, a terminal's
    escape) and undecodable bytes escaped, so one name stays one line and is never obeyed."""
    if name.isprintable():
        return name
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in name)


def clipped(text: str, limit: int = MAX_SHOWN_TITLE) -> str:
    """`text` cut to `limit` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


class LevelFormatError(ValueError):
    """Bad level text, located: `file:line:col: what is wrong`."""

    def __init__(
        self,
        message: str,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        super().__init__(self._text())

    def _text(self) -> str:
        where = []
        if self.file:
            where.append(shown_name(str(self.file)))
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"col {self.column}")
        return (", ".join(where) + ": " if where else "") + self.message

    def located(self, file: str | None = None, line_offset: int = 0) -> "LevelFormatError":
        """The same error with the file name filled in and/or lines shifted (for nested parsers)."""
        line = None if self.line is None else self.line + line_offset
        return LevelFormatError(self.message, self.file or file, line, self.column)


# C0 and C1 control characters (tabs as spaces): a title is shown, never obeyed.
_SHOWN = {code: "?" for code in (*range(0x20), *range(0x7F, 0xA0))} | {0x09: " "}


@dataclass(frozen=True)
class LevelEntry:
    """One level as read from a file or a bundled pack."""

    family: str
    level: Any  # the engine's Level value
    title: str = ""
    index: int = 1  # 1-based position in its file
    par: int | None = None  # proven optimal length, when recorded
    push_par: int | None = None  # Sokoban: the proven fewest pushes, when recorded (`Push-par:`)
    source: str = "<text>"  # file path or pack name
    line: int = 1  # where the level starts in its file
    format: str = ""  # the format it was read from (contest answers depend on it)
    metadata: Mapping[str, str] = field(default_factory=dict)
    solutions: tuple[str, ...] = ()  # plans saved with the level in its file, as move text (not checked)
    unread_solutions: tuple[str, ...] = ()  # those saved that are not moves: where and why, each

    @property
    def key(self) -> str:
        """A stable id for progress files: what the level is, not where it stands nor which
        file holds it (levels added to or removed from a file leave the others' progress,
        and a level met in two files, or a bundled pack opened by its path, is one level)."""
        return self.fingerprint

    @property
    def where(self) -> str:
        """The level as messages name it: its source and its place there."""
        return f"{shown_name(self.source)} #{self.index}"

    @property
    def legacy_key(self) -> str:
        """The id progress files used before: the source and the level's place in it."""
        return f"{self.source}#{self.index}"

    @cached_property
    def fingerprint(self) -> str:
        """A short digest of the level itself (its engine value, written canonically)."""
        text = json.dumps(_canonical(self.level), separators=(",", ":"))
        return "lv" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def display_title(self) -> str:
        """The title as shown: control characters (a terminal's escapes, off a file) as `?`,
        and no longer than MAX_SHOWN_TITLE characters."""
        return clipped(self.title or f"Level {self.index}").translate(_SHOWN)


@dataclass(frozen=True)
class Unreadable:
    """A level of a collection that could not be read, and why; the others still load
    (a collection with one flawed level stays playable)."""

    index: int  # 1-based position in its file, as the readable levels count
    error: LevelFormatError


class NoLevelReads(LevelFormatError):
    """No level of a collection reads: the first one's error, and all of them."""

    def __init__(self, unreadable: "list[Unreadable]") -> None:
        first = unreadable[0].error
        super().__init__(first.message, first.file, first.line, first.column)
        self.unreadable = unreadable


@dataclass(frozen=True)
class Collection:
    """What a level file holds: the levels that read, and the ones that did not."""

    entries: list[LevelEntry]
    unreadable: list[Unreadable] = field(default_factory=list)

    def strict(self) -> list[LevelEntry]:
        """The levels, when every one reads; else the first fault's error (in file order)."""
        if self.unreadable:
            raise self.unreadable[0].error
        return self.entries


@dataclass(frozen=True)
class Format:
    """One file format: how to recognise it, read it, and (if native) write it."""

    name: str
    family: str
    extensions: tuple[str, ...]
    sniff: Callable[[str], bool]  # does this text look like this format?
    read: Callable[[str, str], list[LevelEntry]]  # (text, source) -> entries
    write: Callable[[Sequence[LevelEntry]], str] | None = None
    # The contest's own answer for one solved level (None: the format has no contest output).
    contest_answer: Callable[[LevelEntry, Any], str] | None = None
    # For collections: every level that reads, and the others with their errors (None: a
    # fault anywhere spoils the whole file, as `read` has it).
    read_each: Callable[[str, str], Collection] | None = None
    # A looser look than `sniff`, tried only when no format claims the text: a file
    # this close to the format is handed to its reader, which says where it goes wrong.
    resembles: Callable[[str], bool] | None = None


def check_size(cells: int, source: str, line: int) -> None:
    if cells > MAX_LEVEL_CELLS:
        raise LevelFormatError(
            f"level has {cells} cells; the limit is {MAX_LEVEL_CELLS}", source, line
        )


def text_lines(text: str) -> list[str]:
    """The lines of `text` as editors and `wc -l` count them: only \\n, \\r\\n and \\r end
    one (str.splitlines() also breaks at U+2028, U+0085, \\x0c and more, so every reader
    splits here and its line numbers agree with the user's)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def whole_number(
    text: str,
    what: str,
    source: str,
    line: int | None,
    column: int | None = None,
    invalid: str | None = None,
) -> int:
    """`text`, ASCII digits, as an int; else a LevelFormatError at (line, column) saying
    `invalid` (default: "<what> must be a whole number, not '<text>'"). More than
    MAX_NUMBER_DIGITS digits (leading zeros aside) is refused there too, naming `what`,
    without calling int() on them."""
    if not (text.isascii() and text.isdigit()):
        message = invalid or f"{what} must be a whole number, not {text!r}"
        raise LevelFormatError(message, source, line, column)
    significant = text.lstrip("0")
    if len(significant) > MAX_NUMBER_DIGITS:
        raise LevelFormatError(
            f"{what} is too large: a number of {len(significant):,} digits", source, line, column
        )
    return int(significant or "0")


def _canonical(value: Any) -> Any:
    """`value` as JSON-ready data that is the same for equal values in every run (sets
    sorted, dataclasses as their type's name and fields)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__, [_canonical(getattr(value, f.name)) for f in dataclasses.fields(value)]]
    if isinstance(value, (set, frozenset)):
        return sorted((_canonical(item) for item in value), key=lambda item: json.dumps(item))
    if isinstance(value, (tuple, list)):
        return [_canonical(item) for item in value]
    if isinstance(value, Mapping):
        return sorted([str(k), _canonical(v)] for k, v in value.items())
    return value

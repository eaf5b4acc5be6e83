"""SLC, the XML format Sokoban collections are also published in (Sokoban YASC, JSoko,
sokoban.dk and sourcecode.se offer it beside the text): a reader.

    <SokobanLevels>
      <Title>Microban</Title>                   <- the collection's own (not kept)
      <LevelCollection Copyright="David W. Skinner">
        <Level Id="1" Width="6" Height="7">     <- Id is the level's title
          <L>####</L>                            <- one grid row per <L>, XSB characters
          <L># .#</L>
          ...
        </Level>

A level's Copyright (or, without one, its collection's) and any other short element
inside the <Level> (a Comment) go to its metadata. Errors name the line and column
in the file, like the XSB reader's: a bad grid character where it stands in its <L>,
malformed XML where the XML parser stops. A level with a fault is left out and the
others still read. No external entity is ever fetched, and a file declaring entities
is refused (their expansion could blow up memory).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.parsers import expat

from fewest.engine.sokoban import NAME
from fewest.levels.base import MAX_LEVEL_CELLS, Collection, LevelEntry, LevelFormatError, Unreadable
from fewest.levels.sokoban_grid import XSB_LEGEND, Row, build_level

FORMAT_NAME = "slc"
EXTENSIONS = (".slc",)

_ROOT = re.compile(r"<\s*SokobanLevels\b")
_SNIFF_CHARS = 4096  # the root element comes after the declaration and a comment or two
_MAX_NOTE = 2000  # characters of a level's other elements kept in its metadata


@dataclass
class _Level:
    line: int
    title: str
    copyright: str | None
    rows: list[Row] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)
    error: LevelFormatError | None = None
    cells: int = 0  # in its rows so far


class _Reader:
    """Expat's callbacks: the levels as they close, each row with its characters' places."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.parser = expat.ParserCreate()
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.parser.CharacterDataHandler = self.text
        self.parser.EntityDeclHandler = self.entity
        self.levels: list[_Level] = []
        self.copyright: list[str | None] = [None]  # per open LevelCollection, the innermost last
        self.level: _Level | None = None
        self.row: list[tuple[str, int, int]] | None = None  # an open <L>: its text's (chunk, line, column)
        self.row_cells = 0
        self.note: tuple[str, list[str]] | None = None  # another element open inside a level

    def where(self) -> tuple[int, int]:
        return self.parser.CurrentLineNumber, self.parser.CurrentColumnNumber + 1

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if name == "LevelCollection":
            self.copyright.append(attrs.get("Copyright") or self.copyright[-1])
        elif name == "Level":
            line, _ = self.where()
            title = attrs.get("Id", "").strip()
            self.level = _Level(line, title, attrs.get("Copyright") or self.copyright[-1])
            self.levels.append(self.level)
        elif self.level is not None and name == "L":
            self.row, self.row_cells = [], 0
        elif self.level is not None and self.note is None:
            self.note = (name, [])

    def end(self, name: str) -> None:
        level = self.level
        if name == "LevelCollection" and len(self.copyright) > 1:
            self.copyright.pop()
        elif name == "Level":
            self.level = None
        elif level is not None and name == "L" and self.row is not None:
            if level.error is None:
                level.error = self._add_row(level, self.row)
            self.row = None
        elif level is not None and self.note is not None and self.note[0] == name:
            text = " ".join("".join(self.note[1]).split())
            if text:
                level.notes[name] = text[:_MAX_NOTE]
            self.note = None

    def text(self, data: str) -> None:
        if self.row is not None:
            if self.row_cells <= MAX_LEVEL_CELLS:  # (beyond, the row is refused: not kept)
                self.row.append((data, *self.where()))
                self.row_cells += len(data)
        elif self.note is not None and sum(map(len, self.note[1])) < _MAX_NOTE:
            self.note[1].append(data)

    def entity(self, name: str, *_: object) -> None:
        line, column = self.where()
        raise LevelFormatError(f"declares the entity {name!r}: not allowed in a level file", self.source, line, column)

    def _add_row(self, level: _Level, chunks: list[tuple[str, int, int]]) -> LevelFormatError | None:
        """Put a row in (its text as expat gave it: chunks, each from its line and column),
        or say what is wrong with it."""
        text: list[str] = []
        columns: list[int] = []
        line = chunks[0][1] if chunks else self.where()[0]  # (an empty row: the line of its </L>)
        for chunk, at_line, at_column in chunks:
            for char in chunk:
                if char == "\n" or char not in XSB_LEGEND and char not in "-_":
                    shown = "a line break" if char == "\n" else repr(char)
                    return LevelFormatError(f"unknown character {shown} in a row", self.source, at_line, at_column)
                if len(text) == MAX_LEVEL_CELLS:
                    message = f"row is longer than {MAX_LEVEL_CELLS} cells"
                    return LevelFormatError(message, self.source, at_line, at_column)
                text.append(" " if char in "-_" else char)
                columns.append(at_column)
                at_column += 1
        level.cells += len(text)
        if level.cells > MAX_LEVEL_CELLS:  # (its rows are let go of: memory stays bounded)
            level.rows = []
            return LevelFormatError(f"level is larger than {MAX_LEVEL_CELLS} cells", self.source, line)
        level.rows.append(Row("".join(text), line, tuple(columns)))
        return None


def parse_slc(text: str, source: str = "<text>") -> Collection:
    """The levels of an SLC file that read, and the others with their errors.
    LevelFormatError when the XML itself is malformed or holds no level."""
    reader = _Reader(source)
    try:
        reader.parser.Parse(text, True)
    except expat.ExpatError as exc:
        message = f"not well-formed XML: {expat.ErrorString(exc.code)}"
        raise LevelFormatError(message, source, exc.lineno, exc.offset + 1) from None
    if not reader.levels:
        raise LevelFormatError("no <Level> element: no Sokoban level found", source, 1)
    entries: list[LevelEntry] = []
    unreadable: list[Unreadable] = []
    for index, found in enumerate(reader.levels, 1):
        try:
            entries.append(_entry(found, index, source))
        except LevelFormatError as exc:
            unreadable.append(Unreadable(index, exc))
    return Collection(entries, unreadable)


def _entry(found: _Level, index: int, source: str) -> LevelEntry:
    if found.error is not None:
        raise found.error
    if not found.rows:
        raise LevelFormatError("level has no rows (<L> elements)", source, found.line)
    metadata = dict(found.notes)
    if found.copyright:
        metadata["Copyright"] = found.copyright
    return LevelEntry(
        family=NAME,
        level=build_level(found.rows, XSB_LEGEND, source),
        title=found.title,
        index=index,
        source=source,
        line=found.line,
        format=FORMAT_NAME,
        metadata=metadata,
    )


def read_slc(text: str, source: str = "<text>") -> list[LevelEntry]:
    """Every level; the first fault (in file order) spoils the whole file."""
    return parse_slc(text, source).strict()


def sniff_slc(text: str) -> bool:
    """The file opens an SLC root element near its start."""
    return _ROOT.search(text[:_SNIFF_CHARS]) is not None

"""The native multi-level pack format shared by the non-Sokoban families.

    ; a comment (anywhere; ignored)
    Family: traffic          <- first non-comment line: which family
    Title: Pack name         <- optional pack-wide metadata before the first level

    Title: First level       <- a level: `Key: value` headers (Title, Par, Author, Comment, ...)
    Par: 12
    <body lines>             <- the family's level text (see each family's codec)

    Title: Second level
    ...

Levels are separated by blank lines. Each family supplies a codec: `parse_body(lines, source,
first_line) -> Level` (lines without their newline; errors are LevelFormatError with the file's
line numbers) and `format_body(level) -> list[str]`. Header keys a body needs (such as
traffic's `goal:`) belong to the body, so they are lower-case; metadata keys are Capitalised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from fewest.levels.base import Format, LevelEntry, LevelFormatError, text_lines, whole_number

EXTENSION = ".fewest"
_HEADER = re.compile(r"^([A-Z][A-Za-z-]*):\s*(.*)$")


@dataclass(frozen=True)
class Codec:
    family: str
    parse_body: Callable[[list[str], str, int], Any]
    format_body: Callable[[Any], list[str]]


def sniff_family(text: str) -> str | None:
    """The family a pack declares in its first non-comment line, if it is a pack."""
    for raw in text_lines(text):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        match = _HEADER.match(line)
        if match and match.group(1) == "Family":
            return match.group(2).strip().lower()
        return None
    return None


def pack_problem(text: str, source: str, families: Sequence[str]) -> LevelFormatError | None:
    """What is wrong with a text that means to be a pack but no pack reader takes (its
    Family line late, misspelt or naming no pack family), located; None if it is no pack."""
    first: tuple[int, str] | None = None
    for number, raw in enumerate(text_lines(text), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        first = first or (number, line)
        key, colon, value = line.partition(":")
        if not colon or key.strip().lower() != "family":
            continue
        value = value.strip()
        column = raw.index(value, raw.index(":")) + 1 if value else raw.index(":") + 2
        if (number, line) != first:
            return LevelFormatError(f"the Family line must come first in a pack (line {first[0]} comes "
                                    "before it)", source, number)
        if key != "Family":
            return LevelFormatError(f"write the key as 'Family', not {key.strip()!r}", source, number, 1)
        if value.lower() == "sokoban":
            return LevelFormatError("Sokoban levels are not written as packs: an XSB file holds them "
                                    "(Title: and Par: lines as here)", source, number, column)
        return LevelFormatError(f"unknown family {value!r} (packs are for {', '.join(families)})",
                                source, number, column)
    return None


def _blocks(text: str) -> list[list[tuple[int, str]]]:
    """Blank-line separated blocks of (line number, line), comment lines dropped."""
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for number, raw in enumerate(text_lines(text), 1):
        line = raw.rstrip()
        if line.lstrip().startswith(";"):
            continue
        if not line.strip():
            if current:
                blocks.append(current)
                current = []
            continue
        current.append((number, line))
    if current:
        blocks.append(current)
    return blocks


def _parse_body(codec: Codec, body: list[tuple[int, str]], source: str) -> Any:
    """The codec sees consecutive lines; its errors are mapped back to the file's own line numbers
    (a comment inside a level shifts them)."""
    numbers = [number for number, _ in body]
    try:
        return codec.parse_body([line for _, line in body], source, numbers[0])
    except LevelFormatError as exc:
        if exc.line is not None and 0 <= exc.line - numbers[0] < len(numbers):
            raise LevelFormatError(exc.message, exc.file or source, numbers[exc.line - numbers[0]], exc.column) from None
        raise


def read_pack(text: str, source: str, codec: Codec) -> list[LevelEntry]:
    blocks = _blocks(text)
    if not blocks:
        raise LevelFormatError("empty pack: no Family line", source, 1)
    entries: list[LevelEntry] = []
    for block in blocks:
        start = block[0][0]
        meta: dict[str, str] = {}
        meta_lines: dict[str, int] = {}  # where each header is (a bad Par is reported there)
        body_at = 0
        for offset, (number, line) in enumerate(block):
            match = _HEADER.match(line.strip())
            if not match:
                break
            meta[match.group(1)] = match.group(2).strip()
            meta_lines[match.group(1)] = number
            body_at = offset + 1
        body = block[body_at:]
        family = meta.pop("Family", None)
        if family is not None:
            if family.strip().lower() != codec.family:
                raise LevelFormatError(
                    f"pack says Family: {family}, expected {codec.family}", source, start
                )
            if not body:
                continue  # the pack header block (may carry pack-wide Title etc.)
        if not body:
            raise LevelFormatError("level has headers but no body", source, start)
        par_text = meta.pop("Par", None)
        par = None if par_text is None else whole_number(par_text, "Par", source, meta_lines["Par"])
        level = _parse_body(codec, body, source)
        entries.append(
            LevelEntry(
                family=codec.family,
                level=level,
                title=meta.pop("Title", ""),
                index=len(entries) + 1,
                par=par,
                source=source,
                line=start,
                format="pack",
                metadata=meta,
            )
        )
    if not entries:
        raise LevelFormatError("pack holds no levels", source, 1)
    return entries


def write_pack(entries: Sequence[LevelEntry], codec: Codec, title: str = "") -> str:
    """The pack's text; `read_pack` reads it back to the same levels, titles, pars and
    metadata. A header is one line (line breaks in a value become spaces); a metadata
    key the reader would take for the body raises ValueError."""
    out = [f"Family: {codec.family}"]
    if title:
        out.append(_header_line("Title", title))
    for entry in entries:
        out.append("")
        if entry.title:
            out.append(_header_line("Title", entry.title))
        if entry.par is not None:
            out.append(f"Par: {entry.par}")
        for key, value in entry.metadata.items():
            out.append(_header_line(key, value))
        out.extend(codec.format_body(entry.level))
    return "\n".join(out) + "\n"


def _header_line(key: str, value: str) -> str:
    match = _HEADER.match(f"{key}:")
    if match is None or match.group(1) != key:
        raise ValueError(f"not a usable pack header key: {key!r} (Capitalised letters and -)")
    return f"{key}: {' '.join(text_lines(value))}".rstrip()


def pack_format(codec: Codec, name: str) -> Format:
    """A family's `.fewest` pack as a Format: recognised by its Family line, read and written."""
    return Format(
        name=name,
        family=codec.family,
        extensions=(EXTENSION,),
        sniff=lambda text: sniff_family(text) == codec.family,
        read=lambda text, source="<text>": read_pack(text, source, codec),
        write=lambda entries: write_pack(entries, codec),
    )


def pack_and_contest(codec: Codec, pack_name: str, contest_name: str, **contest: Any) -> tuple[Format, ...]:
    """A family's two formats, in this order: its `.fewest` pack, and its contest's input file
    (`contest`: that Format's sniff, read and the rest; it has no extension of its own)."""
    return pack_format(codec, pack_name), Format(name=contest_name, family=codec.family, extensions=(), **contest)

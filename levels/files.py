"""Reading level files of any known format, and writing native ones.

A format is chosen from the file's extension when one claims it, else by
sniffing the text, else by a looser look (`resembles`) so that a nearly right
file gets its reader's located error; `family=` restricts the choice (the
CLI's `--family`). The path `-` is standard input, as Unix tools have it
(`fewest solve - < contest.in`).
"""

from __future__ import annotations

import os
import stat
import sys
from typing import Callable, Sequence

from fewest.levels.base import (
    MAX_FILE_BYTES, Collection, Format, LevelEntry, LevelFormatError, NoLevelReads, Unreadable,
)
from fewest.levels.pack import EXTENSION, pack_problem
from fewest.levels.registry import FORMATS

STDIN = "-"  # the path that means standard input
STDIN_SOURCE = "<stdin>"  # its name in errors and results


def formats_for(family: str | None = None) -> list[Format]:
    return [f for f in FORMATS if family is None or f.family == family]


def _says_so(look: Callable[[str], bool], text: str) -> bool:
    try:
        return bool(look(text))
    except Exception:  # a sniffer must never decide for the user by crashing
        return False


def detect(text: str, source: str, family: str | None = None) -> Format:
    """The format of `text`: by extension when one matches and sniffs true, else by content,
    else the one format its extension names or the first the text resembles."""
    candidates = formats_for(family)
    if not candidates:
        raise LevelFormatError(f"unknown family {family!r}", source)
    ext = os.path.splitext(source)[1].lower()
    by_ext = [f for f in candidates if ext and ext in f.extensions]
    for fmt in by_ext + [f for f in candidates if f not in by_ext]:
        if _says_so(fmt.sniff, text):
            return fmt
    if len(by_ext) == 1:
        return by_ext[0]  # let its reader say precisely what is wrong
    for fmt in candidates:
        if fmt.resembles is not None and _says_so(fmt.resembles, text):
            return fmt  # nearly this format: its reader says precisely what is wrong
    packs = [f.family for f in FORMATS if EXTENSION in f.extensions]
    problem = pack_problem(text, source, packs)  # (a pack's Family line out of place or wrong)
    if problem is not None:
        raise problem
    what = f"{family} level" if family else "level"
    raise LevelFormatError(
        f"not a {what} file of any known format "
        f"(known: {', '.join(sorted({f.name for f in candidates}))})",
        source,
    )


def read_text(text: str, source: str = "<text>", family: str | None = None) -> list[LevelEntry]:
    """Every level in `text`; LevelFormatError for the first fault anywhere in it."""
    return read_text_each(text, source, family).strict()


def read_text_each(text: str, source: str = "<text>", family: str | None = None) -> Collection:
    """The levels in `text` that read, and those that do not with their errors (for a
    format that reads level by level; others fail whole). LevelFormatError when the file
    as a whole is wrong or no level in it reads."""
    if len(text) > MAX_FILE_BYTES:
        raise LevelFormatError(f"file is over {MAX_FILE_BYTES // (1024 * 1024)} MB", source)
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    if not text.strip():
        raise LevelFormatError("file is empty", source)
    fmt = detect(text, source, family)
    try:
        if fmt.read_each is not None:
            collection = fmt.read_each(text, source)
        else:
            collection = Collection(fmt.read(text, source))
    except LevelFormatError as exc:
        raise exc.located(source) from None
    except (ValueError, IndexError, KeyError) as exc:  # a reader's slip is still bad input
        raise LevelFormatError(f"{fmt.name}: {exc}", source) from None
    unreadable = [Unreadable(u.index, u.error.located(source)) for u in collection.unreadable]
    if not collection.entries:
        if unreadable:
            raise NoLevelReads(unreadable)
        raise LevelFormatError("no levels found", source)
    return Collection(collection.entries, unreadable)


def read_file(path: str | os.PathLike, family: str | None = None) -> list[LevelEntry]:
    """Every level in the file; LevelFormatError (naming the file) for anything wrong."""
    return read_file_each(path, family).strict()


def read_file_each(path: str | os.PathLike, family: str | None = None) -> Collection:
    """The file's levels that read, and the others with their errors (read_text_each)."""
    source = os.fspath(path)
    if not source:
        raise LevelFormatError("the file name is empty")
    if source == STDIN:
        if sys.stdin is None:  # (started with its standard input closed)
            raise LevelFormatError("cannot read standard input: it is closed", STDIN_SOURCE)
        try:  # (one byte over the limit is enough for read_text_each to refuse it)
            data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        except (OSError, AttributeError, ValueError) as exc:  # closed, or not a byte stream
            raise LevelFormatError(f"cannot read standard input: {exc}", STDIN_SOURCE) from None
        return read_data_each(data, STDIN_SOURCE, family)
    return read_data_each(regular_file_bytes(source), source, family)


def regular_file_bytes(source: str) -> bytes:
    """The bytes of file `source` (up to one past the size limit); LevelFormatError naming
    it when it cannot be read or is no regular file: a FIFO with no writer would block for
    ever, so it is opened without waiting, then refused, as a device or a directory is."""
    try:
        fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        try:
            status = os.fstat(fd)
        except OSError:
            os.close(fd)
            raise
        if not stat.S_ISREG(status.st_mode):
            os.close(fd)
            raise LevelFormatError(
                f"not a regular file ({_kind(status.st_mode)}): give a level file, or - for standard input",
                source,
            )
        with open(fd, "rb") as handle:  # (closes fd)
            if status.st_size > MAX_FILE_BYTES:
                raise LevelFormatError(
                    f"file is {status.st_size / 1e6:.1f} MB; the limit is {MAX_FILE_BYTES // (1024 * 1024)} MB",
                    source,
                )
            return handle.read(MAX_FILE_BYTES + 1)  # (a file growing meanwhile: read no more)
    except OSError as exc:
        raise LevelFormatError(f"cannot read: {exc.strerror or exc}", source) from None


def _kind(mode: int) -> str:
    """What a path that is not a regular file is, in a message's words."""
    kinds = [(stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")]
    return next((name for test, name in kinds if test(mode)), "not a file")


def read_data_each(data: bytes, source: str, family: str | None = None) -> Collection:
    """A file's bytes, as read_file_each reads them once it has them (decoded as _decoded
    says, then read_text_each): what a file named `source` holding `data` gives."""
    return read_text_each(_decoded(data, source), source, family)


def _kind(mode: int) -> str:
    """What a path that is not a regular file is, in a message's words."""
    kinds = [(stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")]
    return next((name for test, name in kinds if test(mode)), "not a file")


def _decoded(data: bytes, source: str) -> str:
    """The file's text: UTF-8, UTF-16 with its byte-order mark, or else Windows-1252, as
    older collections are (the grids are ASCII in all of them; a title keeps its accents)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    if b"\0" in data:
        line = data[: data.index(b"\0")].count(b"\n") + 1
        raise LevelFormatError("not a text file (it has NUL bytes)", source, line)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def write_entries(entries: Sequence[LevelEntry], family: str | None = None) -> str:
    """Native text for `entries` (XSB for Sokoban, the pack format for the others)."""
    if not entries:
        raise ValueError("nothing to write")
    family = family or entries[0].family
    for fmt in formats_for(family):
        if fmt.write is not None:
            return fmt.write(entries)
    raise ValueError(f"no writer for family {family!r}")

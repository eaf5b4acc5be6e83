"""Sokoban level files: the contest format (sniffed first, it is strict), SLC (XML) and XSB.

XSB is Sokoban's native pack format, so there is no fewest pack codec for this
family: the bundled packs are .xsb files whose leading `Title:` header block
(followed by a blank line) names the pack. The readers live in
sokoban_contest.py, sokoban_slc.py and sokoban_xsb.py, the grid characters in
sokoban_grid.py.
"""

from __future__ import annotations

from fewest.engine.sokoban import NAME
from fewest.levels import sokoban_contest, sokoban_slc, sokoban_xsb
from fewest.levels.base import Format
from fewest.levels.sokoban_contest import (
    contest_answer,
    parse_contest_plan,
    read_contest,
    resembles_contest,
    sniff_contest,
)
from fewest.levels.sokoban_slc import parse_slc, read_slc, sniff_slc
from fewest.levels.sokoban_xsb import XsbFile, parse_xsb, read_xsb, read_xsb_each, sniff_xsb, write_xsb

CONTEST = Format(
    name=sokoban_contest.FORMAT_NAME,
    family=NAME,
    extensions=sokoban_contest.EXTENSIONS,
    sniff=sniff_contest,
    read=read_contest,
    contest_answer=contest_answer,
    resembles=resembles_contest,
)
SLC = Format(sokoban_slc.FORMAT_NAME, NAME, sokoban_slc.EXTENSIONS, sniff_slc, read_slc, read_each=parse_slc)
XSB = Format(
    name=sokoban_xsb.FORMAT_NAME,
    family=NAME,
    extensions=sokoban_xsb.EXTENSIONS,
    sniff=sniff_xsb,
    read=read_xsb,
    read_each=read_xsb_each,
    write=lambda entries: write_xsb(entries),
)
FORMATS: tuple[Format, ...] = (CONTEST, SLC, XSB)

__all__ = [
    "CONTEST",
    "FORMATS",
    "SLC",
    "XSB",
    "XsbFile",
    "contest_answer",
    "parse_contest_plan",
    "parse_slc",
    "parse_xsb",
    "read_contest",
    "read_slc",
    "read_xsb",
    "read_xsb_each",
    "sniff_contest",
    "sniff_slc",
    "sniff_xsb",
    "write_xsb",
]

"""Plain ASCII on the way out, for a terminal that cannot show more (`FEWEST_ASCII=1`, or
an output encoding without Unicode): every cell the app draws passes through here, so
Textual's own widgets (tree guides, borders, scrollbars, the header's dash) are plain
too. The boards draw in ASCII themselves; this catches the rest. Each character becomes
one of the same width, so nothing on screen moves."""

from __future__ import annotations

from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

_LIKE = {
    "-": "─━═╌╍┄┅┈┉╴╶╸╺—–‐‑‒―−",
    "|": "│┃║╎╏┆┇┊┋╵╷╹╻▏▕▎▍▌▋▊▉▐",
    "+": "┌┐└┘├┤┬┴┼╭╮╰╯┏┓┗┛┣┫┳┻╋╔╗╚╝╠╣╦╩╬┍┑┕┙┝┥┯┷┿╒╓╕╖╘╙╛╜╞╟╡╢╤╥╧╨╪╫",
    "#": "█▓▒░",
    " ": "▁▂▃▄▅▆▇▀▔\u00a0",
    "<": "←◀◂◄⌫",
    ">": "→▶▸►",
    "^": "↑▲▴",
    "v": "↓▼▾",
    ".": "·…•∙",
    "(": "◖",
    ")": "◗",
    "O": "●◉",
    "o": "○◦",
    "x": "✗✘×",
    "*": "✓✔★",
    "'": "‘’′",
    '"': "“”″",
}
_ASCII = {char: plain for plain, chars in _LIKE.items() for char in chars}


@lru_cache(maxsize=4096)
def to_ascii(text: str) -> str:
    """`text` in ASCII, cell for cell: a look-alike where there is one, else `?`s."""
    if text.isascii():
        return text
    return "".join(ch if ch.isascii() else _ASCII.get(ch) or "?" * cell_len(ch) for ch in text)


class AsciiFilter(LineFilter):
    """Every segment's text in ASCII, its style kept."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [Segment(to_ascii(text), style, control) for text, style, control in segments]

"""`fewest solve` at a terminal: a live progress line, and a Ctrl-C that keeps the proof.

A Sokoban proof may run for minutes. Silence for that long reads as a hang, and a
Ctrl-C that throws the work away loses what the proof had established ("at least
157 moves"). So, as long proofs in other solvers do: a line on standard error, redrawn
in place while the search runs (only when that is a terminal: a file or a pipe gets
nothing), and a first Ctrl-C that asks the search to stop, as the app's esc does. The
search then answers with what it proved, which is printed as usual. A second Ctrl-C
quits at once.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any, Callable, TextIO

from fewest.solvers.common.control import Progress
from fewest.tui.services.level_summary import short_count

REDRAW_EVERY = 0.5  # seconds between redraws of the progress line
CLEAR = "\r\x1b[K"  # back to the line's start, and erase it


class Interrupt:
    """While entered (in the main thread): the first Ctrl-C sets `pressed`, the next
    raises KeyboardInterrupt. Elsewhere Ctrl-C keeps its usual meaning."""

    def __init__(self, on_press: Callable[[], None] | None = None) -> None:
        self.pressed = threading.Event()
        self._on_press = on_press  # called on the first press
        self._previous: Any = None
        self._pid = os.getpid()

    def __enter__(self) -> "Interrupt":
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self.press)
        return self

    def __exit__(self, *_: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None

    def press(self, *_: object) -> None:
        # (a search's child process, forked meanwhile, inherits this handler: Ctrl-C, sent to
        # the whole process group, stops it as before, and this process closes it)
        if self.pressed.is_set() or os.getpid() != self._pid:
            raise KeyboardInterrupt
        self.pressed.set()
        if self._on_press is not None:
            self._on_press()


class ProgressLine:
    """One line on `stream`, redrawn as a search reports, cleared before a result prints.
    Draws nothing unless `stream` is a terminal that can erase a line."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        # (a dumb terminal, as in an editor's shell, would print the erase codes as text)
        self.on = stream.isatty() and os.environ.get("TERM") != "dumb"
        self.label = ""
        self._shown = False
        self._next = 0.0
        self.plan_note = ""  # the best plan known so far, not proven shortest (see plan_found)

    def start(self, label: str) -> None:
        """A new level: `label` heads the line."""
        self.label = label
        self.plan_note = ""
        self._next = time.perf_counter() + REDRAW_EVERY  # (a quick solve shows no line at all)

    def show(self, progress: Progress) -> None:
        """The search's report (its callback): seconds, positions, the bound it reached."""
        now = time.perf_counter()
        if not self.on or now < self._next:
            return
        self._next = now + REDRAW_EVERY
        bound = f", bound {progress.bound}" if progress.bound else ""
        figures = f"{progress.seconds:.0f} s, {short_count(progress.expanded)} positions{bound}{self.plan_note}"
        self._draw(figures, "  (Ctrl-C stops it with what it proved)")

    def plan_found(self, moves: int, stage: str) -> None:
        """A plan of `moves` not proven shortest came (`stage`: "found" or "improved"): the
        line says so from now on, while the proof goes on."""
        self.plan_note = f"; a plan of {moves} {stage}, proving"

    def stopping(self) -> None:
        """Ctrl-C was pressed: say that the search is stopping."""
        if self.on:
            try:
                self._draw("stopping", " (Ctrl-C again quits at once)")
            except RuntimeError:  # (the press came while the line was being drawn: skip it)
                pass

    def clear(self) -> None:
        if self._shown:
            self.stream.write(CLEAR)
            self.stream.flush()
            self._shown = False

    def _draw(self, news: str, aside: str) -> None:
        # A wrapped line would not redraw in place: room is left for the terminal's own echo
        # of a Ctrl-C ("^C"), which would otherwise wrap and leave the line behind, uncleared.
        width = _columns(self.stream) - 3
        self.stream.write(CLEAR + fit_line(self.label, news, aside, width))
        self.stream.flush()
        self._shown = True


def fit_line(label: str, news: str, aside: str, width: int) -> str:
    """`label: news aside` in `width` columns. A long path gives way first (to its file's
    name), then the aside: the figures are what the line is for."""
    short = label
    head, sep, tail = label.rpartition(os.sep)
    if sep and head:
        short = "..." + sep + tail
    for text in (f"{label}: {news}{aside}", f"{short}: {news}{aside}", f"{short}: {news}"):
        if len(text) <= width:
            return text
    return text[:width]


def _columns(stream: TextIO) -> int:
    """The width of the terminal `stream` writes to (standard output may be a file)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return 80

"""What every family's board widget shares: drawing on a character canvas, and picking moves.

A board widget is a view of `game.state` (the engine's, owned by `Game` in the board
screen) plus UI-only things a player would not expect undo to restore: cursor,
selection, the highlighted hint. Keys and clicks become engine moves, handed to the
screen's `on_pick` at once; the screen plays them. Colours come from component
classes styled in board.tcss, so both themes apply.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Spacing
from textual.message import Message
from textual.widget import Widget

from fewest.engine.game import Game


ARROW_KEYS = (("left", "←"), ("up", "↑"), ("right", "→"), ("down", "↓"))


def arrow_bindings(action: str, codes: str, label: str, id_prefix: str,
                   group: Binding.Group) -> list[Binding]:
    """The four arrow keys calling `action('<code>')`, codes given in left-up-right-down order;
    `label` and `id_prefix` get the direction's word (e.g. "Cursor left", id "shift-cursor-left")."""
    return [
        Binding(key, f"{action}('{code}')", f"{label} {key}", id=f"{id_prefix}{key}",
                group=group, key_display=display)
        for (key, display), code in zip(ARROW_KEYS, codes)
    ]


def want_ascii() -> bool:
    """ASCII glyphs when FEWEST_ASCII is set or the terminal's encoding can't show Unicode."""
    if os.environ.get("FEWEST_ASCII", "") not in ("", "0"):
        return True
    encoding = (getattr(sys.__stdout__, "encoding", None) or "utf-8").lower().replace("-", "")
    return encoding not in ("utf8", "utf16", "utf32")


class Canvas:
    """A grid of styled characters; `tag`s remember which game cell a character belongs to."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[Style | None]] = [[None] * width for _ in range(height)]
        self.tags: dict[tuple[int, int], Any] = {}

    def put(self, x: int, y: int, text: str, style: Style | None = None, tag: Any = None) -> None:
        if not 0 <= y < self.height:
            return
        for i, ch in enumerate(text):
            if 0 <= x + i < self.width:
                self.chars[y][x + i] = ch
                self.styles[y][x + i] = style
                if tag is not None:
                    self.tags[(x + i, y)] = tag

    def tag_at(self, x: int, y: int) -> Any:
        return self.tags.get((x, y))

    def to_text(self) -> Text:
        text = Text(no_wrap=True, overflow="crop")
        for y in range(self.height):
            if y:
                text.append("\n")
            row, styles = self.chars[y], self.styles[y]
            start = 0
            for x in range(1, self.width + 1):  # append runs of one style at a time
                if x == self.width or styles[x] != styles[start]:
                    text.append("".join(row[start:x]), styles[start] or "")
                    start = x
        return text


class BoardView(Widget, can_focus=True):
    """Base class of the five family boards (one subclass per family: the frontend table)."""

    FAMILY: ClassVar[str] = ""
    COMPONENT_CLASSES = {"board--label", "board--hint", "board--good", "board--bad",
                         "board--dim", "board--cursor"}
    METER: ClassVar[bool] = True  # is the exact distance cheap enough for a live meter?
    DEADLOCKS: ClassVar[bool] = False  # can a move make the level unsolvable (checked after each one)?
    COUNTS_PUSHES: ClassVar[bool] = False  # are pushes counted (status line, hints, solved card)?
    HELP_NOTES: ClassVar[tuple[str, ...]] = ()  # mouse use, key collisions: shown by `?`

    class Said(Message):
        """A short note for the message line (e.g. "that box can't move there")."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, game: Game, ascii_only: bool = False,
                 on_pick: Callable[[Any], None] = lambda move: None,
                 on_select: Callable[[], None] = lambda: None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.on_pick = on_pick  # the screen's: plays the move, or says why it can't
        self.on_select = on_select  # the screen's: the player picked something (a solution playing stops)
        self.ascii_only = ascii_only
        self.hint_move: Any = None  # highlighted next move of a shortest plan (UI only)
        # (a dead position, the cells of the pieces at fault there: marked while it stands)
        self.blamed: tuple[Any, frozenset[int]] = (None, frozenset())
        self._canvas: Canvas | None = None
        self.reset_ui()

    # ----- subclasses provide -------------------------------------------
    def reset_ui(self) -> None:
        """Forget cursor and selection (a new level, or the game was replaced)."""

    def draw(self) -> Canvas:
        raise NotImplementedError

    def describe(self, move: Any) -> str:
        """The move in words, for the hint line."""
        return str(move)

    def clicked(self, tag: Any) -> None:
        """A mouse click on a tagged canvas cell."""

    def focus_point(self) -> tuple[int, int] | None:
        """Where on the canvas the player acts (kept in view when the board scrolls)."""
        return None

    # ----- shared -------------------------------------------------------
    def set_game(self, game: Game) -> None:
        self.game = game
        self.hint_move = None
        self.reset_ui()
        self.refresh(layout=True)
        self.call_after_refresh(self.keep_in_view)  # (its size and place change with the level)

    def show(self) -> None:
        """Redraw after the game changed (the widget keeps no copy of its state).

        A level's drawing keeps its size while it is played, so no layout pass is needed;
        a board taller or wider than the screen scrolls to keep the player in view."""
        self.refresh()
        self.keep_in_view()

    def keep_in_view(self) -> None:
        """Scroll the board's area to the player (a new level, or the screen resized, needs
        it once the layout is done: call it after a refresh)."""
        point = self.focus_point()
        if point is not None and self.parent is not None and self.is_mounted:
            x, y = point
            left, top = self.virtual_region.offset + self.styles.gutter.top_left
            self.parent.scroll_to_region(Region(left + x, top + y, 2, 1), spacing=Spacing(2, 4, 2, 4),
                                         animate=False, immediate=True)

    def on_mount(self) -> None:
        self.call_after_refresh(self.keep_in_view)

    def pick(self, move: Any) -> None:
        """The player chose a move: the screen plays it (or refuses it) now. A message would
        wait in a queue, and a key pressed next in the same burst (u, r, h: bindings run
        at once) would act before the move was played."""
        self.on_pick(move)

    def say(self, text: str) -> None:
        self.post_message(self.Said(text))

    def style(self, name: str) -> Style:
        return self.get_component_rich_style(f"board--{name}")

    def render(self) -> Text:
        self._canvas = self.draw()
        return self._canvas.to_text()

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return self.draw().width

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return self.draw().height

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or self._canvas is None:
            return
        tag = self._canvas.tag_at(offset.x, offset.y)
        if tag is not None:
            self.clicked(tag)

    def try_moves(self, moves: list[Any], refused: str) -> None:
        """Pick the first legal move of `moves`, else say `refused`."""
        legal = set(self.game.legal_moves())
        for move in moves:
            if move in legal:
                self.pick(move)
                return
        if refused:
            self.say(refused)

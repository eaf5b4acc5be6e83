"""The board screen's public face, as the thinker (app/boards/thinking.py) sees it: what it
reads of the level in play, and the one thing it does to it. BoardScreen is one; a test
may give the thinker another. Anything else the thinker has to tell the screen goes up
as a message (Thinker.Said, HintShown, ParProven, ActivityChanged)."""

from __future__ import annotations

from typing import Any, Protocol

from fewest.engine.game import EntryKind, Game
from fewest.levels.base import LevelEntry
from fewest.tui.app.boards.base import BoardView
from fewest.tui.services.progress import ProgressStore


class BoardHost(Protocol):
    store: ProgressStore  # the player's progress: records, pars, settings

    @property
    def game(self) -> Game: ...  # the position and its history (another, as another level opens)

    @property
    def entry(self) -> LevelEntry: ...  # the level in play

    @property
    def metric(self) -> str: ...  # what hints, solve and the par go by

    @property
    def board(self) -> BoardView: ...  # the family's board: its moves in words, what it checks

    def play(self, move: Any, kind: EntryKind) -> bool:
        """Play `move` now, as an entry of `kind`, as the board's picks are (a key pressed
        next acts on the position after it); False, said why, if the rules refuse it."""
        ...

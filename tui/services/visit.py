"""One level in play and what is kept of it (plain Python, no Textual): the game (the
engine's mid-end: position and history), the hints asked, the time spent playing, and
the saved game it opens from and is written back to; when solved, the level's record."""

from __future__ import annotations

import time
from typing import Callable, Iterable

from fewest.engine.base import format_plan
from fewest.engine.game import Game
from fewest.engine.registry import rules_for
from fewest.levels.base import LevelEntry
from fewest.tui.services.progress import ProgressStore, SavedGame


class Visit:
    """`entry` opened: its saved game if it has one that still fits, else from the start.
    The clock (`clock()`, in seconds) runs only between start_clock and pause_clock."""

    def __init__(self, entry: LevelEntry, store: ProgressStore, clock: Callable[[], float]) -> None:
        self.entry = entry
        self.store = store
        self.clock = clock
        rules = rules_for(entry.family)
        self.game = Game(rules, entry.level)
        self.hints = 0  # hints asked (counted in the saved game, not in the record)
        self.elapsed = 0.0  # seconds played before the clock last started
        self.resumed: float | None = None  # when the clock last started (None: paused)
        self.saved: SavedGame | None = None  # the saved game resumed (its plans go into the books)
        # (a level can start solved, as a rotation board with its centre all one digit can)
        self.greeting = "This level is solved as it starts: no move is needed." if self.game.is_solved() else ""
        saved = store.saved_game(entry.key)
        if saved is not None:
            try:
                self.game = Game.from_record(rules, entry.level, saved.record)
                self.elapsed, self.hints, self.saved = saved.seconds, saved.hints, saved
                self.greeting = "Welcome back: your game is as you left it."
            except ValueError as exc:
                store.drop_game(entry.key)
                self.greeting = f"Your saved game no longer fits this level ({exc}); starting afresh."

    # ----- the clock ---------------------------------------------------------
    @property
    def seconds(self) -> float:
        running = self.clock() - self.resumed if self.resumed is not None else 0.0
        return self.elapsed + running

    @property
    def clock_running(self) -> bool:
        return self.resumed is not None

    def start_clock(self) -> None:
        self.resumed = self.clock()

    def pause_clock(self) -> None:
        self.elapsed = self.seconds
        self.resumed = None

    def retry(self) -> None:
        """From the start again, as a new try: no time spent, no hints asked."""
        self.game.restart()
        self.elapsed, self.hints = 0.0, 0
        self.start_clock()

    # ----- what is kept -------------------------------------------------------
    def save(self, plans: Iterable[tuple | None] = ()) -> None:
        """Keep an unfinished game on disk, with `plans`: the proven plans on from where it
        stands by moves and by pushes (None: not known); forget a finished or untouched one."""
        game, key = self.game, self.entry.key
        if game.entries and not game.is_solved():
            texts = (None if plan is None else format_plan(game.rules, plan) for plan in plans)
            self.store.save_game(key, SavedGame(game.to_record(), self.seconds, self.hints, *texts, when=time.time()))
        else:
            self.store.drop_game(key)

    @property
    def assisted(self) -> bool:
        """Helped on this try: a move a hint or solve made on the line (game.assisted), or any
        hint asked (what the status line counts: a restart does not unsee a hint; a new try
        from the solved card does start afresh)."""
        return self.game.assisted or self.hints > 0

    def record_solve(self, metric: str, pushes: bool) -> tuple[int | None, bool]:
        """The game just solved goes into the level's record (by `metric`; with its pushes
        where the family counts them), its saved game is forgotten: (the best by `metric`
        before it, whether it is a new best)."""
        game, key = self.game, self.entry.key
        counters = game.counters
        best_before = self.store.level(key).best_by(metric)
        new_best = self.store.record_solve(key, counters.moves, counters.pushes if pushes else None,
                                           self.assisted, self.solution_text, metric)
        self.store.drop_game(key, finished=True)
        return best_before, new_best

    @property
    def solution_text(self) -> str:
        """The moves played from the start, as text (what `c` copies and the record keeps)."""
        return format_plan(self.game.rules, self.game.line_moves)

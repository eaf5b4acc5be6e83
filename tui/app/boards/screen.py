"""The board screen: one level in play, the keys every family shares, saving, the solved card.

The level in play is a `Visit` (tui/services/visit.py: the game, hints asked, time spent,
its saved game); the family's board widget draws the game and hands the screen the moves
the player picks. Hints, solve, the meter, the deadlock watch and the par are the
thinker's (app/boards/thinking.py), an invisible widget of this screen: the keys here
call it, and it tells back by messages (handled under "the thinker's news"). What it
may read and call of the screen is `BoardHost` (app/boards/host.py): `game`, `entry`,
`store`, `board`, `metric`, and `play`.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header

from fewest.engine.base import IllegalMoveError, InvalidMoveError, format_plan
from fewest.engine.game import EntryKind, Game
from fewest.levels.base import LevelEntry, LevelFormatError
from fewest.tui.app.boards.base import BoardView
from fewest.tui.app.boards.thinking import Thinker
from fewest.tui.app.ending import ending
from fewest.tui.app.keys_footer import KeysFooter
from fewest.tui.app.frontends import board_class, family_title
from fewest.tui.app.status_bar import MessageLine, StatusBar, StatusFacts
from fewest.solvers.common.control import Control
from fewest.tui.services.catalog import chosen_metric, par_bound, par_of, reread
from fewest.tui.services.generated import (
    Recipe, daily_share, generated_entry, keep_more, kept_like, next_recipe, recipe_of,
)
from fewest.tui.services.known_plans import solving_plan
from fewest.tui.services.moves_text import copied_note, pasted_plan
from fewest.tui.services.pars import keep_proven_par
from fewest.tui.services.progress import ProgressStore
from fewest.tui.services.visit import Visit

SAVE_AFTER = 1.0  # seconds after the last change that an unfinished game is written (a crash loses no more)


class BoardScreen(Screen[int]):
    BINDINGS = [
        Binding("h", "hint", "Hint", id="hint",
                tooltip="Hint: how many moves remain, then the next move, then play it"),
        Binding("S", "solve", "Solve", id="solve",
                tooltip="Solve: play the shortest remaining plan, move by move (esc stops)"),
        Binding("u,z,ctrl+z,backspace", "undo", "Undo", id="undo", tooltip="Undo a move"),
        Binding("y,ctrl+y", "redo", "Redo", id="redo", show=False, tooltip="Redo a move"),
        Binding("r", "restart", "Restart", id="restart", tooltip="Restart (undo brings the moves back)"),
        Binding("n", "next_level", "Next", id="next-level", show=False, tooltip="Next level"),
        Binding("p", "previous_level", "Prev", id="previous-level", show=False,
                tooltip="Previous level"),
        Binding("b", "replay_best", "Best", id="replay-best", show=False,
                tooltip="Replay your best solution from the start (esc stops; undo brings your moves back)"),
        Binding("c", "copy_moves", "Copy", id="copy-moves", show=False,
                tooltip="Copy your moves from the start, as text, to the clipboard (if the terminal allows)"),
        Binding("m", "meter", "Meter", id="meter", show=False,
                tooltip="Meter: show the exact moves to go, live"),
        Binding("M", "metric", "Metric", id="metric", show=False,
                tooltip="Metric: hints, solve, par and best by the fewest moves, or by the fewest pushes (then moves)"),
        Binding("N", "more_like_this", "More", id="more-like-this", show=False,
                tooltip="More like this: a new generated level with the same settings (generated levels only)"),
        Binding("question_mark", "help", "Help", id="help", tooltip="This help"),
        Binding("escape", "cancel_or_back", "Cancel", id="cancel", show=False,
                tooltip="Stop a search or a solve, else hide the hint, else the message (q leaves)"),
        Binding("q", "back", "Back", id="back", tooltip="Back to the levels"),
    ]

    def __init__(self, entries: Sequence[LevelEntry], index: int, store: ProgressStore,
                 pack_title: str = "") -> None:
        super().__init__()
        self.entries = list(entries)
        self.index = index
        self.store = store
        store.adopt(self.entries)  # (a file opened with `fewest play`, kept by places before)
        self.pack_title = pack_title
        self._board: BoardView | None = None
        self._save_timer: Timer | None = None
        self._frame = 0  # the spinner's
        self.thinker = Thinker(self, id="thinker")
        self._open(index)

    # ----- opening and leaving a level ----------------------------------
    @property
    def entry(self) -> LevelEntry:
        return self.entries[self.index]

    @property
    def game(self) -> Game:
        """The position and its history (the visit's)."""
        return self.visit.game

    @property
    def hints(self) -> int:
        """Hints asked on this level (counted in its saved game)."""
        return self.visit.hints

    @property
    def metric(self) -> str:
        """What hints, solve, par and best go by here: the player's choice where the family has it."""
        return chosen_metric(self.entry.family, self.store)

    @property
    def board(self) -> BoardView:
        assert self._board is not None, "the board is made in compose"
        return self._board

    def _open(self, index: int) -> None:
        self.index = index
        self.visit = Visit(self.entry, self.store, lambda: self.app.clock())
        if self.is_mounted:
            self.visit.start_clock()
        self.thinker.reset()  # (the level's plan books: they hold for the level's rules and board)
        self.unsolvable = False  # (proven by the solver, for the level shown: not yet)
        self.solved_before = self.game.is_solved()
        self.message = self.visit.greeting

    def save_game(self) -> None:
        """Keep an unfinished game on disk, with the proven plans on from here by each metric
        if known (a hint there may have taken a minute); forget a finished or untouched one."""
        # (traffic's car just moved may go on for free: its hint also needs the positions that
        # move leads to, not kept, so it searches again, as its searches are quick)
        self.visit.save(self.thinker.proven_plan(metric) for metric in ("moves", "pushes"))

    def _switch(self, index: int) -> None:
        self._stop_thinking()
        self.save_game()
        self._open(index)
        self.visit.start_clock()
        board = self.board
        if board.FAMILY == self.entry.family:
            board.set_game(self.game)
        else:  # a list of levels of mixed families: swap the frontend
            board.remove()
            self.query_one("#board-area").mount(self._make_board())
        self._opened()

    def _make_board(self) -> BoardView:
        family = self.entry.family
        self._board = board_class(family)(self.game, ascii_only=self.app.ascii_only, on_pick=self.play_picked,
                                          on_select=self.thinker.stop_playing, id=f"board-{family}")
        return self._board

    def _opened(self) -> None:
        entry = self.entry
        self.title = f"{family_title(entry.family)}: {entry.display_title()}"
        # numbered as in the file and the level table (a level that did not read leaves a gap)
        last = max(len(self.entries), self.entries[-1].index)
        self.sub_title = f"{self.pack_title}  {entry.index}/{last}".strip()
        self.board.focus()
        self.thinker.level_opened(self.visit.saved)
        self._changed()

    # ----- Textual lifecycle --------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header(icon="")
        with Container(id="board-area"):
            yield self._make_board()
        yield MessageLine(id="message")
        yield StatusBar(id="status")
        yield KeysFooter(compact=True)
        yield self.thinker  # (draws nothing)

    def on_mount(self) -> None:
        if ending(self.app):  # (a Ctrl-C as it started: no board was made, no move played)
            return
        self.visit.start_clock()
        self.set_interval(0.1, self._tick)
        self._opened()

    def on_resize(self) -> None:
        # (a smaller terminal may hide the player: the board's area scrolls back to it)
        self.call_after_refresh(self.board.keep_in_view)

    def on_screen_suspend(self) -> None:
        self.visit.pause_clock()
        self.save_game()

    def on_screen_resume(self) -> None:
        if not self.visit.clock_running and not self.game.is_solved():
            self.visit.start_clock()

    def on_unmount(self) -> None:
        self.visit.pause_clock()
        self.save_game()

    # ----- after every change -------------------------------------------
    def _changed(self) -> None:
        game = self.game
        if self.thinker.forget_old_hint():
            self.board.hint_move = None
        self.board.show()
        self.query_one(MessageLine).show(self.message)
        self._show_status()
        self._refresh_keys()
        self.thinker.position_changed()
        solved = game.is_solved()
        if solved and not self.solved_before:
            self._celebrate()
        self.solved_before = solved
        self._save_soon()

    def _save_soon(self) -> None:
        """Write the game SAVE_AFTER after its first unsaved change: leaving the board is not
        the only save, since a killed process or a closed terminal never leaves it. (Not once
        the changes pause: moves without a break would then go unsaved as long as they came.)"""
        if self._save_timer is None:
            self._save_timer = self.set_timer(SAVE_AFTER, self._save_due)

    def _save_due(self) -> None:
        self._save_timer = None
        self.save_game()

    def say(self, text: str) -> None:
        """`text` on the message line (kept there until a move clears it)."""
        self.message = text
        self.query_one(MessageLine).show(text)

    def _refresh_keys(self) -> None:
        """Re-dim the footer's keys, only when one of them changed (the footer rebuilds itself)."""
        actions = ("hint", "solve", "undo", "redo", "restart", "cancel_or_back", "meter")
        states = tuple(self.check_action(a, ()) for a in actions)
        if states != getattr(self, "_key_states", None):
            self._key_states = states
            self.refresh_bindings()

    def _show_status(self) -> None:
        counters = self.game.counters
        record = self.store.level(self.entry.key)
        facts = StatusFacts(
            metric=self.metric,
            moves=counters.moves,
            pushes=counters.pushes if self.board.COUNTS_PUSHES else None,
            par=par_of(self.entry, self.store, self.metric),
            bound=par_bound(self.entry, self.store, self.metric),
            ascii_only=self.app.ascii_only,
            best=record.best_by(self.metric),
            hints=self.hints,
            seconds=self.visit.seconds if self.app.show_timer else None,
            unsolvable=self.unsolvable,
        )
        self.query_one(StatusBar).show(facts, self.thinker.activity(self._frame))

    def _tick(self) -> None:
        self._frame += 1
        self._show_status()

    # ----- playing moves -------------------------------------------------
    def play_picked(self, move: Any) -> None:
        """A move the player chose on the board (a key or a click)."""
        self.thinker.stop_playing()  # any key stops a solution playing
        try:
            self.game.rules.apply(self.game.level, self.game.state, move)
        except (IllegalMoveError, InvalidMoveError) as exc:
            self.say(str(exc))  # a bump into a wall: the position stands, so does a search for it
            return
        self._stop_thinking()
        self.thinker.cancel_preparing()  # the player is busy: leave them the CPU
        # the move a hint showed counts as the hint's, played by hand (the level is assisted)
        self.play(move, EntryKind.HINT if move == self.board.hint_move else EntryKind.MOVE)

    def on_board_view_said(self, message: BoardView.Said) -> None:
        message.stop()
        self.say(message.text)

    def play(self, move: Any, kind: EntryKind) -> bool:
        """Play `move` now, as an entry of `kind` (the player's, a hint's, a solve's): False,
        and why on the message line, if the rules refuse it. The board's picks come here
        (through play_picked) and so do the moves of the thinker's hints and plans."""
        try:
            self.game.play(move, kind)
        except (IllegalMoveError, InvalidMoveError) as exc:
            self.say(str(exc))
            return False
        self.message = ""
        if not self.visit.clock_running and not self.game.is_solved():
            self.visit.start_clock()
        self._changed()
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if getattr(self, "visit", None) is None:
            return True
        game, playing = self.game, self.thinker.playing
        enabled = {
            "hint": not game.is_solved(),
            "solve": not game.is_solved() and not playing,
            "undo": game.can_undo,
            "redo": game.can_redo,
            "restart": game.state != game.start,
            "replay_best": self.store.level(self.entry.key).best_plan_by(self.metric) is not None and not playing,
            "cancel_or_back": True,  # (escape stops a search or a solve, else dismisses)
        }
        if action == "meter":
            return self._board is not None and self._board.METER
        if action == "metric":
            return len(self.thinker.books) > 1
        return enabled.get(action, True) or None

    # ----- the thinker's keys ---------------------------------------------
    def action_hint(self) -> None:
        back = self.thinker.undos_told()
        if back:  # (h again, once told the way out of a dead position, takes it)
            self._go(lambda: self._take_back(back),
                     f"Took back {back} move{'s' if back != 1 else ''}: the level can be solved from here"
                     f" (redo brings {'it' if back == 1 else 'them'} back).")
            return
        if self.thinker.hint():  # (an h that tells nothing new is not counted)
            self.visit.hints += 1
            self._show_status()

    def action_solve(self) -> None:
        self.thinker.solve()

    def action_meter(self) -> None:
        self.thinker.toggle_meter()
        self._show_status()

    def action_metric(self) -> None:
        """Hints and solve by the other metric (Sokoban: fewest moves or fewest pushes),
        for every level from now on; a search for the one before stops."""
        metrics = list(self.thinker.books)
        if len(metrics) < 2:
            return
        chosen = metrics[(metrics.index(self.metric) + 1) % len(metrics)]
        self._stop_thinking()
        self.store.set_setting("metric", chosen)
        self.thinker.metric_changed()  # (the par by this metric, if not known)
        self.board.hint_move = None
        self.board.show()
        other = {"moves": "pushes", "pushes": "moves"}.get(chosen, "moves")
        self.say(f"Hints, solve, par and best now go by the fewest {chosen} (then {other}); M switches back.")
        self._show_status()

    def _stop_thinking(self) -> None:
        """Cancel a running search or a plan playing (escape, a new move, leaving)."""
        self.thinker.stop()
        self._refresh_keys()
        if self.is_mounted:
            self._show_status()  # the spinner goes at once, not at the next tick

    # ----- the thinker's news ---------------------------------------------
    def on_thinker_said(self, message: Thinker.Said) -> None:
        message.stop()
        self.say(message.text)

    def on_thinker_hint_shown(self, message: Thinker.HintShown) -> None:
        message.stop()
        if message.state != self.game.state:
            return  # (the player moved on meanwhile)
        self.board.hint_move = message.move
        self.board.show()
        self.say(message.text)

    def on_thinker_par_proven(self, message: Thinker.ParProven) -> None:
        """Keep the par the solver proved (or that the level has no solution); where the
        level's file said another, say so."""
        message.stop()
        if message.key != self.entry.key:
            return  # (proven for a level left since)
        if message.par is None:
            self.unsolvable = True
        plan = None if message.plan is None else format_plan(self.game.rules, message.plan)
        told = keep_proven_par(self.store, self.entry, message.metric, message.par, plan)
        if told is not None:
            self.say(told)
        self._show_status()

    def on_thinker_plan_found(self, message: Thinker.PlanFound) -> None:
        """Keep a solution a search found (not proven shortest) where no par is known by its
        metric, the shortest so: the next visit's hint answers with it at once and searches on
        from it, and the Par shows its count as a bound."""
        message.stop()
        if message.key != self.entry.key or par_of(self.entry, self.store, message.metric) is not None:
            return
        rules = self.game.rules
        tally = rules.tally(message.moves)
        counts = (tally.pushes, tally.moves) if message.metric == "pushes" else (tally.moves, tally.pushes)
        if self.store.remember_found(self.entry.key, message.metric, *counts, format_plan(rules, message.moves)):
            self._show_status()

    def on_thinker_activity_changed(self, message: Thinker.ActivityChanged) -> None:
        message.stop()
        self._refresh_keys()
        self._show_status()

    # ----- the player's other keys ------------------------------------------
    def action_undo(self) -> None:
        self._go(self.game.undo)

    def action_redo(self) -> None:
        self._go(self.game.redo)

    def action_restart(self) -> None:
        self._go(self.game.restart, "Restarted (undo brings your moves back).")

    def _take_back(self, count: int) -> bool:
        self.game.undo_to(count)
        return True

    def _go(self, through: Callable[[], bool], saying: str = "") -> None:
        """Undo, redo or restart (`through` the game: False if there was nothing to do)."""
        self._stop_thinking()
        if through():
            self.message = saying
            self._changed()

    def action_replay_best(self) -> None:
        """From the start, the moves of the player's best solve by the metric, played like a solution."""
        text = self.store.level(self.entry.key).best_plan_by(self.metric)
        if text is None or self.thinker.playing:
            return
        self._stop_thinking()
        plan = solving_plan(self.game.rules, self.game.level, text, self.game.start)
        if plan is None:
            self.say("Your saved solution does not solve this level as it is now.")
            return
        self.game.restart()
        self._changed()
        self.thinker.play_plan(plan, True, EntryKind.MOVE)

    def action_copy_moves(self) -> None:
        """The moves since the start, in the text `fewest solve` prints and save files keep
        (Sokoban: LURD), to the terminal's clipboard (OSC 52: some terminals ignore it)."""
        if not self.game.line_moves:
            self.say("No moves to copy yet: c copies your moves since the start.")
            return
        text = self.visit.solution_text
        self.app.copy_to_clipboard(text)
        self.say(copied_note(text, self.game.counters.moves))

    def on_paste(self, event: events.Paste) -> None:
        """Moves pasted as text: played from where the player stands, as their own moves,
        each undoable."""
        event.stop()
        if self.thinker.playing:
            return
        try:
            plan = pasted_plan(self.game.rules, self.game.level, self.game.state, event.text)
        except ValueError as exc:
            self.say(str(exc))
            return
        if plan:
            self._stop_thinking()
            count = "the pasted move" if len(plan) == 1 else f"the {len(plan)} pasted moves"
            self.thinker.play_plan(plan, True, EntryKind.MOVE, f"Playing {count}… (esc stops)", "pasted moves")

    # n, p and c are hidden keys, so a dimmed one would say nothing: each tells why it can't
    def action_next_level(self) -> None:
        if not self._step(1):
            self.say("This is the last level.")

    def action_previous_level(self) -> None:
        if not self._step(-1):
            self.say("This is the first level.")

    def _step(self, step: int) -> bool:
        """To the level `step` away (n, p, the solved card's Next); False past either end.
        Levels from a file on disk go by the file as it is now (catalog.reread)."""
        entries, here = reread(self.entries, self.index)
        if not 0 <= here + step < len(entries):
            return False
        self.entries = entries
        self._switch(here + step)
        return True

    def action_help(self) -> None:
        from fewest.tui.app.help_screen import HelpScreen

        self.app.push_screen(HelpScreen(type(self.board), self))

    def action_back(self) -> None:
        """Back to the levels, telling the browser which level was played last."""
        self._stop_thinking()
        self.dismiss(self.index)

    def action_cancel_or_back(self) -> None:
        """Escape dismisses, one thing at a time: a search or a solve playing, the hint
        shown, the message; it never leaves the board (q does), as a player pressing it
        to dismiss a message would lose their place."""
        if self.thinker.busy or self.thinker.playing:
            self._stop_thinking()
            self.say("Cancelled.")
        elif self.board.hint_move is not None:
            self.board.hint_move = None
            self.board.show()
            self.say("")
        elif self.message:
            self.say("")
        else:
            self.say("Nothing to cancel: q goes back to the levels.")

    # ----- solved ----------------------------------------------------------
    def _celebrate(self) -> None:
        from fewest.tui.app.solved_screen import SolvedFacts, SolvedScreen

        visit, metric = self.visit, self.metric
        visit.pause_clock()
        self.thinker.stop_playing()
        known_before = par_bound(self.entry, self.store, metric)  # (the solve about to be kept counts after)
        best_before, new_best = visit.record_solve(metric, "pushes" in self.thinker.books)
        self.thinker.learn_best(visit.solution_text)
        counters = self.game.counters
        facts = SolvedFacts(
            metric=metric,
            moves=counters.moves,
            pushes=counters.pushes if self.board.COUNTS_PUSHES else None,
            par=par_of(self.entry, self.store, metric),
            known=known_before,
            best_before=best_before,
            new_best=new_best,
            assisted=visit.assisted,
            seconds=visit.seconds if self.app.show_timer else None,
            has_next=self.index + 1 < len(self.entries),
            share=daily_share(self.entry, counters.moves, par_of(self.entry, self.store)),
            more=recipe_of(self.entry) is not None,
        )
        self.app.push_screen(SolvedScreen(facts), self._after_solved)

    def _after_solved(self, choice: str | None) -> None:
        if choice == "next":
            self._step(1)
        elif choice == "retry":
            self.visit.retry()
            self.message = ""
            self._changed()
        elif choice == "back":
            self.action_back()
        elif choice == "more":
            self.action_more_like_this()

    # ----- more like this -------------------------------------------------
    def action_more_like_this(self) -> None:
        """A new level from the recipe of this generated one, the next number on (after those
        kept already), made in a thread, kept in the data directory (the browser's "More like
        this" shelves) and played next."""
        recipe = next_recipe(self.entry, [*self.entries, *kept_like(self.store.data_dir, self.entry)])
        if recipe is None:
            self.say("N makes more levels like a generated one (the Daily shelf, fewest generate); "
                     "this level was not generated.")
            return
        self.say(f"Making another {recipe.family} level like this one…")
        self.run_worker(lambda: self._make_more(recipe), thread=True, exclusive=True, group="more")

    def _make_more(self, recipe: Recipe) -> None:
        entry = generated_entry(recipe, Control(), source=f"<generated: {recipe.text()}>")
        try:
            entry, note = keep_more(self.store.data_dir, entry), ""
        except (OSError, LevelFormatError) as exc:
            note = f" Not kept: {exc}"
        self.app.call_from_thread(self._more_made, entry, note)

    def _more_made(self, entry: LevelEntry, note: str = "") -> None:
        self.entries.insert(self.index + 1, entry)
        if self.app.screen is not self:  # (the player left meanwhile: n finds it later)
            return
        self._switch(self.index + 1)
        self.say(f"New level: {entry.display_title()}, par {entry.par} (proven).{note}")

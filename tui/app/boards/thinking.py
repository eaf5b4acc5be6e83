"""The board's thinker: hints, solve, the live meter, the deadlock watch and the par, as an
invisible widget of the board screen (it draws nothing: the screen's lines show its news).

Searches run in this widget's thread workers, which poll their own cancellation
(`should_stop`), so the screen keeps answering keys while a solver works. Plans go into
the level's plan books (tui/services/hints.py), so following a hint never searches again.

How it and the board screen talk:
- the screen's key actions call its public methods (`hint`, `solve`, `play_plan`,
  `stop`, `toggle_meter`, ...), and the status line shows its `activity`;
- it reads the screen through `BoardHost` (app/boards/host.py: the game, level, store,
  board and metric) and plays a move through `BoardHost.play` at once, as the board
  does a pick (a key pressed next acts on the position after it);
- everything else it has to tell goes up as messages, which the screen handles:
  `Said` (the message line), `HintShown` (the next move, highlighted), `ParProven`
  (a par, or no solution, proven) and `ActivityChanged` (redraw the status and keys).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual import work
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.worker import Worker, WorkerState, get_current_worker

from fewest.engine.game import EntryKind
from fewest.levels.base import LevelEntry
from fewest.solvers import api
from fewest.solvers.common.control import Budget, Progress
from fewest.solvers.common.solution import Status
from fewest.tui.app.boards.host import BoardHost
from fewest.tui.app.status_bar import ASCII_SPINNER, SPINNER
from fewest.tui.services.budgets import HINT_BUDGET, LONGEST_HINT_SECONDS, METER_BUDGET
from fewest.tui.services.hints import (
    HintAnswer, PlanBook, count_text, deadlock_text, hint_for, hint_from_book, meter_reading,
    no_plan_text, undos_out_of_deadlock,
)
from fewest.tui.services.known_plans import recall_plans
from fewest.tui.services.level_summary import short_count
from fewest.tui.services.pars import file_par_text, learn_par, par_proven_by, par_unproven
from fewest.tui.services.progress import SavedGame

SPINNER_AFTER = 0.3  # seconds of thinking before the spinner shows


class Thinker(Widget):
    """Graduated hints (count, show, play), solve (animated, cancellable), the live meter,
    the deadlock watch, and the par learned as a level opens."""

    DEFAULT_CSS = "Thinker { display: none; }"

    class Said(Message):
        """A line for the message line (an answer, "Thinking…", a warning)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class HintShown(Message):
        """The second hint: `move`, the next of a shortest plan from `state`, to highlight,
        with `text` saying it."""

        def __init__(self, state: Any, move: Any, text: str) -> None:
            super().__init__()
            self.state, self.move, self.text = state, move, text

    class ParProven(Message):
        """The solver proved level `key`'s par by `metric`, with the plan to keep with it (None:
        not kept); `par` None: proven to have no solution."""

        def __init__(self, key: str, metric: str, par: int | None, plan: Any = None) -> None:
            super().__init__()
            self.key, self.metric, self.par, self.plan = key, metric, par, plan

    class PlanFound(Message):
        """A search found a plan not proven shortest where level `key` was played: `moves`,
        the moves from the start that led there and then that plan, solve the level (the
        screen keeps the shortest by `metric` where no par is known)."""

        def __init__(self, key: str, metric: str, moves: list) -> None:
            super().__init__()
            self.key, self.metric, self.moves = key, metric, moves

    class PlanSoFar(Message):
        """The running search found a plan not proven shortest (its `answer`, with its stage),
        and goes on (posted from the search's thread: the thinker itself handles it)."""

        def __init__(self, answer: HintAnswer) -> None:
            super().__init__()
            self.answer = answer

    class ActivityChanged(Message):
        """A search, a plan playing or the meter started, ended or changed: the status line
        and the keys that depend on them are out of date."""

    def __init__(self, host: BoardHost, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.host = host
        self.books: dict[str, PlanBook] = {}  # the level's plans, by metric
        self.meter_on = False  # (for every level, until m again)
        self.meter_value: int | None = None
        self.answer: HintAnswer | None = None  # the latest hint's answer (about some position)
        self.hint_stage = 0  # 1 counts, 2 shows the next move, 3 plays it
        self.hint_state: Any = None  # the position the hint stage is about
        self._busy_since: float | None = None  # a hint/solve search has been running since then
        self._want = ""  # what the running search is for: "hint" or "solve"
        self._progress: Progress | None = None  # latest from the worker thread (read by the UI timer)
        self._playing: list = []  # the rest of a plan being played
        self._playing_label = "solving"
        self._playing_proven = True  # the plan being played was proven shortest
        self._playing_kind = EntryKind.SOLVE  # (MOVE: the player's own, replayed or pasted)
        self._solve_timer: Timer | None = None
        self._dead_known: dict[Any, bool] = {}  # position -> the cheap deadlock tests' verdict
        self._budgets: dict[Any, Budget] = {}  # position -> the budget of its last hint search, if not the usual

    # ----- what the screen asks -------------------------------------------
    def reset(self) -> None:
        """A new level (the host's game and entry are its): nothing known, nothing hinted."""
        game, entry = self.host.game, self.host.entry
        # (a plan book per metric: a plan of the fewest moves need not be one of the fewest pushes)
        self.books = {metric: PlanBook(game.rules, entry.level, metric) for metric in api.metrics(entry.family)}
        self.hint_stage = 0
        self.hint_state = None
        self.answer = None
        self._budgets = {}
        self.meter_value = None
        self._playing = []
        self._playing_proven = True
        self._playing_kind = EntryKind.SOLVE
        self._dead_known = {}

    def level_opened(self, resumed: SavedGame | None) -> None:
        """The level is on screen: the plans known from before go into the books (`resumed`:
        the saved game it resumes, with the plans kept from where it stands), and the
        solver warms up and learns the par if not known."""
        host = self.host
        recall_plans(self.books, host.entry, host.store.level(host.entry.key), resumed, host.game.state)
        self._prepare_level()

    def learn_best(self, text: str) -> None:
        """The level was just solved (as `text`) and recorded: where that is the player's best
        by a book's metric, unassisted, the book keeps it aside (for a hint after undos)."""
        host = self.host
        game, record = host.game, host.store.level(host.entry.key)
        for book in self.books.values():
            if not game.assisted and record.best_plan_by(book.metric) == text:
                book.learn_saved(game.start, game.line_moves, "your best solution")

    @property
    def book(self) -> PlanBook:
        """The plans known for this level under the metric chosen."""
        return self.books[self.host.metric]

    def proven_plan(self, metric: str) -> tuple | None:
        """The proven-shortest plan by `metric` from where the player stands, if known."""
        book = self.books.get(metric)
        return None if book is None else book.get(self.host.game.state)

    @property
    def busy(self) -> bool:
        """Is a hint or solve search running?"""
        return self._busy_since is not None

    @property
    def playing(self) -> bool:
        """Is a plan being played, a move at a time?"""
        return bool(self._playing)

    def activity(self, frame: int) -> str:
        """What the status line's right side says: the spinner (at `frame`) of a search, a plan
        playing, or the meter."""
        if self._busy_since is not None and self.app.clock() - self._busy_since >= SPINNER_AFTER:
            frames = ASCII_SPINNER if self.app.ascii_only else SPINNER
            spin = frames[frame % len(frames)]
            p = self._progress
            detail = f" {short_count(p.expanded)} nodes" + (f", bound {p.bound}" if p.bound else "") if p else ""
            known = self.answer
            if self._is_current(known) and known.stage is not None and known.plan is not None:
                detail += f", plan {known.moves_to_go} {known.stage}"  # (the stage the hint is at)
            return f"{spin} thinking{detail}  (esc cancels)"
        if self._playing:
            to_go = self.host.game.rules.tally(self._playing).moves  # (as the counter counts them)
            return f"{self._playing_label}: {to_go} to go  (esc stops)"
        if self.meter_on:
            return f"To go: {'?' if self.meter_value is None else self.meter_value}"
        return ""

    def toggle_meter(self) -> None:
        """m: the live meter of the exact moves to go, on or off."""
        self.meter_on = not self.meter_on
        self.meter_value = None
        if self.meter_on:
            self._start_meter()
        else:
            self.workers.cancel_group(self, "meter")

    def metric_changed(self) -> None:
        """Hints and solve now go by the host's other metric: what was told goes, and the
        par by this metric is learned if not known."""
        self.answer = None
        self.hint_stage = 0
        self._prepare_level()

    def forget_old_hint(self) -> bool:
        """After a change: True when the hint was about another position (its stages start
        again, and its highlighted move should go)."""
        if self.hint_state != self.host.game.state:
            self.hint_stage = 0
            return True
        return False

    def position_changed(self) -> None:
        """After a change: the meter measures again, the deadlock watch looks."""
        if self.meter_on:
            self._start_meter()
        self._watch_deadlock()

    def stop(self) -> None:
        """Cancel a running search and a plan playing (escape, a new move, leaving)."""
        self.workers.cancel_group(self, "hint")
        self._busy_since = None
        if self.answer is not None and self.answer.stage in ("found", "improved"):
            self.answer = replace(self.answer, stage=None)  # (no longer "still searching")
        self.stop_playing()

    def cancel_preparing(self) -> None:
        """Stop warming up and learning the par: the player is busy, leave them the CPU."""
        self.workers.cancel_group(self, "prepare")

    # ----- hints and solve -----------------------------------------------
    def hint(self) -> bool:
        """h: the next stage of the hint where the player stands (how many moves remain, then
        the next move, then play it). False when it tells nothing new (solved, or a
        position already told to have no plan): such an h does not count."""
        game = self.host.game
        if game.is_solved():
            self._say("Already solved.")
            return False
        if self._playing:
            self.stop()
        known = self.answer
        if self._is_current(known) and known.plan is None:
            longer = self._longer_budget(known)
            if longer is None:
                self._say(no_plan_text(known))  # no plan: asking again tells (and counts) nothing new
                return False
            self._budgets[known.state] = longer  # (a search that ran out of time: again, for longer)
            self.answer = None
        if self.hint_state != game.state:
            self.hint_stage = 0
            self.hint_state = game.state
        self.hint_stage = min(self.hint_stage + 1, 3)
        self._think("hint")
        return True

    def _longer_budget(self, answer: HintAnswer) -> Budget | None:
        """Where the hint's search at `answer`'s position ran out of time with no plan: the
        budget of a search there again, twice as long as the last (up to LONGEST_HINT_SECONDS;
        the memory as before: a minute's search on a big Sokoban level holds a tenth of it).
        None where a longer one would not help: the memory ran out, the position is dead, or
        the longest ran."""
        if answer.status is not Status.BUDGET or answer.reason != "time" or answer.dead:
            return None
        last = self._budgets.get(answer.state, HINT_BUDGET)
        if last.seconds is None or last.seconds >= LONGEST_HINT_SECONDS:
            return None
        return replace(last, seconds=min(LONGEST_HINT_SECONDS, 2 * last.seconds))

    def undos_told(self) -> int | None:
        """The undos a hint told lead back out of the dead position the player is in (what
        h takes back next), if it told."""
        known = self.answer
        if self._is_current(known) and known.plan is None and known.dead and known.undo_to_solvable:
            return known.undo_to_solvable
        return None

    def solve(self) -> None:
        """S: play the shortest remaining plan, a move at a time."""
        if self.host.game.is_solved() or self._playing:
            return
        self._think("solve")

    def _think(self, want: str) -> None:
        """Answer from the plan book, else start (or keep) a search for this position."""
        self._want = want
        host = self.host
        state = host.game.state
        if self._is_current(self.answer):
            self._answer(self.answer)
            return
        known = hint_from_book(self.book, state, self._last_move())
        if known is not None:
            self._answer(known)
            return
        if self._busy_since is not None:
            return  # already thinking about this position; the answer will honour `_want`
        self._busy_since = self.app.clock()
        self._progress = None
        budget = self._budgets.get(state, HINT_BUDGET)
        longer = "" if budget is HINT_BUDGET else f", for {_minutes(budget.seconds)} this time"
        self._say(f"Thinking{longer}… (esc cancels)")
        self.cancel_preparing()  # par can wait; the player can't
        self._search(host.entry.family, host.game.level, state, self._history(), self.book, self._last_move(),
                     budget)
        self.post_message(self.ActivityChanged())

    def _last_move(self) -> Any:
        """The move that led here since the last restart (what a plan's count may merge with)."""
        line = self.host.game.line_moves
        return line[-1] if line else None

    def _is_current(self, answer: HintAnswer | None) -> bool:
        """Is `answer` about where the player stands now, after the move just played?"""
        return (answer is not None and answer.state == self.host.game.state and answer.last == self._last_move()
                and answer.metric == self.host.metric)

    def _history(self) -> list:
        """The positions before the current one, oldest first (what undo goes back through)."""
        game = self.host.game
        return ([game.start] + [e.state for e in game.entries])[:-1]

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def _search(self, family: str, level: Any, state: Any, history: list, book: PlanBook, last: Any,
                budget: Budget) -> HintAnswer:
        worker = get_current_worker()
        return hint_for(family, level, state, history, book, lambda: worker.is_cancelled, self._note_progress,
                        budget, last=last, on_plan=lambda answer: self.post_message(self.PlanSoFar(answer)))

    def on_thinker_plan_so_far(self, message: PlanSoFar) -> None:
        """A plan found while the search goes on: the hint answers with it at once (h again and
        S use it, keys never waiting for the proof); a shorter one replaces it, and the
        count says so."""
        message.stop()
        answer = message.answer
        if self._busy_since is None or not self._is_current(answer):
            return  # (cancelled, or the player moved on: the book keeps it)
        told = self._is_current(self.answer)
        if not told:
            self._answer(answer)
            return
        self.answer = answer
        self._keep_found(answer)
        if self.hint_stage == 1 and self._want == "hint" and answer.plan:
            board = self.host.board
            pushes = self.host.game.rules.tally(answer.plan).pushes if board.COUNTS_PUSHES else None
            self._say(count_text(answer, pushes))
        self.post_message(self.ActivityChanged())

    def _note_progress(self, progress: Progress) -> None:
        self._progress = progress  # a plain attribute: the UI timer reads it, no cross-thread calls

    def _keep_found(self, answer: HintAnswer) -> None:
        """A plan a search found where the player stands, not proven shortest: after the moves
        that led here from the level's start, a solution of the level (the screen keeps the
        shortest; a known solution's rest, which a hint may answer with, is kept already)."""
        game = self.host.game
        if (answer.status is not Status.FOUND or not answer.plan or answer.origin is not None
                or answer.state != game.state or game.start != game.rules.initial_state(game.level)):
            return
        self.post_message(self.PlanFound(self.host.entry.key, answer.metric, [*game.line_moves, *answer.plan]))

    def _answer(self, answer: HintAnswer) -> None:
        self.answer = answer
        self._keep_found(answer)
        host = self.host
        rules, entry = host.game.rules, host.entry
        # (from the start with no move before it: back at the start after a traffic car went
        # and came back, that car may go on for free, and the count is not the par)
        at_start = answer.state == rules.initial_state(entry.level) and answer.last is None
        if at_start and answer.plan is not None:  # a hint from the start may prove the par
            par = par_proven_by(rules, answer.metric, answer.status, answer.plan, answer.at_least,
                                answer.moves_to_go)
            if par is not None:
                self.post_message(self.ParProven(entry.key, answer.metric, *par))
        if not self._is_current(answer):
            return
        if answer.dead or answer.plan is None:
            back, longer = self.undos_told(), self._longer_budget(answer)
            again = f"  (h again takes {'it' if back == 1 else 'them'} back)" if back else ""
            if longer is not None:
                again = f"  (h again searches for {_minutes(longer.seconds)})"
            self._say(no_plan_text(answer) + again)
            return
        if self._want == "solve":
            self.play_plan(list(answer.plan), answer.status is Status.OPTIMAL)
            return
        plan, board = answer.plan, host.board
        if not plan:
            self._say("Already solved.")
        elif self.hint_stage == 1:
            self._say(count_text(answer, rules.tally(plan).pushes if board.COUNTS_PUSHES else None))
        elif self.hint_stage == 2:
            text = f"Next: {board.describe(plan[0])}  (h again plays it)"
            self.post_message(self.HintShown(answer.state, plan[0], text))
        else:
            text = board.describe(plan[0])
            if host.play(plan[0], EntryKind.HINT):
                self._say(f"Played: {text}")

    def _say(self, text: str) -> None:
        self.post_message(self.Said(text))

    # ----- a plan played a move at a time ----------------------------------
    def play_plan(self, plan: list[Any], proven: bool, kind: EntryKind = EntryKind.SOLVE,
                  saying: str = "Replaying your best solution… (esc stops)",
                  label: str = "replaying your best") -> None:
        """Play `plan` a move at a time, each an entry of `kind` (SOLVE: the solver's; else
        the player's own, announced by `saying` and labelled `label` in the status bar)."""
        self._playing = plan
        self._playing_label = "solving" if kind is EntryKind.SOLVE else label
        self._playing_proven = proven
        self._playing_kind = kind
        delay = max(0.02, min(0.2, 8.0 / max(1, len(plan)))) * self.app.animation_speed
        if kind is not EntryKind.SOLVE:
            self._say(saying)
        else:
            self._say("Solving… (esc stops)" if proven else "Solving by a plan not proven shortest… (esc stops)")
        self._solve_timer = self.set_interval(delay, self._play_step)
        self.post_message(self.ActivityChanged())  # ("n to go" at once, not at the next tick)

    def _play_step(self) -> None:
        if not self._playing:
            self.stop_playing()
            return
        move = self._playing.pop(0)
        if not self.host.play(move, self._playing_kind) or not self._playing:
            self.stop_playing()
            if self.host.game.is_solved() and self._playing_kind is EntryKind.SOLVE:
                how = "" if self._playing_proven else ", by a plan not proven shortest"
                self._say(f"Solved by the solver{how}: every move is undoable.")

    def stop_playing(self) -> None:
        """Stop a plan playing (any key the player presses does), its moves played kept."""
        self._playing = []
        if self._solve_timer is not None:
            self._solve_timer.stop()
            self._solve_timer = None
            self.post_message(self.ActivityChanged())

    # ----- worker results --------------------------------------------------
    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker, state = event.worker, event.state
        if state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        game = self.host.game
        if worker.group == "hint":
            if worker.is_cancelled:
                return
            self._busy_since = None
            if state is WorkerState.ERROR:
                self._say(f"The solver failed: {worker.error}")
            else:
                result = worker.result
                early = self.answer is not None and self.answer.stage is not None and self._is_current(self.answer)
                if early and result.status is Status.OPTIMAL and self._is_current(result):
                    result = replace(result, stage="proven")  # (the count says the plan told is bettered or proven)
                self._answer(result)
        elif worker.group == "deadlock" and state is WorkerState.SUCCESS:
            checked, back, blamed = worker.result
            answered = self._busy_since is not None or (self.answer is not None and self.answer.state == checked)
            if checked == game.state and back is not None:
                self.host.board.blamed = (checked, blamed)  # (the boxes at fault, marked)
                self.host.board.show()
                if not answered:  # (a hint says more)
                    self._say(deadlock_text(back, file_par_text(self.host.entry)))
        elif worker.group == "meter" and state is WorkerState.SUCCESS:
            measured, value = worker.result
            if measured == game.state:
                self.meter_value = value
        elif worker.group == "prepare" and state is WorkerState.SUCCESS and worker.result:
            self.post_message(self.ParProven(*worker.result))
        self.post_message(self.ActivityChanged())

    # ----- the deadlock watch, the meter, the par ---------------------------
    def _watch_deadlock(self) -> None:
        """After a change: warn at once if a push made the position certainly unsolvable
        (cheap tests, in a worker: the first one builds the level's tables)."""
        host = self.host
        if not host.board.DEADLOCKS or self._playing:  # (a solver's plan never walks into one)
            return
        self._check_deadlock(host.entry.family, host.game.level, host.game.state, self._history(), self._dead_known)

    @work(thread=True, exclusive=True, group="deadlock", exit_on_error=False)
    def _check_deadlock(self, family: str, level: Any, state: Any, history: list, known: dict) -> tuple:
        worker = get_current_worker()
        back = undos_out_of_deadlock(family, level, state, history, known, lambda: worker.is_cancelled)
        return state, back, frozenset() if back is None else api.blamed(family, level, state)

    def _start_meter(self) -> None:
        game = self.host.game
        state, last = game.state, self._last_move()
        known = hint_from_book(self.book, state, last)
        if known is not None and known.status is Status.OPTIMAL and known.plan is not None:
            self.meter_value = known.moves_to_go
            return
        self.meter_value = None
        self._measure(self.host.entry.family, game.level, state, self.book, last)

    @work(thread=True, exclusive=True, group="meter", exit_on_error=False)
    def _measure(self, family: str, level: Any, state: Any, book: PlanBook, last: Any) -> tuple:
        worker = get_current_worker()
        return state, meter_reading(family, level, state, book, lambda: worker.is_cancelled, METER_BUDGET, last)

    def _prepare_level(self) -> None:
        host = self.host
        self._prepare(host.entry, self.book, par_unproven(host.entry, host.store, host.metric))

    @work(thread=True, exclusive=True, group="prepare", exit_on_error=False)
    def _prepare(self, entry: LevelEntry, book: PlanBook, need_par: bool) -> tuple | None:
        """Warm the solver's tables, then (cheaply, if possible) learn the par by the book's
        metric: (the level's key, the metric, the par or None for no solution, its plan)."""
        worker = get_current_worker()
        api.warm_up(entry.family, entry.level, should_stop=lambda: worker.is_cancelled)
        if not need_par or worker.is_cancelled or not self.app.learn_par:
            return None
        return learn_par(entry, book, lambda: worker.is_cancelled)


def _minutes(seconds: float | None) -> str:
    """A search's time as the hint line says it ("2 minutes")."""
    minutes = round((seconds or 0) / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"

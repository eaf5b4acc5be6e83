"""Hints, solve and the meter of the board screen: the solver work, kept apart from the keys.

Searches run in thread workers that poll their own cancellation (`should_stop`), so the
screen keeps answering keys while a solver works; results come back as worker events.
Plans go into the screen's PlanBook (proven ones, and apart those not proven shortest),
so following a hint never searches again.
A mixin of BoardScreen: it uses the screen's game, entry, book, store, board and `say`.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Sequence

from textual import work
from textual.worker import Worker, WorkerState, get_current_worker

from fewest.engine.base import format_plan, parse_plan, replay
from fewest.engine.game import EntryKind
from fewest.levels.base import LevelEntry
from fewest.levels.bundled import is_bundled
from fewest.solvers import api
from fewest.solvers.common.control import Progress
from fewest.solvers.common.solution import Status
from fewest.tui.services.level_summary import short_count
from fewest.tui.services.hints import (
    METER_BUDGET, PAR_BUDGET, SAVED_MOST, Analysis, PlanBook, analyse, distance, from_book,
    undos_out_of_deadlock,
)
from fewest.tui.services.catalog import file_par
from fewest.tui.app.status_bar import ASCII_SPINNER, SPINNER, by_metric

SPINNER_AFTER = 0.3  # seconds of thinking before the spinner shows


class Thinking:
    """Graduated hints (count, show, play), solve (animated, cancellable), the live meter, par."""

    _busy_since: float | None = None  # a hint/solve search has been running since then
    _want = ""  # what the running search is for: "hint" or "solve"
    _progress: Progress | None = None  # latest from the worker thread (read by the UI timer)
    _playing: list | tuple = ()  # the rest of a solve being animated
    _frame = 0  # spinner frame
    _solve_timer: Any = None
    meter_on = False
    meter_value: int | None = None

    def _thinking_reset(self) -> None:
        """A new level: nothing known, nothing hinted."""
        self.hint_stage = 0
        self.hint_state: Any = None
        self.analysis: Analysis | None = None
        self.meter_value = None
        self._playing = []
        self._playing_proven = True  # the plan being played was proven shortest
        self._playing_kind = EntryKind.SOLVE  # (MOVE: the player's own best, replayed)
        self._dead_known: dict[Any, bool] = {}  # position -> the cheap deadlock tests' verdict

    def _activity(self) -> str:
        if self._busy_since is not None and self.app.clock() - self._busy_since >= SPINNER_AFTER:
            frames = ASCII_SPINNER if self.app.ascii_only else SPINNER
            spin = frames[self._frame % len(frames)]
            p = self._progress
            detail = f" {short_count(p.expanded)} nodes" + (f", bound {p.bound}" if p.bound else "") if p else ""
            return f"{spin} thinking{detail}  (esc cancels)"
        if self._playing:
            to_go = self.game.rules.tally(self._playing).moves  # (as the counter counts them)
            return f"{self._playing_label}: {to_go} to go  (esc stops)"
        if self.meter_on:
            return f"To go: {'?' if self.meter_value is None else self.meter_value}"
        return ""

    def action_meter(self) -> None:
        self.meter_on = not self.meter_on
        self.meter_value = None
        if self.meter_on:
            self._start_meter()
        else:
            self.workers.cancel_group(self, "meter")
        self._show_status()

    def action_metric(self) -> None:
        """Hints and solve by the other metric (Sokoban: fewest moves or fewest pushes),
        for every level from now on; a search for the one before stops."""
        metrics = list(self.books)
        if len(metrics) < 2:
            return
        chosen = metrics[(metrics.index(self.metric) + 1) % len(metrics)]
        self._stop_thinking()
        self.store.set_setting("metric", chosen)
        self.analysis = None
        self.hint_stage = 0
        self.board.hint_move = None
        self.board.show()
        other = {"moves": "pushes", "pushes": "moves"}.get(chosen, "moves")
        self.say(f"Hints, solve, par and best now go by the fewest {chosen} (then {other}); M switches back.")
        self._prepare(self.entry, self.book, self.par_unproven())  # (the par by this metric, if not known)
        self._show_status()

    # ----- hints and solve -----------------------------------------------
    def action_hint(self) -> None:
        if self.game.is_solved():
            self.say("Already solved.")
            return
        if self._playing:
            self._stop_thinking()
        known = self.analysis
        if self._is_current(known) and known.plan is None:
            self.say(self._dead_text(known))  # no plan: asking again tells (and counts) nothing new
            return
        if self.hint_state != self.game.state:
            self.hint_stage = 0
            self.hint_state = self.game.state
        self.hint_stage = min(self.hint_stage + 1, 3)
        self.hints += 1
        self._think("hint")

    def action_solve(self) -> None:
        if self.game.is_solved() or self._playing:
            return
        self._think("solve")

    def _think(self, want: str) -> None:
        """Answer from the plan book, else start (or keep) a search for this position."""
        self._want = want
        state = self.game.state
        if self._is_current(self.analysis):
            self._answer(self.analysis)
            return
        known = from_book(self.book, state, self._last_move())
        if known is not None:
            self._answer(known)
            return
        if self._busy_since is not None:
            return  # already thinking about this position; the answer will honour `_want`
        self._busy_since = self.app.clock()
        self._progress = None
        self.say("Thinking… (esc cancels)")
        self.workers.cancel_group(self, "prepare")  # par can wait; the player can't
        self._analyse(self.entry.family, self.game.level, state, self._history(), self.book, self._last_move())
        self._refresh_keys()

    def _last_move(self) -> Any:
        """The move that led here since the last restart (what a plan's count may merge with)."""
        line = self.game.line_moves
        return line[-1] if line else None

    def _is_current(self, analysis: Analysis | None) -> bool:
        """Is `analysis` about where the player stands now, after the move just played?"""
        return (analysis is not None and analysis.state == self.game.state and analysis.last == self._last_move()
                and analysis.metric == self.metric)

    def _history(self) -> list:
        """The positions before the current one, oldest first (what undo goes back through)."""
        return ([self.game.start] + [e.state for e in self.game.entries])[:-1]

    @work(thread=True, exclusive=True, group="analyse", exit_on_error=False)
    def _analyse(self, family: str, level: Any, state: Any, history: list, book: PlanBook, last: Any) -> Analysis:
        worker = get_current_worker()
        return analyse(family, level, state, history, book,
                       lambda: worker.is_cancelled, self._note_progress, last=last)

    def _note_progress(self, progress: Progress) -> None:
        self._progress = progress  # a plain attribute: the UI timer reads it, no cross-thread calls

    def _answer(self, analysis: Analysis) -> None:
        self.analysis = analysis
        entry = self.entry
        # (from the start with no move before it: back at the start after a traffic car went
        # and came back, that car may go on for free, and the count is not the par)
        at_start = analysis.state == self.game.rules.initial_state(entry.level) and analysis.last is None
        if at_start and analysis.plan is not None:  # a hint from the start may prove the par
            par = self._par_proven(analysis.metric, analysis.status, analysis.plan, analysis.at_least,
                                   analysis.moves_to_go)
            if par is not None:
                self._proven_par(*par, analysis.metric)
        if not self._is_current(analysis):
            return
        if analysis.dead or analysis.plan is None:
            self.say(self._dead_text(analysis))
            return
        if self._want == "solve":
            self._play_plan(list(analysis.plan), analysis.status is Status.OPTIMAL)
            return
        plan, board = analysis.plan, self.board
        if not plan:
            self.say("Already solved.")
        elif self.hint_stage == 1:
            self.say(self._remaining_text(analysis))
        elif self.hint_stage == 2:
            board.hint_move = plan[0]
            board.show()
            self.say(f"Next: {board.describe(plan[0])}  (h again plays it)")
        else:
            text = board.describe(plan[0])
            if self._play(plan[0], EntryKind.HINT):
                self.say(f"Played: {text}")

    def _remaining_text(self, analysis: Analysis) -> str:
        n = analysis.moves_to_go
        moves = f"{n} move{'s' if n != 1 else ''}"
        if self.entry.family == "sokoban":
            pushes = self.game.rules.tally(analysis.plan or ()).pushes
            pushes_text = f"{pushes} push{'es' if pushes != 1 else ''}"
            # (the metric's count first: it is the one proven fewest)
            moves = f"{pushes_text} ({moves})" if analysis.metric == "pushes" else f"{moves} ({pushes_text})"
        unproven = ""
        if analysis.status is not Status.OPTIMAL:
            bound = "" if analysis.at_least is None else f"; at least {analysis.at_least}"
            whose = "" if analysis.origin is None else f"; {analysis.origin}"
            unproven = f" (not proven shortest{bound}{whose})"
        return f"{moves} to solve from here{unproven}.  (h again shows the next move)"

    def _dead_text(self, analysis: Analysis) -> str:
        if analysis.status in (Status.BUDGET, Status.CANCELLED):
            short = "time" if analysis.reason == "time" else "room"
            if analysis.at_least is not None:  # what the proof got to is still worth knowing
                return (f"No plan found: the search ran out of {short}"
                        f" (at least {analysis.at_least} {analysis.metric} from here).")
            return f"No plan found: the search ran out of {short}."
        back = analysis.undo_to_solvable
        if back:
            return f"Can't be solved from here — undo {back} move{'s' if back != 1 else ''} to get back."
        if not analysis.undo_told:
            return "Can't be solved from here; the search ran out before it found how many undos lead back."
        return "Can't be solved from here, nor from any earlier position: this level has no solution."

    def _play_plan(self, plan: list[Any], proven: bool, kind: EntryKind = EntryKind.SOLVE,
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
            self.say(saying)
        else:
            self.say("Solving… (esc stops)" if proven else "Solving by a plan not proven shortest… (esc stops)")
        self._solve_timer = self.set_interval(delay, self._animate_step)
        self._refresh_keys()
        self._show_status()  # "n to go" at once, not at the next tick

    def _animate_step(self) -> None:
        if not self._playing:
            self._stop_animation()
            return
        move = self._playing.pop(0)
        if not self._play(move, self._playing_kind) or not self._playing:
            self._stop_animation()
            if self.game.is_solved() and self._playing_kind is EntryKind.SOLVE:
                how = "" if self._playing_proven else ", by a plan not proven shortest"
                self.say(f"Solved by the solver{how}: every move is undoable.")

    def _stop_animation(self) -> None:
        self._playing = []
        animation = getattr(self, "_solve_timer", None)
        if animation is not None:
            animation.stop()
            self._solve_timer = None
        self._refresh_keys()

    def _stop_thinking(self) -> None:
        """Cancel a running search or animation (escape, a new move, leaving)."""
        self.workers.cancel_group(self, "analyse")
        self._busy_since = None
        self._stop_animation()
        if self.is_mounted:
            self._show_status()  # the spinner goes at once, not at the next tick

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker, state = event.worker, event.state
        if state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        if worker.group == "analyse":
            if worker.is_cancelled:
                return
            self._busy_since = None
            self._refresh_keys()
            if state is WorkerState.ERROR:
                self.say(f"The solver failed: {worker.error}")
            else:
                self._answer(worker.result)
        elif worker.group == "deadlock" and state is WorkerState.SUCCESS:
            checked, back = worker.result
            answered = self._busy_since is not None or (self.analysis is not None and self.analysis.state == checked)
            if checked == self.game.state and back is not None and not answered:  # (a hint says more)
                self.say(self._deadlock_text(back))
        elif worker.group == "meter" and state is WorkerState.SUCCESS:
            measured, value = worker.result
            if measured == self.game.state:
                self.meter_value = value
        elif worker.group == "prepare" and state is WorkerState.SUCCESS and worker.result:
            key, metric, par, plan = worker.result
            if key == self.entry.key:
                self._proven_par(par, plan, metric) if par is not None else self._proven_unsolvable()
        self._show_status()

    # ----- deadlock warning ------------------------------------------------
    def _watch_deadlock(self) -> None:
        """After a change: warn at once if a push made the position certainly unsolvable
        (cheap tests, in a worker: the first one builds the level's tables)."""
        if not self.board.DEADLOCKS or self._playing:  # (a solver's plan never walks into one)
            return
        self._check_deadlock(self.entry.family, self.game.level, self.game.state, self._history(), self._dead_known)

    @work(thread=True, exclusive=True, group="deadlock", exit_on_error=False)
    def _check_deadlock(self, family: str, level: Any, state: Any, history: list, known: dict) -> tuple:
        worker = get_current_worker()
        return state, undos_out_of_deadlock(family, level, state, history, known, lambda: worker.is_cancelled)

    def _deadlock_text(self, back: int) -> str:
        if back == 0:
            par = self._file_par_text()
            wrong = f" (its file's {par} is wrong)" if par is not None else ""
            return f"Deadlock: this level can't be solved, not even from its start{wrong}."
        moves = f"{back} move{'s' if back != 1 else ''}"
        return f"Deadlock: can't be solved from here. Undo {moves} to take back the push."

    def _par_proven(self, metric: str, status: Status, plan: Sequence[Any], at_least: int | None,
                    moves: int) -> tuple[int, Sequence[Any] | None] | None:
        """The par a plan from the start proves by `metric`, with the plan to keep with it
        (proven shortest: under pushes, its moves too), or None. `moves`: the plan's count
        as the move counter counts it. Under pushes, a plan whose pushes alone are proven
        fewest (`at_least`, when the moves' proof ran out) proves the par but is not kept."""
        if metric != "pushes":
            return (moves, plan) if status is Status.OPTIMAL else None
        pushes = self.game.rules.tally(plan).pushes
        if status is Status.OPTIMAL:
            return pushes, plan
        return (pushes, None) if status is Status.FOUND and at_least == pushes else None

    def _proven_par(self, par: int, plan: Sequence[Any] | None, metric: str = "moves") -> None:
        """Keep the par the solver proved by `metric`, with its plan; where the level's file
        said another, say so."""
        entry = self.entry
        said = file_par(entry, metric)
        told = said is not None and par != said and self.store.level(entry.key).par_by(metric) != par
        text = None if plan is None else format_plan(self.game.rules, plan)
        self.store.remember_par(entry.key, par, text, metric)
        if told:
            self.say(f"Par {by_metric(par, metric)}, proven by the solver: "
                     f"the level's file says {by_metric(said, metric)}.")

    def _proven_unsolvable(self) -> None:
        """No par at all: where the level's file gives one, it is wrong, and the board says so."""
        self.unsolvable = True
        par = self._file_par_text()
        if par is not None:
            self.say(f"This level has no solution, proven by the solver: the level's file says {par}.")

    def _file_par_text(self) -> str | None:
        """The par the level's file states ("par 12", else "par 7 pushes"), if any."""
        for metric in ("moves", "pushes"):
            said = file_par(self.entry, metric)
            if said is not None:
                return f"par {by_metric(said, metric)}"
        return None

    @work(thread=True, exclusive=True, group="prepare", exit_on_error=False)
    def _prepare(self, entry: LevelEntry, book: PlanBook, need_par: bool) -> tuple | None:
        """Warm the solver's tables, then (cheaply, if possible) learn the par by the book's
        metric: (the level's key, the metric, the par or None for no solution, its plan)."""
        worker = get_current_worker()
        api.warm_up(entry.family, entry.level, should_stop=lambda: worker.is_cancelled)
        if not need_par or worker.is_cancelled or not self.app.learn_par:
            return None
        solution = api.solve(entry.family, entry.level, metric=book.metric, budget=PAR_BUDGET,
                             should_stop=lambda: worker.is_cancelled)
        if solution.status is Status.UNSOLVABLE:
            return entry.key, book.metric, None, None
        par = self._par_proven(book.metric, solution.status, solution.moves, solution.at_least,
                               len(solution.moves))
        if par is None:
            return None
        if solution.status is Status.OPTIMAL:
            book.learn(book.rules.initial_state(entry.level), solution.moves)
        return entry.key, book.metric, *par

    def _recall_plans(self) -> None:
        """Put into each book the shortest plans known from an earlier visit or the level's
        file, so that a hint or solve there needs no search (on the hardest levels, a
        minute's): from the start, the one the solver proved with the par by the book's
        metric, else the player's own best (moves) or a solution saved in the file if it
        is as short (pushes: as few, with the fewest moves for them, in a bundled pack);
        from where a resumed game stands, the one kept with it. A plan that no longer
        solves the level (in its par, from the start) is passed over.
        The player's bests and the file's solutions, whatever their length, are kept aside
        in every book for positions on their way where a search finds no plan as short."""
        entry = self.entry
        record = self.store.level(entry.key)
        # (a user's file may state a par the solver has not proven: not one to trust here)
        par = record.par if record.par is not None else entry.par if is_bundled(entry) else None
        start = self.game.rules.initial_state(self.game.level)
        solving = cache(lambda text: self._solving_plan(text, start))  # (each text replayed once)
        for text in (record.par_plan, record.best_plan, *entry.solutions) if par is not None else ():
            plan = solving(text)
            if plan is not None and len(plan) == par:
                self.moves_book.learn(start, plan)
                break
        push_par = record.push_par if record.push_par is not None else entry.push_par if is_bundled(entry) else None
        if "pushes" in self.books and push_par is not None:
            # (the one kept with the par, proven with its moves too; in a bundled pack, of the
            # solutions saved with that many pushes, the one of the fewest moves is the solver's)
            trusted = (record.push_par_plan, *(entry.solutions if is_bundled(entry) else ()))
            plans = [plan for plan in map(solving, trusted)
                     if plan is not None and self.game.rules.tally(plan).pushes == push_par]
            if plans:
                self.books["pushes"].learn(start, min(plans, key=len))
        for texts, origin in (((record.best_plan, record.push_best_plan), "your best solution"),
                              (entry.solutions, "the level file's solution")):
            for text in texts:
                if text is None or len(text) > SAVED_MOST:  # (a letter a move at least)
                    continue
                plan = solving(text)
                if plan is not None:
                    for book in self.books.values():
                        book.learn_saved(start, plan, origin)
        for metric, book in self.books.items() if self._resumed_plans is not None else ():
            plan = self._solving_plan(self._resumed_plans.plan_by(metric), self.game.state)
            if plan is not None:
                book.learn(self.game.state, plan)

    def _solving_plan(self, text: str | None, state: Any) -> list | None:
        """The moves of `text` if they solve the level from `state`, else None."""
        if text is None:
            return None
        rules, level = self.game.rules, self.game.level
        try:
            plan = parse_plan(rules, text)
            return plan if rules.is_solved(level, replay(rules, level, plan, state)) else None
        except ValueError:  # (a move that does not parse or is not legal here)
            return None

    def _start_meter(self) -> None:
        state, last = self.game.state, self._last_move()
        known = from_book(self.book, state, last)
        if known is not None and known.status is Status.OPTIMAL and known.plan is not None:
            self.meter_value = known.moves_to_go
            return
        self.meter_value = None
        self._measure(self.entry.family, self.game.level, state, self.book, last)

    @work(thread=True, exclusive=True, group="meter", exit_on_error=False)
    def _measure(self, family: str, level: Any, state: Any, book: PlanBook, last: Any) -> tuple:
        worker = get_current_worker()
        return state, distance(family, level, state, book, lambda: worker.is_cancelled, METER_BUDGET, last)


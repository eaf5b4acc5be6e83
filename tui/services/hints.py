"""Hints: "what is the shortest way on from this position?" as plain functions, run in a
Textual thread worker by the board's thinker (tui/app/boards/thinking.py); no Textual here.

`hint_for` answers it, and when there is no way on, "how many undos back to a position
that can still be solved?". Plans are kept in a `PlanBook` (state -> remaining plan);
the tail of an optimal plan is optimal too, so following a hint costs no new search. So
are plans not proven shortest, apart: a search that ran out once would run out again one
move on. The texts the hint line shows are here too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, Sequence

from fewest.solvers import api
from fewest.solvers.common.control import Budget, Progress
from fewest.solvers.common.solution import Solution, Status
from fewest.tui.services.budgets import HINT_BUDGET


class PlanBook:
    """Remaining plans by state, for one level: proven-optimal ones, and apart from them
    plans not proven shortest with the lower bound the proof reached; and, kept aside, the
    solutions known to work (a level file's, the player's best) for where a search finds
    no plan as short. `metric`: what its plans are shortest by ("pushes": Sokoban's fewest
    pushes, then moves), as the searches it asks for are told."""

    def __init__(self, rules: Any, level: Any, metric: str = "moves") -> None:
        self.rules = rules
        self.level = level
        self.metric = metric
        self._plans: dict[Any, tuple] = {}
        self._found: dict[Any, tuple[tuple, int | None]] = {}  # state -> (plan, at least)
        # state -> (a solution, how many of its moves lead there, whose, the costs of its
        # tails): its rest is cut when asked for, as a copy per position would take memory
        # as the square of its length
        self._saved: dict[Any, tuple[tuple, int, str, list]] = {}

    def cost(self, plan: Sequence[Any]) -> Any:
        """What makes one plan shorter than another under the book's metric."""
        if self.metric != "pushes":
            return len(plan)
        tally = self.rules.tally(plan)
        return tally.pushes, tally.moves

    def _tail_costs(self, plan: Sequence[Any]) -> list:
        """The cost of each tail of `plan` (from its i-th move on), and of none last."""
        n = len(plan)
        if self.metric != "pushes":
            return list(range(n, -1, -1))
        costs, pushes = [(0, 0)], 0
        for i in range(n - 1, -1, -1):
            pushes += self.rules.tally(plan[i:i + 1]).pushes
            costs.append((pushes, n - i))
        return costs[::-1]

    def get(self, state: Any) -> tuple | None:
        """The proven-optimal plan from `state`, if known."""
        return self._plans.get(state)

    def known(self, state: Any) -> HintAnswer | None:
        """What the book says about `state`: a proven plan, else one not proven shortest."""
        plan = self._plans.get(state)
        if plan is not None:
            return HintAnswer(state, plan, metric=self.metric)
        found = self._found.get(state)
        if found is not None:
            return HintAnswer(state, found[0], Status.FOUND, at_least=found[1], metric=self.metric)
        return None

    def record(self, state: Any, solution: Solution) -> None:
        """Keep the plan a search found from `state`, proven optimal or not (none: nothing)."""
        if solution.status is Status.OPTIMAL:
            self.learn(state, solution.moves)
        elif solution.solved:
            self.learn_found(state, solution.moves, solution.at_least)

    def learn(self, state: Any, moves: Sequence[Any]) -> None:
        """Store an optimal plan and every tail of it (states along the way)."""
        moves = tuple(moves)
        for i, state in self._tails(state, moves):
            if state in self._plans and len(self._plans[state]) <= len(moves) - i:
                break  # already known from here on
            self._plans[state] = moves[i:]
            self._found.pop(state, None)

    def learn_found(self, state: Any, moves: Sequence[Any], at_least: int | None) -> None:
        """Store a plan not proven shortest and every tail of it. A move takes at most one
        off the fewest moves left, so each tail keeps the lower bound less its moves in."""
        moves = tuple(moves)
        costs = self._tail_costs(moves)
        for i, state in self._tails(state, moves):
            if state in self._plans:
                break  # proven from here on
            held = self._found.get(state)
            if held is not None and self.cost(held[0]) <= costs[i]:
                break
            least = None if at_least is None or at_least - i <= 0 else at_least - i
            self._found[state] = (moves[i:], least)

    def learn_saved(self, state: Any, moves: Sequence[Any], origin: str) -> None:
        """Keep a solution known to solve the level from `state` and every tail of it, the
        shortest at each position; `origin` says whose it is ("the level file's solution")."""
        moves = tuple(moves)
        costs = self._tail_costs(moves)
        for i, state in self._tails(state, moves):
            held = self._saved.get(state)
            if held is None or held[3][held[1]] > costs[i]:
                self._saved[state] = (moves, i, origin, costs)

    def saved(self, state: Any) -> tuple[tuple, str] | None:
        """The rest of a known solution from `state`, and whose it is; None if none passes."""
        held = self._saved.get(state)
        return None if held is None else (held[0][held[1]:], held[2])

    def _tails(self, state: Any, moves: tuple) -> Iterator[tuple[int, Any]]:
        """(i, the state after the first i moves), for i = 0 .. len(moves); the next state
        is made only when asked for."""
        for i in range(len(moves) + 1):
            yield i, state
            if i < len(moves):
                state = self.rules.apply(self.level, state, moves[i])


@dataclass(frozen=True)
class HintAnswer:
    """A hint's answer: what the hint line needs about one position."""

    state: Any
    plan: tuple | None = None  # a plan from `state`, when one is known (proven optimal when OPTIMAL)
    status: Status = Status.OPTIMAL
    dead: bool = False  # no plan exists from here (proven, or a known deadlock)
    undo_to_solvable: int | None = None  # undos back to the latest solvable position
    undo_told: bool = True  # False: a search ran out before it could tell undo_to_solvable
    at_least: int | None = None  # no proven plan: no plan from here has fewer moves (proven)
    reason: str | None = None  # why the search stopped short ("time", "memory", ...)
    last: Any = None  # the move played just before `state`, which the plan was chosen after
    to_go: int | None = None  # what the plan adds to the move counter, after `last`
    origin: str | None = None  # whose plan, when it is a known solution's rest, not the solver's
    metric: str = "moves"  # what the plan is shortest by (and at_least counts)
    # A plan told while the search goes on: "found" (the first), "improved" (a shorter one);
    # "proven": the search's proof, after such plans; None: the search's answer.
    stage: str | None = None

    @property
    def moves_to_go(self) -> int:
        """The moves the counter will show once the plan is played, less those shown now."""
        return self.to_go if self.to_go is not None else len(self.plan or ())


def free_followers(rules: Any, level: Any, state: Any, last: Any) -> list[tuple[Any, Any]]:
    """The moves from `state` that add nothing to the move counter right after `last`, each
    with the position it leads to. Traffic counts a run of one car's slides as one move, so
    a car just moved may go on for free; the other families count every move."""
    if last is None:
        return []
    return [(move, rules.apply(level, state, move)) for move in rules.legal_moves(level, state)
            if _to_go(rules, last, (move,)) == 0]


def _to_go(rules: Any, last: Any, plan: tuple | None) -> int | None:
    """What `plan` adds to the move counter played right after `last` (None: no plan)."""
    if plan is None:
        return None
    before = [] if last is None else [last]
    return rules.tally([*before, *plan]).moves - rules.tally(before).moves


def counted_after(book: PlanBook, here: HintAnswer, last: Any,
                  look: Callable[[Any], HintAnswer | None]) -> HintAnswer | None:
    """`here` counted as the move counter counts it after `last`, its plan the cheapest by that
    count: possibly a free move first (see free_followers), then the plan from there.
    `look(state)` tells a follower's answer; None from it (not known) makes this None."""
    rules = book.rules
    best = replace(here, last=last, to_go=_to_go(rules, last, here.plan))
    if best.to_go is None or here.status is not Status.OPTIMAL:
        return best
    for move, after in free_followers(rules, book.level, here.state, last):
        there = look(after)
        if there is None:
            return None
        if there.plan is None and there.status is Status.UNSOLVABLE:
            continue
        if there.status is not Status.OPTIMAL or there.plan is None:  # (a search that ran out)
            return replace(best, status=Status.FOUND, at_least=None)
        plan = (move, *there.plan)
        cost = _to_go(rules, last, plan)
        if cost is not None and best.to_go is not None and cost < best.to_go:
            best = replace(best, plan=plan, to_go=cost)
    return best


def hint_from_book(book: PlanBook, state: Any, last: Any) -> HintAnswer | None:
    """The hint for `state` after `last` when the book holds all it needs, else None."""
    here = book.known(state)
    return None if here is None else counted_after(book, here, last, book.known)


def _is_dead(family: str, level: Any, state: Any) -> bool:
    """The family's quick deadlock test, if it has one: True means certainly unsolvable."""
    return bool(api.is_dead(family, level, state))


def hint_for(
    family: str,
    level: Any,
    state: Any,
    history: Sequence[Any],
    book: PlanBook,
    should_stop: Callable[[], bool],
    on_progress: Callable[[Progress], None] | None = None,
    budget: Budget = HINT_BUDGET,
    last: Any = None,
    on_plan: Callable[[HintAnswer], None] | None = None,
) -> HintAnswer:
    """The hint for `state`: the shortest remaining plan from `state`, by the move counter after `last` (the move
    that led there, if any), under the book's metric; `history` holds the earlier
    positions, oldest first. `on_plan`: told each plan not proven shortest that the search
    finds before its proof (as the hint's answer, with its stage), each kept in the book."""
    metric = book.metric

    def teller(position: Any) -> Callable[[Solution, str], None] | None:
        if on_plan is None:
            return None

        def tell(solution: Solution, stage: str) -> None:
            book.learn_found(position, solution.moves, solution.at_least)
            early = HintAnswer(position, tuple(solution.moves), Status.FOUND, at_least=solution.at_least,
                               metric=metric, stage=stage)
            counted = counted_after(book, early, last, book.known)
            if counted is not None:
                on_plan(counted)

        return tell

    def here(position: Any, earlier: Sequence[Any]) -> HintAnswer:
        """The shortest plan from `position` as the solver counts it (every move one)."""
        known = book.known(position)
        if known is not None:
            return known
        if _is_dead(family, level, position):
            solution: Solution | None = None
        else:
            asked = position == state
            saved = book.saved(position)
            if asked and saved is not None and on_plan is not None:
                # (a known solution answers at once; the search goes on to shorten it)
                book.learn_found(position, saved[0], None)
                early = HintAnswer(position, saved[0], Status.FOUND, origin=saved[1], metric=metric, stage="found")
                counted = counted_after(book, early, last, book.known)
                if counted is not None:
                    on_plan(counted)
            solution = api.solve(family, level, position, metric=metric, budget=budget,
                                 should_stop=should_stop, on_progress=on_progress,
                                 on_plan=teller(position) if asked else None,
                                 near_plan=_near_plan(book, [*earlier, position]) if asked else None)
            book.record(position, solution)
            if solution.status is Status.OPTIMAL:
                return HintAnswer(position, tuple(solution.moves), metric=metric)
            if solution.status is not Status.UNSOLVABLE:
                plan = tuple(solution.moves) if solution.solved else None
                saved = book.saved(position)
                if saved is not None and solution.status is not Status.CANCELLED and (
                        plan is None or book.cost(saved[0]) < book.cost(plan)):
                    # (the proof ran out and found no shorter way: a solution known to work;
                    # not on a cancel, after which a hint asked again should search again)
                    book.learn_found(position, saved[0], solution.at_least)
                    return HintAnswer(position, saved[0], Status.FOUND, at_least=solution.at_least,
                                    reason=solution.stats.reason, origin=saved[1], metric=metric)
                return HintAnswer(position, plan, solution.status, at_least=solution.at_least,
                                reason=solution.stats.reason, metric=metric)
        back, told = undos_to_solvable(family, level, earlier, book, should_stop, on_progress, budget)
        return HintAnswer(position, None, Status.UNSOLVABLE, dead=True, undo_to_solvable=back, undo_told=told,
                        metric=metric)

    answer = counted_after(book, here(state, history), last, lambda after: here(after, ()))
    assert answer is not None  # (`here` always answers)
    return answer


def _near_plan(book: PlanBook, positions: Sequence[Any]) -> tuple[Any, tuple] | None:
    """The plan known from the latest of `positions` (oldest first: this one last, back to
    the level's start) that has one (that position, the plan): a player who stepped off a
    hint's plan, or played their own way from a known solution's start, is often near it.
    A search's plan, else the rest of a known solution (a level file's, the player's best):
    the search starts from it rather than from nothing. (Grigr 2001 #1, #15 and #40, two
    pushes of one's own 30% of the way along the saved plan, the plan near the start: from
    no plan in 20 s to one in 1 s; the latest five positions alone held none there.)"""
    for position in reversed(positions):
        known = book.known(position)
        if known is not None and known.plan:
            return position, known.plan
        saved = book.saved(position)
        if saved is not None and saved[0]:
            return position, saved[0]
    return None


def undos_out_of_deadlock(
    family: str,
    level: Any,
    state: Any,
    history: Sequence[Any],
    known: dict[Any, bool],
    should_stop: Callable[[], bool],
) -> int | None:
    """None when the cheap deadlock tests find nothing wrong with `state` (or were
    cancelled); else the undos that take back the push that caused it: back to the
    latest earlier position they find nothing wrong with (0: not even the start).
    `known` remembers each position's verdict, so moves made inside a deadlock stay cheap.
    """

    def dead(position: Any) -> bool:
        if position not in known:
            known[position] = _is_dead(family, level, position)
        return known[position]

    if not dead(state):
        return None
    for back, earlier in enumerate(reversed(history), 1):
        if should_stop():
            return None
        if not dead(earlier):
            return back
    return 0


def undos_to_solvable(
    family: str,
    level: Any,
    history: Sequence[Any],
    book: PlanBook,
    should_stop: Callable[[], bool],
    on_progress: Callable[[Progress], None] | None,
    budget: Budget,
) -> tuple[int | None, bool]:
    """(Undos back to the latest solvable earlier position, None when none is; told),
    told False when a search ran out or was cancelled before it could say."""
    for back, state in enumerate(reversed(history), 1):
        if book.known(state) is not None:
            return back, True
        if _is_dead(family, level, state):
            continue
        solution = api.solve(family, level, state, metric=book.metric, budget=budget,
                             should_stop=should_stop, on_progress=on_progress)
        book.record(state, solution)
        if solution.solved:  # (a plan not proven shortest still shows a way out from there)
            return back, True
        if solution.status is not Status.UNSOLVABLE:
            return None, False
    return None, True


def meter_reading(family: str, level: Any, state: Any, book: PlanBook,
                  should_stop: Callable[[], bool], budget: Budget, last: Any = None) -> int | None:
    """Exact moves to solved, as the counter counts them after `last`, for the live meter
    (None: unsolvable or too slow to know)."""

    def here(position: Any) -> HintAnswer:
        known = book.get(position)
        if known is not None:
            return HintAnswer(position, known)
        solution = api.solve(family, level, position, budget=budget, should_stop=should_stop)
        if solution.status is Status.OPTIMAL:
            book.learn(position, solution.moves)
            return HintAnswer(position, tuple(solution.moves))
        return HintAnswer(position, None, solution.status)

    answer = counted_after(book, here(state), last, here)
    if answer is None or answer.status is not Status.OPTIMAL:
        return None
    return answer.to_go


# ----- what the hint line says ----------------------------------------------------------

def count_text(answer: HintAnswer, pushes: int | None = None) -> str:
    """The first hint: the moves to go (and `pushes`, where the family counts them), and
    whether that is proven the fewest."""
    n = answer.moves_to_go
    moves = f"{n} move{'s' if n != 1 else ''}"
    if pushes is not None:
        pushes_text = f"{pushes} push{'es' if pushes != 1 else ''}"
        # (the metric's count first: it is the one proven fewest)
        moves = f"{pushes_text} ({moves})" if answer.metric == "pushes" else f"{moves} ({pushes_text})"
    unproven = " (proven shortest)" if answer.stage == "proven" else ""
    if answer.status is not Status.OPTIMAL:
        bound = "" if answer.at_least is None else f"; at least {answer.at_least}"
        whose = "" if answer.origin is None else f"; {answer.origin}"
        if answer.stage in ("found", "improved"):
            unproven = f" ({answer.stage}, not proven shortest{bound}{whose}; still searching)"
        else:
            unproven = f" (not proven shortest{bound}{whose})"
    return f"{moves} to solve from here{unproven}.  (h again shows the next move)"


def no_plan_text(answer: HintAnswer) -> str:
    """A hint with no plan: the search ran out, or the position is dead (and the undos back)."""
    if answer.status in (Status.BUDGET, Status.CANCELLED):
        short = "time" if answer.reason == "time" else "room"
        if answer.at_least is not None:  # what the proof got to is still worth knowing
            return (f"No plan found: the search ran out of {short}"
                    f" (at least {answer.at_least} {answer.metric} from here).")
        return f"No plan found: the search ran out of {short}."
    back = answer.undo_to_solvable
    if back:
        return f"Can't be solved from here — undo {back} move{'s' if back != 1 else ''} to get back."
    if not answer.undo_told:
        return "Can't be solved from here; the search ran out before it found how many undos lead back."
    return "Can't be solved from here, nor from any earlier position: this level has no solution."


def deadlock_text(back: int, file_par: str | None) -> str:
    """The deadlock watch's warning, `back` undos from the push that caused it (0: the level
    starts dead, and `file_par`, the par its file states ("par 12"), if any, is wrong)."""
    if back == 0:
        wrong = f" (its file's {file_par} is wrong)" if file_par is not None else ""
        return f"Deadlock: this level can't be solved, not even from its start{wrong}."
    moves = f"{back} move{'s' if back != 1 else ''}"
    return f"Deadlock: can't be solved from here. Undo {moves} to take back the push."

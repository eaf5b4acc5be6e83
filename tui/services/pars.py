"""A level's par as the solver proves it in play: which par a plan proves, learning it as
the level opens, keeping it, and what to say where the level's file said another
(plain Python, no Textual; the par as shown is catalog.par_of)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from fewest.levels.base import LevelEntry
from fewest.levels.bundled import is_bundled
from fewest.solvers import api
from fewest.solvers.common.solution import Status
from fewest.tui.services.budgets import PAR_BUDGET
from fewest.tui.services.catalog import file_par
from fewest.tui.services.hints import PlanBook
from fewest.tui.services.level_summary import by_metric
from fewest.tui.services.progress import ProgressStore


def file_par_text(entry: LevelEntry) -> str | None:
    """The par the level's file states, in words ("par 12", else "par 7 pushes"), if any."""
    for metric in ("moves", "pushes"):
        said = file_par(entry, metric)
        if said is not None:
            return f"par {by_metric(said, metric)}"
    return None


def par_unproven(entry: LevelEntry, store: ProgressStore, metric: str) -> bool:
    """Is there a par to learn by `metric`: none known, or a user's file says one the
    solver has not proven?"""
    if store.level(entry.key).par_by(metric) is not None:
        return False
    return file_par(entry, metric) is None or not is_bundled(entry)


def par_proven_by(rules: Any, metric: str, status: Status, plan: Sequence[Any], at_least: int | None,
                  moves: int) -> tuple[int, Sequence[Any] | None] | None:
    """The par a plan from the start proves by `metric`, with the plan to keep with it
    (proven shortest: under pushes, its moves too), or None. `moves`: the plan's count
    as the move counter counts it. Under pushes, a plan whose pushes alone are proven
    fewest (`at_least`, when the moves' proof ran out) proves the par but is not kept."""
    if metric != "pushes":
        return (moves, plan) if status is Status.OPTIMAL else None
    pushes = rules.tally(plan).pushes
    if status is Status.OPTIMAL:
        return pushes, plan
    return (pushes, None) if status is Status.FOUND and at_least == pushes else None


def learn_par(entry: LevelEntry, book: PlanBook, should_stop: Callable[[], bool]) -> tuple | None:
    """A short search for the par by the book's metric (the book keeps its plan): (the
    level's key, the metric, the par or None for no solution, the plan to keep with it),
    or None when the search proved nothing."""
    solution = api.solve(entry.family, entry.level, metric=book.metric, budget=PAR_BUDGET,
                         should_stop=should_stop)
    if solution.status is Status.UNSOLVABLE:
        return entry.key, book.metric, None, None
    par = par_proven_by(book.rules, book.metric, solution.status, solution.moves, solution.at_least,
                        len(solution.moves))
    if par is None:
        return None
    if solution.status is Status.OPTIMAL:
        book.learn(book.rules.initial_state(entry.level), solution.moves)
    return entry.key, book.metric, *par


def keep_proven_par(store: ProgressStore, entry: LevelEntry, metric: str, par: int | None,
                    plan: str | None) -> str | None:
    """Keep the par the solver proved by `metric` with its plan (`par` None: the level has
    no solution, which is not kept); the line to say where the level's file said another."""
    if par is None:
        said_text = file_par_text(entry)
        if said_text is None:
            return None
        return f"This level has no solution, proven by the solver: the level's file says {said_text}."
    said = file_par(entry, metric)
    told = said is not None and par != said and store.level(entry.key).par_by(metric) != par
    store.remember_par(entry.key, par, plan, metric)
    if not told:
        return None
    return f"Par {by_metric(par, metric)}, proven by the solver: the level's file says {by_metric(said, metric)}."

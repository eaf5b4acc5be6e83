"""Plans known before any search, put into a level's plan books as it opens (plain Python).

From the start: the one the solver proved with the par, the player's best or a solution
saved in the level's file when it is as short; from where a resumed game stands, the one
kept with it; and, kept aside for where a search finds no plan as short, the player's
bests, the plans searches found on earlier visits and the file's solutions, whatever
their length. Each is replayed first: a plan
that no longer solves the level is passed over.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from fewest.engine.base import parse_plan, replay
from fewest.engine.registry import rules_for
from fewest.levels.base import LevelEntry
from fewest.levels.bundled import is_bundled
from fewest.tui.services.hints import PlanBook
from fewest.tui.services.progress import LevelRecord, SavedGame

# The longest known solution kept for hints (a file's may be longer: its reader takes up
# to a million moves, which would take seconds to replay as the level opens). XSokoban's
# longest are under 2,000.
SAVED_MOST = 20_000


def solving_plan(rules: Any, level: Any, text: str | None, state: Any) -> list | None:
    """The moves of `text` if they solve the level from `state`, else None."""
    if text is None:
        return None
    try:
        plan = parse_plan(rules, text)
        return plan if rules.is_solved(level, replay(rules, level, plan, state)) else None
    except ValueError:  # (a move that does not parse or is not legal here)
        return None


def saved_start_plan(entry: LevelEntry) -> tuple[Any, list] | None:
    """(the level's start, the shortest solution saved in its file that solves it from
    there), or None: where `fewest solve` starts its search for a plan, so that a run out of
    time answers with that plan (or a shorter one near it) rather than with none."""
    rules = rules_for(entry.family)
    start = rules.initial_state(entry.level)
    plans = [solving_plan(rules, entry.level, text, start) for text in entry.solutions if len(text) <= SAVED_MOST]
    solving = [plan for plan in plans if plan is not None]
    return (start, min(solving, key=len)) if solving else None


def recall_plans(books: dict[str, PlanBook], entry: LevelEntry, record: LevelRecord,
                 resumed: SavedGame | None = None, here: Any = None) -> None:
    """Put into each book (by metric; "moves" always among them) the shortest plans known
    from an earlier visit or the level's file, so that a hint or solve there needs no
    search (on the hardest levels, a minute's): from the start, the one the solver proved
    with the par by the book's metric, else the player's own best (moves) or a solution
    saved in the file if it is as short (pushes: as few, with the fewest moves for them,
    in a bundled pack); from `here`, where a `resumed` game stands, the one kept with it.
    The player's bests, the plans a search found on earlier visits and the file's
    solutions, whatever their length, are kept aside in every book for positions on their
    way where a search finds no plan as short (and a hint there answers with one at once)."""
    moves_book = books["moves"]
    rules, level = moves_book.rules, moves_book.level
    # (a user's file may state a par the solver has not proven: not one to trust here)
    par = record.par if record.par is not None else entry.par if is_bundled(entry) else None
    start = rules.initial_state(level)
    solving = cache(lambda text: solving_plan(rules, level, text, start))  # (each text replayed once)
    for text in (record.par_plan, record.best_plan, *entry.solutions) if par is not None else ():
        plan = solving(text)
        if plan is not None and len(plan) == par:
            moves_book.learn(start, plan)
            break
    push_par = record.push_par if record.push_par is not None else entry.push_par if is_bundled(entry) else None
    if "pushes" in books and push_par is not None:
        # (the one kept with the par, proven with its moves too; in a bundled pack, of the
        # solutions saved with that many pushes, the one of the fewest moves is the solver's)
        trusted = (record.push_par_plan, *(entry.solutions if is_bundled(entry) else ()))
        plans = [plan for plan in map(solving, trusted)
                 if plan is not None and rules.tally(plan).pushes == push_par]
        if plans:
            books["pushes"].learn(start, min(plans, key=len))
    for texts, origin in (((record.best_plan, record.push_best_plan), "your best solution"),
                          ((record.found_plan, record.push_found_plan), "a plan found on an earlier visit"),
                          (entry.solutions, "the level file's solution")):
        for text in texts:
            if text is None or len(text) > SAVED_MOST:  # (a letter a move at least)
                continue
            plan = solving(text)
            if plan is not None:
                for book in books.values():
                    book.learn_saved(start, plan, origin)
    for metric, book in books.items() if resumed is not None else ():
        plan = solving_plan(rules, level, resumed.plan_by(metric), here)
        if plan is not None:
            book.learn(here, plan)

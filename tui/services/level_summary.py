"""Short texts about levels and counts, for `fewest check`, `fewest solve` and the app."""

from __future__ import annotations

import sys
from typing import Any


def _family(level: Any) -> str:
    return getattr(sys.modules[type(level).__module__], "NAME", "?")


def counted(number: int, one: str, many: str) -> str:
    """`1 box`, `3 boxes`: the number and the word for it."""
    return f"{number} {one if number == 1 else many}"


def by_metric(count: int | str, metric: str) -> str:
    """A par or best with its unit when it is not the moves ("7 pushes", "1 push"), bare
    when it is (as every family counts)."""
    return counted(count, "push", "pushes") if metric == "pushes" else str(count)


def par_text(par: int | None, bound: int | None, ascii_only: bool = False) -> int | str:
    """The Par as the status line and the browser show it: the par (a count, for by_metric's
    "1 push"); else the fewest of a solution known, which it cannot exceed ("≤656", "<=656"
    in ASCII); else "?"."""
    if par is not None:
        return par
    return "?" if bound is None else f"{'<=' if ascii_only else '≤'}{bound}"


def short_count(count: int) -> str:
    """A count in at most five characters or so: 9,999, 12,345, 678k, 3.7M."""
    if count < 100_000:
        return f"{count:,}"
    if count < 1_000_000:
        return f"{count // 1000}k"
    return f"{count / 1_000_000:.1f}M"


def _traffic(level: Any) -> str:
    kind, target = level.goal
    goal = f"exit {target}" if kind == "exit" else f"clear row {target}"
    return f"{level.n}x{level.n} traffic, {counted(len(level.cars), 'car', 'cars')}, {goal}"


# Each family's level in a few words (for `fewest check`: the command line, which has no boards)
_DESCRIBED = {
    "sokoban": lambda level: f"{level.width}x{level.height} sokoban, {counted(len(level.boxes), 'box', 'boxes')}",
    "traffic": _traffic,
    "rotation": lambda level: "rotation board",
    "shift": lambda level: (f"{level.rows}x{level.cols} shift,"
                            f" {counted(bin(level.start).count('1'), 'piece', 'pieces')}"),
    "password": lambda level: f"{level.rows}x{level.cols} password",
}


def describe(level: Any) -> str:
    """Size and contents in a few words, e.g. `7x9 sokoban, 3 boxes`."""
    family = _family(level)
    said = _DESCRIBED.get(family)
    return family if said is None else said(level)


def saved_solutions(entry: Any) -> str:
    """What `check` says of the solutions saved with a level (`, solution 97 moves`), each
    replayed: one that is not moves, breaks the rules or stops short of solved says so,
    with where, and one shorter than the file's par shows that par wrong."""
    from fewest.engine.base import parse_plan
    from fewest.engine.registry import rules_for

    rules, level = rules_for(entry.family), entry.level
    notes = [f", a saved solution is not moves ({why})" for why in entry.unread_solutions]
    for text in entry.solutions:
        state, done = rules.initial_state(level), 0
        try:
            plan = parse_plan(rules, text)
            for move in plan:
                state = rules.apply(level, state, move)
                done += 1
        except ValueError as exc:  # (a move that does not read, or the rules forbid)
            notes.append(f", a saved solution breaks off at its move {done + 1} ({exc})")
            continue
        length = counted(len(plan), "move", "moves")
        if not rules.is_solved(level, state):
            notes.append(f", a saved solution of {length} leaves it unsolved")
        elif entry.par is not None and len(plan) < entry.par:
            notes.append(f", solution {length} (under the par: the par is wrong)")
        else:
            notes.append(f", solution {length}")
    return "".join(notes)

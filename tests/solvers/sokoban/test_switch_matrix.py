"""One matrix: each of the Sokoban solver's internal switches on a chosen set of Microban
levels, where it changes the search. Under moves: the search from both ends first, the
push search alone, and the search from both ends in a child process beside the push
search. Under pushes: the push search, the pushes alone in a child beside it, the pull
table of either kind (dict, compact) built at the first expansion and grown in step, on a
time budget here or in a child, the goal rooms' bounds built whole at the first
expansion, and the tie-break (the fewest moves among plans of the fewest pushes) with its
pull table or without and with the rooms' bounds at once or as its questions grow.

Every plan is replayed through the engine: its counts are Microban's proven ones (under
pushes its moves are those of the proof with no switch turned, a search of its own).
The tests of what a switch does beyond that (fewer nodes with it, a child's life, the
table's entries) are in the switch's own file."""

import functools
import multiprocessing

import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control
from fewest.solvers.sokoban import solver
from fewest.solvers.sokoban.bounds import rooms as sokoban_rooms
from fewest.solvers.common.processes import spare_core
from fewest.solvers.sokoban.tuning import TUNING, SokobanTuning
from tests.sokoban_support import checked, children_made, microban, tuned
from tests.solvers.sokoban.test_pulls import use_kind, wait_for_the_child
from tests.solvers.sokoban.test_tie_break import tie_break

# Why each level is here (every switch is turned on each but #36, see ONLY_UNDER):
#   1: proven at once; 5, 23, 40: proven in fewer than 32 expansions, before the search
#      first looks at a child (these four: the tie-break's small cases, #40 mirrored)
#   7: 6 boxes, a mirror symmetry; 16: the moves search's longest of the first 20
#   11: from both ends, the states the sides meet on differ in pushes
#   34, 36: a pull table that overestimates shows there (#36: 20,000 expansions under pushes,
#      no proven moves count)
#   59: two goal rooms, the matching 6 to 24 short at the start (the tie-break's questions)
#   66: a mirror symmetry and a dead-end corridor; 77, 100: the tie-break's largest here
LEVELS = [1, 5, 7, 11, 16, 23, 34, 36, 40, 59, 66, 77, 100]
ONLY_UNDER = {36: ("pushes: the push search", "pushes: pull table")}  # (the switches, by name, a level is kept for)


@functools.cache
def fewest_pushes_then_moves(number: int) -> tuple[int, int]:
    """(pushes, moves) of the proof under pushes with no switch turned (no budget, no
    child), replayed; its pushes are the table's."""
    lvl, row = microban(number)[number - 1]
    moves, pushes = checked(lvl, solver.solve(lvl, S.initial_state(lvl), Control(), "pushes"))
    assert pushes == int(row["min_pushes"]), number
    return pushes, moves


def solved(
    number: int, metric: str, budget: dict | None = None, best_effort: bool = True, tuning: SokobanTuning = TUNING
) -> tuple[int, int]:
    """Microban `number` solved from its start, the plan replayed: (moves, pushes)."""
    lvl = microban(number)[number - 1][0]
    control = Control(Budget(**(budget or {})))
    return checked(
        lvl, solver.solve(lvl, S.initial_state(lvl), control, metric, best_effort=best_effort, tuning=tuning)
    )


# Each switch, turned with the monkeypatch: the level's (moves, pushes), and whether the
# switch took part in the solve (None: no question), which the cell checks but on the
# small levels that may be solved before it is reached (there it depends on what the
# process has built before: a table built anew looks at the control, and so at a child).
def both_ends_first(patch, number):
    met = []
    real = solver.meet_search
    patch.setattr(solver, "meet_search", lambda *args, **kwargs: met.append(real(*args, **kwargs)) or met[-1])
    return solved(number, "moves"), bool(met) and met[-1] is not None  # (its answer, not the push search's)


def push_search_alone(patch, number):
    patch.setattr(solver, "_meet_first", lambda *_, **__: None)
    return solved(number, "moves"), None


def child_beside(metric):
    def switch(patch, number):
        if not spare_core():
            pytest.skip("the searches go apart only with two cores")
        made = children_made(patch)
        # the child starts at the push search's first look
        at_once = tuned(beside={"apart_after": 0.0}, alone={"after_margin": -TUNING.pulls.apart_share})
        found = solved(number, metric, {"seconds": 30.0, "memory_bytes": 1 << 30}, best_effort=False, tuning=at_once)
        assert not multiprocessing.active_children()
        return found, any(child.started for child in made)

    return switch


def pushes_push_search(patch, number):
    # (the proof with no switch turned is the cells' expectation: solving it again here
    # would be the same search twice, its pushes checked against the table and its plan
    # replayed in `fewest_pushes_then_moves` already)
    return fewest_pushes_then_moves(number)[::-1], None


def pull_table(kind, budget, apart):
    def switch(patch, number):
        if apart and not spare_core():
            pytest.skip("the table is grown apart only with two cores")
        at_once = tuned(pulls={"after": 1, "apart_after": 1})  # built on the first expansion
        wait_for_the_child(patch, apart)
        table_class = use_kind(patch, kind)
        asked = []
        real_bound = table_class.bound
        patch.setattr(table_class, "bound", lambda self, *a: asked.append(1) or real_bound(self, *a))
        return solved(number, "pushes", budget, tuning=at_once), bool(asked)

    return switch


def rooms_at_once(patch, number):
    whole = tuned(push={"room_after": 1, "room_per_expansion": 10**9})
    asked = []
    real_bound = sokoban_rooms.RoomBound.bound
    patch.setattr(sokoban_rooms.RoomBound, "bound", lambda self, *a: asked.append(1) or real_bound(self, *a))
    return solved(number, "pushes", tuning=whole), bool(asked)


def tie_break_with(table, rooms):
    def switch(patch, number):
        pushes = fewest_pushes_then_moves(number)[0]  # (proven before the switch is turned)
        parts: dict = {"tie_break": {}}
        if not table:  # (every answer searched)
            parts["tie_break"]["table_share"] = 0.0
        if rooms:  # (whole before the first question; else once the questions made room_after expansions)
            parts["tie_break"]["room_after"] = 1
            parts["push"] = {"room_per_expansion": 10**9}
        pushes, moves = tie_break(microban(number)[number - 1][0], pushes, tuned(**parts), seconds=60)
        return (moves, pushes), None

    return switch


SMALL = {1, 5, 23, 40}  # (see LEVELS)
SWITCHES = {  # name: (metric, the switch)
    "moves: from both ends first": ("moves", both_ends_first),
    "moves: the push search alone": ("moves", push_search_alone),
    "moves: from both ends in a child beside": ("moves", child_beside("moves")),
    "pushes: the push search": ("pushes", pushes_push_search),
    "pushes: the pushes alone in a child beside": ("pushes", child_beside("pushes")),
    "pushes: goal rooms at once": ("pushes", rooms_at_once),
    **{
        f"pushes: pull table ({kind}{', ' + how if how else ''})": ("pushes", pull_table(kind, budget, apart))
        for kind in ("dict", "compact")
        for how, budget, apart in (("", {}, False), ("60 s here", {"seconds": 60.0}, False), ("60 s apart", {"seconds": 60.0}, True))
    },
    **{
        f"pushes: tie-break ({'pull table' if table else 'no pull table'}, rooms {'at once' if rooms else 'as it goes'})":
            ("pushes", tie_break_with(table, rooms))
        for table in (True, False)
        for rooms in (False, True)
    },
}
CELLS = [
    (switch, number)
    for switch, (metric, _) in SWITCHES.items()
    for number in LEVELS
    if (metric == "pushes" or microban(number)[number - 1][1]["min_moves"])
    and switch.startswith(ONLY_UNDER.get(number, ""))
]


@pytest.mark.parametrize("switch, number", CELLS)
def test_every_switch_keeps_the_proven_counts(switch, number, monkeypatch):
    metric, turn = SWITCHES[switch]
    row = microban(number)[number - 1][1]
    if metric == "pushes":
        expected = fewest_pushes_then_moves(number)[::-1]  # (before any switch is turned)
    else:
        expected = (int(row["min_moves"]), int(row["pushes_in_min_moves"]))
    found, took_part = turn(monkeypatch, number)
    assert found == expected
    assert took_part is not False or number in SMALL

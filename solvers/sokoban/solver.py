"""Sokoban's exact solver: fewest moves (ties: fewest pushes) or fewest pushes (ties: moves).

Under the moves metric a breadth-first search from both ends over single steps
(sokoban/searches/meet.py) settles crowded levels whose plans are mostly walking, which
the push search's bound (pushes only) climbs to very slowly. With a time budget
on a machine with a spare core, it runs in a child process beside the push
search, on part of the memory, and the first proof wins (sokoban/searches/apart.py);
otherwise it goes first, on part of the proof's time and memory, and when it
runs out the push search starts.
Under the pushes metric, when the proof of (pushes, moves) runs out, a proof of
the pushes alone (PI-corral pruning, sokoban/pruning/corrals.py) and then the fewest
moves among plans of those pushes (sokoban/searches/tie_break.py) give the answer,
proven another way; when that tie-break runs out, the plan of the pushes alone
comes back marked FOUND with its pushes proven fewest. With a time budget and
a spare core they run in a child process beside the first proof, from the
time the pull table's child is done (a proven answer from it stops the first
proof); otherwise they get the rest of the budget. A FOUND plan (that
one, or the weighted searches', the search backwards' (sokoban/searches/backward.py),
or on a goal-room level the packing search's, sokoban/plans/packing_order.py) has its
pushes reordered between boxes for the fewest moves that order allows
(sokoban/plans/interleave.py).

The push search runs over pushes (sokoban/searches/push.py) on a padded bitboard
(sokoban/board/board.py) with push-distance tables (sokoban/board/tables.py), a
box-to-goal matching bound (common/assignment.py), under moves the walking
the boxes' way forces (sokoban/bounds/walks.py), and pruning of certain
deadlocks only (sokoban/pruning/deadlock.py, sokoban/pruning/corral_probe.py). This module turns an
engine position into the search's terms and the optimal push sequence back
into engine moves: between pushes the player takes a shortest walk (ties by
"lurd" order). `fewest bench sokoban --set FILE` runs bench/sokoban_set.py.
"""

from __future__ import annotations

import os
import random
import time
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from typing import Callable, Iterator, Sequence

from fewest.engine import sokoban as rules
from fewest.engine.base import Counters
from fewest.engine.sokoban import Level, Move, State
from fewest.solvers.common.control import Check, Control, Progress, Stopped, no_check
from fewest.solvers.common.held_bytes import resident_bytes, tree_resident_bytes
from fewest.solvers.common.search import RulesProblem, astar
from fewest.solvers.common.solution import Solution, Status, stats_of, stopped_status
from fewest.solvers.sokoban.anytime.anytime import IMPROVED, anytime_plans
from fewest.solvers.sokoban.anytime.improve import Push, improvements
from fewest.solvers.sokoban.searches.apart import SearchApart
from fewest.solvers.sokoban.searches.backward import pulled_plan
from fewest.solvers.sokoban.board.board import DIRECTIONS, Board, compile_board
from fewest.solvers.sokoban.plans.interleave import shortest_interleaving
from fewest.solvers.sokoban.searches.meet import meet_search
from fewest.solvers.sokoban.plans.packing_order import packed_search, packing_orders
from fewest.solvers.sokoban.bounds.pairs import pair_bound
from fewest.solvers.common.processes import spare_core
from fewest.solvers.sokoban.bounds.rooms import room_bounds
from fewest.solvers.sokoban.searches.push import MAJOR, push_search
from fewest.solvers.sokoban.board.tables import Tables, build_tables
from fewest.solvers.sokoban.searches.tie_break import fewest_moves_of_fewest_pushes
from fewest.solvers.sokoban.tuning import TUNING, BesideTuning, SokobanTuning

METRICS = ("moves", "pushes")
WAIT_PAST = 0.1  # seconds past its end a child's word is waited for at most


def solve(
    level: Level, state: State, control: Control, metric: str = "moves", *, best_effort: bool = True,
    tuning: SokobanTuning = TUNING,
) -> Solution:
    """A proven-optimal plan from `state` under `metric` ("moves" or "pushes").

    With `best_effort`, a share of the time and node budgets (the tuning's best_effort.share,
    a tenth) is kept back: when the proof runs out, it goes to two weighted searches
    (_best_effort), and a plan found so comes back as FOUND, not proven shortest (the
    stats keep the lower bound the proof reached). `tuning`: the knobs of every search,
    passed down to each.
    """
    if metric not in METRICS:
        raise ValueError(f"sokoban has no metric {metric!r} (choose from {', '.join(METRICS)})")
    with control.metered():  # (the solve's own: its searches' reports come to it; see _at_least)
        board = compile_board(level)
        try:
            tables = build_tables(board, check=control.check)  # (seconds, on the largest boards)
        except Stopped as stop:
            return Solution(stopped_status(stop.reason), (), _stats(control, stop.reason))
        process = control.budget.process_bytes
        if process is None:
            return _solve(tables, state, control, metric, best_effort, tuning)
        # The searches count what they add: what the process holds now (the interpreter,
        # numpy, the tables; 40-45 MiB) is taken off their memory first. A budget that holds
        # not even that is spent at once: "out of memory budget", not an overshoot.
        room = process - tree_resident_bytes(os.getpid())
        if room <= 0:
            return Solution(stopped_status("memory"), (), _stats(control, "memory"))
        memory = control.budget.memory_bytes
        with control.within(replace(control.budget, memory_bytes=room if memory is None else min(memory, room))) as held:
            return _solve(tables, state, held, metric, best_effort, tuning)


def _solve(
    tables: Tables, state: State, control: Control, metric: str, best_effort: bool, tuning: SokobanTuning
) -> Solution:
    board = tables.board
    boxes = board.mask(state.boxes) & board.floor  # sealed boxes on sealed goals never move
    player = board.inside(state.player)
    if bin(boxes).count("1") != bin(board.goals).count("1"):
        return Solution(Status.UNSOLVABLE, (), _stats(control))
    early = None  # (the anytime stages' best plan: moves and counts)
    if best_effort and control.on_plan is not None:
        try:
            quick = _quick_proof(tables, boxes, player, control, metric, tuning)
            if quick is not None:
                return quick
            early = _anytime(tables, boxes, player, control, metric, tuning)
        except Stopped:  # (a cancel)
            return Solution(Status.CANCELLED, (), _stats(control, "cancelled"), at_least=_at_least(control))
    if early is None:
        return _proof(tables, boxes, player, control, metric, best_effort, tuning)
    with control.share(1 - tuning.anytime.improve_tail) as proofs:
        solution = _proof(tables, boxes, player, proofs, metric, False, tuning)
    if solution.status in (Status.OPTIMAL, Status.UNSOLVABLE, Status.CANCELLED):
        return solution
    try:
        early = _effort_or_early(tables, boxes, player, control, early, metric, solution, tuning)
        early = _improved_more(tables, boxes, player, control, early, metric, tuning)
    except Stopped:  # (a cancel: what the proof reached stands)
        return solution
    return _better(solution, early, control, metric)


def _effort_or_early(
    tables: Tables, boxes: int, player: int, control: Control, early: tuple, metric: str, solution: Solution,
    tuning: SokobanTuning,
) -> tuple[list[Push], list[Move], Counters]:
    """The best effort's searches (as when the proof runs out) on the tuning's
    anytime.tail_effort of what the proof left: their plan, told to control.on_plan, when
    it beats the anytime stages' `early` (pushes, moves, counts) by the metric; else
    `early`. (On XSokoban #79 the weighted search's plan is shorter than the finder's
    improved.) Raises Stopped on a cancel."""
    knobs = tuning.anytime
    with control.share(1 - knobs.improve_tail * (1 - knobs.tail_effort)) as effort:
        found = _best_effort(tables, boxes, player, effort, metric, solution.stats.reason or "time", tuning)
    if found.status == Status.CANCELLED:
        raise Stopped("cancelled")
    if not found.solved or _ranked(rules.tally(found.moves), metric) >= _ranked(early[2], metric):
        return early
    pushes = _pushes_of(tables.board, player, found.moves)
    return _told(tables, boxes, player, pushes, control, IMPROVED)


def _proof(
    tables: Tables, boxes: int, player: int, control: Control, metric: str, best_effort: bool, tuning: SokobanTuning
) -> Solution:
    """The proof, and when it runs out (with `best_effort`) the best effort's plan."""
    board = tables.board
    proofs_end = 1 - tuning.best_effort.share if best_effort else 1.0  # (of the budgets)
    beside = control.budget.seconds is not None and spare_core()
    whole = control.budget.seconds
    alone = None
    if metric == "pushes" and beside:
        memory = control.budget.memory_bytes
        alone = SearchApart(  # (its pushes alone proven by the proofs' end; its tie-break may go on)
            partial(
                _fewest_pushes, tables, boxes, player, proven_by=control.started + whole * proofs_end, tuning=tuning
            ),
            None if memory is None else int(memory * tuning.alone.memory_share),
        )
    try:
        with control.share(proofs_end - (tuning.alone.share if metric == "pushes" and not beside else 0)) as proofs:
            if metric == "moves" and beside:
                found = _side_by_side(tables, boxes, player, proofs, tuning)
                if isinstance(found, Solution):
                    return found
            elif alone is not None:
                found = _alone_beside(tables, boxes, player, proofs, alone, whole, tuning)
            else:
                if metric == "moves":
                    met = _meet_first(tables, boxes, player, proofs, tuning)
                    if met is not None:
                        return met
                # (its bound only rises from met's)
                found = push_search(tables, boxes, player, proofs, metric, tuning=tuning)
    except Stopped as stop:
        reason = stop.reason
        if metric == "pushes" and reason != "cancelled":
            with control.share(proofs_end) as proofs:
                counted = _pushes_alone(tables, boxes, player, proofs, reason, alone, tuning)
            if counted is not None:
                return counted
        if best_effort:
            return _best_effort(tables, boxes, player, control, metric, reason, tuning)
        return Solution(stopped_status(reason), (), _stats(control, reason), at_least=_at_least(control))
    finally:
        if alone is not None:
            alone.close()
    return _proven(board, boxes, player, found, control, metric)


def _proven(board: Board, boxes: int, player: int, found: tuple | None, control: Control, metric: str) -> Solution:
    """The push search's answer (None: no plan) as the proven Solution."""
    if found is None:
        return Solution(Status.UNSOLVABLE, (), _stats(control))
    moves, tally = step_plan(board, boxes, player, found[0])
    major, minor = divmod(found[1], MAJOR)
    expected = (major, minor) if metric == "moves" else (minor, major)
    assert (tally.moves, tally.pushes) == expected, "plan does not match the searched cost"
    control.meter.bound = major
    return Solution(Status.OPTIMAL, tuple(moves), _stats(control), {"pushes": tally.pushes})


def _quick_proof(
    tables: Tables, boxes: int, player: int, control: Control, metric: str, tuning: SokobanTuning
) -> Solution | None:
    """The push search alone on the tuning's anytime.quick_seconds (at most a tenth of a
    time budget): its proven Solution, or None when it ran out. Raises Stopped on a cancel."""
    whole = control.budget
    seconds = tuning.anytime.quick_seconds
    if whole.seconds is not None:
        seconds = min(seconds, whole.seconds / 10)
    try:
        with control.within(replace(whole, seconds=control.seconds + seconds)) as phase:
            found = push_search(tables, boxes, player, phase, metric, tuning=tuning)
    except Stopped as stop:
        if stop.reason == "cancelled":
            raise
        control.meter.stored = 0  # (its table is gone)
        return None
    return _proven(tables.board, boxes, player, found, control, metric)


def _anytime(
    tables: Tables, boxes: int, player: int, control: Control, metric: str, tuning: SokobanTuning
) -> tuple[list[Push], list[Move], Counters] | None:
    """The anytime stages (sokoban/anytime/anytime.py) on the tuning's anytime.share of the
    time and node budgets (the finders from now, up to its find_most when they have no plan
    yet; the improving from the first plan; with no time budget, its unbudgeted_seconds) and memory_share of
    the memory: each plan told to control.on_plan as it comes; the last (the best), as
    pushes, moves and counts, or None. Raises Stopped on a cancel."""
    knobs = tuning.anytime
    whole = control.budget
    # (from now: the tables and the quick proof took their time, seconds on the largest boards)
    if whole.seconds is None:
        seconds, improving = control.seconds + knobs.unbudgeted_seconds, None
    else:
        seconds = min(whole.seconds, control.seconds + whole.seconds * knobs.find_most)
        improving = whole.seconds * knobs.share
    nodes = None if whole.nodes is None else int(whole.nodes * knobs.share)
    memory = None if whole.memory_bytes is None else int(whole.memory_bytes * knobs.memory_share)
    best = None
    near = None if control.near_plan is None else _plan_from(tables.board, *control.near_plan)
    try:
        with control.within(replace(whole, seconds=seconds, nodes=nodes, memory_bytes=memory)) as phase:
            for stage, pushes in anytime_plans(tables, boxes, player, phase, metric, tuning, near, improving):
                best = _told(tables, boxes, player, pushes, control, stage)
    except Stopped as stop:
        if stop.reason == "cancelled":
            raise
    control.meter.stored = 0  # (its tables are gone)
    return best


def _told(
    tables: Tables, boxes: int, player: int, pushes: list[Push], control: Control, stage: str
) -> tuple[list[Push], list[Move], Counters]:
    """A plan of the anytime stages told to control.on_plan (FOUND, with what is proven so far):
    its pushes, moves and counts."""
    moves, tally = step_plan(tables.board, boxes, player, pushes)
    control.on_plan(Solution(Status.FOUND, tuple(moves), _stats(control), {"pushes": tally.pushes},
                             at_least=_at_least(control)), stage)
    return pushes, moves, tally


def _plan_from(board: Board, state: State, moves: Sequence[Move]) -> tuple[int, list[Push]]:
    """A plan of engine `moves` from `state` as the searches hold it: (its boxes, its pushes)."""
    return board.mask(state.boxes) & board.floor, _pushes_of(board, board.inside(state.player), moves)


def _pushes_of(board: Board, player: int, moves: Sequence[Move]) -> list[Push]:
    """The pushes of engine `moves` made from the player's (padded) cell `player`."""
    pushes = []
    for move in moves:
        d = DIRECTIONS.index(move.direction)
        if move.push:
            pushes.append((player + board.steps[d], d))
        player += board.steps[d]
    return pushes


def _improved_more(
    tables: Tables, boxes: int, player: int, control: Control, early: tuple, metric: str, tuning: SokobanTuning
) -> tuple[list[Push], list[Move], Counters]:
    """The anytime stages' plan `early` (pushes, moves, counts) improved on what is left of
    the budgets once the proof ran out, each shorter plan told to control.on_plan: the
    best. Raises Stopped on a cancel."""
    try:
        for pushes in improvements(tables, boxes, player, early[0], control, metric, tuning):
            early = _told(tables, boxes, player, pushes, control, IMPROVED)
    except Stopped as stop:
        if stop.reason == "cancelled":
            raise
    return early


def _better(solution: Solution, early: tuple, control: Control, metric: str) -> Solution:
    """The proof's `solution`, unless it is no plan or a plan not proven that the anytime
    stages' `early` plan (pushes, moves, counts) beats by the metric: then that one,
    FOUND, with what was proven."""
    _, moves, tally = early
    if solution.solved and _ranked(rules.tally(solution.moves), metric) <= _ranked(tally, metric):
        return solution
    reason = solution.stats.reason or "time"
    return Solution(Status.FOUND, tuple(moves), _stats(control, reason), {"pushes": tally.pushes},
                    at_least=solution.at_least if solution.at_least is not None else _at_least(control))


def _meet_first(tables: Tables, boxes: int, player: int, control: Control, tuning: SokobanTuning) -> Solution | None:
    """Moves: the search from both ends on its share of the budget (the tuning's meet.share
    of the time, meet.memory_share of the memory); its Solution, or None when its share ran
    out (the lower bound it reached is in its report, which the solve's meter keeps; the push
    search goes on from there)."""
    try:
        with control.share(tuning.meet.share, memory=tuning.meet.memory_share) as phase:
            met = meet_search(tables, boxes, player, phase, tuning=tuning)
    except Stopped as stop:
        if stop.reason == "cancelled":
            raise
        control.meter.stored = 0  # its states are gone (the solve's figure)
        return None
    return _met_solution(met, control)


def _side_by_side(
    tables: Tables, boxes: int, player: int, control: Control, tuning: SokobanTuning
) -> Solution | tuple | None:
    """Moves, with a spare core: the search from both ends in a child process (on its
    memory share) while the push search runs here (on the rest), each on all of the
    time. The first proof wins: the child's as a Solution, else the push search's result.
    Raises Stopped when both ran out (the bound is the higher of the two) or on a cancel.
    The child starts only once the push search has had the tuning's beside.apart_after
    seconds: most levels are proven by then, and a fork costs some milliseconds."""
    memory, memory_share = control.budget.memory_bytes, tuning.meet.memory_share
    search = partial(meet_search, tables, boxes, player, tuning=tuning)
    apart = SearchApart(search, None if memory is None else int(memory * memory_share))
    asked = control.should_stop
    caller_stops = asked or (lambda: False)
    launch = control.seconds + tuning.beside.apart_after

    def should_stop() -> bool:  # (a proof from the child stops the push search as a cancel would)
        if caller_stops():
            return True
        if not apart.started and control.seconds >= launch:
            apart.start(control.budget.seconds - control.seconds)
        return apart.done()

    control.should_stop = should_stop
    try:
        share = _less_held(1 - memory_share, memory, tuning.beside)
        with control.share(1.0, memory=share) as phase, _reporting_with(phase, apart):
            return push_search(tables, boxes, player, phase, "moves", tuning=tuning)
    except Stopped as stop:
        cancelled = stop.reason == "cancelled" and not apart.solved
        if not apart.started:
            raise
        if cancelled:
            control.expanded += apart.expanded
        else:  # the push search ran out (the child may still prove it), or the child's proof stopped it
            _wait_for(apart, caller_stops, control)
        if apart.solved:
            return _met_solution(apart.answer, control)
        meter = control.meter  # (the solve's)
        meter.bound = max(meter.bound or 0, apart.bound) or None
        raise Stopped("cancelled" if cancelled else stop.reason, meter.report()) from None
    finally:
        control.should_stop = asked
        apart.close()


def _less_held(share: float, memory: int | None, beside: BesideTuning) -> float:
    """`share` of the memory budget, for the push search beside a child, less what this
    process holds before it searches (the interpreter, numpy, the level's tables: 25-35
    MiB), which the search does not count, and `beside`.check_room; down to its held_floor
    of it. (The child takes its own size off its share likewise.) Without it, under moves,
    the two processes' peaks on Sasquatch's biggest levels came to 2,035-2,099 MiB of 2 GiB."""
    if not memory:
        return share
    return max(share * beside.held_floor, share - beside.check_room - resident_bytes() / memory)


@contextmanager
def _reporting_with(control: Control, child: SearchApart) -> Iterator[None]:
    """Within it, the control's progress reports tell what `child` has reached so far too:
    its expansions added, and its bound where higher (on a crowded level the search from
    both ends proves far more than the push search: Grigoriev 2001 #100's hint showed a
    bound of 177 where 390 came). Both count the metric's first count: moves beside
    moves, pushes beside pushes."""
    reports = control.on_progress

    def merged(now: Progress) -> None:
        bound, expanded = child.progress()
        reports(replace(now, bound=max(now.bound or 0, bound) or None, expanded=now.expanded + expanded))

    if reports is not None:
        control.on_progress = merged
    try:
        yield
    finally:
        control.on_progress = reports


def _met_solution(met: tuple[str, int, int] | None, control: Control) -> Solution:
    """The search from both ends' answer as a Solution (None: it proved there is no plan)."""
    if met is None:
        return Solution(Status.UNSOLVABLE, (), _stats(control))
    letters, moves, pushes = met
    plan = [rules.parse_move(letter) for letter in letters]
    tally = rules.tally(plan)
    assert (tally.moves, tally.pushes) == (moves, pushes), "plan does not match the searched cost"
    control.meter.bound = moves
    return Solution(Status.OPTIMAL, tuple(plan), _stats(control), {"pushes": pushes})


def _alone_beside(
    tables: Tables, boxes: int, player: int, control: Control, alone: SearchApart, ends: float,
    tuning: SokobanTuning,
) -> tuple | None:
    """Pushes, with a spare core: the proof of (pushes, moves) here, with the proof of the
    pushes alone (`alone`) forked beside it after the tuning's beside.apart_after seconds,
    to search until `ends` (the solve's seconds: the best effort is not needed once the
    pushes alone are proven, so their tie-break may take its share too). The child waits
    until the search's own helper (the pull table's child) is done, or at the latest until
    pulls.apart_share + alone.after_margin of the time (the pull table child's share and a
    margin), then searches on its memory share, which this search gives up then
    (or, already holding too much of it, lets the child go: the pushes alone then come
    after, as without a spare core). Returns or raises as push_search; the child's answer,
    should its tie-break prove the moves too (sokoban/searches/tie_break.py), stops the search here
    and is returned instead."""
    asked = control.should_stop
    caller_stops = asked or (lambda: False)
    fork_at = control.seconds + tuning.beside.apart_after
    seconds = control.budget.seconds
    wake = seconds * (tuning.pulls.apart_share + tuning.alone.after_margin)  # (of the proofs' time, at the latest)
    awake = helped = False
    memory, room, handoff = control.budget.memory_bytes, tuning.alone.room, tuning.alone.handoff
    kept = None  # (the memory this search keeps once the child is awake)
    if memory is not None:
        kept = int(memory * _less_held(1 - tuning.alone.memory_share, memory, tuning.beside))

    def should_stop() -> bool:  # (the child's answer, proven whole, stops the first proof as a cancel would)
        nonlocal awake, helped
        if caller_stops() or _proven_apart(alone):
            return True
        now = control.seconds
        if not alone.started and now >= fork_at:
            alone.start(ends - now - handoff, after=max(0.0, wake - now))
        helped = helped or control.helpers > 0
        if alone.started and not awake and (now >= wake or (helped and not control.helpers)):
            awake = True
            if kept is not None and control.memory_used() > kept * room:  # (the push search's)
                alone.close()  # (not finished: the pushes alone come after, on what time is left)
            else:
                if kept is not None:
                    phases[0].give_up_memory(kept)
                alone.wake()  # (the core is free: the pull table's child is done)
        return False

    phases: list[Control] = []  # (the push search's, whose memory the child takes up when it wakes)
    control.should_stop = should_stop
    try:
        with control.within(control.budget) as phase, _reporting_with(phase, alone):
            phases.append(phase)
            return push_search(tables, boxes, player, phase, "pushes", tuning=tuning)
    except Stopped:
        if not _proven_apart(alone) or caller_stops():
            raise
        control.expanded += alone.expanded
        return alone.answer[:2]
    finally:
        control.should_stop = asked
        if not awake:  # (stopped before the child woke: the pushes alone are better searched here)
            alone.close()


def _proven_apart(alone: SearchApart) -> bool:
    """Has the child of the pushes alone sent a plan whose moves it proved fewest too?"""
    return alone.started and alone.done() and alone.answer is not None and alone.answer[2]


def _wait_for(child: SearchApart, stops: Callable[[], bool], control: Control) -> None:
    """Wait for the child's word (its expansions are counted in). Raises Stopped when
    `stops` (the caller's cancel) says so first, or ("time") WAIT_PAST after the time the
    child was to end by: a child slow to say so (a loaded machine; a huge board's setup)
    kept a 2 s solve waiting 9 s."""
    while not child.finished and not stops():
        if time.perf_counter() > child.ends + WAIT_PAST:
            raise Stopped("time")
        child.wait(0.02)
    if not child.finished:
        raise Stopped("cancelled")
    control.expanded += child.expanded


def _pushes_alone(
    tables: Tables, boxes: int, player: int, control: Control, reason: str, alone: SearchApart | None = None,
    tuning: SokobanTuning = TUNING,
) -> Solution | None:
    """Pushes: after the proof of (pushes, moves) ran out, the pushes alone, proven with
    PI-corral pruning (sokoban/pruning/corrals.py): a plan marked FOUND whose `at_least` is its
    own pushes (its moves are not proven fewest). None when this runs out too (the bound
    the first proof reached stands, or the child's when higher), or a cancelled Solution.
    The child `alone`, if one searched beside the first proof, is waited for; when none
    did (none was forked, it was let go of, or it died before a word), the search runs
    here on what time is left."""
    meter = control.meter  # (the solve's)
    meter.stored = 0  # the first proof's table is gone
    try:
        if alone is not None and (alone.running or alone.finished):
            _wait_for(alone, control.should_stop or (lambda: False), control)
        if alone is not None and alone.solved:
            found = alone.answer
        elif alone is not None and alone.searched:  # and ran out
            meter.bound = max(meter.bound or 0, alone.bound) or None
            return None
        else:
            found = _fewest_pushes(tables, boxes, player, control, tuning=tuning)
    except Stopped as stop:
        if stop.reason == "cancelled":
            return Solution(Status.CANCELLED, (), _stats(control, stop.reason), at_least=_at_least(control))
        return None
    if found is None:
        return Solution(Status.UNSOLVABLE, (), _stats(control))
    moves, tally = step_plan(tables.board, boxes, player, found[0])
    assert tally.pushes == found[1] // MAJOR, "plan does not match the searched pushes"
    meter.bound = tally.pushes
    if found[2]:  # (the tie-break's moves proven too)
        assert tally.moves == found[1] % MAJOR, "plan does not match the tie-break's moves"
        return Solution(Status.OPTIMAL, tuple(moves), _stats(control), {"pushes": tally.pushes})
    return Solution(Status.FOUND, tuple(moves), _stats(control, reason), {"pushes": tally.pushes}, at_least=tally.pushes)


def _fewest_pushes(
    tables: Tables, boxes: int, player: int, control: Control, proven_by: float | None = None, *,
    tuning: SokobanTuning = TUNING,
) -> tuple[list, int, bool] | None:
    """The pushes alone, proven fewest (as push_search; by the clock's `proven_by`, if
    given, else on the whole budget), then on what is left of the budgets but the tuning's
    alone.reorder_share the fewest moves among plans of those pushes (sokoban/searches/tie_break.py):
    (plan, pushes * MAJOR + moves, True), the answer under the pushes metric, proven. When
    that runs out: (the plan reordered between boxes for fewer moves, on the time kept for
    it, its cost, False). (In the same process: the child's time is its own, the first
    proof's is spent.)"""
    kept: list = []  # (the search's pull table, which the tie-break grows on)
    seconds = control.budget.seconds
    share = 1.0 if proven_by is None or not seconds else min(1.0, max(0.0, (proven_by - control.started) / seconds))
    with control.share(share) as phase:
        found = push_search(tables, boxes, player, phase, "pushes", pushes_only=True, keep_pulls=kept, tuning=tuning)
    if found is None:
        return None
    pushes = found[1] // MAJOR
    control.meter.stored = 0  # (the search's table is gone: the solve's figure)
    try:
        with control.share(1 - tuning.alone.reorder_share) as phase:
            table = kept.pop() if kept else None
            plan = fewest_moves_of_fewest_pushes(tables, boxes, player, pushes, phase, table, tuning=tuning)
    except Stopped as stop:
        if stop.reason == "cancelled":
            raise
        return *_reordered(tables, boxes, player, control, found, tuning), False
    tally = step_plan(tables.board, boxes, player, plan)[1]
    assert tally.pushes == pushes, "the tie-break's plan does not have the proven pushes"
    return plan, pushes * MAJOR + tally.moves, True


def _reordered(
    tables: Tables, boxes: int, player: int, control: Control, found: tuple | None, tuning: SokobanTuning
) -> tuple | None:
    """A search's answer (pushes, cost) with its pushes reordered between boxes for fewer
    moves, on what is left of the budgets (None stays None)."""
    if found is None:
        return None
    return shortest_interleaving(tables.board, boxes, player, found[0], control, tuning), found[1]


def _best_effort(
    tables: Tables, boxes: int, player: int, control: Control, metric: str, reason: str, tuning: SokobanTuning
) -> Solution:
    """After the proof ran out of budget: some plan, marked FOUND.

    Two weighted searches: under the metric itself (its plans are the better ones, when it
    finds any) and over the pushes alone with PI-corral pruning, where walks cost nothing
    and the corrals cut most positions, so it finds a plan where the first does not
    (Grigr2001, the 25 levels whose moves proof ran out in 10 s: 10 plans in 6 s each
    against 2). With a time budget and a spare core they run side by side, each on all of
    what is left; otherwise one after the other, on half of it each.
    Before them the search backwards (sokoban/searches/backward.py), on backward_share: pulling
    boxes off the goals towards the start, it finds plans where the searches forwards fill
    a goal room from the wrong end (XSokoban at 10 s a level: plans for 27 of 90 levels;
    backwards alone, 12 in 5 s each, four of them new: #5, #6, #12 and #86 in 0.07-2.1 s;
    Grigr 2001 #40 in 2.9 s, where 150 s of the others gave none). Side by side it goes
    first here, before the search under the metric (which rarely finds a plan where the
    pushes alone do not: its time is the cheaper to share); one after the other, first.
    On a level with a goal room the packing search (sokoban/plans/packing_order.py) comes in, on
    packing_share of what is left at most: weighted A* fills such a room from the door and
    walls it up (XSokoban #4, #9 and #51: no plan in 6 s; packed, in 0.07 s, 0.4 s and
    0.08 s). Side by side it goes first in the child, the pushes alone after it there;
    one after the other it comes after the search backwards.
    Each plan is reordered between boxes (sokoban/plans/interleave.py) as soon as it is found, on
    what is left of that search's share: the searches after it mostly run until their time
    is up (a hint on XSokoban #4 came with the packing search's 1,091 moves as found, where
    half a second of reordering gives 905). Of the plans, the one with the fewest moves
    (pushes first under the pushes metric) is kept: at 20 s the pushes alone's plans for
    XSokoban #3 and #7 (362 and 389 moves) beat the first packing search's (442 and 545,
    greedy alone)."""
    if reason == "cancelled":
        return Solution(Status.CANCELLED, (), _stats(control, reason), at_least=_at_least(control))
    early: list = []  # (the packing search's and the backward search's plans, when they ran here)
    orders = packing_orders(tables.board, boxes, player)
    try:
        if control.budget.seconds is not None and spare_core():
            found = _weighted_beside(tables, boxes, player, control, metric, orders, early, tuning)
        else:
            first = 1 - tuning.best_effort.share
            backward, weighted_from = _backward_plan(tables, boxes, player, control, first, tuning)
            packed, weighted_from = _packed_plan(tables, boxes, player, control, orders, weighted_from, tuning)
            early += [plan for plan in (backward, packed) if plan is not None]
            found = _weighted_in_turn(tables, boxes, player, control, metric, weighted_from, tuning)
    except Stopped as stop:  # (a weighted search leaves the proof's bound as it was)
        why = "cancelled" if stop.reason == "cancelled" else reason  # (else the proof's reason stands)
        if why == "cancelled" or not early:
            return Solution(stopped_status(why), (), _stats(control, why), at_least=_at_least(control))
        found = None
    plans = early + ([] if found is None else [found[0]])
    if not plans:  # a weighted search went through every position: there is no plan
        return Solution(Status.UNSOLVABLE, (), _stats(control))
    played = [step_plan(tables.board, boxes, player, plan) for plan in plans]  # (each reordered when found)
    moves, tally = min(played, key=lambda one: _ranked(one[1], metric))
    return Solution(
        Status.FOUND, tuple(moves), _stats(control, reason), {"pushes": tally.pushes}, at_least=_at_least(control)
    )


def _backward_plan(
    tables: Tables, boxes: int, player: int, control: Control, start: float, tuning: SokobanTuning
) -> tuple[list | None, float]:
    """From `start` (of the budgets), the search backwards on the tuning's
    best_effort.backward_share of what is left: its plan (None: none) and where it ended."""
    knobs = tuning.best_effort

    def backwards(*position: object) -> list | None:
        return pulled_plan(*position, knobs.backward_weight)

    until = start + (1 - start) * knobs.backward_share
    return _plan_within(backwards, tables, boxes, player, control, until, knobs.backward_share, tuning), until


def _packed_plan(
    tables: Tables, boxes: int, player: int, control: Control, orders: dict, start: float, tuning: SokobanTuning
) -> tuple[list | None, float]:
    """From `start` (of the budgets), the packing search (with `orders`; none without) on the
    tuning's best_effort.packing_share of what is left: its plan (None: none) and where it
    ended."""
    share = tuning.best_effort.packing_share

    def packed(*position: object) -> list | None:
        return packed_search(*position, orders, tuning)

    if not orders:
        return None, start
    until = start + (1 - start) * share
    return _plan_within(packed, tables, boxes, player, control, until, share, tuning), until


def _plan_within(
    search: Callable, tables: Tables, boxes: int, player: int, control: Control, until: float, memory: float,
    tuning: SokobanTuning,
) -> list | None:
    """The plan of `search` (called with the tables, boxes, player and control; None: it found
    none), on the time and node budgets up to `until` and on `memory` of the memory budget
    (with a memory budget alone it would otherwise search until all of it is full),
    reordered on what is left of them. None too when it ran out. Raises Stopped only on a
    cancel."""
    control.meter.stored = 0  # the last search's table is gone (the solve's figure)
    try:
        with control.share(until, memory=memory) as phase:
            plan = search(tables, boxes, player, phase)
            return None if plan is None else shortest_interleaving(tables.board, boxes, player, plan, phase, tuning)
    except Stopped as stop:
        if stop.reason == "cancelled":
            raise
        return None


def _weighted(
    tables: Tables, boxes: int, player: int, control: Control, metric: str, pushes_only: bool = False, *,
    tuning: SokobanTuning,
) -> tuple | None:
    """The weighted search under `metric` (with `pushes_only`: the pushes alone, PI-corrals on),
    its plan reordered on what is left of the budgets."""
    control.meter.stored = 0  # the last search's table is gone (the solve's figure)
    weight = tuning.best_effort.weight
    found = push_search(tables, boxes, player, control, metric, weight, pushes_only, tuning=tuning)
    return _reordered(tables, boxes, player, control, found, tuning)


def _weighted_in_turn(
    tables: Tables, boxes: int, player: int, control: Control, metric: str, start: float, tuning: SokobanTuning
) -> tuple | None:
    """Under the metric on half of what is left after `start` (of the budgets; and half the
    memory: under a memory budget alone, the app's hints, it would otherwise fill all of it
    first), then the pushes alone on the rest. Raises Stopped when both run out."""
    try:
        with control.share((1 + start) / 2, memory=tuning.best_effort.first_memory) as phase:
            return _weighted(tables, boxes, player, phase, metric, tuning=tuning)
    except Stopped as stop:
        if stop.reason == "cancelled":
            raise
    return _weighted(tables, boxes, player, control, "pushes", pushes_only=True, tuning=tuning)


def _weighted_beside(
    tables: Tables, boxes: int, player: int, control: Control, metric: str, orders: dict, early: list,
    tuning: SokobanTuning,
) -> tuple | None:
    """The pushes alone in a child process (after the packing search, with `orders`),
    under the metric here, each on what time is left and half the memory; here the search
    backwards goes first (its plan, if any, is added to `early`). The search under the
    metric's plan comes first; else the child's. Raises Stopped when both run out (the
    child dead before a word: the pushes alone come here)."""
    memory, first_memory = control.budget.memory_bytes, tuning.best_effort.first_memory
    half = None if memory is None else int(memory * first_memory)
    apart = SearchApart(
        partial(_packed_then_pushes_alone, tables, boxes, player, orders=orders, metric=metric, tuning=tuning), half
    )
    apart.start(max(0.0, control.budget.seconds - control.seconds))
    try:
        now = min(1.0, control.seconds / control.budget.seconds)  # (of the budgets)
        backward, _ = _backward_plan(tables, boxes, player, control, now, tuning)
        if backward is not None:
            early.append(backward)
        try:
            with control.share(1.0, memory=1 - first_memory) as phase:
                return _weighted(tables, boxes, player, phase, metric, tuning=tuning)
        except Stopped as stop:
            if stop.reason == "cancelled":
                raise
        _wait_for(apart, control.should_stop or (lambda: False), control)
        if apart.solved:
            return apart.answer
        if apart.searched:  # (and ran out)
            raise Stopped("time")
    finally:
        apart.close()
    return _weighted(tables, boxes, player, control, "pushes", pushes_only=True, tuning=tuning)


def _packed_then_pushes_alone(
    tables: Tables, boxes: int, player: int, control: Control, orders: dict, metric: str, tuning: SokobanTuning
) -> tuple | None:
    """The child's search beside the one under the metric: with `orders`, the packing
    search on the tuning's best_effort.packing_share of its budgets, then the weighted
    search of the pushes alone on the rest, the better plan under `metric` kept. (pushes,
    cost) as push_search answers (cost None: the packed plan)."""
    packed, _ = _packed_plan(tables, boxes, player, control, orders, 0.0, tuning)
    try:
        found = _weighted(tables, boxes, player, control, "pushes", pushes_only=True, tuning=tuning)
    except Stopped as stop:
        if packed is None or stop.reason == "cancelled":
            raise
        return packed, None
    if packed is None:
        return found
    if found is None:  # (cannot be: the packed plan solves the level)
        return packed, None
    board = tables.board
    return min(found, (packed, None), key=lambda one: _ranked(step_plan(board, boxes, player, one[0])[1], metric))


def _ranked(tally: Counters, metric: str) -> tuple[int, int]:
    """A plan's counts in the order the metric ranks them."""
    return (tally.pushes, tally.moves) if metric == "pushes" else (tally.moves, tally.pushes)


def warm_up(level: Level, check: Check = no_check, tuning: SokobanTuning = TUNING) -> None:
    """Build the level's geometry, push-distance, pair and room tables (kept for later
    solves; on XSokoban's largest levels, seconds). `check` may raise Stopped to stop."""
    board = compile_board(level)
    tables = build_tables(board, check=check)
    pair_bound(board, check=check)
    room_bounds(board, tables.live, bin(board.goals).count("1"), check, tuning.rooms)


def baseline(level: Level, state: State, control: Control) -> Solution:
    """The plain reference: A* over single steps with no bound (uniform cost)."""
    solution = astar(RulesProblem(rules, level, state), lambda _s: 0, control)
    if not solution.solved:
        return solution
    pushes = rules.tally(solution.moves).pushes
    return Solution(solution.status, solution.moves, solution.stats, {"pushes": pushes})


def bench_cases(quick: bool) -> list[tuple[str, Level, State]]:
    """Seeded random rooms, solvable by construction (fixed workloads for `fewest bench`)."""
    rng = random.Random(2024)
    cases: list[tuple[str, Level, State]] = []
    while len(cases) < (4 if quick else 12):
        level = random_room(rng, rng.randint(7, 9), rng.randint(6, 8), 3)
        if level is not None:
            cases.append((f"room-{len(cases) + 1}", level, rules.initial_state(level)))
    return cases


def random_room(rng: random.Random, width: int, height: int, box_count: int) -> Level | None:
    """A walled room with a few inner walls whose boxes were pulled off their goals by
    random reverse moves, so it can be solved (None when the draw makes no valid level)."""
    inner = [r * width + c for r in range(1, height - 1) for c in range(1, width - 1)]
    walls = set(range(width * height)) - set(inner)
    walls.update(rng.sample(inner, len(inner) // 8))
    open_cells = [c for c in inner if c not in walls]
    if len(open_cells) < box_count + 2:
        return None
    goals = rng.sample(open_cells, box_count)
    boxes = set(goals)
    player = rng.choice([c for c in open_cells if c not in boxes])
    for _ in range(150 * box_count):  # reverse play: step away, pulling a box that is behind
        step = rng.choice((-1, 1, -width, width))
        if player + step in walls or player + step in boxes:
            continue
        if player - step in boxes and rng.random() < 0.8:
            boxes.remove(player - step)
            boxes.add(player)
        player += step
    if boxes == set(goals):
        return None
    try:
        return Level(width, height, frozenset(walls), frozenset(goals), frozenset(boxes), player)
    except ValueError:
        return None


def step_plan(board: Board, boxes: int, player: int, pushes: list[tuple[int, int]]) -> tuple[list[Move], Counters]:
    """The full step plan (a shortest walk to each push, then the push) and its counts, from
    the boxes and player on `board` (padded cells); a push is (the box's cell, direction)."""
    letters = []
    for cell, d in pushes:
        step = board.steps[d]
        walk = board.walk(player, cell - step, boxes)
        assert walk is not None, "the search pushed from a cell the player cannot reach"
        letters.append(walk)
        letters.append(DIRECTIONS[d].upper())
        boxes ^= (1 << cell) | (1 << (cell + step))
        player = cell
    moves = [rules.parse_move(letter) for letter in "".join(letters)]
    return moves, rules.tally(moves)


def _at_least(control: Control) -> int | None:
    """What a stopped proof established: no plan is shorter (the metric's first count).
    The proof's bound is the least f still open, never above an optimal plan's cost (a
    weighted search leaves it be): the highest its searches reported, on the solve's meter."""
    return control.meter.bound or None


def _stats(control: Control, reason: str | None = None) -> Stats:
    """The solve's statistics (`control.meter`: the solve's own, between its searches)."""
    return stats_of(control, control.meter, reason)

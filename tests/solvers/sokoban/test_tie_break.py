"""The pushes metric's tie-break (sokoban_tie_break.py): given the fewest pushes, the fewest
moves among plans of that many. Every plan is replayed through the engine; its counts are
checked against an independent Dijkstra over single steps on small rooms, and against the
proof of (pushes, moves) on Microban levels (two exact methods that share no search; with
and without its pull table and rooms at once: test_switch_matrix.py)."""

import functools
import threading
import time

import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control, Status
from fewest.solvers.sokoban import solver
from fewest.solvers.common.control import Meter, Stopped
from fewest.solvers.sokoban.board.board import compile_board
from fewest.solvers.sokoban.plans.interleave import shortest_interleaving
from fewest.solvers.sokoban.board.tables import build_tables
from fewest.solvers.sokoban.searches import tie_break as tie_break_module
from fewest.solvers.sokoban.pulls.table import pull_table
from fewest.solvers.sokoban.searches.tie_break import _Within, fewest_moves_of_fewest_pushes
from fewest.solvers.sokoban.tuning import TUNING
from tests import oracle
from tests.sokoban_support import checked, exactness_rooms, lexicographic_optimum, microban, search_position, step_table, tuned


def tie_break(lvl: S.Level, pushes: int, tuning=TUNING, **budget) -> tuple[int, int]:
    """The tie-break's plan from the start, replayed: (pushes, moves) it really takes."""
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    control = Control(Budget(**budget))
    plan = fewest_moves_of_fewest_pushes(build_tables(board), boxes, player, pushes, control, tuning=tuning)
    moves = solver.step_plan(board, boxes, player, plan)[0]
    return S.tally(moves).pushes, oracle.replay_length(S, lvl, moves)  # (raises unless it ends solved)


def test_the_fewest_moves_of_the_fewest_pushes_in_random_rooms():
    """Against a Dijkstra over single steps by (pushes, moves); rooms with no plan skipped."""
    answered = 0
    for lvl in exactness_rooms(23, 20):
        best = lexicographic_optimum(lvl, "pushes")
        if best is None or best[0] == 0:
            continue
        assert tie_break(lvl, best[0], seconds=30) == best
        answered += 1
    assert answered >= 20


# Rooms whole at once: room tables grown to a billion positions per expansion
ROOMS_WHOLE = {"room_per_expansion": 10**9}


@pytest.fixture(params=["pull table", "no pull table"])
def table(request):
    """With the pull table grown first (on small levels, to the plan's pushes: every answer a
    look-up), or with none (every answer searched): the tie-break's tuning of the table."""
    share = 0.0 if request.param == "no pull table" else TUNING.tie_break.table_share
    return {"table_share": share}


@pytest.fixture(params=["rooms as the questions grow", "rooms at once"])
def rooms(request):
    """The goal rooms' bounds built once the questions have made the tuning's
    tie_break.room_after expansions (on these small levels, mostly never), or whole before
    the first question: the tuning's parts for that, {part: fields}."""
    if request.param == "rooms at once":
        return {"tie_break": {"room_after": 1}, "push": ROOMS_WHOLE}
    return {}


def within_pushes(lvl: S.Level, fewest: int, tuning=TUNING) -> None:
    """The question the layers ask, at the start, with no pull table (every answer searched):
    no within two short of the fewest pushes (a push changes the matching's parity, so one
    short is never asked), yes within them, and the same again from the answers kept."""
    board = compile_board(lvl)
    tables = build_tables(board)
    boxes, player = search_position(board, S.initial_state(lvl))
    within = _Within(tables, pull_table(board, boxes), Control(Budget(seconds=30)), 0, tuning=tuning)
    assert not within(boxes, player, fewest - 2)
    assert within(boxes, player, fewest)
    assert not within(boxes, player, fewest - 2) and within(boxes, player, fewest)


def test_a_plan_within_the_pushes_left_and_none_within_fewer_in_random_rooms():
    asked = 0
    for lvl in exactness_rooms(5, 15):
        best = lexicographic_optimum(lvl, "pushes")
        if best is not None and best[0] >= 2:
            within_pushes(lvl, best[0])
            asked += 1
    assert asked >= 10


@pytest.mark.parametrize("number", [14, 20, 36, 57, 59])  # (their matching at the start: 6 to 24 short)
def test_a_plan_within_the_pushes_left_and_none_within_fewer_on_microban(number, rooms):
    lvl, row = microban(number)[number - 1]
    within_pushes(lvl, int(row["min_pushes"]), tuned(**rooms))


@pytest.mark.parametrize("number", [20, 57, 59])  # (#36 too took 7 s of the suite)
def test_the_goal_rooms_end_questions_the_matching_leaves_open(number):
    """The same answers from the start, with no pull table, in fewer expansions once the
    rooms' bounds are built (Microban #59: 140 against 1,544)."""
    lvl, row = microban(number)[number - 1]
    fewest = int(row["min_pushes"])
    board = compile_board(lvl)
    tables = build_tables(board)
    boxes, player = search_position(board, S.initial_state(lvl))
    expanded = []
    for after in (10**9, 1):
        tuning = tuned(push=ROOMS_WHOLE, tie_break={"room_after": after})
        control = Control(Budget(seconds=30))
        within = _Within(tables, pull_table(board, boxes), control, 0, tuning=tuning)
        assert not within(boxes, player, fewest - 2) and within(boxes, player, fewest)
        assert bool(within.rooms) == (after == 1)
        expanded.append(control.expanded)
    assert expanded[1] < expanded[0]


def on_plan_layers(lvl: S.Level, pushes: int) -> list[int]:
    """How many positions (box set, player's region) lie k pushes from the start and
    `pushes` - k from the goal, for each k: every position of the level visited (a
    breadth-first search from the start, then one back from the goals) by the engine's
    rules, through the oracle's table of steps (test_oracle.py checks it against the
    engine's own moves; here some 17 times faster than they are)."""
    return list(_on_plan_layers(lvl, pushes))


@functools.cache  # (each case of the test below asks the same levels)
def _on_plan_layers(lvl: S.Level, pushes: int) -> tuple[int, ...]:
    steps = step_table(lvl)

    def region(boxes: frozenset, player: int) -> frozenset:
        seen, stack = {player}, [player]
        while stack:
            for cell, _ in steps[stack.pop()]:
                if cell not in boxes and cell not in seen:
                    seen.add(cell)
                    stack.append(cell)
        return frozenset(seen)

    def children(boxes: frozenset, cells: frozenset):
        for cell in cells:
            for target, beyond in steps[cell]:
                if target in boxes and beyond >= 0 and beyond not in boxes:
                    after = boxes - {target} | {beyond}
                    yield after, region(after, target)

    start = S.initial_state(lvl)
    first = (start.boxes, region(start.boxes, start.player))
    depth, order, back = {first: 0}, [first], {}
    for position in order:
        for child in children(*position):
            back.setdefault(child, set()).add(position)
            if child not in depth:
                depth[child] = depth[position] + 1
                order.append(child)
    left = {position: 0 for position in depth if position[0] == lvl.goals}
    queue = list(left)
    for position in queue:
        for parent in back.get(position, ()):
            if parent not in left:
                left[parent] = left[position] + 1
                queue.append(parent)
    counts = [0] * (pushes + 1)
    for position, k in depth.items():
        if k <= pushes and left.get(position) == pushes - k:
            counts[k] += 1
    return tuple(counts)


def laid_layers(lvl: S.Level, pushes: int) -> list[int]:
    """How many positions the tie-break lays in each layer, the last (the goal) included."""
    board = compile_board(lvl)
    tables = build_tables(board)
    boxes, player = search_position(board, S.initial_state(lvl))
    control = Control(Budget(seconds=30))
    table = tie_break_module._near_table(tables, boxes, pushes, control, None)[0]
    start, edges = tie_break_module._plan_layers(tables, boxes, player, pushes, _Within(tables, table, control, 0), control)
    layers = [{start}]
    for _ in range(pushes):
        layers.append({child for key in layers[-1] for child, *_ in edges[key]})
    return [len(layer) for layer in layers]


def test_the_layers_hold_every_position_on_a_plan_of_the_fewest_pushes_and_no_other(table, rooms):
    """Against the engine's whole graph of positions, on small rooms and two Microban levels
    (#6: 30 layers, up to 11 positions in one): with the pull table (every answer a
    look-up) and without it (every answer a search), with the goal rooms' bounds and
    without."""
    compared = 0
    for lvl in exactness_rooms(31, 12):
        best = lexicographic_optimum(lvl, "pushes")
        if best is None or best[0] < 3:
            continue
        assert laid_layers(lvl, best[0]) == on_plan_layers(lvl, best[0])
        compared += 1
    assert compared >= 8
    for lvl, row in (microban(6)[3], microban(6)[5]):
        assert laid_layers(lvl, int(row["min_pushes"])) == on_plan_layers(lvl, int(row["min_pushes"]))


@pytest.mark.parametrize("budget, reason", [({"nodes": 50}, "nodes"), ({"memory_bytes": 1}, "memory")])
def test_out_of_budget_it_stops(budget, reason):
    lvl = microban(77)[76][0]
    with pytest.raises(Stopped) as stopped:
        tie_break(lvl, 55, **budget)
    assert stopped.value.reason == reason


def test_a_cancel_stops_it():
    lvl = microban(93)[92][0]
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    with pytest.raises(Stopped) as stopped:
        fewest_moves_of_fewest_pushes(build_tables(board), boxes, player, 34, Control(should_stop=cancel.is_set))
    assert stopped.value.reason == "cancelled"


def proof_runs_out(real):
    """push_search with the proof of (pushes, moves) out of time at once (the pushes alone as they are)."""

    def search(tables, boxes, player, control, metric, *args, pushes_only=False, **kwargs):
        if pushes_only:
            return real(tables, boxes, player, control, metric, *args, pushes_only=True, **kwargs)
        with control.metered() as meter:  # (as a search tells its bound)
            meter.bound = 3
            raise Stopped("time")

    return search


def test_when_the_proof_runs_out_the_tie_break_proves_the_moves(monkeypatch):
    monkeypatch.setattr(solver, "spare_core", lambda: False)  # (here, after the pushes alone)
    monkeypatch.setattr(solver, "push_search", proof_runs_out(solver.push_search))
    lvl = microban(66)[65][0]
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(seconds=30)), "pushes", best_effort=False)
    assert solution.status is Status.OPTIMAL and solution.at_least is None
    moves, pushes = checked(lvl, solution)
    assert (pushes, moves) == lexicographic_optimum(lvl, "pushes")


def test_when_the_tie_break_runs_out_too_the_pushes_alone_s_plan_is_found(monkeypatch):
    def runs_out(*args, **kwargs):
        raise Stopped("time")

    monkeypatch.setattr(solver, "spare_core", lambda: False)
    monkeypatch.setattr(solver, "push_search", proof_runs_out(solver.push_search))
    monkeypatch.setattr(solver, "fewest_moves_of_fewest_pushes", runs_out)
    lvl, row = microban(66)[65]
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(seconds=30)), "pushes", best_effort=False)
    assert solution.status is Status.FOUND and solution.stats.reason == "time"
    oracle.replay_length(S, lvl, list(solution.moves))
    assert S.tally(solution.moves).pushes == solution.at_least == int(row["min_pushes"])
    # the pushes alone's plan, reordered between boxes once the tie-break ran out (93 moves, 91)
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    alone = solver.push_search(build_tables(board), boxes, player, Control(), "pushes", pushes_only=True)[0]
    reordered = shortest_interleaving(board, boxes, player, alone, Control())
    moves = S.tally(solution.moves).moves
    assert moves == solver.step_plan(board, boxes, player, reordered)[1].moves < solver.step_plan(board, boxes, player, alone)[1].moves


def test_a_tie_break_that_runs_to_the_end_of_its_time_leaves_some_to_reorder_the_plan(monkeypatch):
    """With no best effort after it (as the benchmark solves), the tie-break's time ends
    before the proofs' (the tuning's alone.reorder_share): the plan of the pushes alone
    comes back reordered."""

    def until_the_time_is_up(tables, boxes, player, pushes, control, table=None, tuning=TUNING):
        while True:
            control.check()
            time.sleep(0.01)

    monkeypatch.setattr(solver, "spare_core", lambda: False)
    monkeypatch.setattr(solver, "push_search", proof_runs_out(solver.push_search))
    monkeypatch.setattr(solver, "fewest_moves_of_fewest_pushes", until_the_time_is_up)
    lvl = microban(66)[65][0]
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(seconds=3)), "pushes", best_effort=False)
    assert solution.status is Status.FOUND and solution.stats.reason == "time"
    assert oracle.replay_length(S, lvl, list(solution.moves)) == 91  # (the pushes alone's plan: 93)


@pytest.mark.parametrize("most", [None, 150], ids=["a layer", "midway through a layer"])
@pytest.mark.parametrize("number", [5, 36, 59])
def test_given_a_table_part_grown_it_grows_on_to_the_same_answer(number, most):
    """The pull table the pushes alone grew (push_search's keep_pulls), given three layers
    deep or stopped midway through one: grown on from there, the answer is the proof's."""
    lvl = microban(number)[number - 1][0]
    proven = solver.solve(lvl, S.initial_state(lvl), Control(Budget(seconds=60)), "pushes", best_effort=False)
    moves, pushes = checked(lvl, proven)
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    given = pull_table(board, boxes)
    given.grow(Control(), None, most or 10**9, until=3)
    assert given.can_grow and given.radius <= 3
    plan = fewest_moves_of_fewest_pushes(build_tables(board), boxes, player, pushes, Control(Budget(seconds=60)), given)
    assert S.tally(solver.step_plan(board, boxes, player, plan)[0]).pushes == pushes
    assert oracle.replay_length(S, lvl, solver.step_plan(board, boxes, player, plan)[0]) == moves
    assert given.radius > 3 and not given.can_grow  # (grown on, then let go of its frontier)


class _Asked(_Within):
    """The layers' questions, recorded: (the position's key, the pushes left)."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.asked: list[tuple[int, int]] = []

    def __call__(self, boxes, player, budget, seen=None):
        self.asked.append((tie_break_module._key(boxes, seen, self.shift), budget))
        return super().__call__(boxes, player, budget, seen)


@pytest.mark.parametrize("number", [4, 10, 17])
def test_a_push_back_to_a_position_of_an_earlier_layer_is_never_asked_about(number):
    """A position fewer pushes reach is on no plan of the fewest pushes further in, so the
    layers drop it without a search; such pushes exist here, and the answer is the proof's."""
    lvl, row = microban(number)[number - 1]
    pushes = int(row["min_pushes"])
    board = compile_board(lvl)
    tables = build_tables(board)
    boxes, player = search_position(board, S.initial_state(lvl))
    control = Control(Budget(seconds=30))
    within = _Asked(tables, pull_table(board, boxes), control, 0)
    start, edges = tie_break_module._plan_layers(tables, boxes, player, pushes, within, control)
    laid = {start: (0, boxes, board.reach(player, board.floor & ~boxes))}  # key: (layer, boxes, region)
    order = [start]
    for key in order:
        for child, after, cell, _ in edges.get(key, ()):
            if child not in laid:
                laid[child] = (laid[key][0] + 1, after, board.reach(cell, board.floor & ~after))
                order.append(child)
    back = sum(
        1
        for layer, here, seen in laid.values() if layer < pushes
        for after, cell, _ in tie_break_module._children(tables, here, seen)
        if laid.get(tie_break_module._key(after, board.reach(cell, board.floor & ~after), within.shift), (layer + 1,))[0] <= layer
    )
    assert back > 0
    assert all(laid.get(key, (pushes,))[0] >= pushes - left for key, left in within.asked)
    plan = tie_break_module._fewest_moves(tables, boxes, player, start, edges, pushes, control, 0)
    proven = solver.solve(lvl, S.initial_state(lvl), Control(Budget(seconds=60)), "pushes", best_effort=False)
    moves = solver.step_plan(board, boxes, player, plan)[0]
    assert (S.tally(moves).pushes, oracle.replay_length(S, lvl, moves)) == checked(lvl, proven)[::-1]


class _TimedTable:
    """A pull table whose layers take the seconds given, on a clock of its own; `room`: is
    there memory for another layer?"""

    def __init__(self, seconds: list[float]) -> None:
        self.seconds, self.now, self.radius, self.grown = seconds, 0.0, 0, 0
        self.complete, self.can_grow, self.room = False, True, True
        self.offered: list[int] = []  # (the memory each layer was offered)

    def most_within(self, share: int) -> int:
        self.offered.append(share)
        return 1 << 30 if self.room else 0

    def nbytes(self) -> int:
        return 1000

    def grow(self, control, seconds, most, until, limit) -> None:
        self.grown += 1
        needed = self.seconds[self.radius]
        if not most:
            return
        if needed > seconds:  # (stopped midway: the layer is not had)
            self.now += seconds
            return
        self.now += needed
        self.radius += 1

    def stop_growing(self) -> None:
        self.can_grow = False


class _ClockControl:
    def __init__(self, table: _TimedTable, seconds: float) -> None:
        self.table, self.budget = table, Budget(seconds=seconds, memory_bytes=1 << 30)
        self.meter, self.used = Meter(), 0  # (the tie-break's: the time it keeps to let go)

    def memory_used(self) -> int:
        return self.used

    @property
    def seconds(self) -> float:
        return self.table.now


def test_a_pull_layer_foreseen_past_the_tables_share_is_not_begun():
    # (share: half of 100 s; layers of 3 s, 8 s, 22 s, then one foreseen at 22 * 22 / 8 = 60.5 s)
    table = _TimedTable([3.0, 8.0, 22.0, 60.0, 1.0])
    grown, took = tie_break_module._near_table(None, None, 99, _ClockControl(table, 100.0), table)
    assert grown.radius == 3 and table.grown == 3 and table.now == 33.0  # (not 50: no part layer)
    assert took == [3.0, 8.0, 22.0] and table.can_grow  # (to grow on as the questions go)
    assert tie_break_module._next_layer_seconds([3.0, 8.0]) == 8.0 * 8.0 / 3.0
    assert tie_break_module._next_layer_seconds([8.0, 3.0]) == 3.0  # (never foreseen faster than the last)
    assert tie_break_module._next_layer_seconds([5.0]) == 5.0
    late = _TimedTable([3.0, 8.0, 40.0, 1.0])  # (foreseen 21.3 s, it takes 40: stopped at the share's end)
    grown, took = tie_break_module._near_table(None, None, 99, _ClockControl(late, 100.0), late)
    assert grown.radius == 2 and late.now == 50.0 and took == [3.0, 8.0] and late.can_grow
    full = _TimedTable([3.0, 8.0, 1.0])
    full.room = False  # (the first layer does not fit: let go of the frontier, not to grow on)
    grown, took = tie_break_module._near_table(None, None, 99, _ClockControl(full, 100.0), full)
    assert grown.radius == 0 and took == [] and not full.can_grow


def test_the_table_grows_on_when_the_questions_have_taken_the_next_layers_time():
    table = _TimedTable([3.0, 8.0, 10.0, 12.0, 40.0, 1.0])
    table.radius, table.now = 2, 11.0  # (grown two layers, of 3 s and 8 s: the next foreseen at 21.3 s)
    control = _ClockControl(table, 100.0)
    grow_on = tie_break_module._GrowOn(table, [3.0, 8.0], 99, control)
    table.now += 21.0  # (the questions' seconds)
    grow_on()
    assert table.radius == 2 and table.grown == 0
    table.now += 0.5
    grow_on()
    assert table.radius == 3 and table.now == 42.5  # (then foreseen at 10 * 10 / 8 = 12.5 s)
    grow_on()
    assert table.radius == 3  # (no questions since)
    table.now += 12.5
    grow_on()
    assert table.radius == 4 and table.now == 67.0  # (then foreseen at 14.4 s)
    table.now += 20.0  # (87 s: 14.4 more is past the budget's 100: not begun, nor ever after)
    grow_on()
    assert table.radius == 4 and not table.can_grow and table.grown == 2
    table.can_grow = True
    table.now += 1.0
    grow_on()
    assert table.radius == 4 and table.grown == 2
    roomless = _TimedTable([3.0, 8.0, 1.0])
    roomless.radius, roomless.now, roomless.room = 2, 11.0, False
    grow_on = tie_break_module._GrowOn(roomless, [3.0, 8.0], 99, _ClockControl(roomless, 100.0))
    roomless.now += 30.0
    grow_on()  # (no memory for a layer: let go of the frontier, and never asked again)
    assert roomless.radius == 2 and not roomless.can_grow and roomless.grown == 1
    roomless.now += 30.0
    grow_on()
    assert roomless.grown == 1
    held = _TimedTable([3.0, 8.0, 1.0])
    held.radius, held.now = 2, 11.0
    control = _ClockControl(held, 100.0)
    grow_on = tie_break_module._GrowOn(held, [3.0, 8.0], 99, control)
    control.used = (1 << 30) - 10_000  # (the answers hold all but 10,000 bytes of the budget)
    held.now += 30.0
    grow_on()
    assert held.offered == [1000 + 5000]  # (its own bytes and half of what is left, not the share)
    late = _TimedTable([3.0, 8.0, 1.0])
    late.radius, late.now = 2, 11.0
    control = _ClockControl(late, 100.0)
    grow_on = tie_break_module._GrowOn(late, [3.0, 8.0], 99, control)
    control.meter.release_seconds = 10.0  # (letting go of the answers, when stopped: the table may not take it)
    late.now += 62.0  # (94.3 s at the layer's end: within the 100, past 100 - 10)
    grow_on()
    assert late.grown == 0 and not late.can_grow
    done = _TimedTable([3.0, 8.0, 1.0])
    done.radius, done.now = 2, 11.0
    grow_on = tie_break_module._GrowOn(done, [3.0, 8.0], 2, _ClockControl(done, 100.0))
    done.now += 30.0
    grow_on()  # (as deep as the plan's pushes already: every answer a look-up)
    assert done.grown == 0


@pytest.mark.parametrize("number", [59, 77, 100])
def test_a_table_grown_on_midway_through_the_questions_gives_the_same_answer(number, monkeypatch):
    """The table one pull deep at first, then a layer deeper every 256 positions opened (the
    next layer foreseen to take no time): the answers kept stay true, and the plan is the
    proof's."""
    def one_layer(tables, boxes, pushes, control, table, table_share):
        table = pull_table(tables.board, boxes)
        table.grow(control, None, 1 << 40, until=1)
        return table, [0.0]
    monkeypatch.setattr(tie_break_module, "_near_table", one_layer)
    monkeypatch.setattr(tie_break_module, "_next_layer_seconds", lambda took: 0.0)
    grown = []
    real = tie_break_module._GrowOn.__call__
    monkeypatch.setattr(tie_break_module._GrowOn, "__call__", lambda self: (real(self), grown.append(self.table.radius)))
    lvl, row = microban(number)[number - 1]
    pushes = int(row["min_pushes"])
    proven = solver.solve(lvl, S.initial_state(lvl), Control(Budget(seconds=60)), "pushes", best_effort=False)
    assert tie_break(lvl, pushes, seconds=60) == checked(lvl, proven)[::-1]
    assert grown and max(grown) > 1 + 1  # (grown on, more than once, while the questions ran)

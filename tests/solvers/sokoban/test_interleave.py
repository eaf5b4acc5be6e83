"""A found plan reordered run by run (sokoban_interleave.py): against every order of its
runs' pieces, replayed through the engine; never worse than the plan; the budget respected."""

import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control, Status
from fewest.solvers.sokoban import solver
from fewest.solvers.sokoban.plans import interleave
from fewest.solvers.sokoban.board.board import compile_board
from fewest.solvers.sokoban.searches.push import push_search
from fewest.solvers.sokoban.board.tables import build_tables
from tests import oracle
from tests.sokoban_support import microban, random_rooms, search_position, tuned


def engine_moves(lvl: S.Level, pushes: list) -> int | None:
    """The moves of a push plan (padded cells) played through the engine, each walk the
    engine's own shortest (walk_path); None when a push cannot be made."""
    board = compile_board(lvl)
    state = S.initial_state(lvl)
    total = 0
    for cell, d in pushes:
        row, col = divmod(cell - board.steps[d], board.width)
        walk = S.walk_path(lvl, state, (row - 1) * lvl.width + col - 1)  # to the cell behind the box
        push = S.parse_move("lurd"[d].upper())
        if walk is None:
            return None
        for move in walk:
            state = S.apply(lvl, state, move)
        if push not in S.legal_moves(lvl, state):
            return None
        state = S.apply(lvl, state, push)
        total += len(walk) + 1
    assert S.is_solved(lvl, state)
    return total


def every_order(owners: list[int]):
    """Every sequence of the same runs with each box's runs in their order (as box ids)."""
    counts: dict = {}
    for box in owners:
        counts[box] = counts.get(box, 0) + 1

    def extend(prefix):
        if len(prefix) == len(owners):
            yield list(prefix)
            return
        for box in counts:
            if counts[box]:
                counts[box] -= 1
                yield from extend(prefix + [box])
                counts[box] += 1

    yield from extend([])


def as_pushes(units: list, order: list[int]) -> list:
    """The plan that takes `units` ((box, pushes) in a plan's order) box by box as `order`
    says, each box's units in their order."""
    left = {}
    for box, unit in units:
        left.setdefault(box, []).append(unit)
    return [push for box in order for push in left[box].pop(0)]


def weighted_plans(seed: int, count: int, fewest: int, most: int):
    """Plans of the weighted search (they often leave a box and come back to it) on `count`
    random rooms, those of `fewest` to `most` runs: (room, board, boxes, player, pushes)."""
    draw = lambda rng: solver.random_room(rng, rng.randint(6, 8), rng.randint(6, 7), rng.choice((3, 4)))
    for room in random_rooms(seed, count, draw):
        board = compile_board(room)
        boxes, player = search_position(board, S.initial_state(room))
        found = push_search(build_tables(board), boxes, player, Control(Budget(nodes=20_000)), "pushes", weight=5)
        if found is not None and fewest <= len(interleave._runs(board, boxes, found[0])) <= most:
            yield room, board, boxes, player, found[0]


def per_box(board, boxes: int, plan: list) -> list:
    """Each box's pushes, in their order."""
    sequence = interleave._runs(board, boxes, plan)
    return [[push for b, run in sequence if b == box for push in run] for box in range(boxes.bit_count())]


def pieces_of(board, boxes: int, pushes: list) -> list:
    """The plan as (box, piece): its runs (one box's pushes with no other's between) cut
    where the box turns, in the plan's order."""
    pieces = []
    for box, run in interleave._runs(board, boxes, pushes):
        start = 0
        for i in range(1, len(run) + 1):
            if i == len(run) or run[i][1] != run[i - 1][1]:
                pieces.append((box, run[start:i]))
                start = i
    return pieces


def test_the_order_is_the_best_of_every_order_of_the_pieces_of_its_runs():
    # (Plans of at most 8 pieces: the last window, 16 pieces, is the whole plan.)
    compared = improved = 0
    for room, board, boxes, player, pushes in weighted_plans(5, 160, 3, 8):
        pieces = pieces_of(board, boxes, pushes)
        if len(pieces) > 8:
            continue
        lengths = [engine_moves(room, as_pushes(pieces, order)) for order in every_order([b for b, _ in pieces])]
        best = min(length for length in lengths if length is not None)
        got = interleave.shortest_interleaving(board, boxes, player, pushes, Control())
        assert sorted(got) == sorted(pushes)
        assert engine_moves(room, got) == best
        compared += 1
        improved += best < engine_moves(room, pushes)
    assert compared >= 25 and improved >= 5  # (so some plans really had a better order)


def test_a_window_of_runs_is_the_best_order_of_its_runs_with_the_rest_of_the_plan_as_it_is():
    # The window: every run but the last, whose first push it must walk to.
    compared = improved = 0
    for room, board, boxes, player, pushes in weighted_plans(6, 160, 4, 8):
        sequence = interleave._runs(board, boxes, pushes)
        window, rest = sequence[:-1], sequence[-1][1]
        lengths = []
        for order in every_order([box for box, _ in window]):
            picked = as_pushes(window, order)
            lengths.append(engine_moves(room, picked + rest))
        best = min(length for length in lengths if length is not None)
        got = interleave._reordered(board, boxes, player, window, rest[0], Control())
        assert engine_moves(room, [push for _, run in got for push in run] + rest) == best
        compared += 1
        improved += best < engine_moves(room, pushes)
    assert compared >= 25 and improved >= 5


def test_windows_of_runs_shorten_a_plan_too_long_to_reorder_whole():
    lvl, _ = microban(123)[122]
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    pushes = push_search(build_tables(board), boxes, player, Control(), "pushes", pushes_only=True)[0]
    whole = engine_moves(lvl, interleave.shortest_interleaving(board, boxes, player, pushes, Control()))
    windows = tuned(interleave={"window": 4, "most_orders": 200})  # (a window's few orders, not the whole plan's)
    got = interleave.shortest_interleaving(board, boxes, player, pushes, Control(), windows)
    assert per_box(board, boxes, got) == per_box(board, boxes, pushes)
    assert whole < engine_moves(lvl, got) < engine_moves(lvl, pushes)


def test_each_box_keeps_its_own_pushes_in_their_order():
    lvl, _ = microban(123)[122]
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    pushes = push_search(build_tables(board), boxes, player, Control(), "pushes", pushes_only=True)[0]
    got = interleave.shortest_interleaving(board, boxes, player, pushes, Control())
    assert per_box(board, boxes, got) == per_box(board, boxes, pushes)
    assert engine_moves(lvl, got) < engine_moves(lvl, pushes)


def test_out_of_budget_cancelled_or_too_long_the_plan_comes_back_as_it_was():
    lvl, _ = microban(123)[122]
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    pushes = push_search(build_tables(board), boxes, player, Control(), "pushes", pushes_only=True)[0]
    for control in (Control(Budget(seconds=1e-9)), Control(should_stop=lambda: True), Control(Budget(memory_bytes=1))):
        with control.metered() as meter:
            meter.stored = 7  # (the search's count stays for its stats)
            assert interleave.shortest_interleaving(board, boxes, player, pushes, control) == pushes
            assert meter.stored == 7
    assert interleave.shortest_interleaving(board, boxes, player, pushes, Control()) != pushes
    ten = tuned(interleave={"most_orders": 10})  # (no window, nor the whole plan, done in 10)
    assert interleave.shortest_interleaving(board, boxes, player, pushes, Control(), ten) == pushes


def test_a_found_plan_is_reordered_before_it_is_offered(monkeypatch):
    # Out of budget, the pushes alone's plan (Microban #98 at 8,000 nodes, as #123 at
    # 20,000 in a sixth of the time) comes back with its runs reordered: the same pushes,
    # fewer moves.
    calls = []
    original = interleave.shortest_interleaving

    def recorded(board, boxes, player, pushes, control, tuning):
        got = original(board, boxes, player, pushes, control, tuning)
        calls.append((pushes, got))
        return got

    monkeypatch.setattr(solver, "shortest_interleaving", recorded)
    lvl, row = microban(98)[97]
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(nodes=8_000)), "pushes")
    assert solution.status is Status.FOUND and len(calls) == 1
    pushes, got = calls[0]
    moves = oracle.replay_length(S, lvl, list(solution.moves))
    assert moves == engine_moves(lvl, got) < engine_moves(lvl, pushes)
    assert S.tally(solution.moves).pushes == int(row["min_pushes"])


@pytest.mark.parametrize("number, winner", [(118, 2), (135, 1)])
def test_the_pieces_start_from_each_order_of_the_runs_and_the_best_plan_is_kept(number, winner):
    # The weighted search's plan (pushes): #118's pieces do best from the best order of all
    # its runs (214 moves against 218 after windows of runs and 242 from the plan's order);
    # #135's from the plan's own order (149 against 151).
    lvl, _ = microban(number)[number - 1]
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    pushes = push_search(build_tables(board), boxes, player, Control(Budget(nodes=20_000)), "pushes", weight=5)[0]
    sequence = interleave._runs(board, boxes, pushes)
    windowed = list(sequence)
    interleave._by_windows(board, boxes, player, windowed, Control())
    ends = []
    for start in interleave._starts(board, boxes, player, sequence, windowed, Control()):
        pieces = interleave._cut(start)
        interleave._by_windows(board, boxes, player, pieces, Control())
        ends.append(engine_moves(lvl, [push for _, piece in pieces for push in piece]))
    assert ends[winner] < min(ends[:winner] + ends[winner + 1 :])
    got = interleave.shortest_interleaving(board, boxes, player, pushes, Control())
    assert engine_moves(lvl, got) == ends[winner]

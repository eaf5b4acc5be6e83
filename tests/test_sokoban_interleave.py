"""A found plan reordered run by run (sokoban_interleave.py): against every order of its
runs, replayed through the engine; never worse than the plan; the budget respected."""

from collections import deque

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control, Status
from fewest.solvers import sokoban as solver
from fewest.solvers import sokoban_interleave as interleave
from fewest.solvers.sokoban_board import compile_board
from fewest.solvers.sokoban_search import push_search
from fewest.solvers.sokoban_tables import build_tables
from tests import oracle
from tests.sokoban_support import microban, random_rooms, search_position


def engine_moves(lvl: S.Level, pushes: list) -> int | None:
    """The moves of a push plan (padded cells) played through the engine, each walk a
    breadth-first search over the engine's own steps; None when a push cannot be made."""
    board = compile_board(lvl)
    state = S.initial_state(lvl)
    total = 0
    for cell, d in pushes:
        row, col = divmod(cell - board.steps[d], board.width)
        stand = (row - 1) * lvl.width + col - 1  # the engine's cell behind the box
        walked = {state.player: (state, 0)}
        queue = deque([state])
        while queue and stand not in walked:
            here = queue.popleft()
            for move in S.legal_moves(lvl, here):
                after = S.apply(lvl, here, move)
                if not move.push and after.player not in walked:
                    walked[after.player] = (after, walked[here.player][1] + 1)
                    queue.append(after)
        if stand not in walked:
            return None
        state, steps = walked[stand]
        push = S.parse_move("lurd"[d].upper())
        if push not in S.legal_moves(lvl, state):
            return None
        state = S.apply(lvl, state, push)
        total += steps + 1
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


def as_pushes(runs: list, order: list[int]) -> list:
    taken = [0] * len(runs)
    pushes = []
    for box in order:
        pushes += runs[box][taken[box]]
        taken[box] += 1
    return pushes


def weighted_plan(lvl: S.Level) -> tuple | None:
    """A plan of the weighted search (often leaves a box and comes back to it)."""
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    found = push_search(build_tables(board), boxes, player, Control(Budget(nodes=20_000)), "pushes", weight=5)
    return None if found is None else (board, boxes, player, found[0])


def test_the_order_is_the_best_of_every_order_of_the_runs():
    compared = improved = 0
    draw = lambda rng: solver.random_room(rng, rng.randint(6, 8), rng.randint(6, 7), rng.choice((3, 4)))
    for room in random_rooms(5, 120, draw):
        found = weighted_plan(room)
        if found is None:
            continue
        board, boxes, player, pushes = found
        runs, owners = interleave._runs(board, boxes, pushes)
        if not 3 <= len(owners) <= 7:
            continue
        lengths = [engine_moves(room, as_pushes(runs, order)) for order in every_order(owners)]
        best = min(length for length in lengths if length is not None)
        got = interleave.shortest_interleaving(board, boxes, player, pushes, Control())
        assert sorted(got) == sorted(pushes)
        assert engine_moves(room, got) == best
        compared += 1
        improved += best < engine_moves(room, pushes)
    assert compared >= 25 and improved >= 5  # (so some plans really had a better order)


def test_each_box_keeps_its_own_pushes_in_their_order():
    lvl, _ = microban(123)[122]
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    pushes = push_search(build_tables(board), boxes, player, Control(), "pushes", pushes_only=True)[0]
    got = interleave.shortest_interleaving(board, boxes, player, pushes, Control())

    before, after = interleave._runs(board, boxes, pushes)[0], interleave._runs(board, boxes, got)[0]
    assert [sum(runs, []) for runs in before] == [sum(runs, []) for runs in after]
    assert engine_moves(lvl, got) < engine_moves(lvl, pushes)


def test_out_of_budget_cancelled_or_too_long_the_plan_comes_back_as_it_was(monkeypatch):
    lvl, _ = microban(123)[122]
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    pushes = push_search(build_tables(board), boxes, player, Control(), "pushes", pushes_only=True)[0]
    for control in (Control(Budget(seconds=1e-9)), Control(should_stop=lambda: True), Control(Budget(memory_bytes=1))):
        control.stored = 7  # (the search's count stays for its stats)
        assert interleave.shortest_interleaving(board, boxes, player, pushes, control) == pushes
        assert control.stored == 7
    assert interleave.shortest_interleaving(board, boxes, player, pushes, Control()) != pushes
    monkeypatch.setattr(interleave, "MOST_ORDERS", 10)  # (a plan of many boxes, a long search)
    assert interleave.shortest_interleaving(board, boxes, player, pushes, Control()) == pushes


def test_a_found_plan_is_reordered_before_it_is_offered(monkeypatch):
    # Out of budget, the pushes alone's plan (Microban #123) comes back with its runs
    # reordered: the same pushes, fewer moves.
    calls = []
    original = interleave.shortest_interleaving

    def recorded(board, boxes, player, pushes, control):
        got = original(board, boxes, player, pushes, control)
        calls.append((pushes, got))
        return got

    monkeypatch.setattr(solver, "shortest_interleaving", recorded)
    lvl, row = microban(123)[122]
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(nodes=20_000)), "pushes")
    assert solution.status is Status.FOUND and len(calls) == 1
    pushes, got = calls[0]
    moves = oracle.replay_length(S, lvl, list(solution.moves))
    assert moves == engine_moves(lvl, got) < engine_moves(lvl, pushes)
    assert S.tally(solution.moves).pushes == int(row["min_pushes"])

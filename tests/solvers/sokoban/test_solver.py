"""Sokoban's exact solver: both metrics against independent exhaustive searches, the rule
book's contest cases (Microban's proven counts under each internal switch:
test_switch_matrix.py), the matching bound, deadlock pruning, budgets and cancellation. Every plan is replayed."""

import functools
import gc
import itertools
import os
import random
import statistics
from functools import partial

import pytest

from fewest.engine import sokoban as S
from fewest.levels import sokoban as L
from fewest.solvers import Budget, Control, Status, api
from fewest.solvers.sokoban import solver
from fewest.solvers.sokoban.searches import apart as sokoban_apart
from fewest.solvers.sokoban.searches import push as search
from fewest.solvers.common.assignment import assign, matching_cost, min_cost, reassign, warm_assign
from fewest.tui.bench.sokoban_set import BenchRow, BenchSummary, format_row, format_summary, run_collection
from fewest.solvers.sokoban.board.board import cells_of, compile_board
from fewest.solvers.sokoban.pruning.deadlock import frozen_group, is_dead
from fewest.solvers.sokoban.pruning.corral_probe import CorralProbe
from fewest.solvers.common.processes import spare_core
from fewest.solvers.sokoban.board.tables import build_tables, side_row
from fewest.solvers.sokoban.tuning import TUNING
from tests import oracle
from tests.sokoban_support import (
    checked,
    flood,
    level,
    lexicographic_optimum,
    microban,
    positions,
    exactness_rooms,
    random_room,
    random_rooms,
    search_position,
    solve,
    tuned,
)

from tests.sokoban_support import DATA
RULEBOOK = DATA / "rulebook"


# ----- exactness against independent searches --------------------------------------
def only_push_search(monkeypatch) -> None:
    """Under the moves metric the search from both ends settles every small level: skip it
    to test the push search as well."""
    monkeypatch.setattr(solver, "_meet_first", lambda *_: None)


@pytest.fixture(params=["meet", "push"])
def moves_search(request, monkeypatch):
    if request.param == "push":
        only_push_search(monkeypatch)
    return request.param


@functools.cache  # (both searches are checked on the same rooms)
def fewest_moves(room: S.Level) -> int | None:
    """The oracle's breadth-first search: the fewest moves (None: no plan)."""
    plan = oracle.shortest_plan(S, room)
    return None if plan is None else len(plan)


@pytest.mark.parametrize("seed", range(10))
def test_moves_metric_matches_the_oracle_and_breaks_ties_by_pushes(seed, moves_search):
    for room in exactness_rooms(seed, 30):
        fewest = fewest_moves(room)
        solution = solve(room, "moves")
        if fewest is None:
            assert solution.status is Status.UNSOLVABLE and not solution.moves
            continue
        moves, pushes = checked(room, solution)
        assert moves == fewest
        assert (moves, pushes) == lexicographic_optimum(room, "moves")


@pytest.mark.parametrize("seed", range(100, 110))
def test_pushes_metric_matches_an_independent_dijkstra(seed):
    for room in exactness_rooms(seed, 30):
        expected = lexicographic_optimum(room, "pushes")
        solution = solve(room, "pushes")
        if expected is None:
            assert solution.status is Status.UNSOLVABLE
            continue
        moves, pushes = checked(room, solution)
        assert (pushes, moves) == expected


def test_the_walk_to_the_nearest_push_raises_the_moves_bound_and_keeps_plans_optimal(monkeypatch):
    only_push_search(monkeypatch)
    raised = []
    enqueue = search._enqueue

    def counted(buckets, ids, bucket_id, node):
        raised.append(search.Node._make(node).walked > 0)  # (queued again with the walk to its nearest push counted in)
        enqueue(buckets, ids, bucket_id, node)

    monkeypatch.setattr(search, "_enqueue", counted)
    rng = random.Random(120)
    for room in random_rooms(120, 20):
        for state in [S.initial_state(room), *positions(room, rng, 3)]:  # mid-game: walks
            expected = lexicographic_optimum(room, "moves", state)
            if expected is not None:
                assert checked(room, solve(room, "moves", state), state) == expected
    # (in these small rooms the walk the boxes' way forces is always at least as long: the
    # first Microban levels have longer walks to their nearest push)
    for lvl, row in microban(10):
        expected = (int(row["min_moves"]), int(row["pushes_in_min_moves"]))
        assert checked(lvl, solve(lvl, "moves")) == expected
    assert any(raised) and not all(raised)  # not vacuous: some nodes, not all, walk first
    raised.clear()
    for room in random_rooms(120, 20):
        solve(room, "pushes")
    assert raised and not any(raised)  # under pushes the walk would only order ties: not counted


def test_solving_from_a_position_in_mid_game():
    lvl = level("#######\n#@ $ .#\n# $   #\n#.    #\n#######")
    state = S.initial_state(lvl)
    for move in S.moves_from_directions(lvl, "rd"):  # a step, then a push of the lower box
        state = S.apply(lvl, state, move)
    assert state != S.initial_state(lvl)
    for metric in ("moves", "pushes"):
        moves, pushes = checked(lvl, solve(lvl, metric, state), state)
        best = lexicographic_optimum(lvl, metric, state)
        assert ((moves, pushes) if metric == "moves" else (pushes, moves)) == best


def test_a_solved_position_needs_nothing():
    lvl = level("#####\n#@* #\n#####")
    for metric in solver.METRICS:
        solution = solve(lvl, metric)
        assert solution.status is Status.OPTIMAL and solution.moves == () and solution.extra["pushes"] == 0


def test_a_sealed_box_on_its_goal_is_left_alone():
    lvl = level("#######\n#*#@$.#\n#######")
    for metric in solver.METRICS:
        assert checked(lvl, solve(lvl, metric)) == (1, 1)


def test_metrics_disagree_where_they_should():
    # Pushing the box around its long side saves pushes, the short walk saves moves.
    lvl = level(
        "########\n"
        "#      #\n"
        "# #### #\n"
        "#@$   .#\n"
        "########"
    )
    by_moves, by_pushes = solve(lvl, "moves"), solve(lvl, "pushes")
    assert checked(lvl, by_moves) == lexicographic_optimum(lvl, "moves")
    assert checked(lvl, by_pushes)[::-1] == lexicographic_optimum(lvl, "pushes")


# ----- the rule book and Microban -------------------------------------------------
@pytest.mark.parametrize("name, moves", [("sokoban_1.in", 1), ("sokoban_10.in", 10), ("sokoban_12.in", 12)])
def test_rule_book_contest_cases(name, moves):
    entry = L.read_contest((RULEBOOK / name).read_text(), name)[0]
    solution = api.solve("sokoban", entry.level)
    assert checked(entry.level, solution)[0] == moves
    answer = L.contest_answer(entry, solution)
    assert len(answer) == moves and L.parse_contest_plan(entry.level, answer) == list(solution.moves)


# ----- the matching bound and deadlocks ---------------------------------------------
def test_matching_is_the_cheapest_assignment_and_updates_row_by_row():
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(1, 6)
        rows = [[rng.choice([rng.randint(0, 9), 1_000_000]) for _ in range(n)] for _ in range(n)]
        brute = min(sum(rows[i][p[i]] for i in range(n)) for p in itertools.permutations(range(n)))
        matching = assign(rows)
        assert matching_cost(rows, matching) == brute == min_cost(rows)
        changed = rng.randrange(n)
        rows[changed] = [rng.randint(0, 9) for _ in range(n)]
        brute = min(sum(rows[i][p[i]] for i in range(n)) for p in itertools.permutations(range(n)))
        assert matching_cost(rows, reassign(rows, matching, changed)) == brute


def test_a_warm_matching_is_the_cheapest_from_any_start():
    """warm_assign from a parent's matching after rows grew (new walls) and a row and its
    column left (a box froze on its goal), and from random potentials and pairs."""
    rng = random.Random(11)
    for _ in range(300):
        n = rng.randint(2, 6)
        rows = [[rng.choice([rng.randint(0, 9), 1_000_000]) for _ in range(n)] for _ in range(n)]
        u, v, p = assign(rows)
        gone_row, gone_column = rng.randrange(n), rng.randrange(n)
        left = [[cost + rng.choice([0, 0, 0, 2]) for j, cost in enumerate(row) if j != gone_column]
                for i, row in enumerate(rows) if i != gone_row]
        row_of = {i: k for k, i in enumerate([i for i in range(1, n + 1) if i != gone_row + 1], 1)}
        start_v = [0] + [v[j] for j in range(1, n + 1) if j != gone_column + 1]
        start_p = [0] + [row_of.get(p[j], 0) for j in range(1, n + 1) if j != gone_column + 1]
        best = min(sum(left[i][q[i]] for i in range(n - 1)) for q in itertools.permutations(range(n - 1)))
        assert matching_cost(left, warm_assign(left, [0] * n, start_v, start_p)) == best
        # any start at all: potentials and pairs at random (a row paired twice is not a start)
        columns = rng.sample(range(1, n), rng.randint(0, n - 1))
        start_p = [0] * n
        for j, i in zip(columns, rng.sample(range(1, n), len(columns))):
            start_p[j] = i
        noise = [rng.randint(-5, 5) for _ in range(n)]
        assert matching_cost(left, warm_assign(left, noise[:], noise[::-1], start_p)) == best


def test_side_rows_never_overestimate_and_beat_the_best_side():
    """The matching over the player's side of each box is at most the exact pushes
    left (an independent Dijkstra), and on some positions above the best side's."""
    rng = random.Random(23)
    raised = 0
    for room in random_rooms(29, 40):
        board = compile_board(room)
        tables = build_tables(board)
        for state in positions(room, rng, 6):
            boxes, player = list(cells_of(board.mask(state.boxes))), board.inside(state.player)
            sided = min_cost([side_row(tables, box, player) for box in boxes])
            best = min_cost([tables.rows[box] for box in boxes])
            exact = lexicographic_optimum(room, "pushes", state)
            assert sided >= best
            assert exact is None or sided <= exact[0]
            raised += sided > best
    assert raised > 0  # the player's side does tell, so the check above has teeth


def test_a_pushed_box_takes_the_row_of_the_side_the_player_pushed_from():
    # the search reads sided[target][opposite of the push]; side_row finds it by the player's cell
    checked_sides = 0
    for room in random_rooms(31, 40) + [entry for entry, _ in microban(40)]:
        tables = build_tables(compile_board(room))
        board = tables.board
        for cell in cells_of(board.floor):
            if tables.sided[cell] is None:
                continue
            for d, step in enumerate(board.steps):
                player = cell - step  # pushed in direction d, the player ends on this cell
                if (board.floor >> player) & 1:
                    assert tables.sided[cell][(d + 2) & 3][0] == side_row(tables, cell, player)
                    checked_sides += 1
    assert checked_sides > 0


def test_reach_is_the_players_flood_fill():
    rng = random.Random(11)
    for room in random_rooms(17, 40) + [entry for entry, _ in microban(20)]:
        board = compile_board(room)
        cells = sorted(flood(room.width, room.height, room.walls, room.player))
        for _ in range(5):
            boxes = set(rng.sample(cells, rng.randint(0, len(cells) // 3)))
            player = rng.choice([c for c in cells if c not in boxes] or cells)
            boxes.discard(player)
            seen = flood(room.width, room.height, room.walls | boxes, player)
            free = board.floor & ~board.mask(boxes)
            assert board.reach(board.inside(player), free) == board.mask(seen)


def test_is_dead_never_condemns_a_solvable_position():
    rng = random.Random(11)
    seen_dead = 0
    for room in random_rooms(21, 40):
        state = S.initial_state(room)
        for _ in range(8):  # a random walk, checking each position on the way
            moves = S.legal_moves(room, state)
            if not moves:
                break
            state = S.apply(room, state, rng.choice(moves))
            if is_dead(room, state):
                seen_dead += 1
                assert oracle.shortest_plan(S, room, state) is None
    assert seen_dead > 0  # the walk does run into deadlocks, so the check above has teeth


def test_corral_probe_never_condemns_a_solvable_position():
    rng = random.Random(5)
    condemned = 0
    for room in random_rooms(31, 60):
        board = compile_board(room)
        tables = build_tables(board)
        probe = CorralProbe(board.size, limit=200, largest=3)
        state = S.initial_state(room)
        for _ in range(10):
            moves = S.legal_moves(room, state)
            if not moves:
                break
            state = S.apply(room, state, rng.choice(moves))
            boxes, player = search_position(board, state)
            reach = board.reach(player, board.floor & ~boxes)
            if any(probe.dead(tables, boxes, player, reach, box) for box in cells_of(boxes)):
                condemned += 1
                assert oracle.shortest_plan(S, room, state) is None
    assert condemned > 0


def test_corral_patterns_never_condemn_a_solvable_position():
    # The patterns learnt on one walk judge the positions of the others (on its own walk
    # a position after a dead one is dead anyway)
    rng = random.Random(7)
    condemned = matched = 0
    for room in random_rooms(41, 100, partial(random_room, walled=0.2, most=4)):
        board = compile_board(room)
        tables = build_tables(board)
        probe = CorralProbe(board.size, limit=200, largest=3)
        for _walk in range(4):
            for state in itertools.islice(positions(room, rng, 12), 1, None):
                boxes, player = search_position(board, state)
                reach = board.reach(player, board.floor & ~boxes)
                fits = any(probe.matches(boxes, player, box) for box in cells_of(boxes))
                found = any(probe.dead(tables, boxes, player, reach, box) for box in cells_of(boxes))
                if fits or found:
                    matched += fits
                    condemned += found
                    assert oracle.shortest_plan(S, room, state) is None
    assert condemned > 0 and matched > 0


@pytest.mark.parametrize(
    "text",
    [
        "#####\n#@  #\n#  $#\n#. .#\n#$  #\n#####",  # a box in a corner off its goal
        "######\n#@   #\n# $$ #\n# $$ #\n#....#\n######",  # a 2x2 block off goals
        "#######\n#. $$.#\n#     #\n# @   #\n#######",  # two boxes frozen against a wall
        "#######\n##.####\n# $  @#\n## ####\n#######",  # pushable only from cells behind it
        "####\n#  #\n#* #\n# $#\n##+#\n#  #\n####",  # each box could move, never both onto goals
    ],
)
def test_is_dead_spots_certain_deadlocks(text):
    lvl = level(text)
    assert is_dead(lvl, S.initial_state(lvl))
    assert solve(lvl, "moves").status is Status.UNSOLVABLE


def test_frozen_boxes_all_on_goals_are_fine():
    lvl = level("######\n#**  #\n#**  #\n#@ $.#\n######")
    assert not is_dead(lvl, S.initial_state(lvl))
    assert checked(lvl, solve(lvl, "moves")) == (2, 1)


def _frozen_by_definition(board, dead: int, boxes: int, cell: int) -> int:
    """The frozen group of the box on `cell`, as the definition reads: of the boxes touching
    it (transitively), drop any that can move along some axis (no wall either side, not dead
    squares both sides, no box still in the group either side) until none can; 0 when the
    box itself can."""
    group, frontier = 0, [cell]
    while frontier:
        here = frontier.pop()
        if (boxes >> here) & 1 and not (group >> here) & 1:
            group |= 1 << here
            frontier.extend(here + step for step in board.steps)
    def free_along(box: int, step: int) -> bool:
        ends = (box - step, box + step)
        return (all((board.floor >> end) & 1 for end in ends) and not all((dead >> end) & 1 for end in ends)
                and not any((group >> end) & 1 for end in ends))
    changed = True
    while changed:
        changed = False
        for box in list(cells_of(group)):
            if free_along(box, board.steps[2]) or free_along(box, board.steps[3]):
                group &= ~(1 << box)
                changed = True
    return group if (group >> cell) & 1 else 0  # (others frozen, this one free: not its group)


def test_frozen_groups_as_the_definition_reads_boxes_alone_included():
    """Random box sets on Microban boards, many with the pushed box touching no other (the
    frozen check's shortcut, no flood fill) and many in clusters."""
    rng = random.Random(11)
    alone = 0
    for lvl, _ in microban(155)[::9]:
        board = compile_board(lvl)
        tables = build_tables(board)
        floor = list(cells_of(board.floor))
        for _ in range(400):
            chosen = rng.sample(floor, rng.randint(1, min(14, len(floor))))
            boxes = sum(1 << box for box in chosen)
            cell = rng.choice(chosen)
            alone += not board.spread(1 << cell) & boxes
            assert frozen_group(tables, boxes, cell) == _frozen_by_definition(board, tables.dead, boxes, cell)
    assert alone > 1000


# ----- budgets, cancellation, the registry ----------------------------------------------
def hard_level() -> S.Level:
    lvl, _ = microban(36)[35]
    return lvl


def test_node_budget_stops_honestly():
    solution = solve(hard_level(), "moves", nodes=50)
    assert solution.status is Status.BUDGET and solution.moves == () and solution.stats.reason == "nodes"


def test_a_stopped_search_holds_no_time_back_from_what_comes_after():
    control = Control(Budget(nodes=20_000))  # (the weighted search, after, stops on its own)
    solution = solver.solve(hard_level(), S.initial_state(hard_level()), control, "pushes", best_effort=False)
    assert solution.stats.reason == "nodes" and control.meter.release_seconds == 0.0 and not control.helpers


@pytest.mark.slow
@pytest.mark.parametrize("metric", solver.METRICS)
def test_out_of_budget_a_weighted_search_still_offers_a_plan(metric, monkeypatch):
    # (pushes: when the proof of the pushes alone, next, runs out too)
    monkeypatch.setattr(solver, "_pushes_alone", lambda *_: None)
    lvl, row = microban(123)[122]  # proving it takes some 700,000 nodes (here 5,000: the moves' least)
    solution = solve(lvl, metric, nodes=5_000)
    assert solution.status is Status.FOUND and solution.stats.reason == "nodes"
    moves = oracle.replay_length(S, lvl, list(solution.moves))  # a real plan, that solves
    pushes = S.tally(solution.moves).pushes
    assert solution.extra["pushes"] == pushes >= int(row["min_pushes"]) and moves >= pushes
    assert solution.stats.bound <= (int(row["min_pushes"]) if metric == "pushes" else moves)
    control = Control(Budget(nodes=5_000))
    proof_only = solver.solve(lvl, S.initial_state(lvl), control, metric, best_effort=False)
    assert proof_only.status is Status.BUDGET and not proof_only.moves


def recorded_searches(monkeypatch, stop: str | None = None, mark=None) -> list:
    """(metric, weight, pushes_only, the budget it had) of each push search the solver starts.

    With `stop`, every search but the weighted one of the pushes alone runs out at once for
    that reason; with `mark` (a path), that one writes the id of the process it runs in."""
    calls = []
    original = solver.push_search

    def recorded(tables, boxes, player, control, metric, weight=1, pushes_only=False, **kept):
        calls.append((metric, weight, pushes_only, control.budget))
        if not (pushes_only and weight > 1):
            if stop is not None:
                raise solver.Stopped(stop)
        elif mark is not None:
            mark.write_text(str(os.getpid()))
        return original(tables, boxes, player, control, metric, weight, pushes_only, **kept)

    monkeypatch.setattr(solver, "push_search", recorded)
    return calls


def backward_searches(monkeypatch, calls: list) -> None:
    """Each search backwards the solver starts adds ("backwards", its budget) to `calls`, and
    finds nothing at once (the searches after it are what a test looks at)."""
    monkeypatch.setattr(solver, "pulled_plan", lambda *args: calls.append(("backwards", args[3].budget)))


def test_when_the_weighted_search_runs_out_the_pushes_alone_still_offer_a_plan(monkeypatch):
    # Microban #150, moves: the proof runs out, the search backwards finds nothing, then the
    # weighted search under moves (on half of what is left); the weighted search of the
    # pushes alone, PI-corrals on, finds a plan.
    calls = recorded_searches(monkeypatch)
    backward_searches(monkeypatch, calls)
    lvl, row = microban(150)[149]
    solution = solve(lvl, "moves", nodes=20_000)
    searched = [call[:-1] for call in calls]
    weight = TUNING.best_effort.weight
    assert searched == [("moves", 1, False), ("backwards",), ("moves", weight, False), ("pushes", weight, True)]
    backward_end = 18_000 + int(2_000 * TUNING.best_effort.backward_share)
    assert [call[-1].nodes for call in calls] == [18_000, backward_end, (backward_end + 20_000) // 2, 20_000]
    assert solution.status is Status.FOUND and solution.stats.reason == "nodes"
    moves = oracle.replay_length(S, lvl, list(solution.moves))  # a real plan, that solves
    assert solution.extra["pushes"] == S.tally(solution.moves).pushes >= int(row["min_pushes"])
    assert solution.at_least <= moves


def test_the_solver_object_hands_its_tuning_down(monkeypatch):
    """SokobanSolver(tuning): its solve and warm_up pass the record on (here a best effort
    given half of the budgets, and the goal rooms' own part)."""
    from fewest.solvers.sokoban import SokobanSolver

    calls = recorded_searches(monkeypatch, stop="nodes")
    tuning = tuned(best_effort={"share": 0.5}, rooms={"max_states": 1_000})
    lvl, _ = microban(150)[149]
    SokobanSolver(tuning).solve(lvl, S.initial_state(lvl), Control(Budget(nodes=20_000)), "moves")
    assert calls[0][:3] == ("moves", 1, False) and calls[0][3].nodes == 10_000  # (the proof: half of it, not 18,000)
    asked = []
    monkeypatch.setattr(solver, "room_bounds", lambda *args: asked.append(args[-1]))
    SokobanSolver(tuning).warm_up(lvl)
    assert asked == [tuning.rooms]


def test_under_memory_alone_the_first_weighted_search_leaves_room_for_the_second(monkeypatch):
    # The app's hints have a memory budget only: without a cap the first weighted search
    # would take all of it (and all that time) before the second could start. Here every
    # search but the last runs out of memory at once.
    calls = recorded_searches(monkeypatch, stop="memory")
    lvl, _ = microban(150)[149]
    solution = solve(lvl, "pushes", memory_bytes=40_000_000)
    weight = TUNING.best_effort.weight
    # the proof, the proof of the pushes alone, then the two weighted searches
    assert [(*call[:3], call[3].memory_bytes) for call in calls] == [
        ("pushes", 1, False, 40_000_000), ("pushes", 1, True, 40_000_000),
        ("pushes", weight, False, 20_000_000), ("pushes", weight, True, 40_000_000),
    ]
    assert solution.status is Status.FOUND and solution.stats.reason == "memory"
    oracle.replay_length(S, lvl, list(solution.moves))


@pytest.mark.parametrize("child_dies", [False, True])
def test_with_a_time_budget_the_pushes_alone_are_searched_beside(child_dies, monkeypatch, tmp_path):
    # With a spare core the weighted search of the pushes alone runs in a child process
    # while the one under the metric runs here; a child that could not be forked leaves
    # it to this process. Here the proof and the search under the metric run out at once.
    if not spare_core():
        pytest.skip("needs two cores")
    mark = tmp_path / "searched in"
    recorded_searches(monkeypatch, stop="time", mark=mark)
    if child_dies:
        monkeypatch.setattr(sokoban_apart, "start_child", lambda child: None)
    lvl, row = microban(150)[149]
    solution = solve(lvl, "moves", seconds=30)
    assert solution.status is Status.FOUND and solution.stats.reason == "time"
    oracle.replay_length(S, lvl, list(solution.moves))
    assert S.tally(solution.moves).pushes >= int(row["min_pushes"])
    assert (int(mark.read_text()) == os.getpid()) is child_dies


@pytest.mark.parametrize("best_effort", [True, False])
def test_out_of_budget_the_pushes_alone_are_still_proven(best_effort):
    # When the proof of (pushes, moves) runs out, the rest of the budget proves the pushes
    # alone: a plan with the fewest pushes (the table's), marked FOUND (its moves unproven;
    # the tie-break after them runs out too). Microban #98 takes that way as #123 does at
    # 20,000 nodes, in a sixth of the time.
    lvl, row = microban(98)[97]
    control = Control(Budget(nodes=8_000))
    solution = solver.solve(lvl, S.initial_state(lvl), control, "pushes", best_effort=best_effort)
    assert solution.status is Status.FOUND and solution.stats.reason == "nodes"
    oracle.replay_length(S, lvl, list(solution.moves))  # a real plan, that solves
    assert solution.extra["pushes"] == S.tally(solution.moves).pushes == int(row["min_pushes"])
    assert solution.at_least == solution.stats.bound == int(row["min_pushes"])


@pytest.mark.parametrize(
    "number, metric, nodes",
    [(139, "pushes", 3_000), (139, "pushes", 10_000), (98, "pushes", 8_000), (97, "moves", 3_000),
     (140, "moves", 20_000), (124, "moves", 3_000)],
)
def test_a_stopped_proof_says_how_far_it_got_and_never_past_the_optimum(number, metric, nodes):
    lvl, row = microban(number)[number - 1]
    optimum = int(row["min_pushes" if metric == "pushes" else "min_moves"])
    solution = solve(lvl, metric, nodes=nodes)
    assert not solution.optimal and solution.at_least is not None
    assert 0 < solution.at_least <= optimum  # (the weighted search's own bound would overshoot)
    if solution.solved:  # a plan only found: its count is never below what was proven
        moves = oracle.replay_length(S, lvl, list(solution.moves))
        assert solution.at_least <= (S.tally(solution.moves).pushes if metric == "pushes" else moves)
    if (number, nodes) == (139, 10_000):
        assert solution.at_least == optimum  # (proven that far, the plateau left to search)


def test_a_cancelled_proof_still_says_how_far_it_got():
    lvl, row = microban(139)[138]
    # (cancelled once a search has a bound, not after so many checks: where checks come is clocked)
    control = Control(should_stop=lambda: control.progress().bound is not None)
    solution = solver.solve(lvl, S.initial_state(lvl), control, "pushes")
    assert solution.status is Status.CANCELLED and not solution.moves
    assert 0 < solution.at_least <= int(row["min_pushes"])


@pytest.mark.slow
def test_out_of_memory_the_weighted_search_still_offers_a_plan():
    # The app's hints have a memory budget only: the proof's table is freed before the
    # weighted search starts, and that search gets the whole budget again.
    lvl, row = microban(123)[122]
    solution = solve(lvl, "pushes", memory_bytes=5_000_000)  # (3 MB do too)
    assert solution.status is Status.FOUND and solution.stats.reason == "memory"
    assert oracle.replay_length(S, lvl, list(solution.moves)) >= int(row["min_pushes"])


def test_the_search_gives_the_cyclic_collector_back():
    assert gc.isenabled()
    assert solve(hard_level(), "moves", nodes=50).status is Status.BUDGET  # stopped mid-search
    assert gc.isenabled()
    gc.disable()
    try:  # a caller that had it off keeps it off
        assert solve(microban(1)[0][0], "pushes").status is Status.OPTIMAL
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_cancel_is_seen_quickly():
    calls = []

    def should_stop() -> bool:
        calls.append(1)
        return len(calls) > 2

    lvl = hard_level()
    solution = solver.solve(lvl, S.initial_state(lvl), Control(should_stop=should_stop), "pushes")
    assert solution.status is Status.CANCELLED and solution.stats.expanded < 2000


def test_progress_is_reported():
    reports = []
    lvl = hard_level()
    control = Control(Budget(nodes=3000), on_progress=reports.append, progress_interval=0.0)
    solver.solve(lvl, S.initial_state(lvl), control, "moves")
    assert reports and reports[-1].expanded > reports[0].expanded


def test_unknown_metric_is_rejected():
    with pytest.raises(ValueError, match="metric"):
        api.solve("sokoban", microban(1)[0][0], metric="steps")


def test_baseline_and_bench_cases_agree_with_the_solver():
    cases = solver.bench_cases(quick=True)
    assert len(cases) >= 3 and all(isinstance(lvl, S.Level) for _, lvl, _ in cases)
    for _, lvl, state in cases[:3]:
        fast = solver.solve(lvl, state, Control(), "moves")
        slow = solver.baseline(lvl, state, Control())
        assert fast.status is slow.status
        if fast.solved:
            assert oracle.replay_length(S, lvl, list(slow.moves), state) == checked(lvl, fast, state)[0]


def test_bench_runner_reports_each_level_and_checks_the_table(tmp_path):
    levels = tmp_path / "two.xsb"
    levels.write_text("; 1\n\n#####\n#@$.#\n#####\n\n; 2\n\n######\n#@ $.#\n######\n")
    table = tmp_path / "table.csv"
    table.write_text("level,boxes,min_pushes,min_moves,pushes_in_min_moves\n1,1,1,1,1\n2,1,1,3,1\n")
    rows = []
    summary = run_collection(levels, "moves", 10, rows.append, expected_csv=table)
    assert [row.index for row in rows] == [1, 2] and summary.rows == tuple(rows)
    assert [(row.moves, row.pushes, row.matches) for row in rows] == [(1, 1, True), (2, 1, False)]
    assert summary.solved == 2 and summary.mismatches == 1 and rows[0].peak_bytes > 0
    assert "2/2 proven optimal, 1 mismatched" in format_summary(summary) and "MISMATCH" in format_row(rows[1])


def test_bench_runner_gives_a_level_that_does_not_read_its_own_row_and_runs_the_others(tmp_path):
    levels = tmp_path / "three.xsb"
    levels.write_text("#####\n#@$.#\n#####\n\n######\n#@$..#\n######\n\n######\n#@ $.#\n######\n")
    rows = []
    summary = run_collection(levels, "moves", 10, rows.append)
    assert [(row.index, row.status, row.moves) for row in rows] == [(1, "optimal", 1), (2, "unreadable", None), (3, "optimal", 2)]
    assert format_row(rows[1]).endswith(f"unreadable {levels}, line 5: 1 box but 2 goals")
    assert "2/3 proven optimal, 1 unreadable;" in format_summary(summary)
    assert summary.median_seconds == statistics.median([rows[0].seconds, rows[2].seconds])
    assert [row.index for row in run_collection(levels, "moves", 10, levels={2, 3}).rows] == [2, 3]


def test_a_bench_row_out_of_budget_ends_with_what_the_proof_reached():
    stopped = BenchRow(153, "153", "budget", None, None, 400_640, 60.5, 613 << 20, at_least=334)
    assert format_row(stopped, "pushes").endswith("613 MiB (at least 334 pushes)")
    proven = BenchRow(1, "1", "optimal", 33, 8, 8, 0.01, 23 << 20, at_least=None)
    assert format_row(proven, "pushes").endswith("23 MiB")


def test_a_bench_row_with_only_its_pushes_proven_says_so():
    counted = BenchRow(153, "153", "found", 1085, 336, 384_076, 55.2, 590 << 20, at_least=336)
    assert format_row(counted, "pushes").endswith("590 MiB (pushes proven fewest; its moves not)")
    short = BenchRow(153, "153", "found", 1085, 340, 384_076, 55.2, 590 << 20, at_least=336)
    assert format_row(short, "pushes").endswith("(at least 336 pushes)")
    proven = BenchRow(1, "1", "optimal", 33, 8, 8, 0.01, 23 << 20, at_least=None)
    summary = BenchSummary("pushes", (proven, counted, short))
    assert "1/3 proven optimal, 1 more with only the pushes proven;" in format_summary(summary)
    assert format_summary(summary).endswith("; memory at most 590 MiB")


def test_the_push_search_counts_at_least_what_its_process_grew(monkeypatch):
    # (Sasquatch #49: 841 MiB held against a 717 MiB share, its 270 bytes an entry short)
    if os.path.exists("/proc/self/statm"):  # (elsewhere it says 0 and only the estimate counts)
        assert 10_000_000 < search.resident_bytes() < 10_000_000_000
    lvl, _ = microban(20)[19]
    board = compile_board(lvl)
    where = search_position(board, S.initial_state(lvl))
    budget = Budget(memory_bytes=500_000_000)
    assert search.push_search(build_tables(board), *where, Control(budget), "moves") is not None
    sizes = iter([0])  # at the start, then 1 GB more at every look
    monkeypatch.setattr(search, "resident_bytes", lambda: next(sizes, 1_000_000_000))
    with pytest.raises(search.Stopped, match="memory"):
        search.push_search(build_tables(board), *where, Control(budget), "moves")

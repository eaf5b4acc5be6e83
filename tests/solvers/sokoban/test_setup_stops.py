"""What the Sokoban solver builds before its search (push tables, pair table, walk bound)
stops on a cancel or a spent budget like the search does: on a 10,000-cell board it
takes seconds. A build that stops is not kept; one that finishes is, whatever check
it was given."""

import random

import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control, Status, api
from fewest.solvers.sokoban import solver
from fewest.solvers.sokoban.board import tables as sokoban_tables
from fewest.solvers.common.control import Stopped
from fewest.solvers.sokoban.board.board import compile_board
from fewest.solvers.sokoban.bounds.pairs import PairBound, pair_bound
from fewest.solvers.sokoban.board.tables import build_tables
from fewest.solvers.sokoban.bounds.walks import WalkBound, _nearest
from tests.sokoban_support import level


def open_room(side: int, boxes: int, seed: int) -> S.Level:
    """A walled square room with `boxes` boxes and as many goals, scattered."""
    rng = random.Random(seed)
    rows = [["#"] * side] + [["#"] + [" "] * (side - 2) + ["#"] for _ in range(side - 2)] + [["#"] * side]
    inner = [(r, c) for r in range(2, side - 2) for c in range(2, side - 2)]
    spots = rng.sample(inner, 2 * boxes + 1)
    for (r, c), mark in zip(spots, "$" * boxes + "." * boxes + "@"):
        rows[r][c] = mark
    return level("\n".join("".join(row) for row in rows))


def stop() -> None:
    raise Stopped("cancelled")


@pytest.fixture(autouse=True)
def nothing_kept():
    build_tables.cache_clear()
    pair_bound.cache_clear()
    sokoban_tables.sides_of.cache_clear()


@pytest.fixture
def pulls(monkeypatch):
    """The goals whose pull distances were worked out."""
    done = []
    real = sokoban_tables.pull_distances

    def counted(board, sides, goal, cells=None):
        done.append(goal)
        return real(board, sides, goal, cells)

    monkeypatch.setattr(sokoban_tables, "pull_distances", counted)
    return done


@pytest.mark.parametrize("metric", ["moves", "pushes"])
def test_a_cancel_stops_the_tables_before_their_first_goal(pulls, metric):
    lvl = open_room(40, 30, seed=1)
    solution = solver.solve(lvl, S.initial_state(lvl), Control(should_stop=lambda: True), metric)
    assert solution.status is Status.CANCELLED and pulls == []


def test_a_spent_budget_stops_the_tables_too(pulls):
    lvl = open_room(40, 30, seed=2)
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(seconds=0)), "moves")
    assert solution.status is Status.BUDGET and pulls == []
    # then built in full, with a check that lets it run, and kept (the next asks nothing)
    board = compile_board(lvl)
    tables = build_tables(board, check=lambda: None)
    assert len(pulls) == 30 and build_tables(board, check=stop) is tables


def test_a_stopped_table_build_is_not_kept():
    board = compile_board(open_room(20, 6, seed=3))
    with pytest.raises(Stopped):
        build_tables(board, check=stop)
    assert build_tables(board).board is board


def test_the_pair_table_stops_and_is_built_next_time():
    board = compile_board(open_room(12, 8, seed=4))
    with pytest.raises(Stopped):
        pair_bound(board, check=stop)
    built = pair_bound(board)
    assert isinstance(built, PairBound) and pair_bound(board, check=stop) is built


def test_the_walk_bound_stops():
    board = compile_board(open_room(20, 6, seed=5))
    live = build_tables(board).live
    with pytest.raises(Stopped):
        WalkBound(board, live, stop)
    assert WalkBound(board, live).end_phi >= 0


def test_nearest_is_the_least_l1_distance_to_the_points():
    rng = random.Random(6)
    for _ in range(50):
        width, height = rng.randint(1, 9), rng.randint(1, 9)
        x0, y0 = rng.randint(-3, 3), rng.randint(-3, 3)
        points = [(x0 + rng.randrange(width), y0 + rng.randrange(height)) for _ in range(rng.randint(1, 6))]
        expected = [
            min(abs(x - px) + abs(y - py) for px, py in points)
            for y in range(y0, y0 + height) for x in range(x0, x0 + width)
        ]
        assert _nearest(points, x0, y0, width, height) == expected


def test_the_cache_keeps_the_latest_builds_by_their_key_alone():
    from fewest.solvers.common.build_cache import cached_per_board

    builds = []

    @cached_per_board(2)
    def build(key, *, check):
        check()
        builds.append(key)
        return [key]

    first = build(1)
    assert build(1, check=stop) is first  # (kept: no check, no build)
    build(2)
    build(1)  # (now the latest: 2 goes first)
    build(3)
    assert build(1) is first and builds == [1, 2, 3]
    build(2)
    assert builds == [1, 2, 3, 2]
    with pytest.raises(Stopped):
        build(4, check=stop)
    assert build(4) == [4] and builds == [1, 2, 3, 2, 4]


def test_a_warm_up_asked_to_stop_builds_nothing_then_builds_all(pulls):
    lvl = open_room(40, 30, seed=7)
    api.warm_up("sokoban", lvl, should_stop=lambda: True)
    assert pulls == []
    api.warm_up("sokoban", lvl, should_stop=lambda: False)
    assert len(pulls) == 30

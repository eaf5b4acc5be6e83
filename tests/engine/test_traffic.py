"""Traffic rules: levels and their validation, slides, what blocks them, goals, counters."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fewest.engine import traffic as T
from fewest.engine.base import IllegalMoveError, InvalidLevelError, InvalidMoveError, format_plan, parse_plan
from fewest.engine.game import Game
from fewest.solvers.traffic.random_levels import random_level

# A 4x4 board: A (target) in row 1, B vertical in column 2, C horizontal in row 3, a wall.
SMALL = T.level_from_rows(
    [
        "..B.",
        "AAB.",
        "....",
        "x.CC",
    ],
    ("exit", "A"),
)


def test_level_from_rows_reads_cars_walls_and_goal():
    assert SMALL.n == 4 and SMALL.walls == frozenset({12})
    assert SMALL.cars == (T.Car("A", True, 2, 1), T.Car("B", False, 2, 2), T.Car("C", True, 2, 3))
    assert SMALL.start == (0, 0, 2)
    assert SMALL.goal == ("exit", "A") and str(SMALL.goal) == "exit A"
    assert T.rows(SMALL) == ["..B.", "AAB.", "....", "x.CC"]


def test_move_text_round_trips_and_bad_text_is_rejected():
    assert str(T.parse_move("AR2")) == "AR2"
    assert T.parse_move("AR") == T.Move("A", "R", 1) and str(T.Move("A", "R")) == "AR1"
    assert T.parse_move(" zD3 ") == T.Move("z", "D", 3) and T.parse_move("0U1").car == "0"
    for bad in ["", "A", "AX1", "ARx", "AR0", "AR9", "AR12", "oR1", "xR1", "-R1", "AR-1", "AR١"]:
        with pytest.raises(InvalidMoveError):
            T.parse_move(bad)
    with pytest.raises(InvalidMoveError):
        T.Move("A", "Q", 1)
    with pytest.raises(InvalidMoveError):
        T.Move("A", "R", 0)


@given(st.sampled_from(T.CAR_NAMES), st.sampled_from("LRUD"), st.integers(1, 8))
def test_parse_move_inverts_str(car, direction, distance):
    move = T.Move(car, direction, distance)
    assert T.parse_move(str(move)) == move


@given(st.text(max_size=6))
def test_fuzzed_move_text_only_raises_invalid_move(text):
    try:
        move = T.parse_move(text)
    except InvalidMoveError:
        return
    assert T.parse_move(str(move)) == move


def test_legal_moves_order_cars_then_back_then_forward_then_distance():
    open_board = T.level_from_rows(["....", "AA..", "...B", "...B"], ("exit", "A"))
    moves = [str(m) for m in T.legal_moves(open_board, T.initial_state(open_board))]
    assert moves == ["AR1", "AR2", "BU1", "BU2"]
    # A: B blocks the right; B: the top edge above, C below; C: the wall stops it after 1.
    assert [str(m) for m in T.legal_moves(SMALL, T.initial_state(SMALL))] == ["BD1", "CL1"]


def test_apply_slides_and_rejects_blocked_or_wrong_axis_moves():
    state = T.initial_state(SMALL)
    after = T.apply(SMALL, state, T.parse_move("BD1"))
    assert after.offsets == (0, 1, 2)
    assert T.rows(SMALL, after) == ["....", "AAB.", "..B.", "x.CC"]
    for bad in ["AR1", "BU1", "BD2", "CR1", "CL2", "AU1", "BL1", "ZR1", "AL1"]:
        with pytest.raises(IllegalMoveError):
            T.apply(SMALL, state, T.parse_move(bad))
    assert state.offsets == (0, 0, 2)  # states are values: nothing changed


def test_exit_goal_needs_the_target_at_the_right_edge():
    level = T.level_from_rows(["....", "AA..", "...B", "...B"], ("exit", "A"))
    state = T.apply(level, T.initial_state(level), T.parse_move("BU1"))
    assert not T.is_solved(level, state)
    with pytest.raises(IllegalMoveError):
        T.apply(level, state, T.parse_move("AR2"))
    state = T.apply(level, state, T.parse_move("BD1"))
    assert not T.is_solved(level, T.apply(level, state, T.parse_move("AR1")))
    assert T.is_solved(level, T.apply(level, state, T.parse_move("AR2")))


def test_clear_row_goal_ignores_walls_and_counts_vertical_cars_crossing_it():
    level = T.level_from_rows(["B..", "Bx.", "..."], ("clear-row", 0))
    state = T.initial_state(level)
    assert not T.is_solved(level, state)
    assert T.is_solved(level, T.apply(level, state, T.parse_move("BD1")))
    walled = T.level_from_rows(["B..", "Bxx", "..."], ("clear-row", 2))
    assert T.is_solved(walled, T.initial_state(walled))
    assert not T.is_solved(walled, T.apply(walled, T.initial_state(walled), T.parse_move("BD1")))
    crossing = T.level_from_rows(["...", ".CC", "..."], ("clear-row", 1))
    assert not T.is_solved(crossing, T.initial_state(crossing))


def test_tally_merges_runs_of_one_car():
    moves = [T.parse_move(m) for m in ["AR1", "AR1", "BD1", "AL1", "AL1", "AL1", "BU2"]]
    assert T.tally(moves).moves == 4
    assert T.tally([]).moves == 0
    assert T.tally(moves[:2]).moves == 1


def test_game_counts_single_steps_of_one_car_as_one_move():
    level = T.level_from_rows(["....", "AA..", "....", "...."], ("exit", "A"))
    game = Game(T, level)
    game.play("AR1")
    game.play("AR1")
    assert game.counters.moves == 1 and game.is_solved()
    game.undo()
    game.play("AL1")
    assert game.counters.moves == 1
    plan = parse_plan(T, "AR1 AR1")
    assert format_plan(T, plan) == "AR2"  # (the text a player copies: one slide, as counted)
    rebuilt = Game.from_record(T, level, game.to_record())
    assert rebuilt.state == game.state


@pytest.mark.parametrize(
    "board, goal, message",
    [
        (["AA.", "...", "..."], ("exit", "B"), "no car B"),
        (["A..", "A..", "..."], ("exit", "A"), "not horizontal"),
        (["AA.", "...", "..."], ("clear-row", 3), "rows are 0..2"),
        (["AA.", "...", "..."], ("diagonal", 0), "unknown goal"),
        (["AA", ".."], ("exit", "A"), "3..8 rows"),
        (["AA......."] + ["........."] * 8, ("exit", "A"), "3..8 rows"),
    ],
)
def test_invalid_levels_are_rejected(board, goal, message):
    with pytest.raises(InvalidLevelError, match=message):
        T.level_from_rows(board, goal)


def test_level_constructor_validates_overlaps_bounds_and_lengths():
    a = T.Car("A", True, 2, 0)
    b = T.Car("B", False, 2, 1)
    goal = ("exit", "A")
    with pytest.raises(InvalidLevelError, match="car B overlaps car A at row 0, col 1"):
        T.Level(3, frozenset(), (a, b), (0, 0), goal)
    with pytest.raises(InvalidLevelError, match="overlaps a wall"):
        T.Level(3, frozenset({1}), (a,), (0,), goal)
    with pytest.raises(InvalidLevelError, match="off the board"):
        T.Level(3, frozenset(), (a,), (2,), goal)
    with pytest.raises(InvalidLevelError, match="off the board"):
        T.Level(3, frozenset(), (T.Car("A", True, 2, 3),), (0,), goal)
    with pytest.raises(InvalidLevelError, match="length 4"):
        T.Level(5, frozenset(), (T.Car("A", True, 4, 0),), (0,), goal)
    with pytest.raises(InvalidLevelError, match="two cars are named A"):
        T.Level(3, frozenset(), (a, T.Car("A", True, 2, 1)), (0, 0), goal)
    with pytest.raises(InvalidLevelError, match="car name"):
        T.Level(3, frozenset(), (T.Car("o", True, 2, 0),), (0,), ("clear-row", 1))
    with pytest.raises(InvalidLevelError, match="start offsets"):
        T.Level(3, frozenset(), (a,), (), goal)
    with pytest.raises(InvalidLevelError, match="wall"):
        T.Level(3, frozenset({9}), (a,), (0,), goal)


@pytest.mark.parametrize(
    "board, row, col, message",
    [
        (["AA.", "B..", "..."], 1, 0, "length 1"),
        (["AA.", ".A.", "..."], 1, 1, "bent"),
        (["A.A", "...", "..."], 0, 2, "straight"),
        (["AAAA", "....", "....", "...."], 0, 3, "length 4"),
        (["AA.", "..?", "..."], 1, 2, "unknown character"),
        (["AA.", "..", "..."], 1, 2, "row 1 has 2 cells"),
    ],
)
def test_board_text_errors_name_the_cell(board, row, col, message):
    with pytest.raises(T.CellError, match=message) as info:
        T.level_from_rows(board, ("exit", "A"))
    assert (info.value.row, info.value.col) == (row, col)


def test_rows_and_level_from_rows_invert_each_other_on_random_boards():
    rng = random.Random(7)
    for _ in range(200):
        level = random_level(rng, rng.randint(3, 8), rng.randint(0, 12), walls=rng.randint(0, 4),
                             goal=rng.choice(("exit", "clear-row")))
        assert T.level_from_rows(T.rows(level), level.goal) == level


def test_legal_moves_are_exactly_the_slides_apply_accepts():
    rng = random.Random(11)
    for _ in range(60):
        level = random_level(rng, rng.randint(3, 6), rng.randint(1, 8), walls=rng.randint(0, 3))
        state = T.initial_state(level)
        for _step in range(8):
            legal = T.legal_moves(level, state)
            assert len(set(legal)) == len(legal)
            for car in level.cars:
                for direction in "LRUD":
                    for distance in range(1, level.n):
                        move = T.Move(car.name, direction, distance)
                        if move in legal:
                            after = T.apply(level, state, move)
                            back = {"L": "R", "R": "L", "U": "D", "D": "U"}[direction]
                            assert T.apply(level, after, T.Move(car.name, back, distance)) == state
                        else:
                            with pytest.raises(IllegalMoveError):
                                T.apply(level, state, move)
            if legal:
                state = T.apply(level, state, rng.choice(legal))


def test_a_compacted_plan_replays_and_counts_the_same():
    rng = random.Random(5)
    merged = 0
    for _ in range(100):
        level = random_level(rng, rng.randint(4, 6), rng.randint(1, 6), walls=rng.randint(0, 2))
        state, steps = T.initial_state(level), []
        for _step in range(12):  # single steps, as the keys play them
            ones = [m for m in T.legal_moves(level, state) if m.distance == 1]
            if not ones:
                break
            steps.append(rng.choice(ones))
            state = T.apply(level, state, steps[-1])
        short = T.compact(steps)
        merged += len(steps) - len(short)
        again = T.initial_state(level)
        for move in short:
            again = T.apply(level, again, move)
        assert again == state and T.tally(short) == T.tally(steps)
        assert parse_plan(T, format_plan(T, steps)) == short
    assert merged  # (runs of one car's steps the same way were met)

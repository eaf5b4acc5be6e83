"""Password rules: level checks, commands, wrapping cursors, placing, and the mid-end."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fewest.engine import password
from fewest.engine.base import IllegalMoveError, InvalidLevelError, InvalidMoveError, format_plan, parse_plan
from fewest.engine.game import Game
from fewest.engine.registry import rules_for

CORNER = password.make_level(["____", "____", "____", "___S"])


def test_registered_under_its_name():
    assert rules_for("password") is password and password.PLAN_SEPARATOR == ""


def test_level_from_rows_defaults_to_a_blank_start():
    level = password.make_level(["_H", "YS"])
    assert (level.rows, level.cols, level.code, level.rail) == (2, 2, (0, 1, 2, 3), "_HYS")
    assert level.start == (0, 0, 0, 0) and level == password.Level(2, 2, (0, 1, 2, 3))
    assert password.grid_rows(level, level.code) == ["_H", "YS"]
    state = password.initial_state(level)
    assert (state.grid, state.cursor, state.rail) == ((0, 0, 0, 0), 0, 0)


def test_custom_rail_and_start_grid():
    level = password.make_level(["ab", "cd"], rail=".abcd", start=["aa", ".."])
    assert level.code == (1, 2, 3, 4) and level.start == (1, 1, 0, 0)
    assert password.initial_state(level).grid == (1, 1, 0, 0)


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: password.Level(7, 1, (0,) * 7), "grid too large"),
        (lambda: password.Level(1, 0, ()), "grid too large"),
        (lambda: password.Level(1, 2, (0, 4)), "cell 2 of the code holds 4"),
        (lambda: password.Level(1, 2, (0,)), "the code has 1 cells; the grid has 2"),
        (lambda: password.Level(1, 1, (0,), rail="__"), "distinct"),
        (lambda: password.Level(1, 1, (0,), rail="_ H"), "distinct visible"),
        (lambda: password.Level(1, 1, (0,), rail=""), "1 to 16 figures"),
        (lambda: password.Level(1, 2, (0, 0), start=(0, 9)), "start grid holds 9"),
        (lambda: password.make_level(["_X"]), "'X', which is not on the rail"),
        (lambda: password.make_level(["__", "_"]), "row 2 has 1 cells"),
        (lambda: password.make_level(["__"], start=["__", "__"]), "must be 1x2"),
    ],
)
def test_invalid_levels_say_what_is_wrong(build, message):
    with pytest.raises(InvalidLevelError, match=message):
        build()


def test_commands_parse_and_print():
    assert [str(password.parse_move(ch)) for ch in "udlr<>*"] == list("udlr<>*")
    assert password.parse_move(" U ") == password.Move("u")


@pytest.mark.parametrize("text", ["", "x", "**", "ud", None, 3])
def test_bad_commands_are_invalid(text):
    with pytest.raises(InvalidMoveError):
        password.parse_move(text)


def test_every_command_is_always_legal_in_a_fixed_order():
    state = password.initial_state(CORNER)
    assert "".join(map(str, password.legal_moves(CORNER, state))) == "udlr<>*"


def test_cursors_wrap_and_place_writes_the_active_figure():
    state = password.initial_state(CORNER)
    state = password.apply(CORNER, state, password.Move("u"))
    assert state.cursor == 12
    state = password.apply(CORNER, state, password.Move("l"))
    assert state.cursor == 15
    state = password.apply(CORNER, state, password.Move("<"))
    assert state.rail == 3
    state = password.apply(CORNER, state, password.Move(">"))
    assert state.rail == 0
    state = password.apply(CORNER, state, password.Move("d"))
    state = password.apply(CORNER, state, password.Move("r"))
    assert state.cursor == 0
    state = password.apply(CORNER, state, password.Move(">"))
    state = password.apply(CORNER, state, password.Move("*"))
    assert state.grid[0] == 1 and state.grid[1:] == (0,) * 15


def test_unknown_move_values_are_illegal():
    with pytest.raises(IllegalMoveError):
        password.apply(CORNER, password.initial_state(CORNER), "u")


def test_rulebook_plan_solves_and_counts():
    plan = parse_plan(password, "<ul*")
    game = Game(password, CORNER)
    for move in plan:
        assert not game.is_solved()
        game.play(move)
    assert game.is_solved() and game.counters.moves == 4
    assert format_plan(password, plan) == "<ul*"
    assert password.tally(plan).moves == 4


def test_solved_ignores_where_the_cursors_stand():
    level = password.make_level(["__"])
    assert password.is_solved(level, password.State((0, 0), 1, 2))
    assert not password.is_solved(level, password.State((0, 1), 0, 0))


def test_saved_game_replays():
    game = Game(password, CORNER)
    for key in "<u*":
        game.play(key)
    game.undo()
    again = Game.from_record(password, CORNER, game.to_record())
    assert again.state == game.state and again.can_redo


@given(st.integers(1, 6), st.integers(1, 6), st.text(alphabet="udlr<>*", max_size=40))
def test_commands_keep_the_state_in_range(rows, cols, keys):
    level = password.Level(rows, cols, (0,) * (rows * cols))
    state = password.initial_state(level)
    placed = 0
    for key in keys:
        state = password.apply(level, state, password.parse_move(key))
        assert 0 <= state.cursor < rows * cols and 0 <= state.rail < 4
        placed += key == "*"
    assert sum(1 for v in state.grid if v) <= placed

"""Shift rules: level checks, move text, legal moves, apply, and the mid-end."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fewest.engine import shift
from fewest.engine.base import IllegalMoveError, InvalidLevelError, InvalidMoveError, format_plan, parse_plan
from fewest.engine.game import Game
from fewest.engine.registry import rules_for

RULEBOOK = shift.make_level(["1111", "0000", "1110", "0010"], ["1010", "0101", "1010", "0101"])


def test_registered_under_its_name():
    assert rules_for("shift") is shift and shift.PLAN_SEPARATOR == " "


def test_level_from_pictures_uses_reading_order():
    level = shift.make_level(["10", "01"], ["01", "10"])
    assert (level.rows, level.cols, level.start, level.target) == (2, 2, 0b1001, 0b0110)
    assert level.pieces == 2 and level.cells == 4
    assert shift.pattern_rows(level, level.target) == ["01", "10"]


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: shift.make_level(["11", "11"], ["11", "10"]), "start has 4 pieces but target has 3"),
        (lambda: shift.Level(9, 2, 1, 1), "board too large"),
        (lambda: shift.Level(2, 0, 0, 0), "board too large"),
        (lambda: shift.Level(2, 2, 1 << 4, 1), "off the 2x2 board"),
        (lambda: shift.Level(2, 2, -1, 1), "off the 2x2 board"),
        (lambda: shift.make_level(["1x"], ["10"]), "cells are 0 or 1"),
        (lambda: shift.make_level(["10", "1"], ["10", "10"]), "row 2 has 1 cells"),
        (lambda: shift.make_level(["10"], ["10", "00"]), "same size"),
    ],
)
def test_invalid_levels_say_what_is_wrong(build, message):
    with pytest.raises(InvalidLevelError, match=message):
        build()


def test_move_text_is_chess_like_with_row_one_on_top():
    move = shift.parse_move("b3r")
    assert (move.row, move.col, move.direction) == (2, 1, "r")
    assert str(move) == "b3r" and shift.parse_move(" H8U ") == shift.Move(7, 7, "u")


@pytest.mark.parametrize("text", ["", "b3", "i1r", "a0r", "a9d", "a1x", "a1rr", "1ar", None])
def test_bad_move_text_is_invalid(text):
    with pytest.raises(InvalidMoveError):
        shift.parse_move(text)


@given(st.integers(0, 7), st.integers(0, 7), st.sampled_from("udlr"))
def test_move_text_round_trips(row, col, direction):
    move = shift.Move(row, col, direction)
    assert shift.parse_move(str(move)) == move


def test_legal_moves_in_reading_order_then_udlr():
    level = shift.make_level(["10", "01"], ["01", "10"])
    state = shift.initial_state(level)
    assert [str(m) for m in shift.legal_moves(level, state)] == ["a1d", "a1r", "b2u", "b2l"]


def test_apply_moves_one_piece_to_an_empty_neighbour():
    state = shift.apply(RULEBOOK, shift.initial_state(RULEBOOK), shift.parse_move("b1d"))
    assert shift.pattern_rows(RULEBOOK, state.pieces) == ["1011", "0100", "1110", "0010"]


@pytest.mark.parametrize(
    "text, message",
    [("a2d", "no piece"), ("a1r", "not empty"), ("a1u", "leave the board"), ("e1d", "off the 4x4 board")],
)
def test_illegal_moves_are_refused(text, message):
    with pytest.raises(IllegalMoveError, match=message):
        shift.apply(RULEBOOK, shift.initial_state(RULEBOOK), shift.parse_move(text))


def test_solved_only_on_the_target_and_tally_counts_moves():
    plan = parse_plan(shift, "b1d d1d b3d c4r")
    game = Game(shift, RULEBOOK)
    for move in plan:
        assert not game.is_solved()
        game.play(move)
    assert game.is_solved() and game.counters.moves == 4
    assert format_plan(shift, plan) == "b1d d1d b3d c4r"
    assert shift.tally(plan).moves == 4


def test_saved_game_replays():
    game = Game(shift, RULEBOOK)
    game.play("b1d")
    game.play("d1d")
    game.undo()
    again = Game.from_record(shift, RULEBOOK, game.to_record())
    assert again.state == game.state and again.can_redo


@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_every_listed_move_applies_and_only_those(rows, cols, data):
    cells = rows * cols
    pieces = data.draw(st.integers(0, (1 << cells) - 1))
    level = shift.Level(rows, cols, pieces, pieces)
    state = shift.State(pieces)
    listed = set(shift.legal_moves(level, state))
    for row in range(rows):
        for col in range(cols):
            for direction in "udlr":
                move = shift.Move(row, col, direction)
                try:
                    after = shift.apply(level, state, move)
                except IllegalMoveError:
                    assert move not in listed
                    continue
                assert move in listed
                assert after.pieces.bit_count() == pieces.bit_count()

"""Rotation rules: the lines exactly as the rule book writes them, moves, goal, errors."""

import pytest

from fewest.engine import rotation as rules
from fewest.engine.base import IllegalMoveError, InvalidLevelError, InvalidMoveError, parse_plan, replay
from fewest.engine.game import Game
from fewest.engine.registry import rules_for

# (board, answer, digit) from the rule book.
RULE_BOOK = [
    ("1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3", "AC", 2),
    ("1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3", "DDHH", 2),
    ("1 1 3 2 1 3 3 1 3 1 2 1 3 2 2 3 1 2 2 3 1 3 3 2", "CDFFDBHF", 3),
    ("3 2 1 3 2 1 2 1 1 2 1 2 3 2 3 3 3 2 3 1 1 1 2 3", "AABGAHBBDHFDB", 3),
]

# Typed out again from the rule book (1-based), independently of the module's table.
BOOK_LINES = {
    "A": [1, 3, 7, 12, 16, 21, 23],
    "B": [2, 4, 9, 13, 18, 22, 24],
    "C": [11, 10, 9, 8, 7, 6, 5],
    "D": [20, 19, 18, 17, 16, 15, 14],
    "E": [24, 22, 18, 13, 9, 4, 2],
    "F": [23, 21, 16, 12, 7, 3, 1],
    "G": [14, 15, 16, 17, 18, 19, 20],
    "H": [5, 6, 7, 8, 9, 10, 11],
}
LABELS = rules.State(tuple(range(1, 25)))  # cell n holds n: shows where every value goes


def board(text):
    return rules.make_level(int(t) for t in text.split())


def test_family_is_registered():
    assert rules_for("rotation") is rules
    assert rules.NAME == "rotation" and rules.PLAN_SEPARATOR == ""


@pytest.mark.parametrize("letter", "ABCDEFGH")
def test_each_cell_takes_the_value_of_the_next_cell_in_its_line(letter):
    after = rules.apply(None, LABELS, rules.parse_move(letter)).cells
    line = BOOK_LINES[letter]
    for i, cell in enumerate(line):
        assert after[cell - 1] == line[(i + 1) % 7]  # the first value goes to the end
    for cell in range(1, 25):
        if cell not in line:
            assert after[cell - 1] == cell


def test_a_moves_the_left_column_up():
    after = rules.apply(None, LABELS, rules.parse_move("A")).cells
    assert (after[0], after[2], after[6], after[22]) == (3, 7, 12, 1)


@pytest.mark.parametrize("letter, inverse", zip("ABCD", "FEHG"))
def test_reversed_moves_undo_each_other(letter, inverse):
    move, back = rules.parse_move(letter), rules.parse_move(inverse)
    assert rules.apply(None, rules.apply(None, LABELS, move), back) == LABELS
    assert rules.apply(None, rules.apply(None, LABELS, back), move) == LABELS


@pytest.mark.parametrize("move", rules.MOVES)
def test_every_move_has_order_seven(move):
    state = LABELS
    for turn in range(1, 8):
        state = rules.apply(None, state, move)
        assert (state == LABELS) == (turn == 7)


def test_moves_are_all_legal_in_letter_order():
    level = board(RULE_BOOK[0][0])
    moves = rules.legal_moves(level, rules.initial_state(level))
    assert [str(m) for m in moves] == list("ABCDEFGH")
    assert len({rules.apply(level, rules.initial_state(level), m) for m in moves}) == 8


@pytest.mark.parametrize("text, plan, digit", RULE_BOOK)
def test_rule_book_answers_solve_with_their_digit(text, plan, digit):
    level = board(text)
    start = rules.initial_state(level)
    assert not rules.is_solved(level, start) and rules.centre_digit(start) is None
    moves = parse_plan(rules, plan)
    end = replay(rules, level, moves)
    assert rules.is_solved(level, end) and rules.centre_digit(end) == digit
    for cut in range(len(moves)):  # no proper prefix already solves it
        assert not rules.is_solved(level, replay(rules, level, moves[:cut]))
    assert rules.tally(moves).moves == len(plan)


def test_centre_cells_are_the_eight_of_the_rule_book():
    cells = [1] * 24
    for number in (7, 8, 9, 12, 13, 16, 17, 18):
        cells[number - 1] = 3
    state = rules.State(tuple(cells))
    assert rules.centre_digit(state) == 3
    cells[16] = 2  # cell 17
    assert rules.centre_digit(rules.State(tuple(cells))) is None


def test_move_text_round_trips():
    for move in rules.MOVES:
        assert rules.parse_move(str(move)) == move
    assert rules.parse_move("c") == rules.parse_move("C")
    assert rules.parse_move(" H ") == rules.MOVES[7]


@pytest.mark.parametrize("text", ["", "I", "AB", "1", "-", "Ä", None, 3])
def test_bad_move_text_is_invalid(text):
    with pytest.raises(InvalidMoveError):
        rules.parse_move(text)


def test_bad_moves_are_rejected():
    with pytest.raises(InvalidMoveError):
        rules.Move("Z")
    with pytest.raises(IllegalMoveError):
        rules.apply(None, LABELS, "A")  # text is not a move


@pytest.mark.parametrize(
    "cells",
    [
        (1,) * 23,
        (1,) * 25,
        (0,) + (1,) * 23,
        (4,) + (1,) * 23,
        ("1",) + (1,) * 23,
        (True,) + (1,) * 23,
        (1.0,) + (1,) * 23,
        [1] * 24,
    ],
)
def test_invalid_levels_are_refused(cells):
    with pytest.raises(InvalidLevelError):
        rules.Level(cells)


def test_make_level_refuses_non_sequences():
    with pytest.raises(InvalidLevelError):
        rules.make_level(5)
    assert rules.make_level([2] * 24) == rules.Level((2,) * 24)


def test_game_history_replays_through_the_rules():
    level = board(RULE_BOOK[2][0])
    game = Game(rules, level)
    for letter in "CDFFDBHF":
        game.play(letter)
    assert game.is_solved() and game.counters.moves == 8
    game.undo()
    assert not game.is_solved()
    rebuilt = Game.from_record(rules, level, game.to_record())
    assert rebuilt.state == game.state and rebuilt.can_redo
    with pytest.raises(InvalidMoveError):
        game.play("X")

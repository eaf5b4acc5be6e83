"""The mid-end: history, undo/redo/restart as entries, counters, saved records."""

import pytest

from fewest.engine import EntryKind, Game, IllegalMoveError, InvalidMoveError
from tests import toy_rules as toy


def new_game() -> Game:
    return Game(toy, toy.Level(1, 12))


def test_play_undo_redo_counts():
    game = new_game()
    game.play("+")
    game.play("*")
    assert game.state == 4
    assert game.counters.moves == 2 and game.counters.pushes == 1
    assert game.undo() and game.state == 2
    assert game.counters.moves == 1
    assert game.redo() and game.state == 4
    assert not game.redo()


def test_new_move_drops_redo_tail():
    game = new_game()
    game.play("+")
    game.undo()
    game.play("*")
    assert not game.can_redo and game.state == 2


def test_restart_is_undoable_and_resets_counters():
    game = new_game()
    for text in "+*+":
        game.play(text)
    assert game.restart()
    assert game.state == 1 and game.counters.moves == 0
    assert not game.restart()  # already at the start: no entry
    game.undo()
    assert game.state == 5 and game.counters.moves == 3


def test_assisted_only_counts_current_line():
    game = new_game()
    game.play("+", EntryKind.HINT)
    assert game.assisted
    game.restart()
    assert not game.assisted
    game.play("*", EntryKind.SOLVE)
    assert game.assisted


def test_help_undone_and_then_played_by_hand_is_still_help():
    game = new_game()
    game.play("+", EntryKind.HINT)
    game.undo()
    game.play("+")  # the hint's move, by hand
    assert game.assisted and [e.kind for e in game.entries] == [EntryKind.MOVE]
    again = Game.from_record(toy, game.level, game.to_record())  # kept in a save
    assert again.assisted
    game.restart()
    game.play("+")
    assert not game.assisted  # a restart is a fresh start
    game.undo()
    game.undo()  # back before the restart: that line had help
    assert game.assisted
    game.undo()
    game.play("*")  # (a line whose undone tail had help, before any restart)
    assert game.assisted
    fresh = new_game()
    fresh.play("+")
    fresh.play("+", EntryKind.SOLVE)
    fresh.restart()
    fresh.play("+")
    assert not Game.from_record(toy, fresh.level, fresh.to_record()).assisted


def test_illegal_and_invalid_moves_leave_game_unchanged():
    game = Game(toy, toy.Level(toy.LIMIT - 1, 12))
    with pytest.raises(IllegalMoveError):
        game.play("*")
    with pytest.raises(InvalidMoveError):
        game.play("x")
    assert game.state == toy.LIMIT - 1 and not game.can_undo
    assert isinstance(IllegalMoveError("x"), ValueError)


def test_record_round_trip_keeps_kinds_restart_and_redo():
    game = new_game()
    game.play("+")
    game.play("*", EntryKind.HINT)
    game.restart()
    game.play("*", EntryKind.SOLVE)
    game.undo()
    record = game.to_record()
    again = Game.from_record(toy, game.level, record)
    assert again.to_record() == record
    assert again.state == game.state
    assert [e.kind for e in again.entries] == [e.kind for e in game.entries]
    assert again.redo() and again.state == 2


@pytest.mark.parametrize(
    "record",
    [
        {},
        {"entries": [["move", "x"]]},
        {"entries": [["jump", "+"]]},
        {"entries": [["move"]]},
        {"entries": [["move", "+"]], "position": 5},
        {"entries": 7},
    ],
)
def test_corrupt_records_raise_value_errors(record):
    with pytest.raises(ValueError):
        Game.from_record(toy, toy.Level(1, 12), record)


def test_solved():
    game = Game(toy, toy.Level(3, 4))
    assert not game.is_solved()
    game.play("+")
    assert game.is_solved()

"""Sokoban rules: steps, pushes, what blocks them, counters, records, and the rule book's cases."""

from pathlib import Path

import pytest

from fewest.engine import sokoban as S
from fewest.engine.base import IllegalMoveError, InvalidLevelError, InvalidMoveError, format_plan, parse_plan
from fewest.engine.game import EntryKind, Game
from fewest.levels.sokoban_contest import parse_contest_plan, read_contest
from fewest.levels.sokoban_xsb import read_xsb
from tests import oracle
from tests.paths import DATA_DIR

RULEBOOK = DATA_DIR / "rulebook"


def level(text: str) -> S.Level:
    return read_xsb(text)[0].level


def cell(lvl: S.Level, row: int, col: int) -> int:
    return row * lvl.width + col


ROOM = level(
    """
######
#    #
# $  #
#@$$.#
#  . #
#  . #
######
"""
)


def test_move_text_round_trips_and_bad_text_is_rejected():
    for text in "lurdLURD":
        assert str(S.parse_move(text)) == text
    assert S.parse_move("L") == S.Move("l", True)
    for bad in ["", "x", "lu", "H", " ", "1"]:
        with pytest.raises(InvalidMoveError):
            S.parse_move(bad)
    with pytest.raises(InvalidMoveError):
        S.Move("x", False)


def test_neighbour_stops_at_the_grid_edge():
    lvl = ROOM
    assert S.neighbour(lvl, cell(lvl, 3, 1), "u") == cell(lvl, 2, 1)
    assert S.neighbour(lvl, cell(lvl, 3, 1), "r") == cell(lvl, 3, 2)
    assert S.neighbour(lvl, 0, "l") is None and S.neighbour(lvl, 0, "u") is None
    last = lvl.width * lvl.height - 1
    assert S.neighbour(lvl, last, "r") is None and S.neighbour(lvl, last, "d") is None
    assert S.neighbour(lvl, lvl.width - 1, "r") is None  # no wrapping onto the next row


def test_legal_moves_in_lurd_order_with_push_flags():
    state = S.initial_state(ROOM)
    # left: wall; up: free; right: box whose far side holds another box (blocked); down: free
    assert [str(m) for m in S.legal_moves(ROOM, state)] == ["u", "d"]
    state = S.apply(ROOM, state, S.parse_move("u"))
    assert [str(m) for m in S.legal_moves(ROOM, state)] == ["u", "R", "d"]


def test_push_moves_the_box_and_the_player():
    state = S.apply(ROOM, S.initial_state(ROOM), S.parse_move("u"))
    after = S.apply(ROOM, state, S.parse_move("R"))
    assert after.player == cell(ROOM, 2, 2)
    assert after.boxes == (state.boxes - {cell(ROOM, 2, 2)}) | {cell(ROOM, 2, 3)}


@pytest.mark.parametrize(
    "moves, why",
    [
        ("l", "wall"),  # a wall
        ("R", "two boxes"),  # a box with a box behind it
        ("r", "a step into a box"),  # flag says step, a box is there
        ("uuR", "push flag with no box"),  # flag says push, nothing there
        ("dddd", "wall below"),
    ],
)
def test_illegal_moves(moves, why):
    state = S.initial_state(ROOM)
    with pytest.raises(IllegalMoveError):
        for text in moves:
            state = S.apply(ROOM, state, S.parse_move(text))


def test_box_against_a_wall_cannot_be_pushed_into_it():
    lvl = level("#####\n#@$.#\n#####")
    state = S.apply(lvl, S.initial_state(lvl), S.parse_move("R"))
    assert S.is_solved(lvl, state)
    with pytest.raises(IllegalMoveError):
        S.apply(lvl, state, S.parse_move("R"))


def test_the_grid_edge_is_a_wall():
    # contest levels have no surrounding walls
    lvl = read_contest("1\n3\nDSM\n")[0].level
    with pytest.raises(IllegalMoveError):
        S.apply(lvl, S.initial_state(lvl), S.parse_move("l"))
    lvl = read_contest("1\n3\nMDS\n")[0].level
    with pytest.raises(IllegalMoveError):  # the box would leave the grid
        S.apply(lvl, S.initial_state(lvl), S.parse_move("R"))
    assert S.legal_moves(lvl, S.initial_state(lvl)) == [S.parse_move("l")]


def test_tally_counts_moves_and_pushes():
    moves = parse_plan(S, "uRdrrL")
    assert S.tally(moves).moves == 6 and S.tally(moves).pushes == 2
    assert format_plan(S, moves) == "uRdrrL"


def test_game_undo_redo_restart_and_counters():
    game = Game(S, ROOM)
    game.play("u")
    game.play("R")
    assert (game.counters.moves, game.counters.pushes) == (2, 1)
    assert game.undo() and (game.counters.moves, game.counters.pushes) == (1, 0)
    assert game.redo() and game.counters.pushes == 1
    assert game.restart() and game.counters.moves == 0 and game.state == S.initial_state(ROOM)
    assert game.undo() and game.counters.moves == 2  # undoing the restart brings the position back
    with pytest.raises(IllegalMoveError):
        game.play("L")  # nothing to push on the left


def test_game_record_round_trip_replays_exact_texts():
    game = Game(S, ROOM)
    for text in "uRu":
        game.play(text)
    game.play("r", EntryKind.HINT)
    game.undo()
    record = game.to_record()
    again = Game.from_record(S, ROOM, record)
    assert again.state == game.state and again.to_record() == record and again.can_redo
    tampered = {"entries": [["move", "u"], ["move", "r"]], "position": 2}  # "r" where a box stands
    with pytest.raises(IllegalMoveError):
        Game.from_record(S, ROOM, tampered)
    with pytest.raises(InvalidMoveError):
        Game.from_record(S, ROOM, {"entries": [["move", "Q"]]})


def test_walk_path_is_shortest_and_avoids_boxes():
    start = S.initial_state(ROOM)
    target = cell(ROOM, 1, 4)
    path = S.walk_path(ROOM, start, target)
    assert path is not None and not any(m.push for m in path)
    state = start
    for move in path:
        state = S.apply(ROOM, state, move)
    assert state.player == target and state.boxes == start.boxes
    assert len(path) == 5  # u u r r r: the row of boxes is in the way below
    assert S.walk_path(ROOM, start, start.player) == []
    assert S.walk_path(ROOM, start, cell(ROOM, 0, 0)) is None  # a wall
    assert S.walk_path(ROOM, start, cell(ROOM, 3, 2)) is None  # a box
    shut = level("#######\n#@$ . #\n#######")
    assert S.walk_path(shut, S.initial_state(shut), cell(shut, 1, 5)) is None


def test_moves_from_directions_reads_push_flags_off_the_board():
    moves = S.moves_from_directions(ROOM, "urd")
    assert [str(m) for m in moves] == ["u", "R", "D"]  # the last step pushes the box below
    with pytest.raises(IllegalMoveError):
        S.moves_from_directions(ROOM, "l")


@pytest.mark.parametrize(
    "text, message",
    [
        ("#####\n#@$ #\n#####", "1 box but 0 goals"),
        ("######\n#@$$.#\n######", "2 boxes but 1 goal"),
        ("#####\n#@ .#\n#####", "0 boxes but 1 goal"),
        ("########\n#@$.#$.#\n########", "can never reach the box"),
    ],
)
def test_invalid_levels(text, message):
    from fewest.levels.base import LevelFormatError

    with pytest.raises(LevelFormatError, match=message):
        read_xsb(text)


def test_a_level_with_no_boxes_and_no_goals_is_solved_from_the_start():
    # The rule book's one condition is boxes == goals: 0 == 0 is a level, solved as it stands
    # (the contest format's only way to write one, having no box-on-goal letter).
    [entry] = read_xsb("####\n#@ #\n####")
    assert S.is_solved(entry.level, S.initial_state(entry.level))


def test_level_validation_on_construction():
    ok = dict(width=3, height=1, walls=frozenset(), goals=frozenset({2}), boxes=frozenset({1}), player=0)
    S.Level(**ok)
    for change, message in [
        (dict(player=3), "outside"),
        (dict(walls=frozenset({0})), "wall"),
        (dict(player=1), "box"),
        (dict(goals=frozenset({1, 2})), "1 box but 2 goals"),
        (dict(boxes=frozenset({5})), "outside"),
    ]:
        with pytest.raises(InvalidLevelError, match=message):
            S.Level(**(ok | change))


def test_sealed_box_on_goal_is_decoration_and_floor_is_flood_filled():
    lvl = level("#####  ###\n#@$.#  #*#\n#####  ###")
    assert cell(lvl, 1, 8) in lvl.boxes and cell(lvl, 1, 8) not in lvl.floor
    assert cell(lvl, 1, 8) not in lvl.outside and cell(lvl, 1, 5) in lvl.outside
    assert lvl.floor == {cell(lvl, 1, c) for c in (1, 2, 3)}
    assert S.is_solved(lvl, S.apply(lvl, S.initial_state(lvl), S.parse_move("R")))


@pytest.mark.parametrize(
    "name, optimal, plan",
    [("sokoban_1.in", 1, "V"), ("sokoban_10.in", 10, "NNVVUUHUHN"), ("sokoban_12.in", 12, "NVVUVUHHNHNV")],
)
def test_rule_book_contest_cases(name, optimal, plan):
    lvl = read_contest((RULEBOOK / name).read_text(), name)[0].level
    shortest = oracle.shortest_plan(S, lvl)
    assert len(shortest) == optimal
    assert oracle.replay_length(S, lvl, shortest) == optimal
    moves = parse_contest_plan(lvl, plan)
    assert oracle.replay_length(S, lvl, moves) == optimal

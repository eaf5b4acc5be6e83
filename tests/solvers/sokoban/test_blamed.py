"""The boxes a dead position is blamed on (what the board marks): the right ones, never a
box of a position the tests do not condemn."""

from __future__ import annotations

import random

from fewest.engine import sokoban as S
from fewest.levels import read_text
from fewest.solvers import api
from fewest.solvers.sokoban.pruning.deadlock import blamed_boxes, is_dead
from tests.sokoban_support import positions, random_rooms


def _level(text: str):
    return read_text(text, "t.xsb")[0].level


def test_a_box_on_a_dead_square_and_a_frozen_block_off_goals_are_blamed():
    cornered = _level("######\n#$   #\n#  @.#\n######\n")  # (a box in a corner)
    assert blamed_boxes(cornered, S.initial_state(cornered)) == {7}
    block = _level("#######\n#     #\n# $$  #\n# $$ @#\n#.... #\n#######\n")  # (four boxes, frozen as one)
    state = S.initial_state(block)
    assert is_dead(block, state) and blamed_boxes(block, state) == set(state.boxes)
    assert api.blamed("sokoban", block, state) == set(state.boxes)
    assert api.blamed("rotation", None, None) == frozenset()  # (a family with no deadlocks)


def test_only_boxes_of_condemned_positions_are_blamed():
    rng = random.Random(3)
    blamed_seen = 0
    for room in random_rooms(13, 30):
        for state in positions(room, rng, 8):
            blamed = blamed_boxes(room, state)
            assert blamed <= set(state.boxes)
            if blamed:
                blamed_seen += 1
                assert is_dead(room, state)
    assert blamed_seen > 0

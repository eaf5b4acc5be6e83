"""The tests' own Dijkstra over single steps (sokoban_support.lexicographic_optimum), which
the exactness tests trust, gives the same answers as the same search through the engine's
legal_moves and apply, under both metrics, from starts and from positions in mid-game."""

import random

import pytest

from tests.sokoban_support import (
    exactness_rooms,
    lexicographic_optimum,
    lexicographic_optimum_by_engine,
    positions,
    random_rooms,
    symmetric_room,
)


@pytest.mark.parametrize("metric", ["moves", "pushes"])
def test_the_fast_dijkstra_answers_as_the_engine_s_moves_do(metric):
    rng = random.Random(5)
    answers = set()
    for room in exactness_rooms(77, 15) + random_rooms(78, 10, symmetric_room):
        for state in positions(room, rng, 3):
            expected = lexicographic_optimum_by_engine(room, metric, state)
            assert lexicographic_optimum(room, metric, state) == expected
            answers.add(expected if expected is None else expected[0] > 0)
    assert answers == {None, False, True}  # unsolvable, solved already, and plans to find

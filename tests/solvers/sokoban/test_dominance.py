"""The push search's dominance rules at their edges: a node is skipped when the same boxes
were reached with the player elsewhere in its region so much cheaper that walking over
costs no more, and never when walking over would cost even one unit more. (With the first
rule one step too eager, the random rooms of the exactness tests still all passed.)"""

import pytest

from fewest.engine import sokoban as S
from fewest.solvers.sokoban.board.board import compile_board
from fewest.solvers.sokoban.searches.push import MAJOR, _beside, _dominated
from tests.sokoban_support import level, search_position

ROOM = "########\n#@     #\n#  $  .#\n########"
G = 1000 * MAJOR  # the node's cost


def room():
    """The board, the player's cell and BFS layers, and the free cells."""
    lvl = level(ROOM)
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    free = board.floor & ~boxes
    _, layers = board.layers(player, free)
    return board, player, layers, free


@pytest.mark.parametrize("per_step", [1, MAJOR])  # a step under pushes (ties only), under moves
@pytest.mark.parametrize("distance", [1, 3, 5])
def test_another_node_dominates_only_when_walking_over_costs_no_more(per_step, distance):
    _, _, layers, _ = room()
    other = (layers[distance] & -layers[distance]).bit_length() - 1  # a cell that far away

    def dominated(other_cost: int) -> bool:
        table = {other: (other_cost, None, 0)}  # (keyed by the player's cell alone: same boxes)
        return _dominated(table, int, G, 1 << other, layers, per_step)

    walk = distance * per_step
    assert dominated(G - walk)  # there, then the walk over: exactly this node's cost
    assert dominated(G - walk - 1)
    assert not dominated(G - walk + 1)  # (one push more under moves, one step under pushes)
    assert not dominated(G - walk + per_step)  # the walk counted one step short
    assert not dominated(G)  # as cheap, but not cheaper: this one is kept
    assert not _dominated({}, int, G, 1 << other, layers, per_step)  # no node there


def test_a_node_one_free_step_away_dominates_at_no_more_cost():
    board, player, layers, free = room()
    beside = (layers[1] & -layers[1]).bit_length() - 1
    assert _beside({beside: (G, None, 0)}, int, G, player, board.steps, free)
    assert _beside({beside: (G - 1, None, 0)}, int, G, player, board.steps, free)
    assert not _beside({beside: (G + 1, None, 0)}, int, G, player, board.steps, free)
    assert not _beside({beside: (G, None, 0)}, int, G, player, board.steps, free & ~(1 << beside))  # not free
    two_away = (layers[2] & -layers[2]).bit_length() - 1
    assert not _beside({two_away: (0, None, 0)}, int, G, player, board.steps, free)  # not one step

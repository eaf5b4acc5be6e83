"""The breadth-first search from both ends (moves metric): exact against an independent
Dijkstra over single steps, its hand-over to the push search when its share of the
budget runs out, and its stops (the proven Microban counts: test_switch_matrix.py). Every
plan is replayed."""

import random
import tracemalloc

import numpy as np
import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control, Status, Stopped
from fewest.solvers.sokoban import solver
from fewest.solvers.sokoban.searches import meet as sokoban_meet
from fewest.solvers.sokoban.searches import meet_compact as sokoban_meet_compact
from fewest.solvers.sokoban.board.board import compile_board
from fewest.solvers.sokoban.searches.meet import meet_search
from fewest.solvers.sokoban.board.symmetry import board_symmetry
from fewest.solvers.sokoban.board.tables import build_tables
from fewest.solvers.sokoban.tuning import TUNING
from tests import oracle
from tests.sokoban_support import (
    checked,
    exactness_rooms,
    level,
    lexicographic_optimum,
    microban,
    pulled_away,
    random_rooms,
    room_level,
    search_position,
    solve,
    tuned,
)


def meet(lvl: S.Level, control: Control | None = None, tuning=TUNING):
    board = compile_board(lvl)
    position = search_position(board, S.initial_state(lvl))
    return meet_search(build_tables(board), *position, control or Control(), tuning=tuning)


def replayed(lvl: S.Level, letters: str) -> tuple[int, int]:
    moves = [S.parse_move(letter) for letter in letters]
    return oracle.replay_length(S, lvl, moves), S.tally(moves).pushes


def assert_like_the_dijkstra(room: S.Level) -> None:
    expected = lexicographic_optimum(room, "moves")
    found = meet(room)
    if expected is None:
        assert found is None
    else:
        letters, moves, pushes = found
        assert (moves, pushes) == expected == replayed(room, letters)


@pytest.fixture
def dict_version(monkeypatch):
    """States held in Python dicts, as on boards whose states take more than 64 bits."""
    monkeypatch.setattr(sokoban_meet_compact.CompactStates, "fits", property(lambda self: False))


@pytest.mark.parametrize("seed", range(200, 206))
def test_matches_an_independent_dijkstra_on_random_rooms(seed):
    for room in exactness_rooms(seed, 40):
        assert_like_the_dijkstra(room)


@pytest.mark.parametrize("seed", range(206, 209))
def test_the_dict_version_matches_the_dijkstra_too(seed, dict_version):
    for room in exactness_rooms(seed, 40):
        assert_like_the_dijkstra(room)


def test_the_two_versions_hold_the_same_states():
    """The same layers, so the same states, where no mirror image is merged."""
    lvl, _ = microban(30)[25]  # (no mirror symmetry: the dict version merges no images)
    assert board_symmetry(compile_board(lvl)) is None
    packed, held_in_dicts = Control(), Control()
    found = meet(lvl, packed)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sokoban_meet_compact.CompactStates, "fits", property(lambda self: False))
        assert meet(lvl, held_in_dicts) == found
    # (a search's report goes to its caller's meter as it ends)
    assert packed.meter.stored == held_in_dicts.meter.stored > 500


def test_a_board_whose_states_take_more_than_64_bits_is_searched_in_dicts():
    rows = ["#" * 14] + ["#" + " " * 12 + "#"] * 9 + ["#" * 14]
    rows[5] = "#     @$.    #"  # 70 cells a box may stand on, and 108 for the player: 77 bits
    lvl = level("\n".join(rows))
    board = compile_board(lvl)
    assert not sokoban_meet_compact.CompactStates(board, build_tables(board), board.mask(S.initial_state(lvl).boxes)).fits
    assert meet(lvl)[1:] == (1, 1)


def test_a_layer_keeps_each_state_once_with_its_fewest_pushes():
    # (a state met twice in one chunk: reached by a walk and by a push, say)
    states = np.array([9, 4, 9, 7, 4, 9], np.uint64)
    pushes = np.array([3, 2, 1, 5, 6, 2], np.uint32)
    kept, least = sokoban_meet_compact.fewest(states, pushes)
    assert kept.tolist() == [4, 7, 9] and least.tolist() == [2, 5, 1]
    assert [len(part) for part in sokoban_meet_compact.fewest(states[:0], pushes[:0])] == [0, 0]


@pytest.mark.parametrize("first, second", [(5, 1), (1, 5)])
def test_a_state_made_again_later_in_its_layer_keeps_its_fewest_pushes(first, second):
    made = {1: [(10, first), (11, 0)], 2: [(10, second)]}  # state 10 from both, in two chunks

    def expand(pack, states, pushes, back):
        children = [child for state in states.tolist() for child in made[state]]
        ways = np.full(len(children), sokoban_meet_compact.NO_WAY, np.uint8)
        return np.array([c for c, _ in children], np.uint64), np.array([p for _, p in children], np.uint32), ways

    side = sokoban_meet_compact.Side(np.array([1, 2], np.uint64), None, expand, 1)  # (a state a chunk)
    side.grow(Control())
    states, pushes, _ = side.layer
    assert dict(zip(states.tolist(), pushes.tolist())) == {10: 1, 11: 0}
    held, values = side.table.get(np.array([10], np.uint64))
    assert held[0] and values[0] == sokoban_meet_compact.DEPTH + 1


@pytest.mark.parametrize("steps", ["forward_steps", "backward_steps"])
def test_a_step_back_the_way_a_state_came_is_not_made_again(steps):
    lvl = level("#######\n#     #\n# @$. #\n#     #\n#######")
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    pack = sokoban_meet_compact.CompactStates(board, build_tables(board), boxes)
    expand = getattr(sokoban_meet_compact, steps)

    def made_from(state: int, back: int) -> tuple[list, list]:
        made, _, ways = expand(pack, np.array([state], np.uint64), np.zeros(1, np.uint32), np.array([back], np.uint8))
        return made.tolist(), ways.tolist()

    start = pack.pack(boxes, player)
    left = pack.pack(boxes, player - 1)  # (a step left, d = 0: its way back is right, 2)
    made, ways = made_from(start, sokoban_meet_compact.NO_WAY)
    assert left in made and ways[made.index(left)] == 2
    back_again, _ = made_from(left, 2)
    assert start not in back_again and len(back_again) >= 2  # (up and down still made)
    assert start in made_from(left, sokoban_meet_compact.NO_WAY)[0]


def test_a_solved_start_and_a_hopeless_one():
    assert meet(level("#####\n#@* #\n#####")) == ("", 0, 0)
    assert meet(level("#####\n#@ .#\n#$  #\n#####")) is None  # the box is in a corner
    assert solve(level("#####\n#@ .#\n#$  #\n#####"), "moves").status is Status.UNSOLVABLE


def test_when_its_share_runs_out_the_push_search_finishes_the_proof():
    lvl, row = microban(66)[65]  # both ends hold some 11,000 states; the push search needs ~400
    control = Control(Budget(nodes=4000))
    solution = solver.solve(lvl, S.initial_state(lvl), control, "moves")
    assert checked(lvl, solution) == (int(row["min_moves"]), int(row["pushes_in_min_moves"]))
    assert control.expanded > 4000 * TUNING.meet.share * (1 - TUNING.best_effort.share)


def test_it_stops_on_the_budget_and_on_cancel():
    lvl, _ = microban(66)[65]
    with pytest.raises(Stopped, match="nodes"):
        meet(lvl, Control(Budget(nodes=1000)))
    with pytest.raises(Stopped, match="memory"):
        meet(lvl, Control(Budget(memory_bytes=20_000)))
    calls = []
    control = Control(should_stop=lambda: bool(calls.append(1)) or len(calls) > 1)
    with pytest.raises(Stopped, match="cancelled"):
        meet(lvl, control)
    assert control.expanded < 2000


@pytest.mark.parametrize("budget", [5_500_000, 8_000_000])  # (where a resize comes near the end)
def test_what_it_allocates_stays_within_its_memory_budget(budget):
    """Its count covers both sides' tables, including the doubled table one adds (with the
    old one still held) when it grows, the layers and a chunk's work arrays. (Measured
    from its first memory check, after the fixed tables.)"""
    lvl, _ = microban(93)[92]
    board = compile_board(lvl)
    tables = build_tables(board)
    control = Control(Budget(memory_bytes=budget))
    first = []
    check = control.check

    def measured_check():
        if not first:
            first.append(tracemalloc.get_traced_memory()[0])
        check()

    control.check = measured_check
    tracemalloc.start()
    try:
        with pytest.raises(Stopped, match="memory"):
            meet_search(tables, *search_position(board, S.initial_state(lvl)), control)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert budget * 0.5 < peak - first[0] <= budget


def test_in_dicts_it_counts_what_its_process_grew_beyond_its_own_count(monkeypatch, dict_version):
    """Its count per state falls short on some boards (Sasquatch #49: by 207 MiB at 9.1M
    states): what the process grew by beyond the count is added."""
    lvl, row = microban(66)[65]
    sizes = iter([0])  # its size at the start; from then on, 100 MB more
    monkeypatch.setattr(sokoban_meet, "resident_bytes", lambda: next(sizes, 100_000_000))
    with pytest.raises(Stopped, match="memory"):
        meet(lvl, Control(Budget(memory_bytes=50_000_000)))
    monkeypatch.setattr(sokoban_meet, "resident_bytes", lambda: 0)
    assert meet(lvl, Control(Budget(memory_bytes=50_000_000)))[1] == int(row["min_moves"])


def test_without_a_memory_budget_it_stops_at_its_own_cap():
    lvl, _ = microban(66)[65]
    control = Control()
    with pytest.raises(Stopped, match="memory"):
        meet(lvl, control, tuned(meet={"unbudgeted_bytes": 60_000}))
    assert control.budget.memory_bytes is None  # the caller's budget is left as it was


def mirrored_room(rng: random.Random) -> S.Level | None:
    """A room whose walls and goals are mirror images left to right (the boxes and the
    player are not): the search keeps one entry for both images of a state."""
    half, height = rng.randint(2, 4), rng.randint(4, 6)
    width = 2 * half + 1
    walls = {(r, c) for r in range(height) for c in range(width)}
    walls -= {(r, c) for r in range(1, height - 1) for c in range(1, width - 1)}
    walls.update((r, c) for r in range(1, height - 1) for c in range(1, half + 1) if rng.random() < 0.12)
    walls |= {(r, width - 1 - c) for r, c in walls}
    open_cells = [(r, c) for r in range(height) for c in range(width) if (r, c) not in walls]
    left = [(r, c) for r, c in open_cells if c < half]
    if len(left) < 2:
        return None
    goals = set()
    for r, c in rng.sample(left, rng.randint(1, 2)):
        goals |= {(r, c), (r, width - 1 - c)}
    if len(open_cells) <= len(goals):
        return None
    boxes, player = pulled_away(rng, walls, goals, open_cells, (10, 40))
    room = room_level(width, height, walls, goals, boxes, player)
    if room is None or board_symmetry(compile_board(room)) is None:
        return None  # (inner walls may cut the player's floor unevenly)
    return room


@pytest.mark.parametrize("seed", range(300, 310))
def test_symmetric_boards_keep_one_image_and_still_match_the_dijkstra(seed, dict_version):
    for room in random_rooms(seed, 12, mirrored_room):
        assert_like_the_dijkstra(room)


def test_mirror_images_share_one_entry(monkeypatch, dict_version):
    # Four boxes around the player in a square room: most states have seven mirror twins.
    lvl = level("#######\n#.   .#\n#  $  #\n# $@$ #\n#  $  #\n#.   .#\n#######")
    with_images = Control()
    found = meet(lvl, with_images)
    monkeypatch.setattr(sokoban_meet, "board_symmetry", lambda board: None)
    without = Control()
    assert meet(lvl, without)[1:] == found[1:] == lexicographic_optimum(lvl, "moves")
    assert replayed(lvl, found[0]) == found[1:]
    assert with_images.meter.stored * 3 < without.meter.stored


def test_pushes_into_a_freeze_are_not_made(monkeypatch):
    lvl, row = microban(10)[9]
    pruned = Control()
    found = meet(lvl, pruned)
    monkeypatch.setattr(sokoban_meet, "frozen_group", lambda *_: 0)
    unpruned = Control()
    assert meet(lvl, unpruned)[1:] == found[1:] == (int(row["min_moves"]), int(row["pushes_in_min_moves"]))
    assert pruned.meter.stored < 0.8 * unpruned.meter.stored

"""Budgets that hold on the largest boards (#75): a 100 x 100 room is solved, proven, within
a two-second budget (its tables in a fraction of it: they took 1.9 s before); a proof too
long for its budget on such a board ends, with what it proved; a budget for the process that cannot
hold what the process holds already says "memory" at once; and a square room's
symmetries cost little memory (built whole they took 1.6 GiB)."""

import os
import random
import time
import tracemalloc
from types import SimpleNamespace

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control, Status
from fewest.solvers.common import control as control_module
from fewest.solvers.common.held_bytes import tree_resident_bytes
from fewest.solvers.sokoban import solver
from fewest.solvers.sokoban.board.board import compile_board
from fewest.solvers.sokoban.board.symmetry import board_symmetry
from tests.sokoban_support import checked, level


def room(side: int, marks: dict[tuple[int, int], str]) -> S.Level:
    """A walled square room, `side` cells a side walls included, with `marks` placed."""
    rows = [["#"] * side] + [["#"] + [" "] * (side - 2) + ["#"] for _ in range(side - 2)] + [["#"] * side]
    for (row, col), mark in marks.items():
        rows[row][col] = mark
    return level("\n".join("".join(row) for row in rows))


# One box beside its goal in an open room: the player walks to the cell behind the box (no
# wall or box in the way: the walk is the Manhattan distance) and pushes once. Nothing is
# shorter: the push needs the player there.
ROOM = room(100, {(1, 1): "@", (50, 50): "$", (50, 51): "."}), 49 + 48 + 1
SQUARE = room(99, {(1, 1): "@", (49, 50): "$", (49, 49): "."}), 48 + 50 + 1  # (its goal keeps all 8 symmetries)


def test_a_100_by_100_room_is_solved_optimally_within_two_seconds(monkeypatch):
    # (the tables take ~0.13 s of CPU, the push search's own builds ~0.2 s.) The budget's clock
    # is this process's CPU time, on one core (no helper): the seconds it would have on a
    # machine of its own. By the wall clock, with the suite beside other suites on 2 cores (a
    # load of 10), the process had too little of the CPU to start searching in 2 s.
    monkeypatch.setenv("FEWEST_CORES", "1")
    monkeypatch.setattr(control_module, "time", SimpleNamespace(perf_counter=time.process_time))
    lvl, optimum = ROOM
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(seconds=2.0)), "moves")
    assert solution.status is Status.OPTIMAL
    assert checked(lvl, solution)[0] == optimum


def test_a_proof_too_long_for_its_budget_on_a_big_board_ends_with_what_it_proved():
    rng = random.Random(75)
    spots = rng.sample([(row, col) for row in range(2, 98) for col in range(2, 98)], 13)
    lvl = room(100, dict(zip(spots, "$$$$$$......@")))
    solution = solver.solve(lvl, S.initial_state(lvl), Control(Budget(seconds=0.5)), "moves")
    assert solution.status in (Status.BUDGET, Status.FOUND) and solution.stats.reason == "time"
    if solution.status is Status.FOUND:
        assert S.is_solved(lvl, S.replay(lvl, S.initial_state(lvl), solution.moves))
        assert len(solution.moves) >= (solution.at_least or 0)


def test_a_process_budget_smaller_than_the_process_says_memory_at_once():
    lvl = ROOM[0]
    budget = Budget(seconds=10.0, process_bytes=tree_resident_bytes(os.getpid()) // 2)
    solution = solver.solve(lvl, S.initial_state(lvl), Control(budget), "moves")
    assert solution.status is Status.BUDGET and solution.stats.reason == "memory"


def test_a_square_room_s_symmetries_cost_little_memory():
    board = compile_board(SQUARE[0])
    tracemalloc.start()
    try:
        symmetry = board_symmetry(board)
        images = symmetry.images(board.floor)  # (a mask of every cell: a region's images)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(symmetry.maps) == 7 and all(image == board.floor for image in images)
    assert peak < 20 * 2**20

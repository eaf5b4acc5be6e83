"""The benchmark's peak memory is what a level's processes held at once: a child whose
memory the search lent it and took back counts once, not on top of the search's peak."""

import subprocess
import sys

import pytest

# Run in a fresh interpreter: a child forked from this test process would start as large as
# the whole suite has grown it, and that size (counted in both) would swamp the blocks.
SCRIPT = """
import multiprocessing, sys, time
from fewest.solvers.sokoban import solver as sokoban
from fewest.tui.bench import sokoban_set as sokoban_bench
from fewest.solvers.common.held_bytes import resident_bytes

BLOCK = 300 * 2**20
real_solve = sokoban.solve

def hold(seconds):
    block = bytearray(b"x") * BLOCK  # (written: resident)
    time.sleep(seconds)

def solve_holding(level, state, control, metric, **options):
    child = multiprocessing.get_context("fork").Process(target=hold, args=(0.6,))
    child.start()
    if sys.argv[2] == "one-after-the-other":
        child.join()
    hold(0.6)
    child.join()
    return real_solve(level, state, control, metric, **options)

sokoban.solve = solve_holding
base = resident_bytes()
row = sokoban_bench.run_collection(sys.argv[1], "moves", 30).rows[0]
print(row.status, row.peak_bytes, base, BLOCK)
"""


@pytest.mark.parametrize("order", ["one-after-the-other", "at-once"])
def test_the_peak_counts_what_the_processes_held_at_once(tmp_path, order):
    level = tmp_path / "one.xsb"
    level.write_text("#####\n#@$.#\n#####\n")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(level), order], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    status, peak, base, block = done.stdout.split()
    peak, base, block = int(peak), int(base), int(block)
    # Each process starts at about `base` (a fork's shared pages count in both): held one
    # after the other, the most at once is 2 base + block; at once, 2 base + 2 blocks.
    assert status == "optimal" and peak > block
    if order == "at-once":
        assert peak > 2 * base + 1.5 * block
    else:
        assert peak < 2 * base + 1.5 * block

"""`fewest bench generate`: seconds of CPU per generated level, per family and difficulty.

Fixed seeds, so a run makes the same levels as the last; each level is made from scratch
(the solver's cached tables aside) and its par proven, as `fewest generate` does.
"""

from __future__ import annotations

import statistics
import time

from fewest.solvers.common.control import Control
from fewest.solvers.generate.targets import DIFFICULTIES, FAMILIES
from fewest.tui.services.generated import Recipe, generated_entry

LEVELS = {True: 3, False: 6}  # levels per family and difficulty (quick, full)
# the difficulties each run times (the quick one leaves out the long searches)
TIMED = {True: ("easy", "medium"), False: DIFFICULTIES}
# exact pars the full run times too (family, par, levels): the longest traffic par asked for
EXACT = {True: (), False: (("traffic", 40, 3),)}
BENCH_SEED = "bench"


def bench_generation(family: str, difficulty: str, levels: int, par: int | None = None) -> tuple[list[float], list[int]]:
    """CPU seconds and par of each of `levels` levels of the family at the difficulty (or
    at exactly `par`)."""
    seconds, pars = [], []
    for number in range(1, levels + 1):
        started = time.process_time()
        entry = generated_entry(Recipe(family, difficulty, par, seed=BENCH_SEED, number=number), Control())
        seconds.append(time.process_time() - started)
        pars.append(entry.par or 0)
    return seconds, pars


def run_generation_bench(quick: bool) -> None:
    print(f"generation ({'quick' if quick else 'full'}): CPU seconds per level, par proven; "
          f"{LEVELS[quick]} levels each, seed {BENCH_SEED!r}")
    print(f"{'family':<9} {'difficulty':<10} {'median s':>9} {'max s':>8}  pars")
    rows = [(family, difficulty, None, LEVELS[quick]) for family in FAMILIES for difficulty in TIMED[quick]]
    rows += [(family, "medium", par, levels) for family, par, levels in EXACT[quick]]
    for family, difficulty, par, levels in rows:
        seconds, pars = bench_generation(family, difficulty, levels, par)
        how = difficulty if par is None else f"par {par}"
        print(f"{family:<9} {how:<10} {statistics.median(seconds):9.3f} {max(seconds):8.3f}  "
              f"{' '.join(map(str, pars))}", flush=True)

"""`fewest bench`: time each family's exact solver on fixed, seeded workloads.

Each family's solver (the contract in solvers/contract.py) supplies
`bench_cases(quick)` and a plain `baseline` method; both run in this process on the same instances, so the ratio column holds
even when the machine's speed drifts. It reports; it never asserts.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

from fewest.solvers.common.control import Budget, Control
from fewest.solvers.registry import solver_for
from fewest.tui.cli.usage import UsageError

FAMILIES = ("sokoban", "traffic", "rotation", "shift", "password")
GENERATION = "generate"  # `fewest bench generate`: seconds per generated level (tui/bench/generate.py)
BASELINE_CASES = {True: 8, False: 30}  # baseline instances per family (it can be slow)
BASELINE_SECONDS = {True: 3.0, False: 20.0}  # per baseline instance


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def _timed(run: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = run()
    return time.perf_counter() - started, result


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:9.2f}"


def bench_family(family: str, quick: bool) -> dict:
    solver = solver_for(family)
    cases = solver.bench_cases(quick)
    metric = "moves"
    # Warm-up: one solve builds any cached tables (reported separately below).
    warm_seconds = 0.0
    if cases:
        name, level, state = cases[0]
        warm_seconds, _ = _timed(lambda: solver.warm_up(level))
        solver.solve(level, state, Control(), metric)
    times: list[float] = []
    lengths: list[int | None] = []
    not_optimal = 0
    for name, level, state in cases:
        seconds, solution = _timed(lambda: solver.solve(level, state, Control(), metric))
        times.append(seconds)
        lengths.append(solution.length)
        not_optimal += not (solution.optimal or solution.status.value == "unsolvable")
    # The baseline on the first few instances, under a per-instance budget.
    base_times: list[float] = []
    fast_times: list[float] = []
    mismatches = 0
    for i, (name, level, state) in enumerate(cases[: BASELINE_CASES[quick]]):
        control = Control(Budget(seconds=BASELINE_SECONDS[quick]))
        seconds, solution = _timed(lambda: solver.baseline(level, state, control))
        if solution.status.value not in ("optimal", "unsolvable"):
            continue
        mismatches += solution.length != lengths[i]
        base_times.append(seconds)
        fast_times.append(times[i])
    ratio = (statistics.median(fast_times) / statistics.median(base_times)) if base_times else None
    return {
        "family": family,
        "instances": len(cases),
        "median": statistics.median(times) if times else 0.0,
        "p95": _p95(times) if times else 0.0,
        "max": max(times) if times else 0.0,
        "total": sum(times),
        "warm_up": warm_seconds,
        "baseline_n": len(base_times),
        "baseline_median": statistics.median(base_times) if base_times else None,
        "ratio": ratio,
        "not_optimal": not_optimal,
        "mismatches": mismatches,
        "notes": solver.bench_notes(),
    }


def startup_seconds(repeats: int = 5) -> float:
    """Median wall time of a whole `fewest solve` process on a one-line password contest file."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "code.txt")
        with open(path, "w") as handle:
            handle.write("____\n____\n____\n___S\n")
        # (-P: not the working folder first on the path, where a `fewest/` folder, a clone's
        # parent, say, would join the namespace package and be timed instead)
        command = [sys.executable, "-P", "-m", "fewest.tui.cli.main", "solve", "--format", "contest", path]
        walls = []
        for _ in range(repeats):
            seconds, done = _timed(lambda: subprocess.run(command, capture_output=True, text=True))
            if done.returncode != 0:
                raise RuntimeError(f"start-up probe failed: {done.stderr.strip()}")
            walls.append(seconds)
    return statistics.median(walls)


def _print_heading() -> None:
    print(f"{'family':<9} {'inst':>5} {'median ms':>9} {'p95 ms':>9} {'max ms':>9} "
          f"{'total s':>8} {'warm-up s':>9}  {'baseline':>16}  ratio")


def _print_row(row: dict) -> None:
    if row["baseline_median"] is None:
        base, ratio = "-".rjust(16), "-"
    else:
        base = f"{row['baseline_n']:>2}x{row['baseline_median'] * 1000:10.2f} ms"
        ratio = f"{row['ratio']:.4f} ({_speed(row['ratio'])})" if row["ratio"] else "-"
    print(f"{row['family']:<9} {row['instances']:>5} {_ms(row['median'])} {_ms(row['p95'])} "
          f"{_ms(row['max'])} {row['total']:8.3f} {row['warm_up']:9.3f}  {base}  {ratio}", flush=True)
    if row["not_optimal"] or row["mismatches"]:
        print(f"  !! {row['not_optimal']} not proven optimal, "
              f"{row['mismatches']} length mismatches against the baseline")
    for note in row["notes"]:
        print(f"  {note}")


def _speed(ratio: float) -> str:
    """The ratio (fewest's median over the baseline's) in words."""
    if ratio <= 1:
        return f"{1 / ratio:.{0 if ratio < 0.1 else 1}f}x faster"
    return f"{ratio:.1f}x slower"


def run_bench(args: argparse.Namespace) -> int:
    families = args.families or [*FAMILIES, GENERATION]
    for family in families:
        if family not in (*FAMILIES, GENERATION):
            raise UsageError(f"unknown family {family!r} (known: {', '.join(FAMILIES)}, or {GENERATION})")
    if (args.anytime or args.known) and not args.set_path:
        raise UsageError("--anytime and --known go with --set: `fewest bench sokoban --set FILE --anytime`")
    if args.known and not args.anytime:
        raise UsageError("--known compares the anytime solver's plans: add --anytime")
    if args.set_path:
        if args.families and args.families != ["sokoban"]:
            raise UsageError("--set solves a Sokoban collection: `fewest bench sokoban --set FILE` "
                             "(the other families' workloads are built in)")
        from fewest.tui.bench.sokoban import run_collection_bench

        return run_collection_bench(args.set_path, args.metric, args.timeout, args.expect, args.levels, args.jobs,
                                    args.scheduler, args.anytime, args.known)
    mode = "quick" if args.quick else "full"
    solvers = [family for family in families if family != GENERATION]
    if solvers:
        print(f"fewest bench ({mode}), in-process; times per instance after one warm-up solve")
        _print_heading()
    for family in solvers:  # (each row as it ends: a Ctrl-C keeps the families done)
        _print_row(bench_family(family, args.quick))
    if GENERATION in families:
        from fewest.tui.bench.generate import run_generation_bench

        run_generation_bench(args.quick)
    if solvers:
        print(f"start-up, `fewest solve --format contest` on one password code: "
              f"{startup_seconds(3 if args.quick else 7) * 1000:.0f} ms (median wall, whole process)")
    return 0

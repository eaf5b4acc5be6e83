"""`fewest solve --jobs N`, `--resume FILE.jsonl` and `--scheduler ADDRESS`: the levels solved
by worker processes (or a Dask cluster), printed in input order as a run in turn prints them.

The answers are printed by the caller's own functions, so text, JSON and contest output are
those of a run in turn (the seconds aside). A level is printed once every level before it
is; the resume file gets each result as it ends, whatever its place.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter
from typing import Any, Callable

from fewest.levels.base import LevelEntry
from fewest.solvers.common.solution import Solution, Status
from fewest.tui.cli.batch_progress import BatchBar
from fewest.tui.cli.terminal import Interrupt
from fewest.tui.cli.usage import UsageError
from fewest.tui.services.batch import Crash, LocalPool, in_order, worker_count
from fewest.tui.services.known_plans import saved_start_plan
from fewest.tui.services.resume import ResumeFile

CRASHED = 3  # the exit status of a run where a level crashed its worker

Printer = Callable[[LevelEntry, Solution, float], int]  # prints a level's answer; its exit status
Recorder = Callable[[LevelEntry, Solution, float], dict]  # the level's --json record


def solve_level(task: tuple, should_stop: Callable[[], bool]) -> tuple[Solution, float]:
    """A worker's job: one level solved under its budget; the solution and its seconds."""
    from fewest.solvers import Budget, solve
    from fewest.solvers.registry import solver_for
    from fewest.tui.services.budgets import default_memory_bytes

    family, level, metric, seconds, memory, near = task
    if memory is None:  # (on a cluster's worker: that worker's share)
        from fewest.tui.services.cluster import worker_memory

        memory = worker_memory(default_memory_bytes)
    solver_for(family)  # (its code loaded first: a level's seconds are its solve's)
    started = time.perf_counter()
    budget = Budget(seconds=seconds, memory_bytes=memory, process_bytes=memory)  # (the worker and its helpers)
    solution = solve(family, level, metric=metric, budget=budget,
                     should_stop=should_stop, on_plan=_unseen, near_plan=near)
    return solution, time.perf_counter() - started


def _unseen(_solution: Solution, _stage: str) -> None:
    """A worker's plans found before the proof: none shown (its answer is printed in the
    input's order), but the solve is the same as in turn, anytime stages and all."""


def _runner(args: argparse.Namespace) -> Any:
    if args.scheduler:
        from fewest.tui.services.cluster import ClusterRun

        try:
            return ClusterRun(solve_level, args.scheduler)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    return LocalPool(solve_level, worker_count(args.jobs or 1))


def _check_metric(entries: list[LevelEntry], metric: str) -> None:
    """A metric some level's family lacks is bad input, said before any worker starts."""
    from fewest.solvers.api import metrics

    for entry in entries:
        if metric not in metrics(entry.family):
            raise UsageError(f"{entry.source}: {entry.family} has no metric {metric!r} "
                             f"(choose from {', '.join(metrics(entry.family))})")


def run_batch(
    args: argparse.Namespace, entries: list[LevelEntry], memory: int | None,
    show: Printer, show_crash: Callable[[LevelEntry, str], int], record: Recorder,
) -> tuple[int, Counter, bool]:
    """Solve `entries` as the arguments say; (exit status, tally of statuses, interrupted).
    `memory` is the whole run's (divided among the local workers); None: each cluster
    worker's own."""
    _check_metric(entries, args.metric)
    try:
        resume = ResumeFile(args.resume, args.metric) if getattr(args, "resume", None) else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    known = [resume.result_for(entry) if resume else None for entry in entries]
    todo = [i for i, entry in enumerate(entries) if known[i] is None]
    runner = _runner(args)
    if args.scheduler:  # (each machine's share is the cluster's to set: --memory-limit)
        share = None if args.memory is None else memory
    else:
        share = memory // runner.workers
    # (each with the solution saved in its file, as a run in turn starts from it)
    tasks = [(entries[i].family, entries[i].level, args.metric, args.timeout, share, saved_start_plan(entries[i]))
             for i in todo]
    status, tally = 0, Counter()
    with BatchBar(len(entries)) as bar, Interrupt(on_press=lambda: (runner.stop(), bar.stopping())) as interrupt:
        finished = ((i, known[i]) for i in range(len(entries)) if known[i])
        fresh = _recorded(runner.results(tasks) if tasks else iter(()), todo, entries, resume, record)
        for index, result in in_order(itertools.chain(finished, fresh)):
            entry = entries[index]
            if isinstance(result, Crash):
                status = max(status, show_crash(entry, result.error))
                tally["crashed"] += 1
                bar.advance("crashed")
                continue
            solution, seconds = result
            status = max(status, show(entry, solution, seconds))
            tally[solution.status] += 1
            bar.advance(solution.status.value)
    return status, tally, interrupt.pressed.is_set()


def _recorded(results: Any, todo: list[int], entries: list[LevelEntry], resume: ResumeFile | None,
              record: Recorder) -> Any:
    """The workers' (position, result) as (index, result), each added to the resume file
    as it comes (not in order: a reboot keeps every level done), a stopped one left out."""
    for position, result in results:
        index = todo[position]
        if resume is not None and not isinstance(result, Crash) and result[0].status is not Status.CANCELLED:
            resume.add(record(entries[index], *result))
        yield index, result

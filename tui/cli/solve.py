"""`fewest solve`: shortest plans for every level of the files, as text, JSON or contest output."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import Any, Callable

from fewest.engine.base import format_plan, replay
from fewest.engine.registry import rules_for
from fewest.levels.base import LevelEntry, LevelFormatError, clipped, shown_name
from fewest.levels.registry import FORMATS
from fewest.solvers.common.solution import Solution, Status
from fewest.tui.services.budgets import default_memory_bytes
from fewest.tui.services.level_summary import counted
from fewest.tui.cli.terminal import Interrupt, ProgressLine
from fewest.tui.cli.usage import UsageError


def _contest_formatter(entry: LevelEntry) -> Callable[[LevelEntry, Any], str] | None:
    for fmt in FORMATS:
        if fmt.name == entry.format and fmt.family == entry.family:
            return fmt.contest_answer
    return None


def _record(entry: LevelEntry, solution: Any, seconds: float) -> dict:
    rules = rules_for(entry.family)
    record: dict[str, Any] = {
        "file": entry.source,
        "level": entry.index,
        "title": entry.title,
        "family": entry.family,
        "status": solution.status.value,
        "length": solution.length,
        "plan": format_plan(rules, solution.moves) if solution.solved else None,
        "optimal": solution.optimal,
        "seconds": round(seconds, 4),
    }
    for key, value in solution.extra.items():
        record[key] = value
    if solution.at_least is not None:
        record["at_least"] = solution.at_least  # proven: no plan is shorter (the metric's count)
    if solution.status.value in ("budget", "found") and solution.stats.reason in ("time", "memory", "nodes"):
        record["stopped"] = solution.stats.reason  # which budget ran out
    if entry.par is not None:
        record["par"] = entry.par
    if entry.push_par is not None:
        record["push_par"] = entry.push_par
    return record


def _head(record: dict) -> str:
    head = f"{shown_name(record['file'])} #{record['level']}"
    if record["title"]:
        head += f" {clipped(record['title'])!r}"
    return head + f" ({record['family']})"


def _text(record: dict, metric: str) -> str:
    head = _head(record)
    status = record["status"]
    # what the proof got to when it stopped: no plan is shorter than this
    bound = f", at least {record['at_least']} {metric} proven" if "at_least" in record else ""
    wrong_par = _wrong_par(record, metric) + _wrong_push_par(record, metric)
    if record["length"] is None:
        # (a memory budget that ran out is named: it may be too small for the board's tables)
        said = "out of memory budget" if record.get("stopped") == "memory" else status
        what = "no solution exists" if status == "unsolvable" else f"not solved ({said}{bound})"
        return f"{head}: {what}{wrong_par} [{record['seconds']:.3f} s]"
    facts = [counted(record["length"], "move", "moves")]
    if "pushes" in record:
        facts.append(counted(record["pushes"], "push", "pushes"))
    if "digit" in record:
        facts.append(f"digit {record['digit']}")
    first = record.get("pushes") if metric == "pushes" else record["length"]
    if record["optimal"]:
        proof = "optimal"
    elif first is not None and first == record.get("at_least"):  # (its first count is proven)
        proof = f"fewest {metric} proven, NOT the fewest {'moves' if metric == 'pushes' else 'pushes'} for them"
    else:
        proof = f"NOT proven optimal{bound}"
    plan = record["plan"] or "(already solved)"
    return f"{head}: {', '.join(facts)}, {proof}{wrong_par} [{record['seconds']:.3f} s]\n  {plan}"


def _wrong_par(record: dict, metric: str) -> str:
    """Where the level's file states a par that what was proven or found shows wrong, a
    note saying so (for authors checking their levels), else nothing. A par counts moves;
    under the pushes metric what is proven counts pushes, and every push is a move."""
    par = record.get("par")
    if par is None:
        return ""
    length, least = record["length"], record.get("at_least")
    if metric == "pushes" and record["optimal"]:
        least = record["pushes"]  # (the fewest pushes: no plan has fewer moves than that)
    wrong = (
        record["status"] == "unsolvable"
        or (metric == "moves" and record["optimal"] and length != par)
        or (length is not None and length < par)  # beaten by a plan, proven or not
        or (least is not None and least > par)  # below what is proven
    )
    return f"; the file's par {par} is wrong" if wrong else ""


def _wrong_push_par(record: dict, metric: str) -> str:
    """As _wrong_par, for a Sokoban file's `Push-par` (the fewest pushes): shown wrong by
    no solution, by a plan of fewer pushes, or under the pushes metric by the pushes
    proven (the plan's own when its pushes are proven fewest, else the bound reached)."""
    par = record.get("push_par")
    if par is None:
        return ""
    pushes, least = record.get("pushes"), record.get("at_least") if metric == "pushes" else None
    if metric == "pushes" and pushes is not None and (record["optimal"] or pushes == least):
        least = pushes  # (proven the fewest)
    wrong = (
        record["status"] == "unsolvable"
        or (pushes is not None and pushes < par)
        or (least is not None and least != par and (least > par or least == pushes))
    )
    return f"; the file's push par {par} is wrong" if wrong else ""


NO_ANSWER = "?"  # a contest case's line when it has no proven answer


def _print_result(entry: LevelEntry, solution: Solution, seconds: float, args: argparse.Namespace) -> int:
    """Print one level's answer as `args` asks; the exit status it calls for (0 or 1)."""
    status = 0
    if solution.solved:
        # Never print a plan the rules do not accept.
        final = replay(rules_for(entry.family), entry.level, solution.moves)
        if not rules_for(entry.family).is_solved(entry.level, final):
            raise RuntimeError(f"solver plan for {entry.where} does not solve it")
    proven = solution.optimal or solution.status is Status.UNSOLVABLE
    # Exit 1 for anything short of a proven plan; a proven "impossible" is a contest's answer.
    if not (solution.optimal or (args.fmt == "contest" and proven)):
        status = 1
    if args.fmt == "contest" and not proven:
        # A contest answer is a claim of optimality: print none that is not proven. The `?`
        # keeps its line, so the answers after it stay in step with their cases.
        print(f"fewest: {entry.where}: not solved ({solution.status.value})", file=sys.stderr, flush=True)
        print(NO_ANSWER, flush=True)
    elif args.fmt == "contest":
        try:
            print(_contest_formatter(entry)(entry, solution), flush=True)
        except ValueError as exc:  # the contest has no way to write "no plan" here
            print(f"fewest: {entry.where}: {exc}", file=sys.stderr, flush=True)
            print(NO_ANSWER, flush=True)
            status = 1
    elif args.fmt == "json":
        print(json.dumps(_record(entry, solution, seconds)), flush=True)
    else:
        print(_text(_record(entry, solution, seconds), args.metric), flush=True)
    return status


def _print_crash(entry: LevelEntry, error: str, args: argparse.Namespace) -> int:
    """A level whose worker died (or whose solve raised): its own line, and exit status 3."""
    from fewest.tui.cli.parallel import CRASHED

    if args.fmt == "contest":
        print(f"fewest: {entry.where}: crashed: {error}", file=sys.stderr, flush=True)
        print(NO_ANSWER, flush=True)
        return CRASHED
    record = {"file": entry.source, "level": entry.index, "title": entry.title, "family": entry.family,
              "status": "crashed", "length": None, "plan": None, "optimal": False, "error": error}
    print(json.dumps(record) if args.fmt == "json" else f"{_head(record)}: crashed: {error}", flush=True)
    return CRASHED


def _tallied(tally: Counter, total: int, unreadable: int) -> str:
    """The levels' outcomes in one line: `40 levels: 36 optimal, 3 found (not proven), 1 not solved`
    (`total` counts the levels that read; those that did not are named before it)."""
    unsolved = tally[Status.BUDGET] + tally[Status.CANCELLED]
    parts = [
        f"{tally[Status.OPTIMAL]} optimal",
        f"{tally[Status.FOUND]} found (not proven optimal)" if tally[Status.FOUND] else "",
        f"{tally[Status.UNSOLVABLE]} with no solution" if tally[Status.UNSOLVABLE] else "",
        f"{unsolved} not solved" if unsolved else "",
        f"{tally['crashed']} crashed" if tally["crashed"] else "",
    ]
    done = sum(tally.values())
    parts.append(f"{total - done} not started" if done < total else "")
    parts.append(f"{unreadable} unreadable" if unreadable else "")
    return f"{counted(total + unreadable, 'level', 'levels')}: {', '.join(part for part in parts if part)}"


def run_solve(args: argparse.Namespace, load: Callable) -> int:
    from fewest.solvers import Budget
    from fewest.tui.cli.batch_arguments import batched
    from fewest.tui.cli.parallel import run_batch

    entries: list[LevelEntry] = []
    unreadable = []
    bad_files = 0
    for path in args.paths:
        try:
            collection = load(path, args.family, args.level)
        except (LevelFormatError, UsageError) as exc:
            if len(args.paths) == 1:
                raise
            # (one bad file of several: said, and the others are solved; exit 2 says so)
            print(f"fewest: error: {exc}", file=sys.stderr, flush=True)
            bad_files += 1
            continue
        entries.extend(collection.entries)
        unreadable.extend(collection.unreadable)
    # A collection with a flawed level still has its other levels solved; exit 2 says so.
    for problem in unreadable:
        print(f"fewest: error: {problem.error} (level {problem.index} left out)", file=sys.stderr, flush=True)
    if args.fmt == "contest":
        for entry in entries:
            if _contest_formatter(entry) is None:
                raise UsageError(
                    f"{shown_name(entry.source)}: --format contest needs a contest input, "
                    f"and this file is in the {entry.format or entry.family} format"
                )
    # Never unbounded: a proof that outgrows the machine stops with what it proved, where
    # an unlimited one would grow until the system kills it (or everything else).
    # (a budget past any machine, e.g. 1e300 GB, is no budget: capped, not an overflow)
    memory = default_memory_bytes() if args.memory is None else int(min(args.memory * 2**30, 2**62))
    if batched(args):
        status, tally, stopped = run_batch(
            args, entries, memory,
            show=lambda entry, solution, seconds: _print_result(entry, solution, seconds, args),
            show_crash=lambda entry, error: _print_crash(entry, error, args), record=_record,
        )
    else:
        budget = Budget(seconds=args.timeout, memory_bytes=memory, process_bytes=memory)  # (the process and its helpers)
        status, tally, stopped = _solve_in_turn(args, entries, budget)
    if args.fmt == "text" and len(entries) + len(unreadable) > 1:
        print(f"fewest: {_tallied(tally, len(entries), len(unreadable))}", file=sys.stderr, flush=True)
    if stopped:
        # what was proved is printed above; the levels after it were not started
        print("fewest: interrupted", file=sys.stderr, flush=True)
        return 130
    return 2 if unreadable or bad_files else status


def _plan_teller(entry: LevelEntry, line: ProgressLine, args: argparse.Namespace) -> Callable:
    """What a solve is told each plan found before its proof with: the progress line says
    so; with no --timeout, at a terminal, the first plan is printed at once (on standard
    error: standard output keeps one answer a level), as the proof may take long."""
    told = []

    def tell(solution: Solution, stage: str) -> None:
        line.plan_found(len(solution.moves), stage)
        if not told and args.timeout is None and line.on:
            told.append(stage)
            line.clear()
            plan = format_plan(rules_for(entry.family), solution.moves)
            print(f"{entry.where}: a plan of {len(solution.moves)} moves, not proven shortest (proving on): "
                  f"{plan}", file=sys.stderr, flush=True)

    return tell


def _solve_in_turn(args: argparse.Namespace, entries: list[LevelEntry], budget: Any) -> tuple[int, Counter, bool]:
    """The levels one after another in this process: (exit status, tally, interrupted)."""
    from fewest.solvers import solve
    from fewest.solvers.registry import solver_for
    from fewest.tui.services.known_plans import saved_start_plan

    status = 0
    tally: Counter[Status] = Counter()
    line = ProgressLine(sys.stderr)
    with Interrupt(on_press=line.stopping) as interrupt:
        for entry in entries:
            if interrupt.pressed.is_set():  # (between two levels: the next one is not started)
                break
            solver_for(entry.family)  # (its code loaded first: a level's seconds are its solve's, not start-up's)
            line.start(entry.where)
            started = time.perf_counter()
            try:
                solution = solve(
                    entry.family, entry.level, metric=args.metric, budget=budget,
                    should_stop=interrupt.pressed.is_set, on_progress=line.show,
                    on_plan=_plan_teller(entry, line, args), near_plan=saved_start_plan(entry),
                )
            except ValueError as exc:  # e.g. a metric the family does not have
                raise UsageError(f"{shown_name(entry.source)}: {exc}") from None
            finally:
                line.clear()
            status = max(status, _print_result(entry, solution, time.perf_counter() - started, args))
            tally[solution.status] += 1
    line.clear()  # (a press between two levels drew its "stopping" there)
    return status, tally, interrupt.pressed.is_set()

"""`fewest generate`: packs of new levels, every par proven by the family's exact solver.

`fewest generate FAMILY [--difficulty D | --par N] [--size RxC] [--count K] [--seed S] [-o FILE]`
writes the family's native file (XSB for Sokoban, with Par, Push-par and the proven plan
saved; else a `.fewest` pack) to FILE or standard output; the same options and seed give
the same bytes. `fewest generate --daily [--date YYYY-MM-DD] [-o DIR]` writes the day's
puzzles, one file per family (a file holds one family), into DIR (default: the working folder).
"""

from __future__ import annotations

import argparse
import datetime
import os
import secrets
import sys

from fewest.levels.base import LevelEntry
from fewest.solvers.common.control import Budget, Control, Stopped
from fewest.solvers.generate.targets import DIFFICULTIES, FAMILIES, describe
from fewest.tui.cli.batch_progress import BatchBar
from fewest.tui.cli.usage import UsageError
from fewest.tui.services.generated import Recipe, daily_name, daily_recipes, generated_entry, pack_text

EPILOG = ("Par ranges by difficulty (proven fewest moves): " + "; ".join(describe(f) for f in FAMILIES)
          + ". --par N asks for exactly N moves, up to the expert range's top (every traffic par up to 40 "
          "is practical on 6x6). Most levels take well under a second; traffic's long pars take longest "
          "(CPU a level, median / max: hard 1.8 / 7 s, expert 2.4 / 8 s, --par 40 20 to 75 s; 7x7 "
          "easy about 6 s, 8x8 easy 2-3 min), Sokoban's expert up to about 15 s. Exit status: 0 written, "
          "1 no level found within --timeout, 2 bad usage, 130 stopped by Ctrl-C.")


def add_generate_parser(sub: argparse._SubParsersAction) -> None:
    generate = sub.add_parser("generate", help="write new levels whose pars are proven",
                              description="Generate levels whose pars are proven by the solvers.", epilog=EPILOG)
    generate.add_argument("family", nargs="?", choices=FAMILIES, metavar="FAMILY",
                          help=f"one of {', '.join(FAMILIES)} (not with --daily)")
    how = generate.add_mutually_exclusive_group()
    how.add_argument("--difficulty", choices=DIFFICULTIES, default="medium", help="par range (default medium)")
    how.add_argument("--par", type=_count("--par"), metavar="N", help="exactly this par")
    generate.add_argument("--size", type=_size, metavar="RxC", help="board size (traffic: N or NxN)")
    generate.add_argument("--count", type=_count("--count"), default=1, metavar="K", help="levels (default 1)")
    generate.add_argument("--seed", metavar="S", help="seed text (default: a random one, written in the file)")
    generate.add_argument("--timeout", type=float, metavar="S", help="seconds per level at most")
    generate.add_argument("-o", "--output", metavar="FILE", help="the file to write (daily: a folder)")
    generate.add_argument("--daily", action="store_true", help="the day's puzzles, one per family")
    generate.add_argument("--date", type=_date, metavar="YYYY-MM-DD", help="the day for --daily (default today)")


def _count(option: str):
    def parse(text: str) -> int:
        if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 10_000):
            raise argparse.ArgumentTypeError(f"{option} takes a whole number 1..10000, not {text!r}")
        return int(text)

    return parse


def _size(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 2 for p in parts):
        raise argparse.ArgumentTypeError(f"--size is ROWSxCOLS (4x4) or one number, not {text!r}")
    return int(parts[0]), int(parts[1])


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--date is YYYY-MM-DD, not {text!r}") from None


def run_generate(args: argparse.Namespace) -> int:
    if args.daily:
        if args.family or args.par or args.size or args.seed or args.count != 1:
            raise UsageError("--daily makes the day's fixed puzzles: give it only --date and -o")
        return _write_daily(args.date or datetime.date.today(), args.output, args.timeout)
    if args.family is None:
        raise UsageError("generate needs a FAMILY (one of " + ", ".join(FAMILIES) + ") or --daily")
    if args.date:
        raise UsageError("--date goes with --daily")
    seed = args.seed if args.seed is not None else str(secrets.randbelow(10**6))
    first = Recipe(args.family, args.difficulty, args.par, args.size, seed)
    try:
        first.target()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    recipes = [Recipe(args.family, args.difficulty, args.par, args.size, seed, k) for k in range(1, args.count + 1)]
    entries = _made(recipes, args.timeout)
    if entries is None:
        return 1
    _write(pack_text(entries, first.pack_title()), args.output)
    return 0


def _made(recipes: list[Recipe], timeout: float | None) -> list[LevelEntry] | None:
    """The recipes' levels, a bar at a terminal; None (said why) when one is not found in time."""
    entries = []
    with BatchBar(len(recipes)) as bar:
        for recipe in recipes:
            try:
                entries.append(generated_entry(recipe, Control(Budget(seconds=timeout))))
            except Stopped:
                print(f"fewest: no {recipe.text()} level proven within {timeout:g} s", file=sys.stderr)
                return None
            bar.advance("optimal")
    return entries


def _write(text: str, path: str | None) -> None:
    if path is None:
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def _write_daily(date: datetime.date, folder: str | None, timeout: float | None) -> int:
    folder = folder or "."
    if not os.path.isdir(folder):
        raise UsageError(f"{folder}: not a folder (--daily -o names the folder for the day's packs)")
    entries = _made(daily_recipes(date), timeout)
    if entries is None:
        return 1
    for entry in entries:
        path = os.path.join(folder, daily_name(date, entry.family))
        _write(pack_text([entry], f"Daily {date.isoformat()}"), path)
        print(path)
    return 0

"""The `fewest` command: the app, `play`, `solve`, `check` and `bench`.

Exit codes: 0 success; 1 a level unsolvable or out of budget (said per level);
2 bad input or usage, with a one-line message naming the file and no traceback.
Imports stay lazy so `fewest solve` starts fast and never loads Textual.
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, Sequence

FAMILY_NAMES = ("sokoban", "traffic", "rotation", "shift", "password")


class UsageError(Exception):
    """Bad input or usage: printed as one line, exit code 2."""


def _positive(unit: str) -> Callable[[str], float]:
    """An argparse type: a finite number above zero (a budget of `unit`)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not 0 < value < float("inf"):
            raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of {unit}")
        return value

    return parse


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fewest",
        description="Terminal puzzles that know the fewest moves. Without a command, opens the app.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="open a level file in the app")
    play.add_argument("path", metavar="PATH")
    play.add_argument("--level", type=int, default=1, metavar="N", help="1-based level number")
    play.add_argument("--family", choices=FAMILY_NAMES, help="override family detection")

    solve = sub.add_parser("solve", help="print shortest plans for every level of the files")
    solve.add_argument("paths", nargs="+", metavar="PATH")
    solve.add_argument("--level", type=int, metavar="N", help="only level N of each file")
    solve.add_argument("--family", choices=FAMILY_NAMES, help="override family detection")
    solve.add_argument("--metric", choices=("moves", "pushes"), default="moves",
                       help="what to minimise (pushes: Sokoban only)")
    solve.add_argument("--format", choices=("text", "json", "contest"), default="text", dest="fmt",
                       help="text (default), json (one object per level per line), or the contest's output")
    solve.add_argument("--json", action="store_const", const="json", dest="fmt",
                       help="same as --format json")
    solve.add_argument("--timeout", type=_positive("seconds"), metavar="S", help="seconds per level")
    solve.add_argument("--memory", type=_positive("GB"), metavar="GB",
                       help="memory per level (default: half the machine's)")

    check = sub.add_parser("check", help="list the levels in files, or their errors")
    check.add_argument("paths", nargs="+", metavar="PATH")
    check.add_argument("--family", choices=FAMILY_NAMES, help="override family detection")

    bench = sub.add_parser("bench", help="time the solvers on fixed workloads")
    bench.add_argument("families", nargs="*", metavar="FAMILY",
                       help=f"families to time (default: all of {', '.join(FAMILY_NAMES)})")
    bench.add_argument("--quick", action="store_true", help="small workloads (under 30 s)")
    bench.add_argument("--set", dest="set_path", metavar="FILE",
                       help="sokoban: solve this collection level by level")
    bench.add_argument("--metric", choices=("moves", "pushes"), default="moves")
    bench.add_argument("--timeout", type=_positive("seconds"), default=60.0, metavar="S",
                       help="sokoban: seconds per level")
    bench.add_argument("--expect", metavar="CSV",
                       help="sokoban: proven counts to check against (columns as microban_optimal.csv)")
    bench.add_argument("--levels", metavar="LIST",
                       help="sokoban: only these levels of the set, 1-based (e.g. 93,139-146)")
    return parser


def _load(path: str, family: str | None, level: int | None = None) -> list:
    from fewest.levels import read_file

    entries = read_file(path, family=family)
    if level is not None:
        if not 1 <= level <= len(entries):
            raise UsageError(f"{path}: no level {level} (the file has {len(entries)})")
        entries = [entries[level - 1]]
    return entries


def _run_play(args: argparse.Namespace) -> int:
    entries = _load(args.path, args.family)
    if not 1 <= args.level <= len(entries):
        raise UsageError(f"{args.path}: no level {args.level} (the file has {len(entries)})")
    from fewest.tui.app import FewestApp

    FewestApp(entries=entries, start_index=args.level - 1).run()
    return 0


def _run_app() -> int:
    from fewest.tui.app import FewestApp

    FewestApp().run()
    return 0


def _run_check(args: argparse.Namespace) -> int:
    from fewest.levels import LevelFormatError

    status = 0
    for path in args.paths:
        try:
            entries = _load(path, args.family)
        except LevelFormatError as exc:
            print(f"error: {exc}")
            status = 2
            continue
        print(f"{path}: {len(entries)} {entries[0].family} level{'s' if len(entries) != 1 else ''}")
        for entry in entries:
            from fewest.tui.level_summary import describe

            par = f", par {entry.par}" if entry.par is not None else ""
            print(f"  {entry.index:>4}  {describe(entry.level)}{par}  {entry.display_title()}")
    return status


def main(argv: Sequence[str] | None = None) -> int:
    from fewest.levels import LevelFormatError

    args = _parser().parse_args(argv)
    try:
        if args.command is None:
            return _run_app()
        if args.command == "play":
            return _run_play(args)
        if args.command == "check":
            return _run_check(args)
        if args.command == "solve":
            from fewest.tui.solve_command import run_solve

            return run_solve(args, _load, UsageError)
        if args.command == "bench":
            from fewest.tui.bench import run_bench

            return run_bench(args)
    except (LevelFormatError, UsageError) as exc:
        print(f"fewest: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("fewest: interrupted", file=sys.stderr)
        return 130
    return 2


def entry_point() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry_point()

"""The `fewest` command: the app, `play`, `solve`, `check`, `bench`, `serve` and `generate`.

Exit codes: 0 success; 1 a level unsolvable or out of budget (said per level);
2 bad input or usage, with a one-line message naming the file and no traceback;
3 a level crashed its worker process (`solve --jobs`, `--scheduler`; said on its line);
130 stopped by Ctrl-C; 141 the output's reader went away (as a shell reports SIGPIPE).
Imports stay lazy so `fewest solve` starts fast and never loads Textual.
"""

from __future__ import annotations

import os
import sys
from fewest.tui.cli.interrupts import INTERRUPTED, quit_at_once, raise_on_ctrl_c
from fewest.tui.cli.usage import UsageError

# Imported when used (typing and argparse too): until entry_point's first line a Ctrl-C is
# Python's traceback, so the command's module loads as little as it can.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Callable, Sequence

    from fewest.levels.base import Collection, LevelEntry, Unreadable

FAMILY_NAMES = ("sokoban", "traffic", "rotation", "shift", "password")


def _positive(unit: str) -> Callable[[str], float]:
    """An argparse type: a finite number above zero (a budget of `unit`)."""

    def parse(text: str) -> float:
        import argparse

        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not 0 < value < float("inf"):
            raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of {unit}")
        return value

    return parse


def _port(text: str) -> int:
    from fewest.tui.cli.serve import port_number

    return port_number(text)


def _sessions(text: str) -> int:
    from fewest.tui.cli.serve import session_count

    return session_count(text)


def _minutes(text: str) -> float:
    from fewest.tui.cli.serve import idle_minutes

    return idle_minutes(text)


def _parser() -> argparse.ArgumentParser:
    import argparse

    from fewest.tui.cli.batch_arguments import add_batch_arguments

    parser = argparse.ArgumentParser(
        prog="fewest",
        description="Terminal puzzles that know the fewest moves. Without a command, opens the app.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="open a level file in the app")
    play.add_argument("path", metavar="PATH")
    play.add_argument("--level", type=int, metavar="N",
                      help="1-based level number (default: the file's first level that reads)")
    play.add_argument("--family", choices=FAMILY_NAMES, help="override family detection")

    solve = sub.add_parser(
        "solve", help="print shortest plans for every level of the files",
        epilog="Exit status: 0 every level proven, 1 some level not (out of budget, or no plan; with "
        "--format contest a proven 'no plan' counts as proven), 2 bad input, 3 a level crashed its worker "
        "(--jobs, --scheduler), 130 stopped by Ctrl-C "
        "(the first press stops the proof and prints what it proved; a second quits at once), 141 the "
        "output's reader went away.",
    )
    solve.add_argument("paths", nargs="+", metavar="PATH", help="level files; - reads standard input")
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
                       help="memory per level (default: half the machine's); with --jobs N, for the N at once")
    add_batch_arguments(solve)

    serve = sub.add_parser(
        "serve", help="serve the app to web browsers, each tab its own game",
        description="Serve the app (or `fewest play PATH`) to web browsers: each tab runs its own copy, "
        "saving progress where the terminal app does. Listens on 127.0.0.1 (this machine only) unless "
        "--host says otherwise. Stops on Ctrl-C.")
    serve.add_argument("path", nargs="?", metavar="PATH", help="a level file to serve, as `fewest play PATH`")
    serve.add_argument("--level", type=int, metavar="N", help="1-based level number to open (needs PATH)")
    serve.add_argument("--family", choices=FAMILY_NAMES, help="override family detection")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1; another lets other machines play)")
    serve.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")
    serve.add_argument("--open", action="store_true", help="open the address in the default browser")
    serve.add_argument("--max-sessions", type=_sessions, metavar="N",
                       help="most tabs playing at once, beyond which the page says the server is full "
                       "(default: 4 a core, at most one per 200 MB of half the machine's memory)")
    serve.add_argument("--idle-minutes", type=_minutes, default=30.0, metavar="M",
                       help="end a tab's game after M minutes without input (default 30; 0: never)")

    check = sub.add_parser("check", help="list the levels in files, or their errors")
    check.add_argument("paths", nargs="+", metavar="PATH", help="level files; - reads standard input")
    check.add_argument("--family", choices=FAMILY_NAMES, help="override family detection")

    bench = sub.add_parser("bench", help="time the solvers on fixed workloads")
    bench.add_argument("families", nargs="*", metavar="FAMILY",
                       help=f"families to time (default: all of {', '.join(FAMILY_NAMES)}, then "
                       "generate: seconds per generated level)")
    bench.add_argument("--quick", action="store_true", help="small workloads (under 30 s)")
    bench.add_argument("--set", dest="set_path", metavar="FILE",
                       help="sokoban: solve this collection level by level")
    bench.add_argument("--metric", choices=("moves", "pushes"), default="moves",
                       help="sokoban --set: what to minimise (default: moves)")
    bench.add_argument("--timeout", type=_positive("seconds"), default=60.0, metavar="S",
                       help="sokoban: seconds per level")
    bench.add_argument("--expect", metavar="CSV",
                       help="sokoban: proven counts to check against (columns as microban_optimal.csv)")
    bench.add_argument("--levels", metavar="LIST",
                       help="sokoban: only these levels of the set, 1-based (e.g. 93,139-146)")
    bench.add_argument("--anytime", action="store_true",
                       help="sokoban --set: solve as hints do (a plan first, then shorter, then the proof) and "
                            "report the seconds to the first plan, the plan at 10 s and at the end")
    bench.add_argument("--known", metavar="CSV",
                       help="sokoban --set --anytime: known solutions' counts (columns level, moves, pushes) "
                            "to compare the plans with")
    add_batch_arguments(bench, resume=False)

    from fewest.tui.cli.generate import add_generate_parser

    add_generate_parser(sub)
    return parser


def _load(path: str, family: str | None, level: int | None = None) -> "Collection":
    """The file's levels that read (only level `level`, when given) and the ones that do
    not: a Collection. A level asked for by number that does not read is an error."""
    from fewest.levels import read_file_each
    from fewest.levels.base import Collection

    collection = read_file_each(path, family=family)
    if level is None:
        return collection
    return Collection([collection.entries[_position(collection, level, path)]])


def _position(collection: "Collection", level: int, path: str) -> int:
    """Where level number `level` of the file is among the levels that read."""
    for problem in collection.unreadable:
        if problem.index == level:
            raise problem.error
    count = len(collection.entries) + len(collection.unreadable)
    # (with none left out, the levels are the file's in order, whatever their readers number)
    numbers = [entry.index for entry in collection.entries] if collection.unreadable else range(1, count + 1)
    if level not in numbers:
        raise UsageError(f"{_shown(path)}: no level {level} (the file has {count})")
    return list(numbers).index(level)


def _shown(path: str) -> str:
    """A path as messages name it (standard input as the readers call it)."""
    from fewest.levels.base import shown_name
    from fewest.levels.files import STDIN, STDIN_SOURCE

    return STDIN_SOURCE if path == STDIN else shown_name(path)


def _left_out(problem: "Unreadable") -> str:
    """An unreadable level, for a list of them: its number and what is wrong where."""
    return f"level {problem.index} left out: {problem.error}"


def _run_play(args: argparse.Namespace) -> int:
    from fewest.levels.files import STDIN

    if args.path == STDIN:  # (the app reads its keys from the terminal)
        raise UsageError("play needs the terminal for its keys: give a file path, not - (solve and check read -)")
    collection = _load(args.path, args.family)
    start = 0 if args.level is None else _position(collection, args.level, args.path)
    from fewest.tui.app.app import FewestApp

    notes = [_left_out(problem) for problem in collection.unreadable]
    _need_terminal("play")
    app = FewestApp(entries=collection.entries, start_index=start, notes=notes)
    app.run()
    return app.return_code or 0


def _need_terminal(command: str) -> None:
    """The app reads keys from a terminal and draws on one: without, it could only spin.
    (Served to a browser, `fewest serve`'s driver brings keys and screen over pipes.)"""
    if "web_driver" in os.environ.get("TEXTUAL_DRIVER", ""):
        return
    if not _is_terminal(sys.stdin) or not _is_terminal(sys.stdout):
        raise UsageError(f"{command} needs a terminal for its keys and screen; standard input or output is not "
                         "one (solve and check work without)")


def _is_terminal(stream: object) -> bool:
    try:
        return bool(stream is not None and stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):  # (no such method, or closed)
        return False


def _run_app() -> int:
    from fewest.tui.app.app import FewestApp

    _need_terminal("fewest")
    app = FewestApp()
    app.run()
    return app.return_code or 0


def _run_check(args: argparse.Namespace) -> int:
    from fewest.levels import LevelFormatError
    from fewest.levels.base import Collection, NoLevelReads
    from fewest.tui.services.level_summary import counted

    status = 0
    for path in args.paths:
        try:
            collection = _load(path, args.family)
        except NoLevelReads as exc:  # (every level's error, not the first one's only)
            collection = Collection([], exc.unreadable)
        except LevelFormatError as exc:
            print(f"error: {exc}")
            status = 2
            continue
        entries, unreadable = collection.entries, collection.unreadable
        count = len(entries) + len(unreadable)
        what = f"{entries[0].family} level" if entries else "level"
        bad = f", {'all' if not entries else len(unreadable)} of them unreadable" if unreadable else ""
        print(f"{_shown(path)}: {counted(count, what, what + 's')}{bad}")
        lines = [(entry.index, _described(entry)) for entry in entries]
        lines += [(problem.index, f"error: {problem.error}") for problem in unreadable]
        for index, text in sorted(lines, key=lambda line: line[0]):
            print(f"  {index:>4}  {text}")
        if unreadable:
            status = 2
    return status


def _described(entry: "LevelEntry") -> str:
    """A level's line in `check`: size and contents, par, saved solutions, title."""
    from fewest.tui.services.level_summary import describe, saved_solutions

    par = f", par {entry.par}" if entry.par is not None else ""
    if entry.push_par is not None:
        par += f", push par {entry.push_par}"
    return f"{describe(entry.level)}{par}{saved_solutions(entry)}  {entry.display_title()}"


def main(argv: Sequence[str] | None = None) -> int:
    from fewest.levels import LevelFormatError

    args = _parser().parse_args(argv)
    try:
        # (until here, from entry_point, a Ctrl-C ends it at once with 130; the app takes it
        # over once mounted, saving the games it has open by then)
        if args.command not in (None, "play"):
            raise_on_ctrl_c()
        if args.command is None:
            return _run_app()
        if args.command == "play":
            return _run_play(args)
        if args.command == "check":
            return _run_check(args)
        if args.command == "solve":
            from fewest.tui.cli.solve import run_solve

            return run_solve(args, _load)
        if args.command == "serve":
            from fewest.tui.cli.serve import run_serve

            return run_serve(args, _load)
        if args.command == "generate":
            from fewest.tui.cli.generate import run_generate

            return run_generate(args)
        if args.command == "bench":
            from fewest.tui.bench.families import run_bench

            return run_bench(args)
    except (LevelFormatError, UsageError) as exc:
        print(f"fewest: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("fewest: interrupted", file=sys.stderr)
        return INTERRUPTED
    return 2


def entry_point() -> None:
    quit_at_once()  # (first thing: a Ctrl-C while the command starts is no traceback)
    _usable_streams()
    try:
        code = main()
        quit_at_once()  # (answered: a Ctrl-C now, in the interpreter's shutdown, ends it with 130)
        sys.stdout.flush()  # (a closed pipe shows here, not at exit)
    except KeyboardInterrupt:  # (a second press, while main said it was interrupted)
        code = INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`fewest check FILE | head`): stop quietly, no traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 141
    except OSError as exc:  # the output cannot be written (a full disk)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"fewest: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        code = 2
    sys.exit(code)


def _usable_streams() -> None:
    """Standard streams the commands can always write to: a closed one as the null device
    (the answers and exit code still count), and characters the output's encoding lacks
    (a title in another script, on a Latin-1 system) replaced rather than a crash."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))
        elif hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace" if name == "stdout" else "backslashreplace")


if __name__ == "__main__":
    entry_point()

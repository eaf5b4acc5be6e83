"""`fewest serve`: the app in web browsers, each tab its own app process (textual-serve).

The served command is this very program, run by this very Python (`fewest` or `fewest play
FILE`), so a tab's progress lands in the same data directory as the terminal app's.
textual-serve and aiohttp load only once the arguments are checked: the other commands
never import them.
"""

from __future__ import annotations

import argparse
import errno
import os
import shlex
import socket
import sys
from typing import TYPE_CHECKING, Any, Callable

from fewest.tui.cli.usage import UsageError

if TYPE_CHECKING:
    from fewest.levels.base import Collection

FAMILY_LIST = "sokoban, traffic, rotation, shift, password"
# Hosts only this machine can reach: no warning for these.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def _number(text: str, kind: Callable[[str], Any], valid: Callable[[Any], bool], what: str) -> Any:
    """An argparse type's parse: `text` read by `kind`, refused unless `valid`."""
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or not valid(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
    return value


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 1 to 65535."""
    return _number(text, int, lambda port: 1 <= port <= 65535, "a port number (1 to 65535)")


def session_count(text: str) -> int:
    """An argparse type: how many sessions at once, 1 or more."""
    return _number(text, int, lambda count: count >= 1, "a number of sessions (1 or more)")


def idle_minutes(text: str) -> float:
    """An argparse type: minutes without input that end a session (0: never; fractions allowed)."""
    return _number(text, float, lambda minutes: 0 <= minutes < float("inf"),
                   "a number of minutes (0 or more; 0: never)")


def app_command(path: str | None, level: int | None, family: str | None) -> str:
    """The shell command each tab runs: the app, or `play` on the file, with this Python
    (which, through `exec`, takes the shell's place: the tab's process is the app's)."""
    words = [sys.executable, "-m", "fewest.tui.cli.main"]
    if path is not None:
        words += ["play", os.path.abspath(path)]
        if level is not None:
            words += ["--level", str(level)]
        if family is not None:
            words += ["--family", family]
    return ("exec " if os.name == "posix" else "") + shlex.join(words)


def page_title(family: str | None) -> str:
    """The browser tab's title: fewest and the family it plays."""
    return f"fewest: {family}" if family else f"fewest: {FAMILY_LIST}"


def address(host: str, port: int) -> str:
    """The address to open: a wildcard host is reached here through the loopback."""
    shown = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
    if ":" in shown:  # (an IPv6 address goes in brackets)
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def exposure_warning(host: str, port: int) -> str | None:
    """The one line saying who can play, when the host is reachable from other machines."""
    if host in LOCAL_HOSTS:
        return None
    return (f"fewest: warning: listening on {host}: anyone who can reach port {port} can play here "
            "(the fewest app only, never a shell; but it opens level files by path on this machine, "
            "and saves progress in your data directory)")


def check_port(host: str, port: int) -> None:
    """A port that cannot be listened on is a usage error, said before anything starts."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise UsageError(f"cannot listen on host {host!r}: {exc.strerror}") from None
    for family, kind, proto, _, where in infos:
        with socket.socket(family, kind, proto) as probe:
            # (as the server will: a port whose last connections linger in TIME_WAIT is free)
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(where)
            except OSError as exc:
                raise UsageError(_bind_error(host, port, exc)) from None


def _bind_error(host: str, port: int, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return f"port {port} is in use on {host} (give another with --port)"
    if exc.errno == errno.EACCES:
        return f"port {port} needs privileges this user lacks (give one above 1023 with --port)"
    return f"cannot listen on {host} port {port}: {exc.strerror or exc}"


def run_serve(args: argparse.Namespace, load: Callable[[str, str | None, int | None], "Collection"]) -> int:
    """Check the arguments, then serve until Ctrl-C or SIGTERM (exit code 0)."""
    from fewest.levels.files import STDIN

    family = args.family
    what = "the app (every family)"
    if args.path is None:
        if args.level is not None:
            raise UsageError("--level needs a level file to serve: fewest serve FILE --level N")
    else:
        if args.path == STDIN:
            raise UsageError("serve needs a level file's path, not - (each tab reads the file anew)")
        collection = load(args.path, args.family, args.level)  # (a missing file or level: exit 2 here)
        family = family or collection.entries[0].family
        level = f" level {args.level}" if args.level is not None else ""
        what = f"{args.path}{level} ({family})"
    check_port(args.host, args.port)
    warning = exposure_warning(args.host, args.port)
    if warning:
        print(warning, file=sys.stderr)
    from fewest.tui.cli.web import FewestServer  # (textual-serve: only now)
    from fewest.tui.cli.web_sessions import default_max_sessions

    server = FewestServer(app_command(args.path, args.level, args.family), args.host, args.port,
                          page_title(family), what, address(args.host, args.port), args.open,
                          max_sessions=args.max_sessions or default_max_sessions(),
                          idle_seconds=args.idle_minutes * 60 or None)
    try:
        server.run()
    except OSError as exc:  # (the port taken between the check and the start)
        raise UsageError(_bind_error(args.host, args.port, exc)) from None
    return 0

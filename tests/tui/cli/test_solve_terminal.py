"""`fewest solve` at a terminal: the progress line, and Ctrl-C stopping a proof with what it proved."""

import io
import json
import os
import signal
import threading
import time

import pytest

from fewest.engine import sokoban as S
from fewest.levels import read_file
from fewest.levels.files import write_entries
from fewest.solvers.common.control import Progress
from fewest.tui.cli.main import main
from fewest.tui.cli.terminal import CLEAR, Interrupt, ProgressLine, fit_line
from tests import oracle
from tests.paths import DATA_DIR
from tests.solvers.sokoban.test_packing import XSOKOBAN_2

MICROBAN = os.path.join(DATA_DIR, "Microban_155.xsb")


class Terminal(io.StringIO):
    """Standard error as a terminal would be (no size: the line keeps to 80 columns)."""

    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def ctrl_c_as_at_a_terminal():
    """SIGINT with Python's own handler, as under a shell at a terminal: a script that starts
    pytest in the background (`pytest &`) hands it down ignored."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_a_first_ctrl_c_is_a_request_and_a_second_quits():
    with Interrupt() as interrupt:
        signal.raise_signal(signal.SIGINT)
        assert interrupt.pressed.is_set()
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_the_progress_line_redraws_in_place_and_only_on_a_terminal(monkeypatch):
    monkeypatch.setenv("TERM", "xterm-256color")
    report = Progress(expanded=1_234_567, stored=10, bound=61, seconds=9.2)
    terminal = Terminal()
    line = ProgressLine(terminal)
    line.start("m.xsb #1")
    line.show(report)  # (too soon: a quick solve draws nothing)
    assert terminal.getvalue() == ""
    line._next = 0.0
    line.show(report)
    line.stopping()  # (the first Ctrl-C: said at once, the search may take a moment)
    line.clear()
    drawn = terminal.getvalue()
    assert drawn.startswith(CLEAR + "m.xsb #1: 9 s, 1.2M positions, bound 61") and drawn.endswith(CLEAR)
    assert CLEAR + "m.xsb #1: stopping (Ctrl-C again quits at once)" + CLEAR in drawn
    assert all(len(part) < 80 for part in drawn.split(CLEAR))
    piped = io.StringIO()
    line = ProgressLine(piped)
    line.start("m.xsb #1")
    line._next = 0.0
    line.show(report)
    line.stopping()
    line.clear()
    assert piped.getvalue() == ""
    monkeypatch.setenv("TERM", "dumb")  # (an editor's shell: no erase codes)
    assert not ProgressLine(Terminal()).on


def test_a_long_path_gives_way_to_the_figures():
    deep = os.path.join(os.sep + "home", "someone", "collections", "by-author", "big.xsb") + " #7"
    news, aside = "20 s, 1.2M positions, bound 61", "  (Ctrl-C stops it with what it proved)"
    assert fit_line(deep, news, aside, 200) == f"{deep}: {news}{aside}"
    short = os.path.join("...", "big.xsb #7")
    assert fit_line(deep, news, aside, 90) == f"{short}: {news}{aside}"
    assert fit_line(deep, news, aside, 50) == f"{short}: {news}"  # (then the aside goes)
    assert fit_line(deep, news, aside, 20) == f"{short}: {news}"[:20]
    assert fit_line("big.xsb #7", news, aside, 40) == f"big.xsb #7: {news}"[:40]


def test_solve_at_a_terminal_shows_its_progress_then_clears_it(capsys, monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("TERM", "xterm-256color")
    # Microban #153 (David W. Skinner) is not proven in a second: the search reports meanwhile
    code = main(["solve", "--level", "153", "--timeout", "1", "--json", MICROBAN])
    record = json.loads(capsys.readouterr().out)
    assert code == 1 and record["status"] in ("budget", "found")
    drawn = terminal.getvalue()
    assert "Microban_155.xsb #153: " in drawn and " positions" in drawn and drawn.endswith(CLEAR)


def test_ctrl_c_stops_the_proof_prints_what_it_proved_and_starts_no_other_level(capsys, tmp_path):
    # Microban #153 then #1: the first is far from proven when Ctrl-C comes
    levels = {entry.index: entry for entry in read_file(MICROBAN)}
    both = tmp_path / "two.xsb"
    both.write_text(write_entries([levels[153], levels[1]]))
    presser = threading.Thread(target=_press_ctrl_c_once_solving, daemon=True)
    presser.start()
    code = main(["solve", "--timeout", "60", "--json", str(both)])
    presser.join()
    out, err = capsys.readouterr()
    (line,) = out.splitlines()
    record = json.loads(line)
    assert code == 130 and "fewest: interrupted" in err
    assert record["level"] == 1 and record["status"] == "cancelled" and record["at_least"] > 0
    assert record["seconds"] < 30  # (stopped by the press, not by the budget)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler



def _press_ctrl_c_once_solving() -> None:
    """Ctrl-C, half a second after `solve` took it over (however slowly it started)."""
    deadline = time.monotonic() + 30
    while signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        if time.monotonic() > deadline:
            return  # (never taken over: no press, which would stop pytest itself; the test fails)
        time.sleep(0.01)
    time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGINT)


def test_ctrl_c_between_two_levels_starts_no_other_and_clears_its_line(capsys, monkeypatch, tmp_path):
    from fewest.tui.cli import solve as solve_command

    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("TERM", "xterm-256color")
    printed = solve_command._print_result

    def then_pressed(*args):  # (Ctrl-C while the first level's answer is printed)
        status = printed(*args)
        signal.raise_signal(signal.SIGINT)
        return status

    monkeypatch.setattr(solve_command, "_print_result", then_pressed)
    rooms = tmp_path / "two.xsb"
    rooms.write_text("#####\n#@$.#\n#####\n\n######\n#@ $.#\n######\n")
    code = main(["solve", str(rooms)])
    out = capsys.readouterr().out
    assert code == 130 and out.startswith(f"{rooms} #1 ") and f"{rooms} #2" not in out
    drawn = terminal.getvalue()
    # (the press drew "stopping" at once; the tally comes on a cleared line, not after it)
    assert drawn.startswith(CLEAR) and CLEAR + "fewest: 2 levels: 1 optimal, 1 not started\n" in drawn


def test_with_no_timeout_the_first_plan_is_printed_at_once_and_the_proof_goes_on(capsys, monkeypatch, tmp_path):
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("TERM", "xterm-256color")
    level = tmp_path / "xsokoban2.xsb"  # (XSokoban #2: not proven in a second, a plan found at once)
    level.write_text(XSOKOBAN_2 + "\n", encoding="utf-8")

    def press_once_a_plan_is_printed() -> None:
        deadline = time.monotonic() + 30
        while "a plan of" not in terminal.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)  # (the proof would go on for minutes)

    presser = threading.Thread(target=press_once_a_plan_is_printed, daemon=True)
    presser.start()
    code = main(["solve", str(level)])
    presser.join()
    said = [line for line in terminal.getvalue().split(CLEAR) if "a plan of" in line]
    assert code == 130 and said
    head, plan = said[0].strip().split(" (proving on): ")
    assert head.startswith(f"{level} #1: a plan of") and head.endswith("moves, not proven shortest")
    moves = [S.parse_move(letter) for letter in plan.split("\n")[0]]
    lvl = read_file(str(level))[0].level
    assert oracle.replay_length(S, lvl, moves) == int(head.split("a plan of ")[1].split()[0])

"""The installed `fewest` command in a real terminal (tmux): start, send keys, read the screen."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fewest.levels import read_file, write_entries
from fewest.levels.bundled import bundled_packs, find_pack
from fewest.tui.services.progress import ProgressStore
from tests.app_support import write_levels

pytestmark = pytest.mark.tmux

TMUX = shutil.which("tmux")
_BESIDE = Path(sys.executable).parent / "fewest"
FEWEST = shutil.which("fewest") or (str(_BESIDE) if _BESIDE.exists() else None)
if TMUX is None or FEWEST is None:
    pytest.skip("needs tmux and the installed fewest command", allow_module_level=True)
# A server of our own, kept up between tests: with the default one, a session started just
# as the last test's was killed met the server on its way out ("new-session" failed once)
SERVER = [TMUX, "-L", f"fewest-test-{os.getpid()}"]


@pytest.fixture(scope="module", autouse=True)
def tmux_server():
    subprocess.run([*SERVER, "start-server", ";", "set-option", "-s", "exit-empty", "off"], check=True)
    yield
    subprocess.run([*SERVER, "kill-server"], capture_output=True)


class Terminal:
    """One detached tmux session running a command, 100x30 unless told wider."""

    def __init__(self, name: str, command: list[str], data_dir: Path, width: int = 100) -> None:
        self.name = f"fewest-test-{os.getpid()}-{name}"
        env = f"FEWEST_DATA_DIR={shlex.quote(str(data_dir))} TERM=xterm-256color"
        # pytest-xdist's workers carry COLUMNS=80 LINES=24, which the app would take over the pane's size
        line = f"unset COLUMNS LINES; {env} {shlex.join(command)}; echo EXITED $?; sleep 30"
        subprocess.run([*SERVER, "new-session", "-d", "-s", self.name, "-x", str(width), "-y", "30", line],
                       check=True)

    def screen(self) -> str:
        done = subprocess.run([*SERVER, "capture-pane", "-p", "-t", self.name],
                              capture_output=True, text=True)
        return done.stdout

    def wait_for(self, *texts: str, timeout: float = 20.0) -> str:
        """The screen once every text shows on it (a screen caught mid-redraw is read again)."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if all(text in screen for text in texts):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{texts!r} never all showed; the screen was:\n{screen}")
            time.sleep(0.1)

    def send(self, *keys: str) -> None:
        for key in keys:
            subprocess.run([*SERVER, "send-keys", "-t", self.name, key], check=True)
            time.sleep(0.05)

    def type(self, text: str) -> None:
        subprocess.run([*SERVER, "send-keys", "-t", self.name, "-l", text], check=True)

    def app_pid(self) -> int:
        """The command's process (the child of the pane's shell)."""
        shell = subprocess.run([*SERVER, "display-message", "-p", "-t", self.name, "#{pane_pid}"],
                               capture_output=True, text=True, check=True).stdout.strip()
        found = subprocess.run(["pgrep", "-P", shell], capture_output=True, text=True, check=True)
        return int(found.stdout.split()[0])

    def close(self) -> None:
        subprocess.run([*SERVER, "kill-session", "-t", self.name], capture_output=True)


@pytest.fixture
def terminals():
    opened: list[Terminal] = []

    def open_terminal(name: str, command: list[str], data_dir: Path, width: int = 100) -> Terminal:
        terminal = Terminal(name, command, data_dir, width)
        opened.append(terminal)
        return terminal

    yield open_terminal
    for terminal in opened:
        terminal.close()


def test_play_a_file_to_the_solved_card_and_keep_the_progress(tmp_path, terminals):
    path = write_levels(tmp_path, "rotation")
    # Wide enough for the file's whole path (pytest's are long) on the levels' bottom line
    term = terminals("play", [FEWEST, "play", path], tmp_path / "data", width=200)
    term.wait_for("Rotation: Two moves")
    term.send("A")
    term.wait_for("Moves 1")
    term.send("u")
    term.wait_for("Moves 0")
    term.send("A", "C")
    term.wait_for("Solved in 2 moves")
    term.send("q")  # from the card back to the levels, where the file is listed
    screen = term.wait_for("choose a level", "rot.fewest", "✓ solved")
    assert "Test rotation  1/2" in screen
    term.send("q")
    term.wait_for("EXITED 0")
    progress = json.loads((tmp_path / "data" / "progress.json").read_text(encoding="utf-8"))
    assert progress["levels"][read_file(path)[0].key]["best_moves"] == 2


def test_browse_search_open_and_ask_for_a_hint(tmp_path, terminals):
    wanted = next(p for p in bundled_packs() if p.family == "traffic").entries[0]
    term = terminals("browse", [FEWEST], tmp_path / "data")
    term.wait_for("choose a level")
    term.send("/")
    time.sleep(0.5)  # focus moves to the search box on the next event-loop turn, as for a person
    term.type(wanted.display_title())
    term.wait_for("match")
    term.send("Enter")  # (the search box hands focus to the levels on the next event-loop turn)
    time.sleep(0.5)  # (an Enter 50 ms after it once reached the search box again, on a loaded machine)
    term.send("Enter")
    term.wait_for(f"Traffic: {wanted.display_title()}")
    term.send("h")
    term.wait_for("to solve from here")
    term.send("?")
    term.wait_for("Traffic: keys")
    term.send("Escape")
    time.sleep(0.3)  # a key right after escape would read as alt+key
    term.send("q")
    term.wait_for("choose a level")
    term.send("q")
    term.wait_for("EXITED 0")


def test_a_long_solve_shows_progress_and_escape_cancels_it(tmp_path, terminals):
    # Many boxes: no exact search proves this within the test's few seconds.
    hardest = max(find_pack("sokoban_grigr2001").entries, key=lambda e: len(e.level.boxes))
    path = tmp_path / "big.xsb"
    path.write_text(write_entries([hardest]), encoding="utf-8")
    term = terminals("solve", [FEWEST, "play", str(path)], tmp_path / "data")
    term.wait_for("Moves 0")
    term.send("S")
    term.wait_for("nodes")  # the spinner with the search's node count
    term.send("?")  # keys still work while the solver thinks
    term.wait_for("Sokoban: keys")
    term.send("Escape")
    time.sleep(0.3)
    term.send("Escape")
    screen = term.wait_for("Cancelled.")
    assert "thinking" not in screen and "Moves 0" in screen


def test_solve_in_a_terminal_shows_its_progress_and_ctrl_c_keeps_what_was_proved(tmp_path, terminals):
    # Two copies of the level with the most boxes: far from proven when Ctrl-C comes (with a
    # time budget a second process searches beside the first: the key reaches both)
    hardest = max(find_pack("sokoban_grigr2001").entries, key=lambda e: len(e.level.boxes))
    path = tmp_path / "big.xsb"
    path.write_text(write_entries([hardest, hardest]), encoding="utf-8")
    term = terminals("solve", [FEWEST, "solve", "--timeout", "60", str(path)], tmp_path / "data")
    term.wait_for("positions")  # the progress line, drawn while the proof runs
    term.send("C-c")
    screen = term.wait_for("EXITED 130")
    assert "#1 " in screen and "not solved (cancelled, at least " in screen and " moves proven)" in screen
    assert "fewest: 2 levels: 0 optimal, 1 not solved, 1 not started" in screen
    assert "positions" not in screen and "Traceback" not in screen  # (the line was cleared)


@pytest.mark.parametrize("how", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_kill_or_a_closed_terminal_still_saves_the_game(tmp_path, terminals, how):
    # Within the second before the game's own timed save: only the way out can save it.
    path = write_levels(tmp_path, "rotation")
    term = terminals("signal", [FEWEST, "play", path], tmp_path / "data")
    term.wait_for("Rotation: Two moves")
    term.send("A")
    term.wait_for("Moves 1")
    app = term.app_pid()
    if how in ("SIGTERM", "SIGINT"):  # (`kill -INT`: at the board, Ctrl-C is a key, not a signal)
        os.kill(app, getattr(signal, how))
        term.wait_for(f"EXITED {128 + getattr(signal, how)}")
    else:
        term.close()  # tmux hangs up on the pane's processes, as a closed terminal window does
    deadline = time.monotonic() + 10
    while _running(app) and time.monotonic() < deadline:  # (no process left behind either)
        time.sleep(0.1)
    assert not _running(app)
    games = tmp_path / "data" / "games.json"
    saved = json.loads(games.read_text(encoding="utf-8"))["games"][read_file(path)[0].key]
    assert saved["record"]["entries"] == [["move", "A"]]


def test_a_kill_9_keeps_what_was_solved_and_the_game_but_its_last_second(tmp_path, terminals):
    # (the store's own crash tests kill 50 times: tests/tui/services/test_progress_kills.py)
    path = write_levels(tmp_path, "rotation")
    first, second = (entry.key for entry in read_file(path)[:2])
    term = terminals("kill9-solve", [FEWEST, "play", path], tmp_path / "data")
    term.wait_for("Rotation: Two moves")
    term.send("A", "C")
    term.wait_for("Solved in 2 moves")
    os.kill(term.app_pid(), signal.SIGKILL)  # (at once: the solve was written as it was made)
    term.wait_for("EXITED 137")
    term = terminals("kill9-game", [FEWEST, "play", "--level", "2", path], tmp_path / "data")
    term.wait_for("Rotation: Eight moves")
    term.send("A")
    term.wait_for("Moves 1")
    time.sleep(1.5)  # (more than the second within which a move is saved)
    term.send("B")
    term.wait_for("Moves 2")
    os.kill(term.app_pid(), signal.SIGKILL)  # (the second move may be lost: it is of the last second)
    term.wait_for("EXITED 137")
    for name in ("progress.json", "games.json", "recent.json"):  # (every file parses)
        json.loads((tmp_path / "data" / name).read_text(encoding="utf-8"))
    store = ProgressStore(str(tmp_path / "data"))
    assert store.level(first).solved and store.level(first).best_moves == 2
    saved = store.saved_game(second)
    assert saved is not None and saved.record["entries"][:1] == [["move", "A"]]


def test_two_copies_of_the_app_at_once_keep_each_others_progress(tmp_path, terminals):
    path = write_levels(tmp_path, "rotation")
    first, second = (entry.key for entry in read_file(path)[:2])
    one = terminals("copy-one", [FEWEST, "play", path], tmp_path / "data")
    two = terminals("copy-two", [FEWEST, "play", "--level", "2", path], tmp_path / "data")
    one.wait_for("Rotation: Two moves")
    two.wait_for("Rotation: Eight moves")  # (both have read the data directory by now)
    two.send("A")
    two.wait_for("Moves 1")
    two.send("q")
    two.wait_for("choose a level")
    two.send("q")
    two.wait_for("EXITED 0")  # (its game saved; the first copy's idea of the files is older)
    one.send("A", "C")
    one.wait_for("Solved in 2 moves")
    one.send("q")
    one.wait_for("choose a level")
    one.send("q")
    one.wait_for("EXITED 0")
    store = ProgressStore(str(tmp_path / "data"))
    assert store.level(first).solved
    saved = store.saved_game(second)
    assert saved is not None and saved.record["entries"] == [["move", "A"]]


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # (its parent, the pane's shell, waits for it or is gone: no zombie stays)
    except ProcessLookupError:
        return False
    return True

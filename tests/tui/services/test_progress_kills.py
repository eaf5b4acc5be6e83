"""Crash tests for saves (#74): processes writing progress as the app does are killed with
SIGKILL at random moments, 50 times, a third of them in the middle of a write (its temp
file written, not yet renamed, or renamed and the folder not yet synced), some with two
copies writing to one data directory at once. After each kill every data file parses,
and nothing a copy had saved before it died is lost: no solve, no game, no copy's
progress overwritten by the other's. (The app saves a game within a second of a move:
tests/tui/app/test_app_boards.py; a SIGTERM, SIGHUP or SIGINT saves it at once:
tests/tui/app/test_tmux.py.)
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fewest.tui.services.progress import STALE_TEMP_SECONDS, ProgressStore

KILLS = 50
# One copy of the app as far as its saves go: opens the store, then plays level after level,
# saving the game after each move, recording the solve, forgetting the game, and noting the
# file among the recent ones; each save is told on standard output once it returned. With
# PAUSE_AT=n it stops in its n-th fsync (in the middle of a write) and says so.
DRIVER = r"""
import os, sys, time
from fewest.tui.services.progress import ProgressStore, SavedGame

data, name, pause_at = sys.argv[1], sys.argv[2], int(sys.argv[3])
real_fsync, calls = os.fsync, [0]

def fsync(fd):
    calls[0] += 1
    if calls[0] == pause_at:
        print("writing", flush=True)
        time.sleep(60)
    real_fsync(fd)

def told(*words):
    if store.messages:  # (a save the store could not make: said, not raised)
        print("failed", *store.messages, flush=True)
        sys.exit(1)
    print(*words, flush=True)

os.fsync = fsync
store = ProgressStore(data)
print("ready", flush=True)
level = 0
while True:
    key = f"{name}-{level}"
    for moves in range(1, 4):
        store.save_game(key, SavedGame({"entries": [["move", "A"]] * moves}, float(moves)))
        told("game", key, moves)
    store.record_solve(key, 10 + level, None, assisted=False, plan="A" * (10 + level))
    told("solved", key, 10 + level)
    store.drop_game(key, finished=True)
    told("dropped", key)
    store.add_recent(f"/levels/{key}.xsb")
    told("recent", key)
    level += 1
"""


def _start(data: Path, name: str, pause_at: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", DRIVER, str(data), name, str(pause_at)],
                            stdout=subprocess.PIPE, text=True)


def _killed(copy: subprocess.Popen) -> list[list[str]]:
    """Kill `copy` (SIGKILL) and return what it said it had saved."""
    copy.send_signal(signal.SIGKILL)
    # read() goes through the same buffer the earlier readline()s filled (communicate() with a
    # timeout reads the pipe directly and would lose what that buffer held)
    out = copy.stdout.read()
    copy.wait(timeout=30)
    lines = out.split("\n")[:-1]  # (an unterminated last line was cut by the kill: not said)
    return [line.split() for line in lines if line.split() not in ([], ["ready"], ["writing"])]


class Expected:
    """What the copies said they saved: solves, and games not finished since."""

    def __init__(self) -> None:
        self.solved: dict[str, int] = {}
        self.games: dict[str, int] = {}  # key -> moves saved
        self.newest: dict[str, str] = {}  # copy -> the file it last noted as recent

    def add(self, said: list[list[str]]) -> None:
        for words in said:
            if words[0] == "game":
                self.games[words[1]] = int(words[2])
            elif words[0] == "solved":
                self.solved[words[1]] = int(words[2])
            elif words[0] == "dropped":
                self.games.pop(words[1])
            elif words[0] == "recent":
                self.newest[words[1].rstrip("-0123456789")] = f"/levels/{words[1]}.xsb"
            else:
                raise AssertionError(f"a copy said {words}")


def _check(data: Path, expected: Expected, kill: int) -> None:
    for path in data.iterdir():
        if path.name.endswith(".tmp"):  # (a killed write's temp file: the store sweeps it)
            assert path.name.startswith((".progress.json.", ".games.json.", ".recent.json.")), path
        elif path.suffix == ".json":
            json.loads(path.read_text(encoding="utf-8"))  # (every data file parses)
    store = ProgressStore(str(data))
    assert not store.messages, f"after kill {kill}: {store.messages}"
    for key, moves in expected.solved.items():
        record = store.level(key)
        assert record.solved and record.best_moves == moves, f"after kill {kill}: the solve of {key} was lost"
    for key, moves in expected.games.items():
        if key in expected.solved:  # (solved: its game may be forgotten before the copy said so)
            continue
        game = store.saved_game(key)
        assert game is not None and len(game.record["entries"]) >= moves, f"after kill {kill}: game {key} lost"
    # (the 20 newest files stay listed: each copy's newest at least, when it was killed)
    missing = set(expected.newest.values()) - set(store.recent)
    assert not missing, f"after kill {kill}: recent files {missing} lost"


def test_fifty_kills_lose_no_save_and_leave_every_file_readable(tmp_path):
    data = tmp_path / "data"
    expected = Expected()
    chance = random.Random(74)  # (fixed: a failure can be rerun)
    mid_write = 0
    for kill in range(KILLS):
        two = kill % 5 == 4  # (one kill in five: two copies at once, each killed in turn)
        pause = kill % 3 == 0
        # (only the first copy pauses: it holds the lock while it does, so the other waits)
        copies = [_start(data, f"k{kill}{side}", chance.randint(1, 12) if pause and side == "a" else 0)
                  for side in "ab"[: 1 + two]]
        said: list[list[list[str]]] = []
        for copy in copies:
            assert copy.stdout.readline().strip() == "ready"
            lines = []
            while pause and copy is copies[0] and (line := copy.stdout.readline().split()) != ["writing"]:
                lines.append(line)  # (saves before its pause, told)
            said.append(lines)
        if pause:
            mid_write += 1
        else:
            time.sleep(chance.uniform(0.0, 0.25))
        expected.newest = {}  # (this round's copies' newest files: older ones may have left the list of 20)
        for copy, lines in zip(copies, said):
            expected.add(lines + _killed(copy))
        _check(data, expected, kill)
    assert mid_write >= KILLS // 3 and len(expected.solved) >= KILLS // 2


def test_two_copies_at_once_keep_each_others_progress(tmp_path):
    data = tmp_path / "data"
    copies = [_start(data, side, 0) for side in "ab"]
    for copy in copies:
        assert copy.stdout.readline().strip() == "ready"
    deadline = time.monotonic() + 20
    said: dict[int, int] = {0: 0, 1: 0}
    # (4 solves in the file: the copy told its third before it recorded the fourth, so a kill
    # right after the third's record cannot cut the line that says it)
    while min(said.values()) < 4 and time.monotonic() < deadline:
        time.sleep(0.1)
        said = {i: len(list(Path(data).glob("*.json"))) and _solves(data, "ab"[i]) for i in (0, 1)}
    expected = Expected()
    for copy in copies:
        expected.add(_killed(copy))
    assert sum(key.startswith("a-") for key in expected.solved) >= 3
    assert sum(key.startswith("b-") for key in expected.solved) >= 3
    _check(data, expected, 0)


def _solves(data: Path, name: str) -> int:
    try:
        levels = json.loads((data / "progress.json").read_text(encoding="utf-8"))["levels"]
    except (OSError, ValueError):
        return 0
    return sum(key.startswith(f"{name}-") for key in levels)


def test_a_killed_writes_temp_file_is_swept_once_old(tmp_path):
    data = tmp_path / "data"
    copy = _start(data, "t", 1)  # (stops in the first write, its temp file full but not renamed)
    assert [copy.stdout.readline().strip() for _ in range(2)] == ["ready", "writing"]
    _killed(copy)
    temps = [path for path in data.iterdir() if path.name.endswith(".tmp")]
    assert temps
    old = time.time() - STALE_TEMP_SECONDS - 1
    for path in temps:
        os.utime(path, (old, old))
    ProgressStore(str(data))
    assert not any(path.name.endswith(".tmp") for path in data.iterdir())

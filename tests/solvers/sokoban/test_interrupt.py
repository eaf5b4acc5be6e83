"""Ctrl-C on `fewest solve` / `fewest bench` while a Sokoban proof has processes beside it:
one line from the command, no traceback from any child, and no process left behind."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fewest.solvers.common.processes import spare_core
from tests.paths import DATA_DIR, ROOT
from tests.tui.cli.chromium import descendants

pytestmark = pytest.mark.skipif(not spare_core(), reason="the proof forks helpers only with two cores")

MICROBAN = str(DATA_DIR / "Microban_155.xsb")
# The command as a terminal starts it: Ctrl-C raises KeyboardInterrupt. (A shell without
# job control starts a background job with SIGINT ignored, and Python then leaves it
# ignored; the command must keep that, but this test is about a terminal's Ctrl-C.)
CLI_AT_A_TERMINAL = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('fewest.tui.cli.main', run_name='__main__', alter_sys=True)"
)


@pytest.mark.parametrize(
    "argv, below",  # (below: the processes under the command once its helper is forked)
    [
        (["solve", MICROBAN, "--level", "93", "--metric", "moves", "--timeout", "150"], 1),  # both ends beside
        (["solve", MICROBAN, "--level", "153", "--metric", "pushes", "--timeout", "150"], 1),  # pushes alone beside
        (["bench", "sokoban", "--set", MICROBAN, "--levels", "153", "--metric", "pushes", "--timeout", "150"], 2),
    ],
)
def test_ctrl_c_stops_every_process_quietly(argv, below):
    # (its own session: Ctrl-C at a terminal goes to the whole foreground process group)
    command = subprocess.Popen(
        [sys.executable, "-c", CLI_AT_A_TERMINAL, *argv],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    # (waited for, not slept on: a loaded machine took over 2.5 s to start the command, and
    # a helper may come only with the proof, after the finders' and the improver's shares of
    # the time, run in the command's own process: 0.4 + 0.15 of it at most; CI saw none in 30 s)
    deadline = time.monotonic() + 100
    while len(descendants(command.pid)) < below and command.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert command.poll() is None and len(descendants(command.pid)) >= below
    os.killpg(command.pid, signal.SIGINT)
    _, errors = command.communicate(timeout=20)
    assert command.returncode == 130 and errors.strip() == "fewest: interrupted"
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.killpg(command.pid, 0)  # anyone left in the group?
        except ProcessLookupError:
            return
        time.sleep(0.05)
    pytest.fail("a process of the command outlived it")


def spin(control) -> None:
    """A search that never ends by itself (only its control stops it)."""
    while True:
        control.tick()


# A process that starts a search apart for two minutes (from its main thread: forked; from
# another, as the app's workers do: through the fork server), says the child's pid, and waits.
PARENT = (
    "import threading, time; from fewest.solvers.sokoban.searches.apart import SearchApart; "
    "from tests.solvers.sokoban.test_interrupt import spin; apart = SearchApart(spin, None); "
    "start = lambda: (apart.start(120.0), print(apart._child.pid, flush=True)); "
    "threading.Thread(target=start).start() if {thread} else start(); time.sleep(120)"
)


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads process states from /proc")
@pytest.mark.parametrize("thread", [False, True])
def test_a_search_apart_stops_soon_when_its_parent_is_killed(thread):
    # (an app killed with -9 never closes its helpers: they must not run on for their minute)
    parent = subprocess.Popen([sys.executable, "-c", PARENT.format(thread=thread)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT)
    child = int(parent.stdout.readline())
    time.sleep(0.5)
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _alive(child):
        time.sleep(0.05)
    assert not _alive(child)
    assert "Traceback" not in parent.stderr.read()


def _alive(pid: int) -> bool:
    """Is `pid` running (a zombie, dead but not reaped by its new parent, is not)?"""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False

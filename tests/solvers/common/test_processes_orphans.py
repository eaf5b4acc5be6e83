"""A search's helper processes end with the process that started them, however it
ends: killed (SIGKILL, SIGHUP) in the middle of a hint, it leaves no child running (#75)."""

import os
import signal
import subprocess
import sys
import time

import pytest

PARENT = r"""
import sys, threading, time
from fewest.solvers.common.processes import process_context, start_child

def one():
    context = process_context(["fewest.solvers.common.processes"])
    # (time.sleep: a target a fork server's child can unpickle, as it cannot one of this script's)
    child = start_child(context.Process(target=time.sleep, args=(60,), daemon=True))
    print(child.pid, flush=True)

one()  # from the main thread: forked
worker = threading.Thread(target=one)  # from another: from the fork server
worker.start(); worker.join()
time.sleep(60)
"""


def _group(group: int) -> list[int]:
    """The processes of process group `group` still running (zombies have ended)."""
    found = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, ValueError):  # (not a process, or gone meanwhile)
            continue
        if fields[2] == str(group) and fields[0] != "Z":
            found.append(int(name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGHUP])
def test_children_end_at_once_with_their_killed_parent(signum):
    # The children (one forked, one from the fork server), the fork server and the
    # resource tracker all end: no process of the group is left.
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        children = [int(parent.stdout.readline()) for _ in range(2)]
        time.sleep(0.5)  # (started for good: a child that could not start would end by itself)
        assert set(children) < set(_group(parent.pid))
        parent.send_signal(signum)
        parent.wait(10)
        # (they lingered 2-12 s before, here 60: at once, but for a loaded machine's scheduling)
        deadline = time.monotonic() + 5.0
        while _group(parent.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        left = _group(parent.pid)
        assert not left, f"processes {left} outlived their parent"
    finally:
        for pid in _group(parent.pid):
            os.kill(pid, signal.SIGKILL)
        parent.kill()
        parent.wait()

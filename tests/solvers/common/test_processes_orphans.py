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

def sleep():
    time.sleep(60)

def one():
    context = process_context(["fewest.solvers.common.processes"])
    child = start_child(context.Process(target=sleep, daemon=True))
    print(child.pid, flush=True)

one()  # from the main thread: forked
worker = threading.Thread(target=one)  # from another: from the fork server
worker.start(); worker.join()
time.sleep(60)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"  # (a zombie has ended)
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGHUP])
def test_children_end_at_once_with_their_killed_parent(signum):
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        children = [int(parent.stdout.readline()) for _ in range(2)]
        assert all(_alive(pid) for pid in children)
        parent.send_signal(signum)
        parent.wait(10)
        deadline = time.monotonic() + 1.0  # (they lingered 2-12 s before)
        while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.02)
        left = [pid for pid in children if _alive(pid)]
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, f"children {left} outlived their parent"
    finally:
        parent.kill()
        parent.wait()

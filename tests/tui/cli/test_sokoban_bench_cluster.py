"""`fewest bench sokoban --set FILE --scheduler ADDRESS`: the rows of a run in turn, each
level in a fresh process on a Dask worker (its peak its own), and a run that ends early
leaves no level running on the cluster (the solve test's cluster: two single-threaded
worker processes)."""

import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from fewest.tui.bench.sokoban_set import run_collection
from fewest.tui.cli.main import main
from tests.tui.cli.chromium import group_runs
from tests.tui.cli.test_solve_jobs import BAD, HOPELESS, microban

pytest.importorskip("distributed")
from tests.tui.cli.test_solve_cluster import ctrl_c_as_at_a_terminal, scheduler  # noqa: E402, F401


def _spawned_levels() -> list[int]:
    """The bench levels running in processes of their own (on any worker of this machine)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if b"fewest.tui.bench.spawned_level" in command:
            found.append(int(entry))
    return found


def test_a_cluster_gives_the_rows_of_a_run_in_turn(tmp_path, scheduler):
    path = tmp_path / "set.xsb"
    path.write_text(microban(1) + BAD + HOPELESS.replace("; 153", "; 3"))
    alone = run_collection(path, timeout=0.5)
    seen = []
    remote = run_collection(path, timeout=0.5, scheduler=scheduler, on_row=lambda row: seen.append(row.index))
    assert seen == [1, 2, 3]
    assert [(r.index, r.status, r.moves, r.pushes) for r in remote.rows] == [
        (r.index, r.status, r.moves, r.pushes) for r in alone.rows]
    assert [r.status for r in remote.rows] == ["optimal", "unreadable", "budget"]
    # (each level's peak is its own process's: a fresh Python's, tens of MiB, not the worker's)
    assert all(10 * 2**20 < r.peak_bytes < 500 * 2**20 for r in remote.rows if r.status != "unreadable")


def test_the_command_names_the_scheduler_and_a_missing_one_is_bad_input(tmp_path, scheduler, capsys, monkeypatch):
    path = tmp_path / "one.xsb"
    path.write_text(microban(1))
    assert main(["bench", "sokoban", "--set", str(path), "--timeout", "5", "--scheduler", scheduler]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"fewest bench sokoban --set {path} --metric moves --timeout 5 --scheduler {scheduler}\n")
    assert "moves: 1/1 proven optimal" in out
    monkeypatch.setattr("fewest.tui.services.cluster.CONNECT_SECONDS", 0.5)
    assert main(["bench", "sokoban", "--set", str(path), "--scheduler", "tcp://127.0.0.1:9"]) == 2
    assert "cannot reach a Dask scheduler at tcp://127.0.0.1:9" in capsys.readouterr().err


def test_a_run_stopped_early_leaves_no_level_running(tmp_path, scheduler, ctrl_c_as_at_a_terminal):
    path = tmp_path / "hard.xsb"
    path.write_text(HOPELESS)
    running = []

    def ctrl_c_once_the_level_runs() -> None:
        # (waited for, not timed: a loaded machine may take seconds to start the level's process)
        deadline = time.monotonic() + 30
        while not running and time.monotonic() < deadline:
            running.extend(_spawned_levels())
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=ctrl_c_once_the_level_runs, daemon=True).start()
    with pytest.raises(KeyboardInterrupt):
        run_collection(path, timeout=60, scheduler=scheduler)
    started = time.monotonic()
    assert running, "the level never started in a process of its own"
    while _spawned_levels():  # (the worker sees the run's stop within a second, and kills it)
        assert time.monotonic() - started < 10
        time.sleep(0.1)


def test_a_level_s_process_ends_when_its_worker_goes(tmp_path):
    from fewest.levels import read_file_each
    from fewest.tui.bench.sokoban_set import solved_row

    path = tmp_path / "hard.xsb"
    path.write_text(HOPELESS)
    level = read_file_each(path).entries[0].level
    child = subprocess.Popen([sys.executable, "-m", "fewest.tui.bench.spawned_level"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
    assert child.stdin is not None
    child.stdin.write(pickle.dumps((level, "moves", 60.0, 2**30, solved_row)))
    child.stdin.flush()
    time.sleep(1.5)  # (it reads its level and starts the search, with its helpers on two cores)
    assert child.poll() is None
    child.stdin.close()  # (as when the worker dies)
    assert child.wait(timeout=5) == -signal.SIGKILL
    assert child.stdout is not None and child.stdout.read() == b""  # (no helper holds the pipe open)
    # (nothing of its group is left: the SIGKILL reached every member at once, but a helper may
    # still be on its way out, not yet a zombie, the moment its leader is reaped)
    deadline = time.monotonic() + 5
    while group_runs(child.pid):
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_level_s_process_that_answers_ends_cleanly_its_worker_still_there(tmp_path):
    from fewest.levels import read_file_each
    from fewest.tui.bench.sokoban_set import solved_row

    path = tmp_path / "one.xsb"
    path.write_text(microban(1))
    level = read_file_each(path).entries[0].level
    child = subprocess.Popen([sys.executable, "-m", "fewest.tui.bench.spawned_level"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    child.stdin.write(pickle.dumps((level, "moves", 10.0, 2**30, solved_row)))
    child.stdin.flush()  # (and kept open, as the worker keeps it while the level runs)
    row = pickle.loads(child.stdout.read())
    assert row.status == "optimal"
    # (a thread blocked reading the buffered stdin made the interpreter's shutdown abort)
    assert child.wait(timeout=10) == 0 and b"Fatal Python error" not in child.stderr.read()
    child.stdin.close()

"""`fewest solve --scheduler ADDRESS`: the levels solved by a Dask cluster's workers, with the
output of `--jobs 2` (a LocalCluster of two single-threaded worker processes, started once)."""

import os
import signal
import sys
import threading
import time

import pytest

from fewest.tui.cli.main import main
from tests.tui.cli.test_solve_jobs import HOPELESS, _steady, microban, mixed  # noqa: F401  (the same levels)

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def test_a_cluster_prints_what_two_workers_print(mixed, scheduler, capsys):  # noqa: F811
    code = main(["solve", mixed, "--timeout", "1", "--jobs", "2", "--json"])
    local = capsys.readouterr()
    assert main(["solve", mixed, "--timeout", "1", "--scheduler", scheduler, "--json"]) == code == 2
    remote = capsys.readouterr()
    assert _steady(remote.out) == _steady(local.out)
    assert len(remote.out.splitlines()) == 4  # (the bad level is said on stderr)


def test_a_scheduler_not_there_is_bad_input(mixed, capsys, monkeypatch):  # noqa: F811
    monkeypatch.setattr("fewest.tui.services.cluster.CONNECT_SECONDS", 0.5)
    assert main(["solve", mixed, "--scheduler", "tcp://127.0.0.1:9", "--timeout", "0.3"]) == 2
    assert "cannot reach a Dask scheduler at tcp://127.0.0.1:9" in capsys.readouterr().err


@pytest.fixture
def ctrl_c_as_at_a_terminal():
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_ctrl_c_stops_the_levels_running_on_the_cluster(tmp_path, scheduler, capsys, monkeypatch, ctrl_c_as_at_a_terminal):
    path = tmp_path / "hard.xsb"
    path.write_text(microban(1) + HOPELESS.replace("; 153", "; 2") + HOPELESS.replace("; 153", "; 3")
                    + microban(2).replace("; 2", "; 4") * 3)
    printed = _Watched(sys.stdout)
    monkeypatch.setattr(sys, "stdout", printed)

    def ctrl_c_once_two_hopeless_levels_run() -> None:
        # (#1 printed, then a second for its worker to take #3: waited for, not timed from the
        # start, as a loaded machine took over 1.5 s to connect and finish #1)
        if printed.seen.wait(60):
            time.sleep(1.0)
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    sent: list[float] = []
    threading.Thread(target=ctrl_c_once_two_hopeless_levels_run, daemon=True).start()
    code = main(["solve", str(path), "--timeout", "60", "--scheduler", scheduler])
    out, err = capsys.readouterr()
    assert code == 130 and time.monotonic() - sent[0] < 20  # (each level looks once a second)
    assert "#1 '1'" in out and out.count("not solved (cancelled") == 2  # (the two running: one a worker)
    assert "#4" not in out and "interrupted" in err


class _Watched:
    """stdout passed through, `seen` set once level #1's line is written."""

    def __init__(self, out) -> None:
        self.out = out
        self.seen = threading.Event()

    def write(self, text: str) -> int:
        if "#1 " in text:
            self.seen.set()
        return self.out.write(text)

    def __getattr__(self, name: str):
        return getattr(self.out, name)

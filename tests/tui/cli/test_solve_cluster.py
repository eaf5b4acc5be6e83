"""`fewest solve --scheduler ADDRESS`: the levels solved by a Dask cluster's workers, with the
output of `--jobs 2` (a LocalCluster of two single-threaded worker processes, started once)."""

import pytest

from fewest.tui.cli.main import main
from tests.tui.cli.test_solve_jobs import _steady, mixed  # noqa: F401  (the same collection)

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def test_a_cluster_prints_what_two_workers_print(mixed, scheduler, capsys):  # noqa: F811
    code = main(["solve", mixed, "--timeout", "0.3", "--jobs", "2", "--json"])
    local = capsys.readouterr()
    assert main(["solve", mixed, "--timeout", "0.3", "--scheduler", scheduler, "--json"]) == code == 2
    remote = capsys.readouterr()
    assert _steady(remote.out) == _steady(local.out)
    assert len(remote.out.splitlines()) == 4  # (the bad level is said on stderr)


def test_a_scheduler_not_there_is_bad_input(mixed, capsys, monkeypatch):  # noqa: F811
    monkeypatch.setattr("fewest.tui.services.cluster.CONNECT_SECONDS", 0.5)
    assert main(["solve", mixed, "--scheduler", "tcp://127.0.0.1:9", "--timeout", "0.3"]) == 2
    assert "cannot reach a Dask scheduler at tcp://127.0.0.1:9" in capsys.readouterr().err

"""A worker of `--jobs` told its share of the cores keeps to it: no helper process of its own
when its share is one core, whatever the machine has."""

import os

from fewest.solvers.common.processes import CORES_VARIABLE, spare_core, usable_cores


def test_a_share_of_one_core_leaves_no_spare_core(monkeypatch):
    machine = len(os.sched_getaffinity(0))
    monkeypatch.setenv(CORES_VARIABLE, "1")
    assert usable_cores() == 1 and not spare_core()
    monkeypatch.setenv(CORES_VARIABLE, str(machine + 5))  # (a share past the machine is the machine)
    assert usable_cores() == machine
    monkeypatch.setenv(CORES_VARIABLE, "many")  # (not a number: no share)
    assert usable_cores() == machine
    monkeypatch.delenv(CORES_VARIABLE)
    assert usable_cores() == machine

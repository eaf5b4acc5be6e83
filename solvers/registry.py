"""Family name -> its solver (the contract in contract.py), imported on first use (keeps start-up fast)."""

from __future__ import annotations

import importlib

from fewest.solvers.contract import FamilySolver

FAMILIES = ("sokoban", "traffic", "rotation", "shift", "password")


def solver_for(family: str) -> FamilySolver:
    """The `SOLVER` of `fewest.solvers.<family>`; ValueError for a family with none."""
    if family not in FAMILIES:
        raise ValueError(f"no solver for family {family!r}")
    return importlib.import_module(f"fewest.solvers.{family}").SOLVER

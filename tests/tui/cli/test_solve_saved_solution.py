"""`fewest solve` starts from a solution saved in the level's file: out of time, it answers
with that plan (or a shorter one near it), labelled found, rather than with none."""

from __future__ import annotations

import json

import pytest

from fewest.tui.cli.main import main
from tests.paths import ROOT
from tests.tui.cli.test_cli import assert_replays

# Grigr 2001 #40 "Rebus": 789 moves saved in the bundled pack. The searches for any plan
# took 150 s to find one (of 1,014 moves), so half a second gives none without it.
REBUS = str(ROOT / "levels" / "packs" / "sokoban_grigr2001.xsb")


@pytest.mark.parametrize("jobs", [[], ["--jobs", "1"]], ids=["in-turn", "worker"])
def test_out_of_time_the_saved_solution_is_the_answer(capsys, jobs):
    code = main(["solve", REBUS, "--level", "40", "--timeout", "0.5", "--json", *jobs])
    record = json.loads(capsys.readouterr().out)
    assert code == 1 and record["status"] == "found" and record["length"] <= 789
    assert_replays(record)

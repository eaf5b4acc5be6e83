"""The resume file: what a rerun takes as done, and a line cut short by a crash of the machine."""

import json

import pytest

from fewest.levels import read_file
from fewest.solvers.common.solution import Status
from fewest.tui.services.resume import ResumeFile

LEVEL = "; 1\n\n#####\n#@$.#\n#####\n"


@pytest.fixture
def entry(tmp_path):
    path = tmp_path / "one.xsb"
    path.write_text(LEVEL)
    return read_file(str(path))[0]


def _record(entry, plan="R", status="optimal"):
    return {"file": entry.source, "level": entry.index, "title": entry.title, "family": entry.family,
            "status": status, "length": len(plan), "plan": plan, "optimal": status == "optimal",
            "seconds": 0.5, "pushes": 1}


def test_a_result_comes_back_as_written(tmp_path, entry):
    path = str(tmp_path / "done.jsonl")
    ResumeFile(path, "moves").add(_record(entry))
    solution, seconds = ResumeFile(path, "moves").result_for(entry)
    assert solution.status is Status.OPTIMAL and len(solution.moves) == 1 and seconds == 0.5
    assert solution.extra == {"pushes": 1}
    assert ResumeFile(path, "pushes").result_for(entry) is None  # (solved for another metric)


def test_a_line_cut_short_is_not_a_result_and_the_next_starts_afresh(tmp_path, entry):
    path = tmp_path / "done.jsonl"
    path.write_text(json.dumps(_record(entry) | {"metric": "moves"})[:40])
    resume = ResumeFile(str(path), "moves")
    assert resume.result_for(entry) is None
    resume.add(_record(entry))
    assert len(path.read_text().splitlines()) == 2
    assert ResumeFile(str(path), "moves").result_for(entry) is not None


def test_a_plan_that_no_longer_solves_the_level_is_not_done(tmp_path, entry):
    path = str(tmp_path / "done.jsonl")
    ResumeFile(path, "moves").add(_record(entry, plan="L"))  # (a wall: not a plan of this level)
    assert ResumeFile(path, "moves").result_for(entry) is None


def test_a_resume_file_that_cannot_be_written_is_said_at_once(tmp_path):
    with pytest.raises(ValueError, match="cannot write the resume file"):
        ResumeFile(str(tmp_path / "no-such-folder" / "done.jsonl"), "moves")

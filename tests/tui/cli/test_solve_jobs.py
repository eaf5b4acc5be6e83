"""`fewest solve --jobs N` and `--resume`: the answers of a run in turn, in input order; a
level whose worker is killed reported on its own line; a stopped run taken up again.

Levels are tiny and budgets short (the whole file's solving is a few seconds of CPU)."""

import io
import json
import multiprocessing
import os
import re
import signal
import threading
import time

import pytest

from fewest.tui.cli.batch_progress import BatchBar
from fewest.tui.cli.main import main
from tests.paths import DATA_DIR

MICROBAN = (DATA_DIR / "Microban_155.xsb").read_text(encoding="utf-8")


def microban(number: int) -> str:
    """Level `number` of Microban, as its own text (title and grid)."""
    start = MICROBAN.index(f"; {number}\n")
    end = MICROBAN.find(f"; {number + 1}\n", start)
    return MICROBAN[start:end if end > 0 else None]


HOPELESS = microban(153)  # (no proof in a fraction of a second: out of budget)
NO_SOLUTION = "; 5\n\n#######\n#.@ $ #\n#######\n\n"
BAD = "; 2\n\n#####\n#@$$.#\n#####\n\n"  # (two boxes, one goal: the reader refuses it)


@pytest.fixture
def mixed(tmp_path):
    path = tmp_path / "mixed.xsb"
    path.write_text(microban(1) + BAD + HOPELESS + microban(2) + NO_SOLUTION, encoding="utf-8")
    return str(path)


def _steady(text: str) -> str:
    """Output without what the machine's speed sets: seconds, and the bound a proof reached
    in its time (a busy machine proves less in 0.3 s)."""
    text = re.sub(r"\[\d+\.\d+ s\]", "[s]", text)
    text = re.sub(r'"seconds": [\d.]+', '"seconds": 0', text)
    text = re.sub(r'"at_least": \d+', '"at_least": 0', text)
    return re.sub(r"at least \d+ moves", "at least N moves", text)


def _run(capsys, *argv):
    code = main(["solve", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_two_workers_print_what_a_run_in_turn_prints(mixed, capsys, monkeypatch):
    # One core a level in both runs, as two workers on two cores have: with a helper beside
    # it, a proof may end with another plan of the same length (whichever search wins).
    # 1 s a level: under load (four test workers on two cores) 0.3 s once left Microban #1 unproven.
    monkeypatch.setenv("FEWEST_CORES", "1")
    alone = _run(capsys, mixed, "--timeout", "1")
    both = _run(capsys, mixed, "--timeout", "1", "--jobs", "2")
    assert both[0] == alone[0] == 2  # (the bad level: bad input)
    assert _steady(both[1]) == _steady(alone[1])
    assert _steady(both[2]) == _steady(alone[2])
    assert "optimal" in alone[1] and "no solution exists" in alone[1] and "not solved (budget" in alone[1]
    assert "level 2 left out" in alone[2]


def _kill_the_worker_once(resume_file, first_level: str) -> threading.Thread:
    """Kill the run's worker once the first level's result is in the resume file (the
    worker then holds the second level)."""

    def watch():
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if os.path.exists(resume_file) and f'"level": {first_level}' in open(resume_file).read():
                time.sleep(0.3)
                for child in multiprocessing.active_children():
                    if child.name == "fewest-worker":
                        os.kill(child.pid, signal.SIGKILL)
                return
            time.sleep(0.02)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def test_a_killed_worker_is_its_levels_line_and_the_rest_go_on(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("FEWEST_CORES", "1")  # (no helper processes beside the search: one to kill)
    path = tmp_path / "three.xsb"
    path.write_text(microban(1) + HOPELESS.replace("; 153", "; 2") + microban(2).replace("; 2", "; 3"))
    resume = str(tmp_path / "done.jsonl")
    watcher = _kill_the_worker_once(resume, "1")
    code, out, err = _run(capsys, str(path), "--timeout", "20", "--jobs", "1", "--json", "--resume", resume)
    watcher.join()
    records = [json.loads(line) for line in out.splitlines()]
    assert [record["level"] for record in records] == [1, 2, 3]
    assert [record["status"] for record in records] == ["optimal", "crashed", "optimal"]
    assert "SIGKILL" in records[1]["error"]
    assert code == 3  # (a crash: neither bad input nor a level out of budget)
    # the crashed level is not in the resume file: a rerun tries it again
    assert sorted(json.loads(line)["level"] for line in open(resume)) == [1, 3]


@pytest.fixture
def ctrl_c_as_at_a_terminal():
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_resume_skips_the_levels_a_stopped_run_finished(tmp_path, capsys, ctrl_c_as_at_a_terminal):
    path = tmp_path / "three.xsb"
    path.write_text(microban(1) + HOPELESS.replace("; 153", "; 2") + microban(2).replace("; 2", "; 3"))
    resume = tmp_path / "done.jsonl"

    def press_ctrl_c():  # once level 1 is in the file (the worker is on level 2 then)
        while not (resume.exists() and resume.read_text()):
            time.sleep(0.02)
        time.sleep(0.3)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=press_ctrl_c, daemon=True).start()
    code, out, err = _run(capsys, str(path), "--timeout", "20", "--resume", str(resume))
    assert code == 130 and "interrupted" in err
    assert "#1 '1'" in out and "not solved (cancelled" in out and "#3" not in out
    first = resume.read_text()
    assert [json.loads(line)["level"] for line in first.splitlines()] == [1]  # (a stopped level is not done)

    code, again, err = _run(capsys, str(path), "--timeout", "0.3", "--resume", str(resume))
    assert code == 1  # (level 2 out of budget)
    assert again.splitlines()[:2] == out.splitlines()[:2]  # level 1 as printed before, from the file
    assert "#3 '3'" in again
    lines = resume.read_text().splitlines()
    assert lines[0] == first.strip() and sorted(json.loads(line)["level"] for line in lines) == [1, 2, 3]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_is_drawn_at_a_terminal_only(monkeypatch):
    monkeypatch.setenv("TERM", "xterm-256color")
    for stream, drawn in ((io.StringIO(), False), (Terminal(), True)):
        with BatchBar(3, stream) as bar:
            for status in ("optimal", "budget", "crashed"):
                bar.advance(status)
        assert bar.counts == {"optimal": 1, "not solved": 1, "crashed": 1}
        assert ("3/3" in stream.getvalue()) is drawn
    assert not BatchBar(1, Terminal()).on  # (one level: no bar)

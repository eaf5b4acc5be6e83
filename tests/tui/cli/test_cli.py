"""`fewest solve` / `fewest check` on every rule-book case: lengths, proofs, contest output, errors."""

import json
import os
import shutil
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

from fewest.engine.base import parse_plan, replay
from fewest.engine.registry import rules_for
from fewest.levels import read_file, read_file_each, write_entries
from fewest.tui.cli.main import main
from tests.paths import DATA_DIR

DATA = os.path.join(DATA_DIR, "rulebook")
MICROBAN = os.path.join(DATA_DIR, "Microban_155.xsb")  # (David W. Skinner)

# (file, family, optimal length) straight from the rule book.
CASES = [
    ("sokoban_1.in", "sokoban", 1),
    ("sokoban_10.in", "sokoban", 10),
    ("sokoban_12.in", "sokoban", 12),
    ("rush_51.txt", "traffic", 51),
    ("rush_60.txt", "traffic", 60),
    ("getout_4.in", "traffic", 4),
    ("shift_4.in", "shift", 4),
    ("shift_20.in", "shift", 20),
    ("password_4.in", "password", 4),
    ("password_15.in", "password", 15),
    ("password_41.in", "password", 41),
]
ROTATION = [("AC", 2), ("DDHH", 2), ("CDFFDBHF", 3), ("AABGAHBBDHFDB", 3)]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_replays(record):
    """The printed plan, replayed through the engine, solves the level in `length` moves."""
    (entry,) = [e for e in read_file_each(record["file"]).entries if e.index == record["level"]]
    rules = rules_for(record["family"])
    moves = parse_plan(rules, record["plan"])
    assert rules.is_solved(entry.level, replay(rules, entry.level, moves))
    assert len(moves) == record["length"]


@pytest.mark.parametrize("name, family, length", CASES)
def test_solve_json_reference_lengths(capsys, name, family, length):
    code, out, _ = run(capsys, "solve", "--json", os.path.join(DATA, name))
    assert code == 0
    (line,) = out.splitlines()
    record = json.loads(line)
    assert record["family"] == family
    assert record["length"] == length and record["optimal"] is True
    assert record["level"] == 1 and isinstance(record["seconds"], float)
    assert_replays(record)


def test_solve_json_rotation_strings_and_digits(capsys):
    code, out, _ = run(capsys, "solve", "--format", "json", os.path.join(DATA, "rotation.in"))
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["plan"], r["digit"]) for r in records] == ROTATION
    assert [r["level"] for r in records] == [1, 2, 3, 4]
    for record in records:
        assert record["optimal"] and record["length"] == len(record["plan"])
        assert_replays(record)


def test_sokoban_json_has_pushes(capsys):
    _, out, _ = run(capsys, "solve", "--json", os.path.join(DATA, "sokoban_10.in"))
    record = json.loads(out)
    assert set(record["plan"]) <= set("lurdLURD")
    assert record["pushes"] == sum(ch.isupper() for ch in record["plan"]) >= 1


def test_a_levels_seconds_leave_out_loading_the_solvers_code(capsys, monkeypatch):
    # The first level of a run loads its family's solver (numpy and all: ~0.1 s), once
    # per process: start-up, not that level's solve. A load made slow shows where it falls.
    from fewest.solvers import registry

    loaded, calls = registry.importlib.import_module, []

    def slow(name):
        if not calls:  # (a module is loaded once; asked again, it is at hand)
            time.sleep(1.0)
        calls.append(name)
        return loaded(name)

    # (the registry's own importlib only: no other load in the process pays the second)
    monkeypatch.setattr(registry, "importlib", SimpleNamespace(import_module=slow))
    _, out, _ = run(capsys, "solve", "--json", os.path.join(DATA, "sokoban_1.in"))
    record = json.loads(out)
    assert record["length"] == 1 and record["seconds"] < 1.0 and calls[0] == "fewest.solvers.sokoban"


@pytest.mark.parametrize(
    "name, expected",
    [
        ("getout_4.in", "4"),
        ("getout_impossible.in", "-1"),
        ("shift_4.in", "4"),
        ("shift_20.in", "20"),
        ("password_4.in", "Minsta antal kommandon: 4"),
        ("password_15.in", "Minsta antal kommandon: 15"),
        ("password_41.in", "Minsta antal kommandon: 41"),
    ],
)
def test_contest_output(capsys, name, expected):
    code, out, _ = run(capsys, "solve", "--format", "contest", os.path.join(DATA, name))
    assert code == 0
    assert out == expected + "\n"


def test_contest_output_rotation(capsys):
    code, out, _ = run(capsys, "solve", "--format", "contest", os.path.join(DATA, "rotation.in"))
    assert code == 0
    expected = "".join(f"{plan}\n{digit}\n" for plan, digit in ROTATION)
    assert out == expected


@pytest.mark.parametrize("name, length", [("sokoban_1.in", 1), ("sokoban_10.in", 10), ("sokoban_12.in", 12)])
def test_contest_output_sokoban_replays(capsys, name, length):
    code, out, _ = run(capsys, "solve", "--format", "contest", os.path.join(DATA, name))
    assert code == 0
    answer = out.strip()
    assert len(answer) == length and set(answer) <= set("HVUN")
    rules = rules_for("sokoban")
    entry = read_file(os.path.join(DATA, name))[0]
    state = rules.initial_state(entry.level)
    direction = {"H": "r", "V": "l", "U": "u", "N": "d"}
    for letter in answer:
        (move,) = [m for m in rules.legal_moves(entry.level, state) if m.direction == direction[letter]]
        state = rules.apply(entry.level, state, move)
    assert rules.is_solved(entry.level, state)
    if name == "sokoban_1.in":
        assert answer == "V"


def test_text_output_names_level_and_proof(capsys):
    code, out, _ = run(capsys, "solve", os.path.join(DATA, "password_15.in"))
    assert code == 0
    assert "15 moves" in out and "optimal" in out and "password" in out


def test_unsolvable_text_exit_1(capsys):
    code, out, _ = run(capsys, "solve", os.path.join(DATA, "getout_impossible.in"))
    assert code == 1 and "no solution exists" in out


def test_malformed_file_exit_2_names_it(capsys):
    path = os.path.join(DATA, "sokoban_bad.in")
    code, out, err = run(capsys, "solve", path)
    assert code == 2 and out == ""
    assert err.startswith("fewest: error: ") and path in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "/nonexistent/level.xsb"],
        ["solve", "--level", "9", os.path.join(DATA, "shift_4.in")],
        ["solve", "--metric", "pushes", os.path.join(DATA, "shift_4.in")],
        ["solve", "--format", "contest", os.path.join(DATA, "rush_51.txt")],
        ["check", "/nonexistent/level.xsb"],
    ],
)
def test_bad_input_exit_2(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and "Traceback" not in err


def test_contest_output_of_a_file_in_another_format_says_which(capsys):
    code, out, err = run(capsys, "solve", "--format", "contest", os.path.join(DATA, "rush_51.txt"))
    assert code == 2 and not out
    assert "rush_51.txt: --format contest needs a contest input, and this file is in the" in err
    assert read_file(os.path.join(DATA, "rush_51.txt"))[0].format in err


def test_usage_error_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["solve"])
    assert info.value.code == 2


def test_level_option_picks_one(capsys):
    code, out, _ = run(capsys, "solve", "--json", "--level", "3", os.path.join(DATA, "rotation.in"))
    assert code == 0
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert record["level"] == 3 and record["plan"] == "CDFFDBHF"


def test_many_files_in_one_process(capsys):
    paths = [os.path.join(DATA, name) for name, _, _ in CASES if "rush" not in name]
    code, out, _ = run(capsys, "solve", "--json", *paths)
    assert code == 0
    assert [json.loads(line)["length"] for line in out.splitlines()] == [
        length for name, _, length in CASES if "rush" not in name
    ]


def test_contest_answers_stay_in_step_with_their_cases_and_files(capsys, tmp_path, monkeypatch):
    from dataclasses import replace

    from fewest.solvers.common.solution import Status
    from fewest.tui.cli import solve as solve_command

    # Three password codes, the middle one as if out of budget: its line holds `?`.
    codes = tmp_path / "codes.in"
    codes.write_text("HYS_\n____\n____\n____\n\nSYHY\nHSYH\nYHSY\nHYSH\n\n_H__\n____\n____\n____\n")
    real = solve_command._print_result

    def starved(entry, solution, seconds, args):
        if entry.index == 2:
            solution = replace(solution, status=Status.BUDGET, moves=None)
        return real(entry, solution, seconds, args)

    monkeypatch.setattr(solve_command, "_print_result", starved)
    code, out, err = run(capsys, "solve", "--format", "contest", str(codes))
    monkeypatch.undo()
    lines = out.splitlines()
    assert code == 1 and len(lines) == 3 and lines[1] == "?" and "not solved (budget)" in err
    assert lines[0].startswith("Minsta antal kommandon: ") and lines[2].startswith("Minsta antal kommandon: ")
    # A file that does not read, among several, is named; the others are still solved.
    bad = tmp_path / "bad.in"
    bad.write_text("4 2\n1 x\n" + "0\n" * 7)
    one = os.path.join(DATA, "password_4.in")
    code, out, err = run(capsys, "solve", "--format", "contest", one, str(bad), one)
    assert code == 2 and out.splitlines() == ["Minsta antal kommandon: 4"] * 2
    assert err == f"fewest: error: {bad}, line 2, col 3: expected a whole number, not 'x'\n"


def test_text_output_of_many_levels_ends_with_their_tally_on_standard_error(capsys, tmp_path):
    # one level with a plan, one with none (a box walled in a corner), one past its budget
    levels = tmp_path / "three.xsb"
    (hard,) = [entry for entry in read_file(MICROBAN) if entry.index == 153]
    levels.write_text("#####\n#@$.#\n#####\n\n#####\n#@ .#\n#$  #\n#####\n\n" + write_entries([hard]))
    code, out, err = run(capsys, "solve", "--timeout", "0.5", str(levels))
    assert code == 1 and len(out.splitlines()) == 4  # (the plan has a line of its own)
    assert "fewest: 3 levels: 1 optimal, 1 with no solution, 1 not solved" in err
    code, out, err = run(capsys, "solve", "--json", "--timeout", "0.5", str(levels))
    assert "levels:" not in err  # (JSON and contest output carry no tally)
    _, _, err = run(capsys, "solve", os.path.join(DATA, "sokoban_1.in"))
    assert err == ""  # (nor does one level)
    levels.write_text("#####\n#@$.#\n#####\n\n#####\n#@$X#\n#####\n")  # (level 2 does not read)
    code, _, err = run(capsys, "solve", str(levels))
    assert code == 2 and err.endswith("fewest: 2 levels: 1 optimal, 1 unreadable\n")


def test_check_lists_levels(capsys):
    code, out, _ = run(capsys, "check", os.path.join(DATA, "rotation.in"), os.path.join(DATA, "rush_51.txt"))
    assert code == 0
    assert "4 rotation levels" in out and "1 traffic level" in out and "par 51" in out


def test_check_replays_the_solutions_saved_with_a_level(capsys, tmp_path):
    path = tmp_path / "saved.xsb"
    path.write_text("Par: 3\n######\n#@ $.#\n######\nSolution\nrR\nSolution\nrRR\nSolution\nr\n"
                    "\nPar: 2\n######\n#@ $.#\n######\nSolution\nrR\n")
    code, out, _ = run(capsys, "check", str(path))
    first, second = out.splitlines()[1:]
    assert code == 0  # (the level reads: a solution it carries is the author's to mend)
    assert ", par 3, solution 2 moves (under the par: the par is wrong)," in first
    assert ", a saved solution breaks off at its move 3 (move R: " in first
    assert ", a saved solution of 1 move leaves it unsolved  " in first
    path.write_text("######\n#@ $.#\n######\nSolution\nr\nRx\n")  # (not moves: said where, not dropped)
    code, out, _ = run(capsys, "check", str(path))
    assert code == 0 and ", a saved solution is not moves (line 6, col 2: 'x' is not a LURD move)" in out
    assert second.endswith(", par 2, solution 2 moves  Level 2")


def test_check_reports_errors_and_exits_2(capsys):
    code, out, _ = run(capsys, "check", os.path.join(DATA, "sokoban_bad.in"), os.path.join(DATA, "shift_4.in"))
    assert code == 2
    assert "sokoban_bad.in" in out and "1 shift level" in out


MIXED = """Title: good one
#####
#@$.#
#####

Title: counts wrong
######
#@$..#
######

Title: good two
######
#@ $.#
######
"""


def test_a_collection_with_an_unreadable_level_is_checked_solved_and_played_without_it(capsys, tmp_path):
    path = tmp_path / "mixed.xsb"
    path.write_text(MIXED, encoding="utf-8")
    code, out, _ = run(capsys, "check", str(path))
    assert code == 2 and "mixed.xsb: 3 sokoban levels, 1 of them unreadable" in out
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["1", "2", "3"]
    assert "   2  error: " in out and "line 7: 1 box but 2 goals" in out and "1 box  good two" in out
    code, out, err = run(capsys, "solve", "--json", str(path))
    assert code == 2 and "line 7: 1 box but 2 goals (level 2 left out)" in err
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["level"], r["title"], r["length"]) for r in records] == [(1, "good one", 1), (3, "good two", 2)]
    for record in records:
        assert_replays(record)
    code, out, err = run(capsys, "solve", "--level", "3", str(path))
    assert code == 0 and "#3 'good two' (sokoban): 2 moves, 1 push, optimal" in out and err == ""
    for command in ("solve", "play"):
        code, out, err = run(capsys, command, "--level", "2", str(path))
        assert code == 2 and out == "" and err.strip() == f"fewest: error: {path}, line 7: 1 box but 2 goals"
        code, out, err = run(capsys, command, "--level", "4", str(path))
        assert code == 2 and f"no level 4 (the file has 3)" in err


def test_check_lists_every_error_of_a_collection_none_of_whose_levels_read(capsys, tmp_path):
    path = tmp_path / "bad.xsb"
    path.write_text("#####\n#@$X#\n#####\n\n####\n#@$#\n####\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(path))
    assert code == 2 and out.splitlines() == [
        f"{path}: 2 levels, all of them unreadable",
        f"     1  error: {path}, line 2, col 4: unknown character 'X'",
        f"     2  error: {path}, line 5: 1 box but 0 goals",
    ]
    code, _, err = run(capsys, "solve", str(path))
    assert code == 2 and err == f"fewest: error: {path}, line 2, col 4: unknown character 'X'\n"


def test_play_opens_a_file_whose_first_level_does_not_read_on_the_first_that_does(tmp_path, monkeypatch):
    from fewest.tui.app import app
    from fewest.tui.cli import main as cli

    opened = []
    monkeypatch.setattr(app.FewestApp, "run", lambda self: opened.append((self.entries, self.start_index, self.notes)))
    monkeypatch.setattr(cli, "_is_terminal", lambda stream: True)
    path = tmp_path / "mixed.xsb"
    path.write_text(MIXED.split("\n\n", 1)[1], encoding="utf-8")  # (counts wrong, then good two)
    assert main(["play", str(path)]) == 0
    ((entries, start, notes),) = opened
    assert [e.index for e in entries] == [2] and start == 0
    assert notes == [f"level 1 left out: {path}, line 2: 1 box but 2 goals"]  # (line 1: its title)


def test_output_piped_into_a_reader_that_stops_early_ends_without_a_traceback(tmp_path):
    command = shutil.which("fewest")
    argv = [command] if command else [sys.executable, "-m", "fewest.tui.cli.main"]
    many = tmp_path / "many.xsb"
    many.write_text("".join(f"; {n}\n#####\n#@$.#\n#####\n\n" for n in range(1, 3001)), encoding="utf-8")
    reader = subprocess.Popen(["head", "-n", "2"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    done = subprocess.run(argv + ["check", str(many)], stdout=reader.stdin, stderr=subprocess.PIPE, text=True, timeout=60)
    reader.stdin.close()
    reader.wait(timeout=10)
    assert done.returncode == 141 and done.stderr == ""  # (as a shell reports a reader gone: not "unsolved")


def _command() -> list[str]:
    command = shutil.which("fewest")
    return [command] if command else [sys.executable, "-m", "fewest.tui.cli.main"]


def test_the_app_without_a_terminal_says_so_rather_than_spin(tmp_path):
    level = tmp_path / "one.xsb"
    level.write_text("#####\n#@$.#\n#####\n", encoding="utf-8")
    env = {**os.environ, "FEWEST_DATA_DIR": str(tmp_path / "data")}
    for args in ([], ["play", str(level)]):
        done = subprocess.run(_command() + args, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=60, env=env)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith("fewest: error: ") and "needs a terminal" in done.stderr


def test_output_that_cannot_be_written_as_asked_still_ends_plainly(tmp_path):
    level = tmp_path / "ёлка.xsb"
    level.write_text("Title: Ёлка ✓ café\n#####\n#@$.#\n#####\n", encoding="utf-8")
    ascii_only = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run(_command() + ["solve", str(level)], capture_output=True, timeout=60, env=ascii_only)
    assert done.returncode == 0 and b"'???? ? caf?' (sokoban): 1 move, 1 push, optimal" in done.stdout
    # Standard error closed: the answer still comes, with its exit code.
    done = subprocess.run(_command() + ["solve", str(level)], stdout=subprocess.PIPE, timeout=60,
                          preexec_fn=lambda: os.close(2))
    assert done.returncode == 0 and b"1 move, 1 push, optimal" in done.stdout
    if os.path.exists("/dev/full"):  # a full disk: one line, not a traceback
        with open("/dev/full", "w") as full:
            done = subprocess.run(_command() + ["solve", str(level)], stdout=full, stderr=subprocess.PIPE,
                                  text=True, timeout=60)
        assert done.returncode == 2
        assert done.stderr == "fewest: error: cannot write the output: No space left on device\n"


def test_dash_reads_standard_input_as_a_process():
    command = shutil.which("fewest")
    argv = [command] if command else [sys.executable, "-m", "fewest.tui.cli.main"]
    with open(os.path.join(DATA, "password_41.in"), "rb") as handle:
        done = subprocess.run(argv + ["solve", "--format", "contest", "-"], stdin=handle,
                              capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b"Minsta antal kommandon: 41\n"


def test_dash_in_check_and_solve_names_stdin_and_play_refuses_it(capsys, monkeypatch):
    import io

    def piped(data: bytes) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))

    piped(b"#####\r\n#@$.#\r\n#####\r\n")
    code, out, _ = run(capsys, "solve", "--json", "-")
    record = json.loads(out)
    assert code == 0 and record["file"] == "<stdin>" and record["plan"] == "R" and record["optimal"]
    piped(b"#####\n#@$X#\n#####\n")
    code, out, err = run(capsys, "check", "-")
    assert code == 2 and out.startswith("<stdin>: 1 level, all of them unreadable")
    assert "error: <stdin>, line 2, col 4: unknown character 'X'" in out and "Traceback" not in out + err
    piped(b"#####\n#@$.#\n#####\n")
    code, _, err = run(capsys, "solve", "--level", "3", "-")
    assert code == 2 and "<stdin>: no level 3 (the file has 1)" in err
    piped(b"")
    code, _, err = run(capsys, "solve", "-")
    assert code == 2 and "<stdin>: file is empty" in err
    code, _, err = run(capsys, "play", "-")
    assert code == 2 and "play needs the terminal" in err
    monkeypatch.setattr(sys, "stdin", None)  # (started with it closed: `fewest solve - <&-`)
    code, _, err = run(capsys, "solve", "-")
    assert code == 2 and "<stdin>: cannot read standard input: it is closed" in err


def test_an_empty_name_and_a_device_without_end_are_refused_plainly(capsys):
    code, _, err = run(capsys, "solve", "")
    assert code == 2 and "error: the file name is empty" in err
    if os.path.exists("/dev/zero"):  # no size to check first: read no further than the limit
        code, out, err = run(capsys, "check", "/dev/zero")
        assert code == 2 and "/dev/zero" in out + err and "Traceback" not in out + err


def test_installed_command_runs_as_a_process():
    command = shutil.which("fewest")
    argv = [command] if command else [sys.executable, "-m", "fewest.tui.cli.main"]
    done = subprocess.run(
        argv + ["solve", "--format", "contest", os.path.join(DATA, "password_41.in")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Minsta antal kommandon: 41\n"


def test_bench_quick_prints_a_row_per_family_asked(capsys):
    code, out, _ = run(capsys, "bench", "--quick", "shift", "rotation")
    assert code == 0
    rows = {line.split()[0]: line for line in out.splitlines() if line.split()}
    assert "shift" in rows and "rotation" in rows and "traffic" not in rows
    assert "faster" in rows["shift"] and "!!" not in out  # every answer proven and matching
    assert "start-up" in out


def test_bench_unknown_family_exit_2(capsys):
    code, _, err = run(capsys, "bench", "chess")
    assert code == 2 and "chess" in err


def test_bench_sokoban_runs_only_the_levels_asked_for(tmp_path, capsys):
    levels = tmp_path / "three.xsb"
    rooms = ["#####\n#@$.#\n#####", "######\n#@ $.#\n######", "#######\n#@  $.#\n#######"]
    levels.write_text("".join(f"; {n}\n\n{room}\n\n" for n, room in enumerate(rooms, 1)))
    code, out, _ = run(capsys, "bench", "sokoban", "--set", str(levels), "--levels", "1,3-3", "--timeout", "10")
    rows = [line.split()[0] for line in out.splitlines()[1:-1]]
    assert code == 0 and rows == ["1", "3"] and "2/2 proven optimal" in out
    for bad in ("0", "x", "4-2", "1-"):
        code, _, err = run(capsys, "bench", "sokoban", "--set", str(levels), "--levels", bad)
        assert code == 2 and "--levels" in err and "Traceback" not in err
    code, _, err = run(capsys, "bench", "sokoban", "--set", str(levels), "--levels", "2-5")
    assert code == 2 and err == f"fewest: error: {levels}: no level 4 (the file has 3)\n"
    levels.write_text(levels.read_text().replace("#@  $.#", "#@ $$.#"))  # (level 3: 2 boxes, 1 goal)
    code, out, _ = run(capsys, "bench", "sokoban", "--set", str(levels), "--timeout", "10")
    assert code == 2 and "2/3 proven optimal, 1 unreadable;" in out and "unreadable" in out.splitlines()[3]


def test_bench_set_refuses_what_it_cannot_use(tmp_path, capsys):
    levels = tmp_path / "one.xsb"
    levels.write_text("#####\n#@$.#\n#####\n", encoding="utf-8")
    rotation = tmp_path / "rot.txt"
    rotation.write_text("1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n", encoding="utf-8")
    table = tmp_path / "t.csv"
    cases = [
        (["rotation", "--set", str(rotation)], "--set solves a Sokoban collection"),
        (["sokoban", "--set", str(rotation)], f"{rotation}: not a Sokoban collection (its levels are rotation)"),
        (["--set", str(levels), "--expect", str(tmp_path / "none.csv")], "none.csv: cannot read: No such file"),
        (["--set", str(levels), "--expect", str(levels)], "one.xsb: not a table of counts: no column 'min_moves'"),
    ]
    for args, said in cases:
        code, _, err = run(capsys, "bench", *args)
        assert code == 2 and err.startswith("fewest: error: ") and said in err, err
    table.write_text("level,boxes,min_pushes,min_moves,pushes_in_min_moves\nx,1,1,1,1\n", encoding="utf-8")
    code, _, err = run(capsys, "bench", "--set", str(levels), "--expect", str(table))
    assert code == 2 and "t.csv, line 2: level 'x' is not a number" in err


def test_check_shows_control_characters_in_titles_not_their_effect(capsys, tmp_path):
    path = tmp_path / "esc.xsb"
    path.write_text("Title: red \x1b[31mlevel\tone\n#####\n#@$.#\n#####\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(path))
    assert code == 0 and "red ?[31mlevel one" in out and "\x1b" not in out


def test_bench_ratio_in_words():
    from fewest.tui.bench.families import _speed

    assert [_speed(r) for r in (0.0137, 0.5, 1.0, 1.5148, 3.0)] == [
        "73x faster", "2.0x faster", "1.0x faster", "1.5x slower", "3.0x slower"]



def test_bench_sokoban_stopped_by_ctrl_c_still_totals_the_levels_it_finished(tmp_path, capsys, monkeypatch):
    import fewest.tui.bench.sokoban_set as bench

    levels = tmp_path / "three.xsb"
    levels.write_text("".join(f"; {n}\n\n#####\n#@$.#\n#####\n\n" for n in (1, 2, 3)))
    run_one = bench._run_one
    calls = []

    def pressed_on_the_third(*args):
        calls.append(args)
        if len(calls) == 3:
            raise KeyboardInterrupt  # (as Ctrl-C does while a level's child runs)
        return run_one(*args)

    monkeypatch.setattr(bench, "_run_one", pressed_on_the_third)
    code, out, err = run(capsys, "bench", "sokoban", "--set", str(levels), "--timeout", "10")
    assert code == 130 and "fewest: interrupted" in err
    assert out.splitlines()[-1].startswith("moves: 2/2 proven optimal;")
    assert out.splitlines()[-1].endswith("(interrupted after 2 levels)")


def test_solve_out_of_time_says_what_the_proof_reached(capsys):
    # Microban #139 (David W. Skinner): 106 pushes, a few seconds to prove
    options = ["solve", "--level", "139", "--metric", "pushes", "--timeout", "1"]
    code, out, _ = run(capsys, *options, "--json", MICROBAN)
    record = json.loads(out)
    assert code == 1 and record["status"] in ("budget", "found") and 0 < record["at_least"] <= 106
    code, out, _ = run(capsys, *options, MICROBAN)
    # (in what is left after the proof of (pushes, moves), the pushes alone may be proven)
    assert code == 1 and ("at least " in out and " pushes proven" in out or "fewest pushes proven" in out)


def test_solve_text_says_when_only_the_pushes_are_proven():
    from fewest.tui.cli.solve import _text

    record = {"file": "m.xsb", "level": 153, "title": "", "family": "sokoban", "status": "found",
              "length": 1085, "plan": "uR", "optimal": False, "seconds": 55.2, "pushes": 336, "at_least": 336}
    assert "1085 moves, 336 pushes, fewest pushes proven, NOT the fewest moves for them" in _text(record, "pushes")
    record["at_least"] = 330
    assert "NOT proven optimal, at least 330 pushes proven" in _text(record, "pushes")


def test_solve_text_counts_one_move_and_one_push_in_the_singular():
    from fewest.tui.cli.solve import _text

    record = {"file": "a.xsb", "level": 1, "title": "", "family": "sokoban", "status": "optimal",
              "length": 1, "plan": "R", "optimal": True, "seconds": 0.1, "pushes": 1}
    assert "a.xsb #1 (sokoban): 1 move, 1 push, optimal" in _text(record, "moves")
    record.update(length=2, pushes=0, plan="rl")
    assert ": 2 moves, 0 pushes, optimal" in _text(record, "moves")


def test_solve_budgets_are_positive_numbers(capsys):
    level = os.path.join(DATA, "sokoban_1.in")
    for option, value in (("--timeout", "-1"), ("--timeout", "nan"), ("--memory", "0"), ("--memory", "lots")):
        with pytest.raises(SystemExit) as exit_info:
            main(["solve", option, value, level])
        err = capsys.readouterr().err
        assert exit_info.value.code == 2 and f"{value!r} is not a positive number" in err
    for option, value in (("--timeout", "1e300"), ("--memory", "1e300")):  # past any machine: no limit
        code, out, _ = run(capsys, "solve", option, value, level)
        assert code == 0 and "optimal" in out


def test_solve_stops_at_its_memory_and_says_what_it_proved(capsys):
    # no --timeout: only the memory budget stops this proof (Microban #139 by moves: millions
    # of positions, far beyond 5 MB more than this process holds: --memory is the whole
    # process's), and what it proved comes out
    from fewest.solvers.common.held_bytes import tree_resident_bytes

    memory = (tree_resident_bytes(os.getpid()) + 5_000_000) / 2**30  # (with this process's children)
    code, out, _ = run(capsys, "solve", "--level", "139", "--memory", str(memory), "--json", MICROBAN)
    record = json.loads(out)
    assert code == 1 and record["status"] in ("budget", "found") and record["at_least"] >= 106  # its pushes


def test_the_default_memory_budget_is_half_the_machine():
    from fewest.tui.services.budgets import default_memory_bytes

    physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert default_memory_bytes() == physical // 2


def test_text_output_says_when_a_files_par_is_wrong(capsys, tmp_path):
    claim = tmp_path / "claim.fewest"
    board = "goal: exit A\n......\n......\nAA....\n......\n......\n......\n"
    claim.write_text(f"Family: traffic\nTitle: Claims\n\nTitle: Wrong\nPar: 9\n{board}\n"
                     f"Title: Right\nPar: 1\n{board}", encoding="utf-8")
    code, out, _ = run(capsys, "solve", str(claim))
    wrong, right = [line for line in out.splitlines() if line.startswith(str(claim))]
    assert code == 0 and "1 move, optimal; the file's par 9 is wrong" in wrong
    assert "optimal [" in right and "par" not in right
    from fewest.tui.cli.solve import _text

    record = {"file": "c.fewest", "level": 1, "title": "", "family": "traffic", "status": "found",
              "length": 12, "plan": "AR1", "optimal": False, "seconds": 1.0, "par": 9}
    assert "is wrong" not in _text({**record, "at_least": 9}, "moves")  # (it may yet be right)
    assert "NOT proven optimal, at least 10 moves proven; the file's par 9 is wrong" in _text(
        {**record, "at_least": 10}, "moves")
    assert "is wrong" in _text({**record, "length": 8}, "moves")  # a plan beats it
    assert "no solution exists; the file's par 9 is wrong" in _text(
        {**record, "status": "unsolvable", "length": None, "plan": None}, "moves")
    # Under the pushes metric the par still counts moves: a plan with fewer, or none, disproves it,
    # as do more pushes proven than its moves (a push is a move); its plan's moves are no proof.
    pushed = {**record, "family": "sokoban", "pushes": 3}
    optimal = {**pushed, "optimal": True, "status": "optimal"}
    assert "is wrong" in _text({**optimal, "length": 5}, "pushes")
    assert "is wrong" not in _text({**optimal, "length": 12}, "pushes")
    assert "is wrong" in _text({**optimal, "length": 12, "pushes": 10}, "pushes")
    assert "is wrong" not in _text({**pushed, "at_least": 5}, "pushes")
    assert "is wrong" in _text({**pushed, "at_least": 10}, "pushes")
    assert "is wrong" in _text({**pushed, "status": "unsolvable", "length": None, "plan": None}, "pushes")


def test_text_output_says_when_a_files_push_par_is_wrong(capsys, tmp_path):
    path = tmp_path / "claims.xsb"  # (4 moves and 1 push at best; no plan pushes fewer than 1)
    path.write_text("Title: Wrong\nPush-par: 2\n######\n#@ $.#\n######\n\n"
                    "Title: Right\nPush-par: 1\n######\n#@ $.#\n######\n", encoding="utf-8")
    for metric in ("moves", "pushes"):
        code, out, _ = run(capsys, "solve", str(path), "--metric", metric)
        wrong, right = [line for line in out.splitlines() if line.startswith(str(path))]
        assert code == 0 and wrong.endswith(" optimal; the file's push par 2 is wrong" + wrong[wrong.index(" ["):])
        assert "is wrong" not in right
    code, out, _ = run(capsys, "solve", str(path), "--json")
    assert [json.loads(line)["push_par"] for line in out.splitlines()] == [2, 1]
    code, out, _ = run(capsys, "check", str(path))
    assert ", push par 2  Wrong" in out
    from fewest.tui.cli.solve import _text

    record = {"file": "c.xsb", "level": 1, "title": "", "family": "sokoban", "status": "found", "length": 30,
              "plan": "R", "optimal": False, "seconds": 1.0, "pushes": 9, "push_par": 7}
    assert "push par 7 is wrong" not in _text({**record, "at_least": 7}, "pushes")  # (it may yet be right)
    assert "push par 7 is wrong" in _text({**record, "at_least": 8}, "pushes")  # (more are proven)
    assert "push par 7 is wrong" in _text({**record, "at_least": 9}, "pushes")  # (its 9, proven fewest)
    assert "push par 7 is wrong" not in _text({**record, "pushes": 7, "at_least": 7}, "pushes")
    assert "push par 7 is wrong" in _text({**record, "pushes": 6}, "moves")  # (a plan pushes fewer)
    assert "push par 7 is wrong" not in _text({**record, "at_least": 30}, "moves")  # (moves proven: no word)
    assert "push par 7 is wrong" in _text({**record, "status": "unsolvable", "length": None, "plan": None,
                                           "pushes": None}, "pushes")

"""`fewest generate`: packs that read back with proven pars, byte for byte the same for
the same seed, the day's puzzles, and usage errors with exit code 2."""

import datetime
import os

import pytest

from fewest.levels import read_file
from fewest.solvers import api
from fewest.tui.cli.main import main
from fewest.solvers.generate.targets import FAMILIES
from fewest.tui.services.generated import Recipe, daily_recipes, parse_recipe, recipe_of, share_line


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("family,options", [
    ("shift", ["--par", "7"]), ("password", ["--difficulty", "hard"]), ("rotation", ["--difficulty", "easy"]),
    ("traffic", ["--difficulty", "easy", "--size", "5"]),
])
def test_a_pack_reads_back_with_proven_pars_and_repeats_byte_for_byte(capsys, tmp_path, family, options):
    paths = [str(tmp_path / f"{name}.fewest") for name in "ab"]
    for path in paths:
        assert run(capsys, "generate", family, *options, "--count", "2", "--seed", "9", "-o", path)[0] == 0
    with open(paths[0], "rb") as first, open(paths[1], "rb") as second:
        assert first.read() == second.read()
    entries = read_file(paths[0])
    assert len(entries) == 2 and all(e.family == family for e in entries)
    for entry in entries:
        solution = api.solve(family, entry.level)
        assert solution.optimal and solution.length == entry.par
        assert recipe_of(entry).seed == "9"
    if "--par" in options:
        assert {e.par for e in entries} == {7}


def test_the_daily_packs_are_the_same_for_everyone_on_a_date(capsys, tmp_path):
    code, out, _ = run(capsys, "generate", "--daily", "--date", "2026-12-06", "-o", str(tmp_path))
    assert code == 0
    paths = out.split()
    assert [os.path.basename(p) for p in paths] == [
        f"daily-2026-12-06-{family}.{'xsb' if family == 'sokoban' else 'fewest'}" for family in FAMILIES]
    assert [recipe_of(e).seed for p in paths for e in read_file(p)] == ["daily-2026-12-06"] * 5
    # (the levels are their recipes', and a recipe makes the same level: see the seed test above)
    assert daily_recipes(datetime.date(2026, 12, 6)) == daily_recipes(datetime.date(2026, 12, 6))
    assert daily_recipes(datetime.date(2026, 12, 7))[0].seed == "daily-2026-12-07"


def test_a_recipe_round_trips_through_its_header():
    recipe = Recipe("shift", par=7, size=(5, 4), seed="abc", number=3)
    assert parse_recipe(recipe.text()) == recipe
    assert parse_recipe(Recipe("traffic", "hard").text()) == Recipe("traffic", "hard")
    assert recipe.following().number == 4
    assert parse_recipe("chess easy seed 1 #1") is None
    assert share_line(datetime.date(2026, 12, 6), "traffic", 14, 14) == "fewest daily 2026-12-06 traffic: 14 moves (par 14)"


@pytest.mark.parametrize("argv,message", [
    (["generate"], "needs a FAMILY"),
    (["generate", "shift", "--size", "9x9"], "2 to 8 cells"),
    (["generate", "rotation", "--size", "4"], "one board"),
    (["generate", "traffic", "--par", "99"], "pars 1..40"),
    (["generate", "--daily", "shift"], "only --date"),
    (["generate", "shift", "--date", "2026-01-01"], "goes with --daily"),
    (["generate", "--daily", "-o", "/nonexistent/folder"], "not a folder"),
])
def test_usage_errors_say_what_and_exit_2(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["generate", "shift", "--count", "0"], ["generate", "--daily", "--date", "6/12"],
                                  ["generate", "shift", "--size", "4y4"], ["generate", "chess"]])
def test_bad_option_values_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2


def test_a_par_not_found_in_time_exits_1(capsys):
    code, _, err = run(capsys, "generate", "shift", "--par", "26", "--size", "2x2", "--timeout", "0.2")
    assert code == 1 and "no shift par 26 size 2x2" in err


def test_the_generation_bench_times_levels_whose_pars_fit(capsys):
    from fewest.tui.bench.generate import bench_generation

    seconds, pars = bench_generation("shift", "medium", 2)
    assert len(seconds) == 2 and all(s >= 0 for s in seconds) and all(5 <= par <= 9 for par in pars)

"""`fewest bench sokoban --set FILE --anytime [--known CSV]`: the seconds to a first plan, the
plan at 10 s and at the end, against known solutions."""

from fewest.tui.cli.main import main
from tests.solvers.sokoban.test_packing import XSOKOBAN_2


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_anytime_bench_reports_first_plans_and_ratios(tmp_path, capsys):
    levels = tmp_path / "two.xsb"
    levels.write_text(f"; 1\n\n#######\n#@ $ .#\n#######\n\n; 2\n\n{XSOKOBAN_2}\n", encoding="utf-8")
    known = tmp_path / "known.csv"
    known.write_text("level,moves,pushes\n1,3,2\n2,160,135\n", encoding="utf-8")
    code, out, _ = run(capsys, "bench", "sokoban", "--set", str(levels), "--anytime", "--known", str(known),
                       "--timeout", "2")
    head, first, second, totals = out.splitlines()
    assert code == 0 and head.endswith(f"--anytime --known {known}")
    assert "optimal" in first and "end       3/2" in first and "x1.00 of known 3/2" in first  # (proven at once)
    assert "found" in second and "(at least" in second  # XSokoban #2: no proof in 2 s, a plan
    end = second.split(" end ")[1].split()[0]
    assert f"x{int(end.split('/')[0]) / 160:.2f} of known 160/135" in second
    assert totals.startswith("moves, anytime: a plan within 10s for 2/2, within 2s for 2/2, 1 proven; median")


def test_known_goes_with_anytime_and_must_be_a_table(tmp_path, capsys):
    levels = tmp_path / "one.xsb"
    levels.write_text("#####\n#@$.#\n#####\n", encoding="utf-8")
    table = tmp_path / "t.csv"
    table.write_text("level,moves\n1,2\n", encoding="utf-8")
    cases = [
        (["sokoban", "--set", str(levels), "--known", str(table)], "add --anytime"),
        (["sokoban", "--anytime"], "go with --set"),
        (["sokoban", "--set", str(levels), "--anytime", "--known", str(table)], "no column 'pushes'"),
    ]
    for args, said in cases:
        code, _, err = run(capsys, "bench", *args)
        assert code == 2 and err.startswith("fewest: error: ") and said in err, err
    table.write_text("level,moves,pushes\n1,two,1\n", encoding="utf-8")
    code, _, err = run(capsys, "bench", "sokoban", "--set", str(levels), "--anytime", "--known", str(table))
    assert code == 2 and "t.csv, line 2: level, moves and pushes must be whole numbers" in err

"""`fewest bench sokoban --set FILE --jobs N`: the rows of a run in turn, in the file's order."""

from fewest.tui.bench.sokoban_set import run_collection
from tests.tui.cli.test_solve_jobs import BAD, microban


def test_two_workers_give_the_rows_of_a_run_in_turn(tmp_path):
    path = tmp_path / "set.xsb"
    path.write_text(microban(1) + BAD + microban(3) + microban(2).replace("; 2", "; 4"))
    seen = []
    alone = run_collection(path, timeout=5)
    both = run_collection(path, timeout=5, jobs=2, on_row=lambda row: seen.append(row.index))
    assert seen == [1, 2, 3, 4]
    assert [(r.index, r.status, r.moves, r.pushes) for r in both.rows] == [
        (r.index, r.status, r.moves, r.pushes) for r in alone.rows
    ]
    assert [r.status for r in both.rows] == ["optimal", "unreadable", "optimal", "optimal"]

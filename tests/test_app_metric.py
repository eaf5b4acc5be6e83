"""Sokoban's second metric in the app: M switches hints and solve to the fewest pushes (then moves)."""

from __future__ import annotations

from fewest.engine import sokoban
from fewest.levels.bundled import find_pack
from fewest.tui.app import FewestApp
from fewest.tui.board_screen import BoardScreen
from tests.app_support import SIZE, board_screen, idle, make_app, quiet_app, wait_for
from tests.sokoban_support import lexicographic_optimum


def _cloakroom():
    """Learning #21: its fewest moves (19, 9 pushes) and its fewest pushes (7, 25 moves) differ."""
    return next(e for e in find_pack("sokoban_learning").entries if e.display_title() == "Cloakroom")


def _message(app) -> str:
    return str(app.screen.query_one("#message").render())


def _status(app) -> str:
    return str(app.screen.query_one("#status").render())


async def test_hints_and_solve_go_by_the_metric_chosen(tmp_path):
    entry = _cloakroom()
    moves_best = lexicographic_optimum(entry.level, "moves")  # (independent: single steps, Dijkstra)
    pushes_best = lexicographic_optimum(entry.level, "pushes")
    assert moves_best == (19, 9) and pushes_best == (7, 25)
    app = quiet_app(FewestApp([entry], 0, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("M")
        assert "fewest pushes (then moves)" in _message(app) and "Fewest pushes" in _status(app)
        await pilot.press("h")
        await idle(pilot)
        assert _message(app).startswith("7 pushes (25 moves) to solve from here.")
        assert app.store.level(entry.key).par is None  # (the par counts moves: 25 is none)
        await pilot.press("M")
        assert "fewest moves (then pushes)" in _message(app) and "Fewest" not in _status(app)
        await pilot.press("h")
        await idle(pilot)
        assert _message(app).startswith("19 moves (9 pushes) to solve from here.")
        assert app.store.level(entry.key).par == 19
        await pilot.press("M", "S")
        await wait_for(pilot, screen.game.is_solved)
        moves = screen.game.line_moves  # (each played through the engine by the game)
        end = sokoban.initial_state(entry.level)
        for move in moves:
            end = sokoban.apply(entry.level, end, move)
        assert sokoban.is_solved(entry.level, end)
        counters = screen.game.counters
        assert (counters.pushes, counters.moves) == pushes_best


async def test_the_metric_chosen_holds_for_the_next_visit(tmp_path):
    app = quiet_app(FewestApp([_cloakroom()], 0, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("M")
    again = quiet_app(FewestApp([_cloakroom()], 0, data_dir=str(tmp_path)))
    async with again.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await idle(pilot)
        assert _message(again).startswith("7 pushes (25 moves)") and "Fewest pushes" in _status(again)


async def test_a_metric_setting_the_app_does_not_know_counts_moves(tmp_path):
    import json

    (tmp_path / "settings.json").write_text(json.dumps({"settings": {"metric": ["pushes"]}}))
    app = quiet_app(FewestApp([_cloakroom()], 0, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await idle(pilot)
        assert _message(app).startswith("19 moves (9 pushes)")
        await pilot.press("M")
        assert "Fewest pushes" in _status(app)


async def test_a_hint_asked_before_a_switch_does_not_answer_after_it(tmp_path):
    app = quiet_app(FewestApp([_cloakroom()], 0, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("h", "M")  # (the switch stops the search for the moves)
        await idle(pilot)
        assert "fewest pushes" in _message(app) and screen.analysis is None
        await pilot.press("h")
        await idle(pilot)
        assert _message(app).startswith("7 pushes (25 moves)")


async def test_families_with_one_metric_have_no_switch(tmp_path):
    for family in ("traffic", "rotation", "shift", "password"):
        app = make_app(tmp_path, family, data=family)
        async with app.run_test(size=SIZE) as pilot:
            screen = board_screen(app)
            assert isinstance(screen, BoardScreen) and screen.check_action("metric", ()) is False
            before = _message(app)
            await pilot.press("M")
            assert _message(app) == before and screen.metric == "moves"


def test_each_book_keeps_aside_the_known_solution_shortest_by_its_metric():
    from fewest.solvers import api
    from fewest.tui.solver_worker import PlanBook

    entry = _cloakroom()
    by_moves = api.solve("sokoban", entry.level, metric="moves").moves
    by_pushes = api.solve("sokoban", entry.level, metric="pushes").moves
    start = sokoban.initial_state(entry.level)
    for metric, best in (("moves", by_moves), ("pushes", by_pushes)):
        for order in ((by_moves, by_pushes), (by_pushes, by_moves)):
            book = PlanBook(sokoban, entry.level, metric)
            for plan in order:
                book.learn_saved(start, plan, "a file's")
            assert list(book.saved(start)[0]) == list(best), (metric, order)

"""Sokoban's second metric in the app: M switches hints and solve to the fewest pushes (then moves)."""

from __future__ import annotations

import dataclasses

from fewest.engine import sokoban
from fewest.levels.bundled import find_pack
from fewest.solvers import api
from fewest.tui.app.app import FewestApp
from fewest.tui.app.boards.screen import BoardScreen
from fewest.tui.services.known_plans import solving_plan
from tests.app_support import SIZE, board_screen, idle, make_app, quiet_app, wait_for
from tests.sokoban_support import lexicographic_optimum


def _cloakroom(push_par: bool = False):
    """Learning #21: its fewest moves (19, 9 pushes) and its fewest pushes (7, 25 moves) differ.
    Without its file's Push-par and the plan of those pushes saved with it unless `push_par`
    (as a bundled level whose file has none)."""
    entry = next(e for e in find_pack("sokoban_learning").entries if e.display_title() == "Cloakroom")
    return entry if push_par else dataclasses.replace(entry, push_par=None, solutions=entry.solutions[:1])


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
        # (no par by pushes yet: the file's solution, 19 moves and 9 pushes, bounds it)
        assert "fewest pushes (then moves)" in _message(app) and "Par ≤9 pushes" in _status(app)
        await pilot.press("h")
        await idle(pilot)
        # (the file's solution by moves answered at once, "found"; then the proof by pushes)
        assert _message(app).startswith("7 pushes (25 moves) to solve from here (proven shortest).")
        record = app.store.level(entry.key)
        assert (record.par, record.push_par) == (None, 7)  # (a hint from the start proves the par by pushes)
        assert "Par 7 pushes" in _status(app)
        await pilot.press("M")
        assert "fewest moves (then pushes)" in _message(app) and "pushes" not in _status(app).split("Par")[1]
        await pilot.press("h")
        await idle(pilot)
        assert _message(app).startswith("19 moves (9 pushes) to solve from here.")
        assert app.store.level(entry.key).par == 19 and "Par 19  " in _status(app)
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
        assert _message(again).startswith("7 pushes (25 moves)") and "Par 7 pushes" in _status(again)


async def test_a_metric_setting_the_app_does_not_know_counts_moves(tmp_path):
    import json

    (tmp_path / "settings.json").write_text(json.dumps({"settings": {"metric": ["pushes"]}}))
    app = quiet_app(FewestApp([_cloakroom()], 0, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await idle(pilot)
        assert _message(app).startswith("19 moves (9 pushes)")
        await pilot.press("M")
        assert "Par ≤9 pushes" in _status(app)  # (none proven by pushes: the file's solution bounds it)


async def test_a_hint_asked_before_a_switch_does_not_answer_after_it(tmp_path):
    app = quiet_app(FewestApp([_cloakroom()], 0, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("h", "M")  # (the switch stops the search for the moves)
        await idle(pilot)
        assert "fewest pushes" in _message(app) and screen.thinker.answer is None
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
    from fewest.tui.services.hints import PlanBook

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


def _card(app) -> str:
    return "\n".join(str(app.screen.query_one(f"#solved-{part}").render()) for part in ("headline", "verdict"))


async def test_under_pushes_a_solve_is_judged_and_kept_by_its_pushes(tmp_path):
    from textual import events

    from fewest.engine.base import format_plan
    from fewest.solvers import api
    from fewest.tui.services.progress import ProgressStore
    from fewest.tui.app.solved_screen import SolvedScreen

    entry = _cloakroom()
    by_pushes = api.solve("sokoban", entry.level, metric="pushes").moves
    assert (sokoban.tally(by_pushes).pushes, len(by_pushes)) == lexicographic_optimum(entry.level, "pushes")
    store = ProgressStore(str(tmp_path))
    store.record_solve(entry.key, 19, 9, assisted=False, plan=None)  # (an earlier solve, best by moves)
    store.remember_par(entry.key, 7, metric="pushes")
    store.set_setting("metric", "pushes")
    app = quiet_app(FewestApp([entry], 0, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        assert "Par 7 pushes  Best 9 pushes" in _status(app)
        screen.post_message(events.Paste(format_plan(sokoban, by_pushes)))  # (played as the player's own)
        await wait_for(pilot, lambda: isinstance(app.screen, SolvedScreen))
        card = _card(app)
        assert card.startswith("Solved in 25 moves, 7 pushes (par 7 pushes)\n"), card
        assert "Perfect: as few pushes as there can be!" in card and "New personal best (was 9 pushes)." in card
        await pilot.press("escape")
        record = app.store.level(entry.key)
        assert (record.push_best, record.push_best_moves, record.best_moves) == (7, 25, 19)  # (19: not beaten)
        assert "Par 7 pushes  Best 7 pushes" in _status(app)
        await pilot.press("M")
        assert "Par 19  Best 19  " in _status(app)  # (the moves' own: the file's par and the earlier solve)
        await pilot.press("M", "r", "b")  # (b replays the best by pushes, not the one by moves)
        await wait_for(pilot, screen.game.is_solved)
        assert list(screen.game.line_moves) == list(by_pushes)


def test_the_solved_card_counts_by_the_metric():
    from fewest.tui.app.solved_screen import SolvedFacts, headline, verdict

    facts = SolvedFacts(moves=27, pushes=9, par=7, best_before=10, new_best=True, assisted=False,
                        seconds=None, has_next=True, metric="pushes")
    assert headline(facts) == "Solved in 27 moves, 9 pushes (par 7 pushes)"
    assert verdict(facts).splitlines() == [
        "2 pushes over par: can you find a way with fewer pushes?", "New personal best (was 10 pushes)."]
    one = SolvedFacts(moves=27, pushes=8, par=7, best_before=1, new_best=True, assisted=False,
                      seconds=None, has_next=True, metric="pushes")
    assert verdict(one).splitlines()[0].startswith("1 push over par") and "(was 1 push)" in verdict(one)
    by_moves = SolvedFacts(moves=27, pushes=9, par=19, best_before=30, new_best=True, assisted=False,
                           seconds=None, has_next=True)
    assert headline(by_moves) == "Solved in 27 moves, 9 pushes (par 19)"
    assert verdict(by_moves).splitlines() == ["8 over par: can you find a shorter way?", "New personal best (was 30)."]


async def test_the_par_by_pushes_is_learned_on_opening_and_on_switching(tmp_path, monkeypatch):
    entry = _cloakroom()
    app = quiet_app(FewestApp([entry], 0, data_dir=str(tmp_path)))
    app.learn_par = True  # (the background proof of the par)
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        assert app.store.level(entry.key).push_par is None
        await pilot.press("M")
        await wait_for(pilot, lambda: app.store.level(entry.key).push_par is not None)
        record = app.store.level(entry.key)
        assert record.push_par == 7 and record.par is None  # (the moves' par is the file's, 19: not searched)
        plan = solving_plan(sokoban, entry.level, record.push_par_plan, screen.game.start)  # (kept with it, and it solves)
        assert (sokoban.tally(plan).pushes, len(plan)) == lexicographic_optimum(entry.level, "pushes")
    from fewest.solvers.common.solution import Solution, Stats, Status
    from fewest.tui.services import hints

    # met again, a search would find nothing: the plan kept with the par answers from the start
    monkeypatch.setattr(hints.api, "solve", lambda *args, **options: Solution(Status.BUDGET, stats=Stats()))
    again = quiet_app(FewestApp([entry], 0, data_dir=str(tmp_path)))
    async with again.run_test(size=SIZE) as pilot:
        assert "Par 7 pushes" in _status(again)
        await pilot.press("h")
        await idle(pilot)
        assert _message(again).startswith("7 pushes (25 moves) to solve from here.")


def test_a_count_of_one_push_is_singular():
    from fewest.tui.services.level_summary import by_metric

    assert [by_metric(n, "pushes") for n in (0, 1, 2, "?")] == ["0 pushes", "1 push", "2 pushes", "? pushes"]
    assert by_metric(1, "moves") == "1"


async def test_a_game_left_under_pushes_keeps_the_plan_by_pushes_from_where_it_stands(tmp_path, monkeypatch):
    from fewest.solvers.common.solution import Solution, Stats, Status
    from fewest.tui.services import hints

    entry = _cloakroom()
    app = quiet_app(FewestApp([entry], 0, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        assert screen.game.state == sokoban.initial_state(entry.level)
        await pilot.press("M", "h")  # (from the start: the par by pushes is kept with its plan)
        await idle(pilot)
        await pilot.press("right", "h")  # (a step off that plan's way: its own plan is the game's)
        await idle(pilot)
        told = _message(app)
        assert told.startswith("7 pushes (24 moves) to solve from here."), told
        screen.save_game()
    assert app.store.saved_game(entry.key).push_plan
    # met again, a search would find nothing: the plan kept with the game answers
    monkeypatch.setattr(hints.api, "solve", lambda *args, **options: Solution(Status.BUDGET, stats=Stats()))
    again = quiet_app(FewestApp([entry], 0, data_dir=str(tmp_path)))
    async with again.run_test(size=SIZE) as pilot:
        assert _message(again).startswith("Welcome back")
        await pilot.press("h")
        await idle(pilot)
        assert _message(again) == told


async def test_a_files_push_par_is_shown_and_checked_by_a_short_proof(tmp_path):
    from tests.app_support import app_on_text

    text = "Push-par: 9\n######\n#@ $.#\n######\n"  # (1 push at best)
    shown = app_on_text(tmp_path, text, str(tmp_path / "claim.xsb"))
    shown.store.set_setting("metric", "pushes")
    async with shown.run_test(size=SIZE):
        assert "Par 9 pushes" in _status(shown)  # (a user's file, not yet checked)
    app = app_on_text(tmp_path, text, str(tmp_path / "claim.xsb"))
    app.learn_par = True  # (the background proof of the par, on opening)
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await wait_for(pilot, lambda: app.store.level(screen.entry.key).push_par is not None)
        assert app.store.level(screen.entry.key).push_par == 1
        assert _message(app) == "Par 1 push, proven by the solver: the level's file says 9 pushes."
        assert "Par 1 push  " in _status(app)


async def test_a_bundled_push_par_and_its_plan_are_trusted_with_no_search(tmp_path, monkeypatch):
    entry = _cloakroom(push_par=True)
    assert entry.push_par == lexicographic_optimum(entry.level, "pushes")[0] == 7
    searched = []
    monkeypatch.setattr(api, "solve", lambda *args, **options: searched.append(options))
    app = quiet_app(FewestApp([entry], 0, data_dir=str(tmp_path)))
    app.learn_par = True
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("M")
        assert "Par 7 pushes" in _status(app)
        await pilot.pause(0.3)
        assert searched == [] and app.store.level(entry.key).push_par is None
        await pilot.press("h")  # (the pack's plan of those pushes, the fewest moves for them, answers)
        await idle(pilot)
        assert _message(app).startswith("7 pushes (25 moves) to solve from here.") and searched == []


async def test_a_narrow_status_line_names_the_unit_once_to_keep_the_spinner():
    from textual.app import App

    from fewest.tui.app.status_bar import StatusBar, StatusFacts

    class Line(App):
        def compose(self):
            yield StatusBar(id="status")

    facts = StatusFacts(moves=123, pushes=48, par=48, best=50, hints=2, seconds=83.0, metric="pushes")
    app = Line()
    async with app.run_test(size=(80, 3)) as pilot:
        bar = app.query_one(StatusBar)
        bar.show(facts, "")
        await pilot.pause()
        assert "Par 48 pushes  Best 50 pushes  Hints 2" in str(bar.render())
        bar.show(facts, "⠇ thinking 2,720 nodes  (esc cancels)")
        await pilot.pause()
        line = str(bar.render())
        assert "Par 48 pushes  Best 50  Hints 2" in line and line.rstrip().endswith("⠇ thinking"), line

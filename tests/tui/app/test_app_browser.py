"""The browser, `fewest play` files, and progress kept across app restarts (Textual pilot)."""

from __future__ import annotations

import os

import pytest

from textual import events
from textual.widgets import DataTable, Input, Tree

from fewest.levels import read_file
from fewest.levels.bundled import bundled_packs
from fewest.tui.app.app import FewestApp
from fewest.tui.app.boards.screen import BoardScreen
from fewest.tui.app.browser import BrowserScreen
from fewest.tui.services.progress import ProgressStore, SavedGame
from fewest.tui.app.solved_screen import SolvedScreen
from tests.app_support import SIZE, board_screen, entries, quiet_app, wait_for, write_levels


def _table(app) -> DataTable:
    return app.screen.query_one("#levels", DataTable)


def _row_titles(app) -> list[str]:
    table = _table(app)
    column = [c.label.plain for c in table.columns.values()].index("Title")
    return [str(table.get_row_at(i)[column]) for i in range(table.row_count)]


async def test_lands_on_the_next_unsolved_level_navigates_and_opens(tmp_path):
    first = bundled_packs()[0]
    store = ProgressStore(str(tmp_path))
    for entry in first.entries[:2]:
        store.record_solve(entry.key, 10, 2, assisted=False)
    app = quiet_app(FewestApp(data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        browser = app.screen
        assert isinstance(browser, BrowserScreen) and browser.current_shelf.title == first.title
        assert _table(app).cursor_row == 2 and app.focused is _table(app)
        await pilot.press("down", "enter")
        board = board_screen(app)
        assert board is not None and board.entry.key == first.entries[3].key
        await pilot.press("n", "q")  # the cursor follows to the level played last
        assert app.screen is browser and _table(app).cursor_row == 4
        await pilot.press("shift+tab")  # to the tree of packs
        assert isinstance(app.focused, Tree)
        await pilot.press("down")
        shelf = browser.current_shelf
        assert shelf.title != first.title and _row_titles(app)[0].startswith(shelf.entries[0].display_title()[:8])
        tree = app.focused
        line = tree.cursor_line
        for _ in range(2):  # keys pressed together (to Sokoban's last pack): none is lost
            app.post_message(events.Key("down", None))
        await wait_for(pilot, lambda: tree.cursor_line == line + 2, timeout=3)
        await pilot.pause(0.2)
        assert tree.cursor_line == line + 2 and browser.current_shelf is browser.shelves[tree.cursor_node.data]


@pytest.mark.parametrize("to_table", ["enter", "down"])
async def test_search_filters_titles_across_packs_and_opens_a_match(tmp_path, to_table):
    wanted = bundled_packs()[-1].entries[2]  # a level of the last pack, not the shown one
    app = quiet_app(FewestApp(data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*wanted.display_title().lower())
        titles = _row_titles(app)
        assert titles and all(wanted.display_title().lower() in t.lower() for t in titles)
        await pilot.press(to_table)  # from the field to the matches
        assert app.focused is _table(app) and _table(app).cursor_row == 0
        await pilot.press("enter")  # opens the first match
        board = board_screen(app)
        assert board is not None and board.entry.display_title() == wanted.display_title()
        await pilot.press("q")
        assert app.screen.query_one("#search", Input).value == ""


async def test_play_file_opens_the_board_and_remembers_the_file(tmp_path):
    path = write_levels(tmp_path, "rotation")
    levels = read_file(path)
    app = quiet_app(FewestApp(levels, 1, data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE) as pilot:
        board = board_screen(app)
        assert board.index == 1 and board.entry.source == path
        assert app.store.recent == [path]
        await pilot.press("q")
        browser = app.screen
        assert isinstance(browser, BrowserScreen) and browser.current_shelf.path == path
        assert _table(app).cursor_row == 1  # on the level just played
    os.remove(path)  # the file vanishes: the next run shows its error and carries on
    app = quiet_app(FewestApp(data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE) as pilot:
        browser = app.screen
        broken = [s for s in browser.shelves if s.path == path]
        assert broken and broken[0].error and "cannot read" in broken[0].error
        await pilot.press("shift+tab")
        tree = app.screen.query_one(Tree)
        last = tree.last_line
        tree.move_cursor_to_line(last)
        await pilot.pause()
        assert "cannot read" in str(app.screen.query_one("#browser-message").render())
        await wait_for(pilot, lambda: _forget_dimmed(app) is False)
        tree.move_cursor_to_line(1)  # a bundled pack: nothing to forget
        await wait_for(pilot, lambda: _forget_dimmed(app) is True, timeout=2)
        assert browser.current_shelf.path is None
        tree.move_cursor_to_line(last)
        await pilot.pause()
        await pilot.press("x")  # forget it
        assert app.store.recent == []


def _forget_dimmed(app) -> bool | None:
    """Is the footer's x (forget file) dimmed? None while the footer rebuilds itself."""
    key = next((key for key in app.screen.query("FooterKey") if key.action == "forget_file"), None)
    return None if key is None else key.has_class("-disabled")


MIXED = "#####\n#@$.#\n#####\n\n######\n#@$..#\n######\n\n######\n#@ $.#\n######\n"


async def test_a_file_with_an_unreadable_level_opens_with_the_others_and_says_so(tmp_path):
    from fewest.levels import read_file_each

    path = tmp_path / "mixed.xsb"
    path.write_text(MIXED, encoding="utf-8")
    collection = read_file_each(path)
    notes = [f"level 2 left out: {collection.unreadable[0].error}"]  # (what `fewest play` passes)
    app = quiet_app(FewestApp(collection.entries, 1, data_dir=str(tmp_path / "data"), notes=notes))
    async with app.run_test(size=SIZE) as pilot:
        board = board_screen(app)
        assert board.entry.index == 3 and board.entry.source == str(path)
        assert board.sub_title.endswith("3/3")  # numbered as in the file, as the level table does
        assert any("level 2 left out" in n.message and "1 box but 2 goals" in n.message for n in app._notifications)
        await pilot.press("q")
        browser = app.screen
        assert isinstance(browser, BrowserScreen) and browser.current_shelf.path == str(path)
        assert [str(_table(app).get_row_at(i)[0]) for i in range(_table(app).row_count)] == ["1", "3"]
        message = str(browser.query_one("#browser-message").render())
        assert "2 levels" in message and "1 level left out, unreadable: level 2: line 5: 1 box but 2 goals" in message


async def test_open_file_refuses_bad_files_with_the_loader_message(tmp_path):
    bad = tmp_path / "bad.xsb"
    bad.write_text("#####\n#@$X#\n#####\n", encoding="utf-8")
    good = write_levels(tmp_path, "shift")
    app = quiet_app(FewestApp(data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        field = app.screen.query_one("#open-path", Input)
        assert app.focused is field
        await pilot.press(*"~/")  # typed keys reach the field...
        assert field.value == "~/"
        field.value = str(bad)  # ...the rest is set at once (a long path typed key by key is slow)
        await pilot.press("enter")
        error = str(app.screen.query_one("#open-error").render())
        assert "bad.xsb" in error and app.store.recent == []
        field.value = good
        await pilot.press("enter")
        assert isinstance(app.screen, BrowserScreen)
        assert app.store.recent == [good] and app.screen.current_shelf.path == good


async def test_progress_and_unfinished_games_survive_a_restart(tmp_path):
    path = write_levels(tmp_path, "password")
    levels = read_file(path)
    data = str(tmp_path / "data")
    app = quiet_app(FewestApp(levels, 0, data_dir=data))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("up", "left")  # two of the four commands
        await pilot.press("q")
    app = quiet_app(FewestApp(levels, 0, data_dir=data))
    async with app.run_test(size=SIZE) as pilot:
        board = board_screen(app)
        assert board.game.counters.moves == 2 and board.game.can_undo
        assert "Welcome back" in str(board.query_one("#message").render())
        await pilot.press("left_square_bracket", "space")
        await wait_for(pilot, lambda: isinstance(app.screen, SolvedScreen))
        await pilot.press("q")  # back to the levels
        await pilot.press("q")
    app = quiet_app(FewestApp(data_dir=data))
    async with app.run_test(size=SIZE) as pilot:
        assert app.store.level(levels[0].key).best_moves == 4
        assert app.store.saved_game(levels[0].key) is None
        browser = app.screen
        browser.select_level(path, 0)
        await pilot.pause()
        assert "solved" in str(_table(app).get_row_at(0)[-1])


async def test_a_corrupt_progress_file_is_reported_and_moved_aside(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "progress.json").write_text("{ not json", encoding="utf-8")
    app = quiet_app(FewestApp(data_dir=str(data)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, BrowserScreen)
        notes = [n.message for n in app._notifications]
        assert any("progress.json was unreadable" in n for n in notes)
    assert any(p.startswith("progress.json.corrupt-") for p in os.listdir(data))


async def test_a_saved_game_that_no_longer_fits_is_dropped_with_a_message(tmp_path):
    levels = entries("rotation")
    store = ProgressStore(str(tmp_path))
    store.save_game(levels[0].key, SavedGame({"entries": [["move", "Q"]], "position": 1}))
    app = quiet_app(FewestApp(levels, 0, data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE):
        board = board_screen(app)
        assert isinstance(board, BoardScreen) and board.game.counters.moves == 0
        assert "no longer fits" in str(board.query_one("#message").render())


async def test_the_theme_switches_and_is_remembered(tmp_path):
    app = quiet_app(FewestApp(data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        assert app.theme == "textual-dark"
        await pilot.press("t")
        assert app.theme == "textual-light"
    app = quiet_app(FewestApp(data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE):
        assert app.theme == "textual-light"
    (tmp_path / "settings.json").write_text('{"settings": {"theme": ["x"]}}', encoding="utf-8")
    app = quiet_app(FewestApp(data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE):  # (a theme that is no name: the default, no crash)
        assert app.theme == "textual-dark"


@pytest.mark.parametrize("width, height", [(60, 24), (80, 24), (80, 12), (120, 24)])
async def test_pack_labels_fit_the_tree_with_their_counts_whole(tmp_path, width, height):
    app = quiet_app(FewestApp(data_dir=str(tmp_path)))
    async with app.run_test(size=(width, height)) as pilot:  # (12 rows: the tree scrolls)
        await pilot.pause()
        browser = app.screen
        tree = browser.query_one("#shelves", Tree)
        usable = tree.scrollable_content_region.width - 4  # less the tree guides (and its scrollbar)
        labels = {i: str(leaf.label) for i, leaf in browser._leaves.items()}
        table = browser.query_one("#levels", DataTable)  # (and the level table fits beside it)
        assert table.virtual_size.width <= table.scrollable_content_region.width
    for i, label in labels.items():
        if browser.shelves[i].daily and not browser.shelves[i].entries:  # (the day's, not made yet: no count)
            assert len(label) <= usable, label
            continue
        assert label.endswith(f"  0/{len(browser.shelves[i].entries)}") and len(label) <= usable, label
    if width >= 100:  # room for every bundled title in full
        assert all("…" not in label for label in labels.values())
    else:
        assert any("…" in label for label in labels.values())  # the narrow tree did cut some


@pytest.mark.parametrize("width", [40, 50])
async def test_a_narrow_browser_shows_one_pane_at_a_time_the_focused_one(tmp_path, width):
    app = quiet_app(FewestApp(data_dir=str(tmp_path)))
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        browser = app.screen
        tree, table = browser.query_one("#shelves", Tree), _table(app)
        pane = browser.query_one("#levels-pane")

        def shown(widget) -> bool:
            return widget.display and widget.region.width > 0

        assert app.focused is table and shown(table) and not shown(tree)
        assert table.virtual_size.width <= table.scrollable_content_region.width  # whole, not cut
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is tree and shown(tree) and not shown(pane)
        assert tree.region.width == width
        assert width < 50 or all("…" not in str(leaf.label) for leaf in browser._leaves.values())
        await pilot.press("down", "down", "enter")  # a pack: its levels, in the one pane
        await pilot.pause()
        assert app.focused is table and shown(table) and not shown(tree)
        assert browser.shelf_index != 0
        await pilot.resize_terminal(100, 24)
        await pilot.pause()
        assert shown(table) and shown(tree) and tree.region.width < 40  # both again, side by side


async def test_titles_and_paths_with_brackets_show_as_written(tmp_path):
    # Rich markup would crash on "[/]" and eat "[red]": titles and paths are the user's text.
    folder = tmp_path / "[/x]"
    folder.mkdir(parents=True)  # (a folder "[" holding one "x]")
    path = folder / "marks.xsb"
    grid = "#####\n#@$.#\n#####\n"
    titles = ["oops [/] closing", "[red]Red[/red] level"]
    path.write_text("".join(f"Title: {t}\n{grid}\n" for t in titles), encoding="utf-8")
    app = quiet_app(FewestApp(read_file(str(path)), 0, data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, BoardScreen)
        await pilot.press("q")  # to the browser, on the file's levels
        await wait_for(pilot, lambda: isinstance(app.screen, BrowserScreen))
        table = _table(app)
        assert [str(table.get_row_at(r)[1]) for r in range(table.row_count)] == titles
        assert str(path) in str(app.screen.query_one("#browser-message").render())
        await pilot.press("slash", *"closing")  # a search shows them too
        await pilot.pause()
        assert [str(table.get_row_at(r)[2]) for r in range(table.row_count)] == titles[:1]


def _sokoban_file(path, titles: list[str], widths: dict[str, int] | None = None) -> None:
    """One-box levels, each titled; a width makes that level's corridor longer (another level)."""
    widths = widths or {}
    text = ""
    for title in titles:
        floor = " " * widths.get(title, 0)
        text += f"Title: {title}\n#####{'#' * len(floor)}\n#@$.{floor}#\n#####{'#' * len(floor)}\n\n"
    path.write_text(text, encoding="utf-8")


async def test_enter_opens_the_level_chosen_even_after_the_file_changed(tmp_path):
    path = tmp_path / "mine.xsb"
    names = ["Alpha", "Beta", "Gamma", "Delta"]
    _sokoban_file(path, names, {n: i for i, n in enumerate(names)})
    app = quiet_app(FewestApp(read_file(str(path)), 0, data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, BrowserScreen))
        table = _table(app)
        table.move_cursor(row=2)
        await pilot.pause()
        # A level put in at the top: the row the player chose is Gamma's still, now 4th in the file.
        _sokoban_file(path, ["New", *names], {n: i for i, n in enumerate(names)} | {"New": 9})
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BoardScreen))
        assert app.screen.entry.display_title() == "Gamma" and app.screen.entry.index == 4
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, BrowserScreen))
        # Gamma changed on disk: Enter on its (old) row opens nothing, and says why.
        _sokoban_file(path, ["New", *names], {n: i for i, n in enumerate(names)} | {"New": 9, "Gamma": 7})
        row = table.cursor_row
        assert str(table.get_row_at(row)[1]) == "Gamma"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, BrowserScreen)
        message = str(app.screen.query_one("#browser-message").render())
        assert "changed since it was listed: level 4 (Gamma) is no longer in it as it was" in message


async def test_next_and_previous_go_by_the_file_as_it_is_now(tmp_path):
    path = tmp_path / "mine.xsb"
    names = ["Alpha", "Beta", "Gamma"]
    _sokoban_file(path, names, {n: i for i, n in enumerate(names)})
    app = quiet_app(FewestApp(read_file(str(path)), 0, data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert screen.entry.display_title() == "Alpha"
        # Beta deleted, Omega added at the end, while Alpha is played.
        _sokoban_file(path, ["Alpha", "Gamma", "Omega"], {"Alpha": 0, "Gamma": 2, "Omega": 5})
        await pilot.press("n")
        await pilot.pause()
        assert screen.entry.display_title() == "Gamma"  # (not the Beta that is gone)
        await pilot.press("n")
        await pilot.pause()
        assert screen.entry.display_title() == "Omega" and screen.entry.index == 3
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, BrowserScreen))
        table = _table(app)  # the browser lists the file as it is now, on the level played last
        assert [str(table.get_row_at(r)[1]) for r in range(table.row_count)] == ["Alpha", "Gamma", "Omega"]
        assert table.cursor_row == 2


async def test_a_file_that_did_not_read_is_read_again_when_chosen(tmp_path):
    path = tmp_path / "gone.xsb"
    _sokoban_file(path, ["Only"])
    app = quiet_app(FewestApp(read_file(str(path)), 0, data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, BrowserScreen))
        browser = app.screen
        path.unlink()
        await pilot.press("enter")  # the file is gone: said, and listed under "Unreadable files"
        await pilot.pause()
        assert browser.current_shelf.error and "No such file" in browser.current_shelf.error
        _sokoban_file(path, ["Only", "Second"])  # back again (an editor saving by rename)
        await pilot.press("tab", "enter")  # the tree's cursor is on it: enter reads it again
        await wait_for(pilot, lambda: not browser.current_shelf.error)
        assert browser.current_shelf.path == str(path) and len(browser.current_shelf.entries) == 2
        assert _table(app).row_count == 2 and app.focused is _table(app)


async def test_a_paste_with_a_bad_level_says_which_was_left_out(tmp_path):
    app = quiet_app(FewestApp(data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE) as pilot:
        _table(app).post_message(events.Paste("#####\n#@$.#\n#####\n\n#####\n#@$X#\n#####\n"))
        await wait_for(pilot, lambda: app.store.recent != [])
        message = str(app.screen.query_one("#browser-message").render())
        assert message.startswith("Pasted 1 level, kept as ")
        assert message.endswith("1 level left out, unreadable: level 2: line 6, col 4: unknown character 'X'")


async def test_a_pasted_level_is_kept_as_a_file_and_opened_under_recent_files(tmp_path):
    app = quiet_app(FewestApp(data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE) as pilot:
        _table(app).post_message(events.Paste("#####\r\n#@$.#\r\n#####\r\n"))  # (bubbles to the screen)
        await wait_for(pilot, lambda: app.store.recent != [])
        [path] = app.store.recent
        assert os.path.dirname(path) == str(tmp_path / "data" / "pasted") and path.endswith(".xsb")
        assert read_file(path)[0].level.boxes  # the file reads back
        await wait_for(pilot, lambda: isinstance(app.screen, BoardScreen))  # (pasted to play it: opened)
        assert board_screen(app).entry.source == path
        await pilot.press("q")
        browser = app.screen
        assert browser.current_shelf.path == path and app.focused is _table(app)
        assert any(n.message.startswith("Pasted 1 level, kept under Recent files") for n in app._notifications)
        assert browser.current_shelf.title == "Pasted: Level 1"
        _table(app).post_message(events.Paste("#####\n#@$.#\n#####\n"))  # the same again: one file
        await wait_for(pilot, lambda: isinstance(app.screen, BoardScreen))
        assert app.store.recent == [path] and os.listdir(os.path.dirname(path)) == [os.path.basename(path)]


async def test_pasted_text_that_is_no_level_is_refused_and_the_search_box_takes_text(tmp_path):
    app = quiet_app(FewestApp(data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE) as pilot:
        _table(app).post_message(events.Paste("hello there\n"))
        await wait_for(pilot, lambda: "not a level" in str(app.screen.query_one("#browser-message").render()))
        assert app.store.recent == [] and not (tmp_path / "data" / "pasted").exists()
        await pilot.press("slash")
        search = app.screen.query_one("#search", Input)
        search.post_message(events.Paste("push"))
        await wait_for(pilot, lambda: search.value == "push")
        assert app.store.recent == []


async def test_under_pushes_sokobans_par_and_best_count_pushes(tmp_path):
    sokoban_shelf = next(s for s in bundled_packs() if s.family == "sokoban")
    first = sokoban_shelf.entries[0]
    store = ProgressStore(str(tmp_path))
    store.record_solve(first.key, 30, 12, assisted=False)
    store.record_solve(first.key, 34, 10, assisted=False)  # (better by pushes only)
    store.remember_par(first.key, 9, metric="pushes")
    store.set_setting("metric", "pushes")
    app = quiet_app(FewestApp(data_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        browser = app.screen
        browser.show_shelf(browser.shelves.index(next(s for s in browser.shelves if s.title == sokoban_shelf.title)))
        await pilot.pause()
        table = _table(app)
        labels = [c.label.plain for c in table.columns.values()]
        row = table.get_row_at(0)
        assert (row[labels.index("Par pushes")], row[labels.index("Best pushes")]) == ("9", "10")  # (named)
        assert _table(app).row_count == len(sokoban_shelf.entries)
        assert [table.get_row_at(i)[labels.index("Par pushes")] for i in range(1, 3)] == [
            str(entry.push_par) for entry in sokoban_shelf.entries[1:3]]  # (the file's Push-par)
        assert str(browser.query_one("#browser-message").render()).endswith("· par and best in pushes")
        app.store.set_setting("metric", "moves")
        browser.show_shelf(browser.shelf_index)
        await pilot.pause()
        row = _table(app).get_row_at(0)
        labels = [c.label.plain for c in _table(app).columns.values()]
        assert (row[labels.index("Par moves")], row[labels.index("Best moves")]) == (str(first.par or "?"), "30")


async def test_recent_files_have_a_shelf_of_their_own_under_readable_names(tmp_path):
    named = tmp_path / "mine.fewest"
    named.write_text("Family: rotation\nTitle: My rotations\n\n" + "1 " * 24 + "\n", encoding="utf-8")
    plain = tmp_path / "plain.xsb"
    plain.write_text("#####\n#@$.#\n#####\n", encoding="utf-8")
    store = ProgressStore(str(tmp_path / "data"))
    pasted = store.keep_pasted("#####\n#@$.#\n#####\nTitle: Corridor\n", ".xsb")
    for path in (plain, named, pasted):
        store.add_recent(str(path))
    app = quiet_app(FewestApp(data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE):
        browser = app.screen
        families = [str(node.label) for node in browser.query_one("#shelves", Tree).root.children]
        assert families[-1] == "Recent files" and families.count("Rotation") == 1
        recent = browser.query_one("#shelves", Tree).root.children[-1]
        labels = [str(leaf.label).rsplit("  ", 1)[0] for leaf in recent.children]
        assert labels == ["Pasted: Corridor", "My rotations", "plain.xsb"]  # (newest first)
        for node in browser.query_one("#shelves", Tree).root.children[:-1]:
            assert not any(browser.shelves[leaf.data].is_file for leaf in node.children)

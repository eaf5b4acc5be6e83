"""Every family's board through the real app (Textual pilot): keys, history, hints, solve."""

from __future__ import annotations

import time

import pytest
from textual import events

from fewest.engine.base import format_plan, parse_plan
from fewest.engine.game import EntryKind
from fewest.tui.app.app import FewestApp
from fewest.tui.services.progress import ProgressStore
from fewest.tui.app.solved_screen import SolvedScreen
from tests.app_support import SIZE, app_on_text, board_screen, idle, make_app, wait_for
from tests.oracle import shortest_plan

FAMILIES = ("sokoban", "traffic", "rotation", "shift", "password")

# keys that make exactly one move from each family's first test level
ONE_MOVE = {
    "sokoban": ["left"],
    "traffic": ["right"],
    "rotation": ["A"],
    "shift": ["space", "down", "space"],
    "password": ["right"],
}

# (level index, keys) that solve a level by hand, and the move count that shows
BY_HAND = {
    "sokoban": (1, ["right"], 1),
    "traffic": (1, ["right"] * 4, 1),  # four one-cell slides of A are one move
    "rotation": (0, ["A", "C"], 2),
    "shift": (0, ["right", "space", "down", "space",
                  "up", "right", "right", "space", "down", "space",
                  "down", "left", "left", "space", "down", "space",
                  "right", "space", "right", "space"], 4),
    "password": (0, ["up", "left", "left_square_bracket", "space"], 4),
}


def _message(app) -> str:
    return str(app.screen.query_one("#message").render())


@pytest.mark.parametrize("family", FAMILIES)
async def test_keys_play_undo_redo_restart_and_change_level(tmp_path, family):
    app = make_app(tmp_path, family)
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        game = screen.game
        start = game.state
        assert screen.check_action("undo", ()) is None  # dimmed: nothing to undo yet
        await pilot.press(*ONE_MOVE[family])
        after = game.state
        assert after != start and game.counters.moves == 1
        await pilot.press("u")
        assert game.state == start and game.counters.moves == 0
        await pilot.press("y")
        assert game.state == after
        await pilot.press("r")
        assert game.state == start and game.counters.moves == 0
        await pilot.press("z")  # restart is undoable
        assert game.state == after and game.counters.moves == 1
        await pilot.press("ctrl+z")
        assert game.state == start
        await pilot.press("ctrl+y")
        assert game.state == after
        await pilot.press("backspace")
        assert game.state == start
        assert screen.check_action("redo", ()) is True
        count = len(screen.entries)
        await pilot.press("p")
        assert screen.index == 0 and _message(app) == "This is the first level."
        await pilot.press("n")
        assert screen.index == min(1, count - 1)
        await pilot.press("p")
        assert screen.index == 0 and screen.title.endswith(screen.entries[0].display_title())
        assert screen.game.counters.moves == 0  # a left level's game was saved, not carried over
        await pilot.press(*["n"] * count)
        assert screen.index == count - 1 and _message(app) == "This is the last level."


@pytest.mark.parametrize("family", FAMILIES)
async def test_three_hints_tell_show_then_play_an_optimal_move(tmp_path, family):
    app = make_app(tmp_path, family)
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        game = screen.game
        before = len(shortest_plan(game.rules, game.level, game.state))
        await pilot.press("h")
        await idle(pilot)
        assert f"{before} move" in _message(app) and game.counters.moves == 0
        await pilot.press("h")
        await idle(pilot)
        hinted = screen.board.hint_move
        assert hinted is not None and game.counters.moves == 0
        await pilot.press("h")
        await idle(pilot)
        last = game.entries[-1]
        assert last.kind is EntryKind.HINT and last.move == hinted
        assert len(shortest_plan(game.rules, game.level, game.state)) == before - 1
        assert screen.hints == 3 and screen.board.hint_move is None


@pytest.mark.parametrize("family", FAMILIES)
async def test_solve_by_hand_replay_it_with_b_then_retry_then_let_the_solver_finish(tmp_path, family):
    # (one session: the best that b replays is the solve by hand that starts the retry's test)
    index, keys, moves = BY_HAND[family]
    app = make_app(tmp_path, family, index=index)
    app.animation_speed = 0.1
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        entry = screen.entry
        game = screen.game
        assert screen.check_action("replay_best", ()) is None  # nothing solved yet: dimmed
        await pilot.press(*keys)
        await wait_for(pilot, lambda: isinstance(app.screen, SolvedScreen))
        headline = str(app.screen.query_one("#solved-headline").render())
        assert headline.startswith(f"Solved in {moves} move")
        mine = list(game.line_moves)
        record = app.store.level(entry.key)
        assert record.solved and not record.assisted and record.best_moves == moves
        assert record.best_plan == format_plan(game.rules, mine)
        # b: the best solve replayed from the start
        await pilot.press("escape")  # stay on the solved board
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, SolvedScreen))
        # (as saved: traffic's single steps of one car the same way come back as one slide)
        replayed = parse_plan(game.rules, record.best_plan)
        assert game.line_moves == replayed and game.counters == game.rules.tally(mine)
        assert game.entries[-len(replayed) - 1].kind is EntryKind.RESTART
        assert all(entry.kind is EntryKind.MOVE for entry in game.entries[-len(replayed):])  # the player's own
        assert app.store.level(screen.entry.key) == record  # not assisted, nothing new
        await pilot.press("escape")
        await pilot.press("u")  # undo, as after a solve
        assert not game.is_solved()
        await pilot.press("y")  # and redo: solved again, and said so
        await wait_for(pilot, lambda: isinstance(app.screen, SolvedScreen))
        # retry, then the solver finishes
        await pilot.press("r")  # retry: an undoable restart
        assert app.screen is screen and game.state == game.start and game.counters.moves == 0
        optimal = len(shortest_plan(game.rules, game.level, game.state))
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, SolvedScreen))
        line = game.entries[-optimal:]
        assert game.is_solved() and [e.kind for e in line] == [EntryKind.SOLVE] * optimal
        assert game.counters.moves == game.rules.tally(game.line_moves).moves <= moves
        assert app.store.level(entry.key).best_moves == moves  # help never sets a best
        has_next = index + 1 < len(screen.entries)
        await pilot.press("n")
        if has_next:
            assert app.screen is screen and screen.index == index + 1
            assert screen.game.counters.moves == 0
        else:
            assert app.screen.is_modal  # no "next" after the last level: the card stays, and says so
            assert not app.screen.query("#next")
            assert "last level" in str(app.screen.query_one("#solved-verdict").render())
            await pilot.press("escape")  # stay and look; the solve is undoable
            await pilot.press("u")
            assert not screen.game.is_solved()


@pytest.mark.parametrize("family", FAMILIES)
async def test_c_copies_the_moves_as_text_and_pasting_them_plays_them_again(tmp_path, family):
    app = make_app(tmp_path, family)
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("c")
        assert _message(app).startswith("No moves to copy yet") and app.clipboard == ""
        await pilot.press(*ONE_MOVE[family])
        game = screen.game
        mine, there = list(game.line_moves), game.state
        assert len(mine) == 1 and there != game.start
        await pilot.press("c")
        assert app.clipboard == format_plan(game.rules, mine)
        assert _message(app) == f"Copied your move to the clipboard: {app.clipboard}"
        await pilot.press("r")
        app.focused.post_message(events.Paste(app.clipboard))  # (bubbles from the board up)
        await wait_for(pilot, lambda: not screen.thinker.playing and game.state == there)
        assert game.line_moves == mine and game.entries[-1].kind is EntryKind.MOVE  # the player's own
        await pilot.press("u")
        assert game.state == game.start


async def test_pasted_moves_playing_are_labelled_as_pasted(tmp_path):
    app = make_app(tmp_path, "sokoban")
    app.animation_speed = 50.0  # a move every 10 s: time to read the status
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        screen.post_message(events.Paste("lr"))  # a step onto the goal and back
        await wait_for(pilot, lambda: screen.thinker.playing)
        assert "pasted moves: 2 to go" in str(screen.query_one("#status").render())
        await pilot.press("escape")
        assert not screen.thinker.playing and not screen.game.entries


async def test_a_paste_that_is_not_moves_from_here_says_which_and_plays_nothing(tmp_path):
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        screen.post_message(events.Paste("lurdq"))
        await wait_for(pilot, lambda: "not moves of this game" in _message(app))
        assert "'q'" in _message(app)
        screen.post_message(events.Paste("r\nr rr"))  # a LURD string broken over lines; the third r meets a wall
        await wait_for(pilot, lambda: "Pasted move 3 cannot be played from here" in _message(app))
        assert not screen.game.entries


async def test_a_best_that_no_longer_solves_the_level_is_not_played(tmp_path):
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        app.store.record_solve(screen.entry.key, 2, 1, assisted=False, plan="lR")  # (the file changed since)
        await pilot.press("b")
        assert "does not solve this level" in str(screen.query_one("#message").render())
        assert screen.game.counters.moves == 0 and not screen.game.entries


async def test_a_level_solved_only_with_help_is_marked_assisted(tmp_path):
    app = make_app(tmp_path, "rotation")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, SolvedScreen))
        record = app.store.level(screen.entry.key)
        assert record.solved and record.assisted and record.best_moves is None
        assert "assisted" in str(app.screen.query_one("#solved-verdict").render())


async def test_the_move_a_hint_showed_played_by_hand_counts_as_help(tmp_path):
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("h", "h")
        await wait_for(pilot, lambda: screen.board.hint_move is not None)
        shown = screen.board.hint_move
        other = next(m for m in screen.game.legal_moves() if m != shown)
        screen.board.pick(other)  # not the one shown: the player's own
        await pilot.pause()
        assert [e.kind for e in screen.game.entries] == [EntryKind.MOVE] and not screen.game.assisted
        await pilot.press("u", "h", "h")
        await wait_for(pilot, lambda: screen.board.hint_move is not None)
        screen.board.pick(shown)
        await pilot.pause()
        assert [e.kind for e in screen.game.entries] == [EntryKind.HINT] and screen.game.assisted


async def test_a_level_solved_as_it_starts_says_so(tmp_path):
    text = "Family: rotation\nTitle: T\n\nTitle: Done\n2 2 2 2 2 2 1 1 1 2 2 1 1 3 3 1 1 1 3 3 3 3 3 3\n"
    app = app_on_text(tmp_path, text, "done.fewest")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        assert screen.game.is_solved() and _message(app) == "This level is solved as it starts: no move is needed."
        assert screen.check_action("hint", ()) is None  # (dimmed: the message says why)


async def test_keys_in_one_burst_act_in_the_order_they_came(tmp_path):
    # a move key, then u at once (fast typing, key repeat): the move is played, then undone
    app = make_app(tmp_path, "rotation")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        for key in ("A", "B", "u"):  # (queued together, with no pause between them)
            app.post_message(events.Key(key, key))
        await wait_for(pilot, lambda: len(screen.game._entries) == 2)
        assert [e.text for e in screen.game.entries] == ["A"] and screen.game.can_redo


@pytest.mark.parametrize("family", FAMILIES)
def test_no_key_means_two_things_and_every_binding_has_an_id(family):
    from fewest.tui.app.app import FewestApp
    from fewest.tui.app.boards.screen import BoardScreen
    from fewest.tui.app.frontends import board_class
    from fewest.tui.app.help_screen import bindings_of

    meaning: dict[str, str] = {}
    for owner in (board_class(family), BoardScreen, FewestApp):
        for binding in bindings_of(owner):
            assert binding.id, f"{owner.__name__}: {binding.key} has no id"
            for key in binding.key.split(","):
                assert meaning.setdefault(key, binding.action) == binding.action, (
                    f"{family}: {key!r} means both {meaning[key]} and {binding.action}")
    assert "h" in meaning and "S" in meaning and "question_mark" in meaning


async def test_mouse_selects_and_slides_a_car(tmp_path):
    app = make_app(tmp_path, "traffic")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        board = screen.board
        # cell (row, col) is drawn at x = 2 + 4 * col, y = 2 + 2 * row inside the board's padding
        await pilot.click(board, offset=(1 + 2 + 4 * 4, 2 + 2 * 3))  # car B (rows 2-3, col 4)
        assert board.selected == "B"
        await pilot.click(board, offset=(1 + 2 + 4 * 4, 2 + 2 * 0))  # the top of B's lane
        assert str(screen.game.entries[-1].move) == "BU2" and screen.game.counters.moves == 1


async def test_mouse_picks_up_and_drops_a_piece_and_rotates_by_label(tmp_path):
    app = make_app(tmp_path, "shift")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        board = screen.board
        await pilot.click(board, offset=(1 + 2 + 4 * 1 + 1, 2))  # the piece at b1
        assert board.held == 1
        await pilot.click(board, offset=(1 + 2 + 4 * 1 + 1, 4))  # the empty cell below it
        assert str(screen.game.entries[-1].move) == "b1d" and board.held is None
    app = make_app(tmp_path, "rotation", data="data2")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        from fewest.tui.app.boards.rotation import LABELS, MARGIN_X, PITCH_X

        side, line = LABELS["B"]
        assert side == "top"
        await pilot.click(screen.board, offset=(1 + MARGIN_X + line * PITCH_X + 2, 0))
        assert str(screen.game.entries[-1].move) == "B"


async def test_keymap_in_settings_remaps_a_binding_by_id(tmp_path):
    ProgressStore(str(tmp_path / "data")).set_setting("keymap", {"undo": "f5", "redo": "f6"})
    app = make_app(tmp_path, "rotation")
    async with app.run_test(size=SIZE) as pilot:
        game = board_screen(app).game
        start = game.state
        await pilot.press(*ONE_MOVE["rotation"])
        after = game.state
        await pilot.press("f5")
        assert game.state == start
        await pilot.press("f6")
        assert game.state == after
        await pilot.press("u")  # the default key now does nothing
        assert game.state == after


# 30 across and 15 down: 60 x 15 on screen, more than a 40 x 12 terminal shows
BIG_ROOM = "\n".join(
    ["#" * 30]
    + ["#" + " " * 28 + "#"] * 5
    + ["#" + " " * 26 + "$.#"]
    + ["#" + " " * 28 + "#"] * 6
    + ["#" + " " * 27 + "@#"]
    + ["#" * 30]
) + "\n"


def _player_in_view(screen) -> bool:
    """Is the player's cell inside what the board area shows now?"""
    area, board = screen.query_one("#board-area"), screen.board
    x, y = board.focus_point()
    left, top = board.virtual_region.offset + board.styles.gutter.top_left
    seen = area.scrollable_content_region.size
    dx, dy = left + x - area.scroll_offset.x, top + y - area.scroll_offset.y
    return 0 <= dx < seen.width and 0 <= dy < seen.height


async def test_a_board_larger_than_the_terminal_shows_the_player_from_the_start(tmp_path):
    app = app_on_text(tmp_path, BIG_ROOM, "big.xsb")
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert _player_in_view(board_screen(app))


async def test_a_board_keeps_the_player_in_view_when_the_terminal_shrinks(tmp_path):
    app = app_on_text(tmp_path, BIG_ROOM, "big.xsb")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = board_screen(app)
        await pilot.pause()
        assert _player_in_view(screen)
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        await pilot.pause()
        assert _player_in_view(screen)
        await pilot.press("up")  # (a move keeps it in view too)
        assert _player_in_view(screen)


@pytest.mark.parametrize("family,key", [("traffic", "tab"), ("shift", "down")])
async def test_the_selected_car_or_the_cursor_stays_in_view_on_a_short_terminal(tmp_path, family, key):
    app = make_app(tmp_path, family)
    async with app.run_test(size=(50, 12)) as pilot:
        screen = board_screen(app)
        await pilot.pause()
        seen = []
        for _ in range(6):
            await pilot.press(key)
            seen.append(screen.board.focus_point() is not None and _player_in_view(screen))
        assert all(seen)


@pytest.mark.parametrize("family", FAMILIES)
def test_ascii_mode_shows_every_key_in_ascii(family):
    from fewest.tui.app.boards.screen import BoardScreen
    from fewest.tui.app.frontends import board_class
    from fewest.tui.app.help_screen import bindings_of

    app = FewestApp()
    app.ascii_only = True  # (FEWEST_ASCII=1, or a terminal that can't show Unicode)
    shown = [app.get_key_display(b) for owner in (board_class(family), BoardScreen) for b in bindings_of(owner)]
    assert all(text.isascii() for text in shown), [t for t in shown if not t.isascii()]


@pytest.mark.parametrize("family", FAMILIES)
async def test_ascii_mode_sends_the_terminal_nothing_but_ascii(tmp_path, monkeypatch, family):
    from textual.color import Color

    monkeypatch.setenv("FEWEST_ASCII", "1")
    app = make_app(tmp_path, family)
    async with app.run_test(size=SIZE) as pilot:
        for keys in ((), ("question_mark",), ("escape", "q")):  # the board, its help, the browser
            await pilot.press(*keys)
            await pilot.pause()
            for strip in app.screen._compositor.render_strips():  # (what the driver is given)
                segments = list(strip)
                for line_filter in app._filters:
                    segments = line_filter.apply(segments, Color(0, 0, 0))
                line = "".join(segment.text for segment in segments)
                assert line.isascii() and len(line) == SIZE[0], line


async def test_a_narrow_shift_board_shows_its_legend_whole(tmp_path):
    text = "Family: shift\nTitle: T\n\nTitle: Two wide\n10 01\n01 10\n"
    app = app_on_text(tmp_path, text, "narrow.fewest")
    async with app.run_test(size=SIZE):
        canvas = board_screen(app).board.draw()
        assert "piece  ○ target" in "".join(canvas.chars[-1])


async def test_a_long_message_wraps_in_a_narrow_terminal(tmp_path):
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=(40, 20)) as pilot:
        screen = board_screen(app)
        line = screen.query_one("#message")
        screen.say("41 moves (13 pushes) to solve from here.  (h again shows the next move)")
        await pilot.pause()
        assert line.size.height == 2  # (38 columns of text, two lines of it)
        screen.say("Cancelled.")
        await pilot.pause()
        assert line.size.height == 1


async def test_an_unfinished_game_is_saved_soon_after_a_move_not_only_on_leaving(tmp_path, monkeypatch):
    from fewest.tui.app.boards import screen as module

    monkeypatch.setattr(module, "SAVE_AFTER", 0.05)
    app = make_app(tmp_path, "rotation")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("A")
        await wait_for(pilot, lambda: ProgressStore(app.store.data_dir).saved_game(screen.entry.key) is not None)
        saved = ProgressStore(app.store.data_dir).saved_game(screen.entry.key)  # (as a killed app leaves it)
        assert saved.record["entries"] == [["move", "A"]]


async def test_moves_without_a_break_are_saved_as_they_go_not_once_they_stop(tmp_path, monkeypatch):
    # A kill loses at most the moves of the last SAVE_AFTER, however long the player kept moving (#74)
    from fewest.tui.app.boards import screen as module

    monkeypatch.setattr(module, "SAVE_AFTER", 0.5)
    app = make_app(tmp_path, "rotation")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        start = time.monotonic()
        while time.monotonic() - start < 2.0:  # (a move each 0.05 s or so: never a pause of 0.5 s)
            await pilot.press("A")  # (A again and again turns the same ring: the level wants a C)
            await pilot.pause(0.05)
        assert not screen.game.is_solved()
        saved = ProgressStore(app.store.data_dir).saved_game(screen.entry.key)  # (as a killed app leaves it)
        assert saved is not None and saved.record["entries"]


@pytest.mark.parametrize("goal, said", [("exit A", "get car A out at ▶"),
                                        ("clear-row 1", "empty the row between ▶ and ◀")])
async def test_a_traffic_board_says_its_goal_under_the_frame(tmp_path, goal, said):
    # Rush Hour and "Get out" boards look alike but for what they ask.
    text = f"Family: traffic\n\nTitle: Goal\ngoal: {goal}\n....\nAA..\n..B.\n..B.\n"
    app = app_on_text(tmp_path, text, "goal.fewest")
    async with app.run_test(size=SIZE):
        canvas = board_screen(app).board.draw()
        assert "".join(canvas.chars[-1]).strip() == said

"""What a new player tried (#70): escape dismisses and never leaves; a deadlock marks the
box at fault and h takes the push back; a hint seen marks the solve assisted (Textual pilot, one small level each)."""

from __future__ import annotations

from fewest.tui.app.browser import BrowserScreen
from fewest.tui.app.solved_screen import SolvedScreen
from tests.app_support import SIZE, board_screen, idle, make_app, wait_for


def _message(app) -> str:
    return str(app.screen.query_one("#message").render())


async def test_escape_dismisses_the_message_and_never_leaves_the_board(tmp_path):
    app = make_app(tmp_path, "rotation")
    async with app.run_test(size=SIZE) as pilot:
        board = board_screen(app)
        await pilot.press("p")
        assert _message(app) == "This is the first level."
        await pilot.press("escape")
        assert app.screen is board and _message(app) == ""
        await pilot.press("escape")
        assert app.screen is board and "q goes back" in _message(app)
        await pilot.press("q")
        assert isinstance(app.screen, BrowserScreen)


async def test_a_deadlock_marks_the_box_at_fault_and_h_twice_takes_the_push_back(tmp_path):
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        board = screen.board
        await pilot.press("up")  # pushes a box against the top wall: no goal there
        await wait_for(pilot, lambda: board.blamed[0] == screen.game.state)
        assert board.blamed[1] == {8}
        stuck, box = board.style("stuck"), board.style("box")
        x, y = board.cell_origin(8)
        assert board.draw().styles[y][x] == stuck != box
        await pilot.press("h")
        await idle(pilot)
        assert "(h again takes it back)" in _message(app)
        await pilot.press("h")
        assert screen.game.counters.moves == 0 and screen.game.can_redo
        assert board.draw().styles[y][x] != stuck  # (the mark goes with the position)


async def test_a_hint_seen_before_a_restart_still_marks_the_solve_assisted(tmp_path):
    app = make_app(tmp_path, "rotation")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("C", "h")
        await idle(pilot)
        await pilot.press("h")
        await idle(pilot)
        assert screen.board.hint_move is not None and screen.hints == 2
        await pilot.press("r", "A", "C")  # (the level's plan, by hand, on a line with no hint's move)
        await wait_for(pilot, lambda: isinstance(app.screen, SolvedScreen))
        verdict = str(app.screen.query_one("#solved-verdict").render())
        assert "assisted" in verdict and "Perfect" not in verdict and "personal best" not in verdict
        record = app.store.level(screen.entry.key)
        assert record.solved and record.assisted and record.best_moves is None
        await pilot.press("r")  # (a new try from the card: no hints asked, nothing assisted)
        await pilot.press("A", "C")
        await wait_for(pilot, lambda: isinstance(app.screen, SolvedScreen))
        assert "Perfect" in str(app.screen.query_one("#solved-verdict").render())
        assert not app.store.level(screen.entry.key).assisted


async def test_rotation_takes_lowercase_letters_but_for_the_screens_own_keys(tmp_path):
    app = make_app(tmp_path, "rotation")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        for key in "adefg":
            await pilot.press(key)
        assert [str(m) for m in screen.game.line_moves] == list("ADEFG")
        await pilot.press("h")  # (still the hint)
        await idle(pilot)
        assert screen.hints == 1 and len(screen.game.line_moves) == 5


async def test_help_names_the_metric_the_par_and_best_count(tmp_path):
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        for key, metric in (("question_mark", "moves"), ("M", "pushes (then moves)")):
            if key == "M":
                await pilot.press("escape", "M", "question_mark")
            else:
                await pilot.press(key)
            notes = str(app.screen.query_one("#help-notes").render())
            assert f"are in {metric} here" in notes


async def test_password_marks_wrong_cells_and_names_its_figures(tmp_path):
    app = make_app(tmp_path, "password")
    async with app.run_test(size=SIZE):
        board = board_screen(app).board
        wrong, right, code = (board.style(name) for name in ("wrong", "right", "code"))
        assert wrong.color != code.color and wrong.underline and wrong != right
        canvas = board.draw()
        lines = ["".join(row) for row in canvas.chars]
        assert "S sword" in lines[-1] and "red wrong" in lines[-1]
        level, state = board.game.level, board.game.state
        cell = next(i for i, v in enumerate(state.grid) if v != level.code[i])
        y, x = 3 + cell // level.cols * 2, 2 + cell % level.cols * 4 + 1
        assert canvas.styles[y][x] == wrong


async def test_a_held_shift_piece_moves_with_one_arrow_press(tmp_path):
    app = make_app(tmp_path, "shift")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        board = screen.board
        await pilot.press("space", "down")  # (a1 picked up, then one move down)
        assert board.held == board.cursor == 4 and screen.game.counters.moves == 1
        await pilot.press("down")  # (a piece below: refused, said)
        assert screen.game.counters.moves == 1 and "can't move down" in _message(app)
        await pilot.press("right", "space", "right")  # (moved again, put down, then the cursor steps)
        assert screen.game.counters.moves == 2 and board.held is None and board.cursor == 6


async def test_the_shift_board_labels_the_squares_its_hints_name(tmp_path):
    app = make_app(tmp_path, "shift")
    async with app.run_test(size=SIZE) as pilot:
        screen = board_screen(app)
        await pilot.press("h")
        await idle(pilot)
        await pilot.press("h")
        await idle(pilot)
        move = screen.board.hint_move
        square = str(move)[:-1]  # ("b1": column b, row 1)
        assert f"at {square} " in _message(app)
        canvas = screen.board.draw()
        x, y = 2 + move.col * 4, 2 + move.row * 2  # (the square's body)
        assert canvas.chars[0][x + 1] == square[0] and canvas.chars[y][0] == square[1:]


async def test_sokoban_cells_fill_the_room_there_is_and_plus_minus_choose(tmp_path):
    app = make_app(tmp_path, "sokoban")  # (a 6x5 room)
    async with app.run_test(size=SIZE) as pilot:
        board = board_screen(app).board
        await pilot.pause()
        assert board._cell_size() == (6, 3) and board.size.height == 15
        await pilot.press("minus")
        await pilot.pause()
        assert board._cell_size() == (4, 2) and board.draw().width == 24 and "4x2" in _message(app)
        await pilot.press("minus", "minus", "minus")  # (one column a cell at the least)
        await pilot.pause()
        assert board._cell_size() == (1, 1) and board.draw().width == 6
        await pilot.press("plus")
        assert board._cell_size() == (2, 1)
        await pilot.press("0")  # (fitted to the window again, as it changes)
        await pilot.resize_terminal(30, 10)
        await pilot.pause()
        await pilot.pause()
        assert board._cell_size() == (2, 1)
        await pilot.resize_terminal(60, 12)  # (too short for two lines a cell, wide enough)
        await pilot.pause()
        await pilot.pause()
        assert board._cell_size() == (2, 1)

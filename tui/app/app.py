"""FewestApp: the browser over the bundled packs, or straight onto a level from `fewest play`."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import time
from typing import Any, Callable

from textual.app import App
from textual.binding import Binding

from fewest.levels.base import LevelEntry
from fewest.tui.app.boards.base import want_ascii
from fewest.tui.services.catalog import as_bundled, pack_title_of
from fewest.tui.services.progress import ProgressStore

THEMES = ("textual-dark", "textual-light")
ASCII_KEYS = str.maketrans({"←": "<", "↑": "^", "→": ">", "↓": "v", "⌫": "backspace", "⏎": "enter"})


class FewestApp(App):
    CSS_PATH = ["app.tcss", "board.tcss"]
    TITLE = "fewest"
    ENABLE_COMMAND_PALETTE = False  # every action has a key; `t` switches the theme
    BINDINGS = [
        Binding("t", "toggle_theme", "Theme", id="theme", show=False,
                tooltip="Switch between the dark and the light theme"),
    ]

    def __init__(self, entries: list[LevelEntry] | None = None, start_index: int = 0,
                 data_dir: str | None = None, notes: list[str] | None = None) -> None:
        super().__init__()
        self.store = ProgressStore(data_dir)
        self.ascii_only = want_ascii()
        self._on_signals: dict[int, Any] = {}  # (the loop's handlers that are ours, and the ones before)
        self._hangup_before: Any = None  # (SIGHUP's handler before ours)
        if self.ascii_only:  # (the whole screen, Textual's widgets too, not just the boards)
            from fewest.tui.app.ascii_filter import AsciiFilter

            self._filters.append(AsciiFilter())
        # Knobs tests turn: a frozen clock for snapshots, faster animation, no background par search.
        self.clock: Callable[[], float] = time.monotonic
        self.show_timer = True
        self.animation_speed = 1.0
        self.learn_par = True
        self.entries = as_bundled([self._absolute(e) for e in entries or []])
        self.start_index = start_index
        self.notes = list(notes or [])  # what to tell on opening (levels of the file left out)
        if self.entries and os.path.isfile(self.entries[0].source):
            self.store.add_recent(self.entries[0].source)

    def get_key_display(self, binding: Binding) -> str:
        """Keys as the footer and help show them: in ASCII where the boards are (arrows
        would not show on such a terminal)."""
        text = super().get_key_display(binding)
        return text.translate(ASCII_KEYS) if self.ascii_only else text

    @staticmethod
    def _absolute(entry: LevelEntry) -> LevelEntry:
        """Key progress by the file's absolute path, however the command line spelled it."""
        if os.path.exists(entry.source):
            return dataclasses.replace(entry, source=os.path.abspath(entry.source))
        return entry

    def on_mount(self) -> None:
        from fewest.tui.app.boards.screen import BoardScreen
        from fewest.tui.app.browser import BrowserScreen

        # (16 colours: the boards' tints turn grey and near colours one; board.tcss has solid ones)
        self.set_class(self.console.color_system in ("standard", "windows"), "-few-colours")
        theme = self.store.setting("theme", THEMES[0])
        self.theme = theme if isinstance(theme, str) and theme in self.available_themes else THEMES[0]
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self._apply_keymap()
        source = self.entries[0].source if self.entries else None
        browser = BrowserScreen(self.store, select_path=source)
        self.push_screen(browser)
        if self.entries:
            index = min(max(self.start_index, 0), len(self.entries) - 1)
            title = pack_title_of(self.entries[0]) or os.path.basename(source or "")

            def came_back(last: int | None) -> None:
                if last is not None and source is not None:
                    browser.select_level(source, last)

            self.push_screen(BoardScreen(self.entries, index, self.store, title), came_back)
        if self.notes:
            self.notify("\n".join(self.notes), title="Levels that could not be read", markup=False,
                        severity="warning", timeout=20)
        self.show_store_messages()
        self.set_interval(1.0, self.show_store_messages)
        self._end_on_signals()

    def _end_on_signals(self) -> None:
        """A plain `kill` (SIGTERM), or SIGINT (the keys' Ctrl-C is a key here, but `kill
        -INT` is not), saves the open games and ends the app as `q` does; a closed terminal
        (SIGHUP) saves them and ends the process at once. By default all three end Python
        on the spot, losing up to a second of moves. Exit codes: 128 + signal."""
        term, hangup = getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)
        for number in (term, signal.SIGINT):
            if number is None or signal.getsignal(number) is signal.SIG_IGN:
                continue  # (no such signal here; or ignored by whoever started the app: stays so)
            try:
                before = signal.getsignal(number)
                asyncio.get_running_loop().add_signal_handler(number, self._terminated, number)
                self._on_signals[number] = before
            except (NotImplementedError, RuntimeError, ValueError):
                pass  # (a loop that cannot, or not in the main thread)
        if hangup is not None:  # (not on Windows)
            try:
                self._hangup_before = signal.signal(hangup, self._hung_up)
            except ValueError:
                pass  # (not the main thread)

    def _terminated(self, number: int) -> None:
        self._save_games()  # (first: the way out may fail before the boards are unmounted)
        self.exit(None, 128 + number)

    def _hung_up(self, number: int, frame: object) -> None:
        """The terminal is gone, and Textual's way out writes to it: it can wait for ever on
        a writer thread that died. So the games are saved and the process ends here. (A
        plain signal handler, not the loop's: it runs even while the main thread waits.)"""
        self._save_games()
        os._exit(128 + number)

    def _save_games(self) -> None:
        from fewest.tui.app.boards.screen import BoardScreen

        for screen in self.screen_stack:
            if isinstance(screen, BoardScreen):
                screen.save_game()

    def on_unmount(self) -> None:
        for number, before in self._on_signals.items():
            asyncio.get_running_loop().remove_signal_handler(number)
            if before is not None:  # (the loop would leave Python's default, not what was there)
                signal.signal(number, before)
        self._on_signals.clear()
        if self._hangup_before is not None:
            signal.signal(signal.SIGHUP, self._hangup_before)

    def _apply_keymap(self) -> None:
        """User key remapping: settings.json {"settings": {"keymap": {"hint": "f1", ...}}},
        binding id -> comma-separated keys (the ids are listed in the help screen)."""
        keymap = self.store.setting("keymap", {})
        if isinstance(keymap, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in keymap.items()
        ):
            self.set_keymap(keymap)
        elif keymap:
            self.notify("settings.json: keymap must map binding ids to keys; ignored",
                        severity="warning", timeout=12)

    def show_store_messages(self) -> None:
        """Problems the progress store met (a corrupt file moved aside, a failed save)."""
        while self.store.messages:
            self.notify(self.store.messages.pop(0), title="Progress", severity="warning", timeout=12,
                        markup=False)

    def _remember_theme(self, theme: object) -> None:
        name = getattr(theme, "name", None)
        if isinstance(name, str) and name != self.store.setting("theme"):
            self.store.set_setting("theme", name)

    def action_toggle_theme(self) -> None:
        self.theme = THEMES[1] if self.theme == THEMES[0] else THEMES[0]

"""The level browser: families -> bundled packs, then recent files -> levels.

Left, a tree of shelves by family; right, the chosen shelf's levels with par, the
player's best (both by the metric M chose: Sokoban's moves or pushes) and marks. `/`
searches titles across every shelf. Opening a level pushes the board screen; coming
back refreshes the marks.
"""

from __future__ import annotations

import datetime
import os

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Header, Input, Static, Tree

from fewest.levels.base import LevelEntry, LevelFormatError
from fewest.levels.files import detect, read_text_each
from fewest.solvers import api
from fewest.solvers.common.control import Control
from fewest.tui.services.catalog import (
    Shelf, build_catalog, chosen_metric, families_in, load_file_shelf, next_unsolved, par_bound, par_of, unfinished,
)
from fewest.tui.app.ending import ending
from fewest.tui.app.frontends import family_title
from fewest.tui.app.keys_footer import KeysFooter
from fewest.tui.services.generated import make_daily
from fewest.tui.services.level_summary import counted, par_text
from fewest.tui.services.progress import ProgressStore

# The pack tree's width (app.tcss holds the usual one): wider from WIDE_SCREEN columns on,
# where level titles have room to spare, narrower below NARROW_SCREEN, where the level
# table would not fit beside it. A pack title is cut so its count always shows whole: the
# label has the width less LABEL_EXTRA (tree guides 4, border and padding 2, and 1 for
# the scrollbar a short terminal gives the tree). Below ONE_PANE_SCREEN even the narrow
# tree leaves the table too little: one pane shows at a time, the focused one, over the
# whole width (tab switches, as ever).
TREE_WIDTH, WIDE_TREE_WIDTH, WIDE_SCREEN, LABEL_EXTRA = 28, 34, 100, 7
NARROW_TREE_WIDTH, NARROW_SCREEN = 18, 80
PACK_WIDTH = 12
MARK_WIDTH = 8  # "✓ solved", "assisted"
TABLE_FIXED = 3 + 4 + 4 + MARK_WIDTH + 2 * 5 + 3  # the table less its title column: # Par Best mark, gaps, margins
MIN_TITLE = 10  # beside the tree; alone, a title gives way down to TINY_TITLE (40 columns fit)
TINY_TITLE = 4
ONE_PANE_SCREEN = TABLE_FIXED + MIN_TITLE + NARROW_TREE_WIDTH
PASTED_SOURCE = "pasted text"  # the name errors in a pasted level give its "file"
DAILY_GROUP = "Daily"
GENERATED_GROUP = "More like this"  # levels made with N on a generated one, kept in the data directory
MAKE_DAILY_NOTE = ("Today's puzzles: one level per family, the same for everyone today, pars proven. "
                   "Enter on the shelf makes them (a few seconds); solved, the card's c copies your result.")


class BrowserScreen(Screen):
    BINDINGS = [
        Binding("tab,shift+tab", "switch_pane", "Packs/levels", id="switch-pane"),
        Binding("slash", "search", "Search", id="search"),
        Binding("c", "continue", "Continue", id="continue",
                tooltip="Back to the game you left unfinished last"),
        Binding("o", "open_file", "Open file", id="open-file"),
        Binding("x", "forget_file", "Forget file", id="forget-file"),
        Binding("escape", "clear_search", "Clear search", id="clear-search", show=False),
        Binding("q", "app.quit", "Quit", id="quit"),
    ]

    def __init__(self, store: ProgressStore, select_path: str | None = None) -> None:
        super().__init__()
        self.store = store
        self.shelves: list[Shelf] = []
        self.shelf_index = 0
        self.query_text = ""
        self._select_path = select_path  # a file to show first (`fewest play`)
        self._rows: list[tuple[int, int]] = []  # table row -> (shelf, level index)
        self._leaves: dict = {}  # shelf index -> its tree node
        self._offer: tuple[int, str] | None = None  # (shelf, line): the unfinished game offered on landing

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        with Horizontal(id="browser"):
            tree: Tree[int] = Tree("Levels", id="shelves")
            tree.show_root = False
            tree.auto_expand = False  # enter on a family opens its first pack (see below)
            yield tree
            with Vertical(id="levels-pane"):
                yield Input(placeholder="/ search level titles", id="search")
                yield DataTable(id="levels", cursor_type="row", zebra_stripes=True)
        yield Static(id="browser-message", markup=False)  # (titles and paths: never markup)
        yield KeysFooter(compact=True)

    def on_mount(self) -> None:
        if ending(self.app):  # (a Ctrl-C as it started: the lists were never made)
            return
        self.title = "fewest"
        self.sub_title = "choose a level"
        landing = self._select_path is None
        self.reload()
        if landing:
            self._land()
        self.query_one("#levels", DataTable).focus()

    # ----- building the lists -------------------------------------------
    def reload(self, select_path: str | None = None) -> None:
        """Re-read the catalog (recent files from disk) and redraw both lists."""
        self.shelves, errors = build_catalog(self.store)
        select_path = select_path or self._select_path
        self._select_path = None
        if select_path is not None:
            for i, shelf in enumerate(self.shelves):  # (a file by its path, a bundled pack by its source)
                if shelf.path == os.path.abspath(select_path) or (
                        not shelf.path and shelf.entries and shelf.entries[0].source == select_path):
                    self.shelf_index = i
        self.shelf_index = min(self.shelf_index, max(0, len(self.shelves) - 1))
        self._fill_tree()
        self._fill_table()
        if errors:
            self.say("\n".join(errors))

    def _land(self) -> None:
        """Start on the game left unfinished last, offered (enter or c); else on the first
        family's first shelf with an unsolved level, on that level."""
        left = unfinished(self.shelves, self.store)
        if left is not None:
            shelf, level = left
            entry = self.shelves[shelf].entries[level]
            self._offer = (shelf, f"Your unfinished game: {entry.display_title()} ({self.shelves[shelf].title})"
                                  " - enter or c continues it.")
            self.show_shelf(shelf, level)
            return
        packs = [s for s in self.shelves if not (s.is_file or s.daily)]
        order = families_in(packs)
        first = [i for i, s in enumerate(self.shelves) if order and s.family == order[0] and s in packs]
        for i in first:
            entries = self.shelves[i].entries
            if any(not self.store.level(e.key).solved for e in entries):
                self.show_shelf(i, next_unsolved(entries, self.store))
                return
        if first:
            self.show_shelf(first[0], 0)

    def _shelf_label(self, shelf: Shelf) -> Text:
        if shelf.error:
            return Text.assemble(("✗ " if not self.app.ascii_only else "x ", "bold red"), shelf.title)
        if shelf.daily and not shelf.entries:  # (not made yet: no count to show)
            return Text(_clip(shelf.title, self._tree_width() - LABEL_EXTRA), style="italic")
        done = sum(self.store.level(e.key).solved for e in shelf.entries)
        # The pane is narrow: a long title gives way so the count is never cut ("0/2" for 0/26).
        count = f"  {done}/{len(shelf.entries)}"
        title = _clip(shelf.title, self._tree_width() - LABEL_EXTRA - len(count))
        return Text.assemble(title, (count, "dim"))

    def _fill_tree(self) -> None:
        tree = self.query_one("#shelves", Tree)
        tree.clear()
        self._leaves = {}
        packs = [i for i, s in enumerate(self.shelves) if not (s.is_file or s.daily)]
        groups = [(family_title(family), [i for i in packs if self.shelves[i].family == family])
                  for family in families_in([self.shelves[i] for i in packs])]
        groups.append((DAILY_GROUP, [i for i, s in enumerate(self.shelves) if s.daily]))
        groups.append((GENERATED_GROUP, [i for i, s in enumerate(self.shelves) if s.generated]))
        groups.append(("Recent files", [i for i, s in enumerate(self.shelves) if s.is_file and not s.generated]))
        for label, members in groups:
            if not members:
                continue
            node = tree.root.add(Text(label, style="bold"), expand=True)
            for i in members:
                self._leaves[i] = node.add_leaf(self._shelf_label(self.shelves[i]), data=i)
        leaf = self._leaves.get(self.shelf_index)
        if leaf is not None:
            self.call_after_refresh(tree.move_cursor, leaf)

    def _relabel_tree(self) -> None:
        """New solved counts, same nodes: the tree's cursor stays where the player left it."""
        for i, leaf in self._leaves.items():
            leaf.set_label(self._shelf_label(self.shelves[i]))

    def _mark(self, entry: LevelEntry) -> Text:
        record = self.store.level(entry.key)
        ascii_only = self.app.ascii_only
        if record.solved and record.assisted:
            return Text("assisted", style="italic yellow")
        if record.solved:
            return Text("solved" if ascii_only else "✓ solved", style="bold green")
        if self.store.saved_game(entry.key) is not None:
            return Text("started", style="cyan")
        return Text("")

    def _fill_table(self, cursor: int | None = None) -> None:
        table = self.query_one("#levels", DataTable)
        table.clear(columns=True)
        searching = bool(self.query_text)
        self.set_class(searching, "-searching")
        par_label, best_label = self._count_labels(searching)
        title_width = self._title_width(searching) - (len(par_label) - 4) - (len(best_label) - 4)
        if title_width < MIN_TITLE:  # (no room to name the metric: the message line names pushes)
            par_label, best_label, title_width = "Par", "Best", self._title_width(searching)
        if searching:
            table.add_column("Pack", width=PACK_WIDTH)
        table.add_column("#", width=3)
        table.add_column("Title", width=title_width)
        table.add_column(par_label, width=len(par_label))
        table.add_column(best_label, width=len(best_label))
        table.add_column("", width=MARK_WIDTH)
        self._rows = []
        for s, shelf in enumerate(self.shelves):
            if not searching and s != self.shelf_index:
                continue
            for i, entry in enumerate(shelf.entries):
                if searching and self.query_text not in entry.display_title().lower():
                    continue
                record = self.store.level(entry.key)
                metric = chosen_metric(entry.family, self.store)
                par, best = par_of(entry, self.store, metric), record.best_by(metric)
                bound = None if par is not None else par_bound(entry, self.store, metric)  # (read only when no par)
                # (titles as Text: a string cell is read as markup, and "[/]" in one would crash)
                row = [str(entry.index), Text(_clip(entry.display_title(), title_width)),
                       str(par_text(par, bound, self.app.ascii_only)),
                       "-" if best is None else str(best), self._mark(entry)]
                if searching:
                    row.insert(0, Text(shelf.title[:PACK_WIDTH]))
                table.add_row(*row)
                self._rows.append((s, i))
        if cursor is not None and self._rows:
            table.move_cursor(row=min(cursor, len(self._rows) - 1))
        shelf = self.current_shelf
        if searching:
            self.say(f"{len(self._rows)} level(s) match {self.query_text!r}")
        elif shelf is not None and shelf.error:
            self.say(shelf.error)
        elif shelf is not None and shelf.daily and not shelf.entries:
            self.say(MAKE_DAILY_NOTE)
        elif shelf is not None and self._offer is not None and self._offer[0] == self.shelf_index:
            self.say(self._offer[1])
        elif shelf is not None:
            where = shelf.path or "bundled"
            line = f"{family_title(shelf.family)} · {shelf.title} · {len(shelf.entries)} levels · {where}"
            metric = chosen_metric(shelf.family, self.store)
            if metric != "moves":  # (M on a board chose it)
                line += f" · par and best in {metric}"
            self.say(line + _left_out_line(shelf))
        self.refresh_bindings()  # x (forget) is for files, not bundled packs: re-dim it

    def _count_labels(self, searching: bool) -> tuple[str, str]:
        """The Par and Best headers, with what they count where the shelf's family can count
        more than one thing (Sokoban: moves or pushes, as M chose)."""
        shelf = self.current_shelf
        if searching or shelf is None or shelf.family is None or len(api.metrics(shelf.family)) < 2:
            return "Par", "Best"
        unit = chosen_metric(shelf.family, self.store)
        return f"Par {unit}", f"Best {unit}"

    def _title_width(self, searching: bool) -> int:
        """What the screen leaves for titles once the tree and the other columns are placed."""
        fixed = TABLE_FIXED
        if searching:
            fixed += PACK_WIDTH + 2  # (a search hides the tree)
        elif not self._one_pane():
            fixed += self._tree_width()
        return max(TINY_TITLE, self.size.width - fixed)

    def _tree_width(self) -> int:
        width = self.size.width
        if self._one_pane():
            return width
        return WIDE_TREE_WIDTH if width >= WIDE_SCREEN else TREE_WIDTH if width >= NARROW_SCREEN else NARROW_TREE_WIDTH

    def _one_pane(self) -> bool:
        return self.size.width < ONE_PANE_SCREEN

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # (in one-pane mode the focused pane is the one shown)
        self.set_class(isinstance(event.widget, Tree), "-packs")

    def on_resize(self) -> None:
        if ending(self.app):
            return
        self.set_class(self._one_pane(), "-one-pane")
        self.query_one("#shelves", Tree).styles.width = "1fr" if self._one_pane() else self._tree_width()
        self._relabel_tree()
        if self.shelves:
            self._fill_table(cursor=self.query_one("#levels", DataTable).cursor_row)

    @property
    def current_shelf(self) -> Shelf | None:
        return self.shelves[self.shelf_index] if self.shelves else None

    def show_shelf(self, index: int, level: int = 0, move_tree: bool = True) -> None:
        """The shelf's levels in the table, the tree's cursor put on it unless `move_tree`
        is False (the cursor moved there itself, and may have gone on since)."""
        shelf = self.shelves[index]
        if shelf.error and shelf.path:  # a file that did not read may have been mended since
            fresh = load_file_shelf(shelf.path)
            if not fresh.error:  # (its label changes: the tree is built again)
                self.reload(select_path=shelf.path)
                return
        self.shelf_index = index
        self._fill_table(cursor=level)
        leaf = self._leaves.get(index)
        tree = self.query_one("#shelves", Tree)
        if move_tree and leaf is not None and tree.cursor_node is not leaf:
            self.call_after_refresh(tree.move_cursor, leaf)

    def say(self, text: str) -> None:
        self.query_one("#browser-message", Static).update(text)

    # ----- events -----------------------------------------------------------
    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        index = event.node.data
        if not event.control.has_focus:  # the cursor was placed by us, not moved by the player
            return
        if index is not None and index != self.shelf_index and not self.query_text:
            entries = self.shelves[index].entries
            # (not moving the tree back: keys pressed together have taken it further on)
            self.show_shelf(index, next_unsolved(entries, self.store) if entries else 0, move_tree=False)

    def on_tree_node_selected(self, event: Tree.NodeSelected) -> None:
        node = event.node
        if node.data is None and node.children:  # a family: go to its first pack
            node.expand()
            node = node.children[0]
            event.control.move_cursor(node)
            entries = self.shelves[node.data].entries
            self.show_shelf(node.data, next_unsolved(entries, self.store) if entries else 0)
        if node.data is not None:
            shelf = self.shelves[node.data]
            if shelf.error:  # (enter tries a file that did not read again)
                self.show_shelf(node.data)
            if shelf.daily and not shelf.entries:
                self.make_daily()
                return
            self.query_one("#levels", DataTable).focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if 0 <= event.cursor_row < len(self._rows):
            shelf, level = self._rows[event.cursor_row]
            self.open_level(shelf, level)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_text = event.value.strip().lower()
        self._fill_table(cursor=0)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#levels", DataTable).focus()

    def on_key(self, event: events.Key) -> None:
        # Down from the search field goes on to the matches, as Enter does.
        if event.key == "down" and isinstance(self.focused, Input):
            event.stop()
            self.query_one("#levels", DataTable).focus()

    def on_screen_resume(self) -> None:
        if ending(self.app):
            return
        table = self.query_one("#levels", DataTable)
        self._relabel_tree()
        self._fill_table(cursor=table.cursor_row)
        # The tree's cursor on the shelf shown: a tree first laid out under a board (`fewest
        # play`) had none, and a board's n/p may have gone on to another file.
        tree, leaf = self.query_one("#shelves", Tree), self._leaves.get(self.shelf_index)
        if leaf is not None and tree.cursor_node is not leaf:
            tree.move_cursor(leaf)

    # ----- actions ------------------------------------------------------------
    def open_level(self, shelf_index: int, level: int) -> None:
        from fewest.tui.app.boards.screen import BoardScreen

        shelf = self.shelves[shelf_index]
        if shelf.is_file:  # re-read from disk: the file may have changed or vanished
            chosen = shelf.entries[level] if level < len(shelf.entries) else None
            fresh = load_file_shelf(shelf.path or "")
            self.shelves[shelf_index] = fresh
            # The level chosen, by what it is: an edit may have moved it, or changed it.
            found = [i for i, entry in enumerate(fresh.entries) if chosen and entry.key == chosen.key]
            if fresh.error or not found:
                self._relabel_tree()
                self._fill_table(cursor=level)
                what = f"level {chosen.index} ({chosen.display_title()})" if chosen else "that level"
                self.say(fresh.error or f"{shelf.path} changed since it was listed: {what} is no longer "
                         "in it as it was. Here is the file as it is now.")
                return
            shelf, level = fresh, level if level in found else found[0]
        self.shelf_index = shelf_index
        self._offer = None  # (taken, or another level chosen)
        if self.query_text:  # come back to the shelf, not the search
            self.query_one("#search", Input).value = ""
        def came_back(last: int | None) -> None:
            if last is not None and self.shelf_index == shelf_index and not self.query_text:
                self._read_again(shelf_index)
                self._fill_table(cursor=last)

        self.app.push_screen(BoardScreen(shelf.entries, level, self.store, shelf.title), came_back)

    def select_level(self, entry_source: str, index: int) -> None:
        """Put the cursor on a level (after the board moved to another one)."""
        for s, shelf in enumerate(self.shelves):
            if shelf.entries and shelf.entries[0].source == entry_source:
                self.shelf_index = s
                self._read_again(s)
                self._fill_table(cursor=index)
                return

    def _read_again(self, index: int) -> None:
        """A file's shelf as the file is now (the board read it again on n and p, and an
        index it hands back counts the levels as they are now)."""
        shelf = self.shelves[index]
        if shelf.is_file and shelf.path:
            fresh = load_file_shelf(shelf.path)
            if not fresh.error:
                self.shelves[index] = fresh
                self._relabel_tree()

    def make_daily(self) -> None:
        """Make today's puzzles (the same everywhere today) in a thread, then show them."""
        self.say("Making today's puzzles (a few seconds)…")
        self.run_worker(self._make_daily, thread=True, exclusive=True, group="daily")

    def _make_daily(self) -> None:
        try:
            make_daily(self.store.data_dir, datetime.date.today(), Control())
            note = None
        except OSError as exc:
            note = f"Cannot keep today's puzzles: {exc}"
        self.app.call_from_thread(self._daily_made, note)

    def _daily_made(self, note: str | None) -> None:
        if note is not None:
            self.say(note)
            return
        self.reload()
        first = next((i for i, s in enumerate(self.shelves) if s.daily and s.entries), None)
        if first is not None:
            self.show_shelf(first, 0)
            self.query_one("#levels", DataTable).focus()

    def action_switch_pane(self) -> None:
        """Between the tree of packs and the level table (the search box is reached with /)."""
        tree = self.query_one("#shelves", Tree)
        target = self.query_one("#levels", DataTable) if self.focused is tree else tree
        if self.query_text:  # searching hides the tree
            target = self.query_one("#levels", DataTable)
        target.focus()

    def action_search(self) -> None:
        self.query_one("#search", Input).focus()

    def action_clear_search(self) -> None:
        search = self.query_one("#search", Input)
        if search.value:
            search.value = ""
        self.query_one("#levels", DataTable).focus()

    def action_continue(self) -> None:
        left = unfinished(self.shelves, self.store)
        if left is None:
            self.say("No unfinished game to continue: every level you started is solved.")
            return
        self.show_shelf(*left)
        self.open_level(*left)

    def action_open_file(self) -> None:
        def opened(path: str | None) -> None:
            if path:
                self.store.add_recent(path)
                self.reload(select_path=path)
                self.query_one("#levels", DataTable).focus()

        self.app.push_screen(OpenFileScreen(), opened)

    def on_paste(self, event: events.Paste) -> None:
        """Levels pasted from the clipboard (an XSB level off a web page, a contest input):
        kept as a file of their own under Recent files and opened there. The search box
        takes a paste as text instead (it handles the event before it reaches here)."""
        if isinstance(self.focused, Input):
            return
        event.stop()
        text = event.text.replace("\r\n", "\n").replace("\r", "\n")
        if not text.strip():
            return
        try:
            fmt = detect(text, PASTED_SOURCE)
            count = len(read_text_each(text, PASTED_SOURCE).entries)
        except LevelFormatError as exc:
            self.say(f"The pasted text is not a level: {exc}")
            return
        path = self.store.keep_pasted(text, fmt.extensions[0] if fmt.extensions else ".txt")
        if path is None:
            self.say("\n".join(self.store.messages[-1:]))
            return
        self.store.add_recent(path)
        self.reload(select_path=path)
        self.query_one("#levels", DataTable).focus()
        levels = "1 level" if count == 1 else f"{count} levels"
        shelf = self.current_shelf
        left_out = _left_out_line(shelf) if shelf is not None and shelf.path == path else ""
        self.say(f"Pasted {levels}, kept as {path} under Recent files (x forgets it).{left_out}")
        # (pasted to play it: opened, unless some of it did not read, which the message tells)
        if shelf is not None and shelf.path == path and shelf.entries and not shelf.left_out:
            self.app.notify(f"Pasted {levels}, kept under Recent files.", timeout=4, markup=False)
            self.open_level(self.shelf_index, 0)

    def action_forget_file(self) -> None:
        shelf = self.current_shelf
        if shelf is not None and shelf.path:
            self.store.remove_recent(shelf.path)
            self.shelf_index = 0
            self.reload()
            self.say(f"Removed {shelf.path} from the list (the file itself is untouched).")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "forget_file":
            shelf = self.current_shelf
            return True if shelf is not None and shelf.is_file and not shelf.generated else None
        return True


class OpenFileScreen(ModalScreen[str | None]):
    """Ask for a level file's path; refuse (with the loader's message) files that don't load."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="open-cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="open-card"):
            yield Static("Open a level file (any supported format)", id="open-title")
            yield Input(placeholder="path/to/levels.xsb", id="open-path")
            yield Static(id="open-error", markup=False)
            yield Static("enter opens it, esc cancels", id="open-keys")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        path = os.path.expanduser(event.value.strip())
        if not path:
            return
        shelf = load_file_shelf(path)
        if shelf.error:
            self.query_one("#open-error", Static).update(shelf.error)
            return
        self.dismiss(os.path.abspath(path))

    def action_cancel(self) -> None:
        self.dismiss(None)


def _left_out_line(shelf: Shelf) -> str:
    """A second message line for a file's levels that did not read: the first in full."""
    if not shelf.left_out:
        return ""
    count = len(shelf.left_out)
    line = f"\n{counted(count, 'level', 'levels')} left out, unreadable: {shelf.left_out[0]}"
    return line + (f"; {count - 1} more (`fewest check` lists them)" if count > 1 else "")


def _clip(text: str, width: int) -> str:
    """`text` cut to `width` characters, its last one an ellipsis when cut."""
    return text if len(text) <= width else text[: width - 1] + "…"

"""What the browser lists: bundled packs plus recently opened files (plain Python, no Textual).

A recent file is re-read from disk whenever the catalog is built, so edits show up
and a file that vanished or broke becomes a shelf carrying its error message
instead of taking the app down.
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass, replace

from fewest.engine.base import parse_plan
from fewest.engine.registry import rules_for
from fewest.levels.base import LevelEntry, LevelFormatError
from fewest.levels.bundled import FAMILY_ORDER, SOURCE_PREFIX, bundled_packs, is_bundled, pack_title
from fewest.levels.files import read_file_each
from fewest.solvers import api
from fewest.tui.services.generated import kept_series_paths, load_daily
from fewest.tui.services.progress import PASTED_PREFIX, ProgressStore

MAKE_DAILY = "Make today's puzzles"  # the Daily shelf's title before they are made


@dataclass(frozen=True)
class Shelf:
    """One pack in the browser: a bundled pack or a level file."""

    family: str | None  # None when a file failed to load
    title: str
    entries: tuple[LevelEntry, ...]
    path: str | None = None  # set for level files (recent list)
    error: str | None = None
    left_out: tuple[str, ...] = ()  # levels of the file that could not be read, and why
    daily: bool = False  # the day's puzzle of its family (family None, no entries: not made yet)
    generated: bool = False  # levels made "more like this" in the app, kept in the data directory

    @property
    def is_file(self) -> bool:
        return self.path is not None


def load_file_shelf(path: str) -> Shelf:
    """A file as a shelf; a broken file gives a shelf with `error` set and no entries, a
    file with some levels that do not read a shelf of the others (`left_out` says which)."""
    title = os.path.basename(path)
    try:
        collection = read_file_each(path)
    except LevelFormatError as exc:
        return Shelf(None, title, (), path=path, error=str(exc))
    entries = collection.entries
    left_out = tuple(f"level {u.index}: {_where(u.error)}" for u in collection.unreadable)
    return Shelf(entries[0].family, _file_title(path, entries), tuple(entries), path=path, left_out=left_out)


def _file_title(path: str, entries: list[LevelEntry]) -> str:
    """A file's name in the list: its pack title (a `Title:` line before any level), else
    for a pasted file its first level's title, else the file's name."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            title = pack_title(handle.read(), "")
    except OSError:
        title = ""
    if title:
        return title
    if os.path.basename(path).startswith(PASTED_PREFIX):
        more = f" +{len(entries) - 1}" if len(entries) > 1 else ""
        return f"Pasted: {entries[0].display_title()}{more}"
    return os.path.basename(path)


def _where(error: LevelFormatError) -> str:
    """The error without its file's name (the shelf already says which file)."""
    return str(LevelFormatError(error.message, None, error.line, error.column))


def bundled_shelves() -> tuple[list[Shelf], list[str]]:
    """Shelves of the bundled packs, and error lines when a pack cannot be read."""
    try:
        packs = bundled_packs()
    except LevelFormatError as exc:
        return [], [f"Bundled levels failed to load: {exc}"]
    return [Shelf(p.family, p.title, p.entries) for p in packs], []


def daily_shelves(data_dir: str, date: datetime.date) -> list[Shelf]:
    """The day's puzzles, one shelf per family, once made (`generated.make_daily`); until
    then one empty shelf that stands for them."""
    entries = load_daily(data_dir, date)
    if entries is None:
        return [Shelf(None, MAKE_DAILY, (), daily=True)]
    return [Shelf(entry.family, entry.family.capitalize(), (entry,), daily=True) for entry in entries]


def generated_shelves(data_dir: str) -> list[Shelf]:
    """The levels made "more like this", a shelf per recipe (`generated.keep_more`); a file
    that no longer reads is left out (the next level made like it writes it afresh)."""
    shelves = [load_file_shelf(path) for path in kept_series_paths(data_dir)]
    return [replace(shelf, generated=True) for shelf in shelves if not shelf.error]


def build_catalog(store: ProgressStore, today: datetime.date | None = None) -> tuple[list[Shelf], list[str]]:
    """Bundled shelves, the day's puzzles, the levels made "more like this", then recent
    files (newest first), and any load errors to show."""
    shelves, errors = bundled_shelves()
    shelves += daily_shelves(store.data_dir, today or datetime.date.today())
    shelves += generated_shelves(store.data_dir)
    for path in store.recent:
        shelf = load_file_shelf(path)
        if shelf.error or as_bundled(list(shelf.entries)) == list(shelf.entries):  # (not a bundled pack again)
            shelves.append(shelf)
    for shelf in shelves:
        store.adopt(shelf.entries)  # (progress kept by the levels' places, before)
    return shelves, errors


def as_bundled(entries: list[LevelEntry]) -> list[LevelEntry]:
    """A bundled pack opened by its path (or a copy of it) is the bundled pack: its levels
    as the browser lists them; other levels as they are."""
    keys = [entry.key for entry in entries]
    try:
        packs = bundled_packs()
    except LevelFormatError:
        return entries
    for pack in packs:
        if [entry.key for entry in pack.entries] == keys:
            return list(pack.entries)
    return entries


def pack_title_of(entry: LevelEntry) -> str | None:
    """The title of the bundled pack `entry` comes from (None: not a bundled level)."""
    for pack in bundled_packs() if entry.source.startswith(SOURCE_PREFIX) else ():
        if pack.entries and pack.entries[0].source == entry.source:
            return pack.title
    return None


def families_in(shelves: list[Shelf]) -> list[str]:
    """Families that have shelves, in the rule book's order."""
    present = {s.family for s in shelves if s.family}
    return [f for f in FAMILY_ORDER if f in present] + sorted(present - set(FAMILY_ORDER))


def next_unsolved(entries: tuple[LevelEntry, ...] | list[LevelEntry], store: ProgressStore,
                  after: int = -1) -> int:
    """Index of the first unsolved level after `after` (wrapping); 0 when all are solved."""
    count = len(entries)
    for step in range(1, count + 1):
        index = (after + step) % count
        if not store.level(entries[index].key).solved:
            return index
    return 0


def unfinished(shelves: list[Shelf], store: ProgressStore) -> tuple[int, int] | None:
    """(shelf, level) of the game the player left last unfinished, if any."""
    places: dict[str, tuple[int, int]] = {}
    for s, shelf in enumerate(shelves):
        for i, entry in enumerate(shelf.entries):
            places.setdefault(entry.key, (s, i))
    key = store.last_saved(places)
    return None if key is None else places[key]


def chosen_metric(family: str, store: ProgressStore) -> str:
    """What hints, solve, par and best go by for a level of `family`: the player's choice
    (M on a board) where the family has it, else the moves."""
    chosen = store.setting("metric", "moves")  # (settings.json is the user's: any value)
    return chosen if isinstance(chosen, str) and chosen in api.metrics(family) else "moves"


def par_of(entry: LevelEntry, store: ProgressStore, metric: str = "moves") -> int | None:
    """The level's optimal count by `metric`: as the solver proved it in play where it has
    (a file's par can be wrong), else as its file says (`Par`, `Push-par`)."""
    learned = store.level(entry.key).par_by(metric)
    return learned if learned is not None else file_par(entry, metric)


def par_bound(entry: LevelEntry, store: ProgressStore, metric: str = "moves") -> int | None:
    """The fewest by `metric` of the solutions known, which the par cannot exceed: the
    shortest plan a search found and kept, the player's best, a solution saved in a bundled
    pack (checked by its tests; a user's file's are not, and are left out). None: none known."""
    record = store.level(entry.key)
    known = [count for count in (record.found_by(metric), record.best_by(metric), _saved_count(entry, metric))
             if count is not None]
    return min(known) if known else None


_SAVED_COUNTS: dict[tuple[str, str], int | None] = {}  # (level key, metric) -> _saved_count's answer


def _saved_count(entry: LevelEntry, metric: str) -> int | None:
    """The fewest by `metric` of the solutions a bundled pack saves with the level (counted
    once per level: the chooser shows a row per level, the status line redraws each tick)."""
    if not entry.solutions or not is_bundled(entry):
        return None
    key = (entry.key, metric)
    if key not in _SAVED_COUNTS:
        rules = rules_for(entry.family)
        counts = []
        for text in entry.solutions:
            try:
                tally = rules.tally(parse_plan(rules, text))
            except ValueError:  # (not moves: the hint passes it over too)
                continue
            counts.append(tally.pushes if metric == "pushes" else tally.moves)
        _SAVED_COUNTS[key] = min(counts, default=None)
    return _SAVED_COUNTS[key]


def file_par(entry: LevelEntry, metric: str = "moves") -> int | None:
    """The par the level's file states, counted by `metric`."""
    return entry.push_par if metric == "pushes" else entry.par


def reread(entries: list[LevelEntry], index: int) -> tuple[list[LevelEntry], int]:
    """Levels read from one file on disk, as the file is now (its author may have edited it
    since it was opened), and where level `index` is among them (by its key, else the
    nearest place); the list as it was if it is not one file's, or the file no longer reads."""
    source = entries[index].source
    if not (all(entry.source == source for entry in entries) and os.path.isfile(source)):
        return entries, index
    try:
        fresh = list(read_file_each(source).entries)
    except LevelFormatError:
        return entries, index
    if not fresh:
        return entries, index
    keys = [entry.key for entry in fresh]
    key = entries[index].key
    return fresh, keys.index(key) if key in keys else min(index, len(fresh) - 1)

"""The player's progress on disk: plain Python, no Textual (the app calls it, tests drive it).

Four small JSON files under the data directory, so damage to one never costs the others:

    progress.json  {"levels": {key (the level's fingerprint, LevelEntry.key): {"solved", "assisted", "best_moves", "best_pushes", "par", "best_plan", "par_plan",
                                     "push_par", "push_par_plan", "push_best", "push_best_moves", "push_best_plan"}}}
    games.json     {"games": {key: {"record": Game.to_record(), "seconds": s, "hints": n, "plan": text, "push_plan": text,
                                    "when": epoch seconds of the save}}}
    recent.json    {"files": [path, ...]}            (newest first)
    settings.json  {"settings": {"theme": ...}}

Levels pasted into the app are kept as files of their own in `pasted/` (named by a
digest of the text, so pasting the same levels twice keeps one file), then opened
like any other file.

Every write is atomic (temp file, fsync, os.replace, the folder synced), and merges: the file is read again
first and only what this store changed is put into it, so two instances of the app on one
data directory keep each other's solves, games and recent files (under a lock file, where
the system has flock). A file that does not parse is
renamed `<name>.corrupt-<timestamp>` and the store starts that part afresh; what happened
is queued in `messages` for the app to show. Disk errors are reported, never raised.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import tempfile
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Iterator, Sequence

RECENT_LIMIT = 20
LOCK_FILE = ".lock"
STALE_TEMP_SECONDS = 60
PASTED_DIR = "pasted"
PASTED_PREFIX = "pasted-"  # (the browser names such files by their first level)
DATA_DIR_ENV = "FEWEST_DATA_DIR"

_CONTENT_KEY = re.compile(r"#lv[0-9a-f]{16}$")  # a key of before: the level's source, then its fingerprint

# file stem -> the one top-level key its JSON object holds
_FILES = {"progress": "levels", "games": "games", "recent": "files", "settings": "settings"}


def default_data_dir() -> str:
    """$FEWEST_DATA_DIR when set (tests isolate with it), else the platform's user data dir."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return env
    import platformdirs

    return platformdirs.user_data_dir("fewest")


# a metric -> the LevelRecord fields of its best: its count, the other count, the plan's text
_BESTS = {
    "moves": ("best_moves", "best_pushes", "best_plan"),
    "pushes": ("push_best", "push_best_moves", "push_best_plan"),
}
# the same for the shortest plan from the start a search found, not proven shortest
_FOUND = {
    "moves": ("found_moves", "found_pushes", "found_plan"),
    "pushes": ("push_found", "push_found_moves", "push_found_plan"),
}


@dataclass
class LevelRecord:
    """What the browser shows for one level. `best_*` count only solves without help.
    Each count by a metric has its twin by the other (Sokoban): the moves' ones first, then
    those of the fewest pushes (ties: moves), which are other solves and other plans."""

    solved: bool = False
    assisted: bool = False  # solved, but only ever with hints / solve
    best_moves: int | None = None
    best_pushes: int | None = None
    par: int | None = None  # proven optimal length learned while playing
    best_plan: str | None = None  # the moves of that best solve, as a plan's text
    par_plan: str | None = None  # a plan of `par` moves from the start the solver proved, as text
    push_par: int | None = None  # the fewest pushes, proven while playing
    push_par_plan: str | None = None  # a plan of them, its moves proven fewest for them too
    push_best: int | None = None  # the fewest pushes of a solve without help
    push_best_moves: int | None = None  # its moves (the fewest of such solves)
    push_best_plan: str | None = None
    # The shortest plan from the start a hint's or solve's search found where it proved none
    # shortest, by each metric (its count, the other count, its text): the level met again
    # answers a hint with it at once and searches on from it, not from nothing (a plan found
    # after minutes on a big level is not lost with the app), and its count bounds the par.
    found_moves: int | None = None
    found_pushes: int | None = None
    found_plan: str | None = None
    push_found: int | None = None
    push_found_moves: int | None = None
    push_found_plan: str | None = None

    def offer_best(self, metric: str, count: int, then: int, plan: str | None) -> bool:
        """Keep a solve without help as the best by `metric` if it is better (`count` by the
        metric, ties broken by `then`, the other count); True if kept. One as good as the
        best, kept without its plan (recorded before plans were), gives it its plan."""
        return self._offer(_BESTS[metric], count, then, plan)

    def offer_found(self, metric: str, count: int, then: int, plan: str) -> bool:
        """Keep a plan from the start a search found (not proven shortest) if it is shorter
        by `metric` than the one kept (`count`, ties broken by `then`); True if kept."""
        return self._offer(_FOUND[metric], count, then, plan)

    def found_by(self, metric: str) -> int | None:
        """The count by `metric` of the shortest plan a search found (see above)."""
        return getattr(self, _FOUND[metric][0])

    def _offer(self, names: tuple[str, str, str], count: int, then: int, plan: str | None) -> bool:
        best = (getattr(self, names[0]), getattr(self, names[1]) or 0)
        if best[0] is None or (count, then) < best:
            for name, value in zip(names, (count, then, plan)):
                setattr(self, name, value)
            return True
        if plan is not None and getattr(self, names[2]) is None and (count, then) == best:
            setattr(self, names[2], plan)
        return False

    def par_by(self, metric: str) -> int | None:
        """The proven par counted by `metric` ("moves" or "pushes")."""
        return self.push_par if metric == "pushes" else self.par

    def best_by(self, metric: str) -> int | None:
        """The player's best count by `metric`."""
        if metric != "pushes":
            return self.best_moves
        return self.best_pushes if self._kept_before_push_bests() else self.push_best

    def best_plan_by(self, metric: str) -> str | None:
        """The moves of the player's best solve by `metric`."""
        if metric != "pushes":
            return self.best_plan
        return self.best_plan if self._kept_before_push_bests() else self.push_best_plan

    @classmethod
    def from_json(cls, data: Any) -> "LevelRecord | None":
        """None for anything malformed (one bad record must not cost the rest)."""
        if not isinstance(data, dict):
            return None
        record = cls()
        for name, kind in (("solved", bool), ("assisted", bool)):
            value = data.get(name, False)
            if not isinstance(value, bool):
                return None
            setattr(record, name, value)
        counts = ("best_moves", "best_pushes", "par", "push_par", "push_best", "push_best_moves",
                  "found_moves", "found_pushes", "push_found", "push_found_moves")
        for name in counts:
            value = data.get(name)
            if value is not None and (type(value) is not int or value < 0):
                return None
            setattr(record, name, value)
        for name in ("best_plan", "par_plan", "push_par_plan", "push_best_plan"):  # (the counts stand without them)
            plan = data.get(name)
            setattr(record, name, plan if isinstance(plan, str) else None)
        for count, then, name in _FOUND.values():  # (a found plan is its text: no text, no count)
            if not isinstance(data.get(name), str) or getattr(record, count) is None:
                for field_name in (count, then, name):
                    setattr(record, field_name, None)
            else:
                setattr(record, name, data[name])
        return record

    def _kept_before_push_bests(self) -> bool:
        """A Sokoban best by moves kept before bests by pushes were, with none by pushes
        since: that solve is the best by pushes known too. (Other families count no
        pushes, and keep no best by them.)"""
        return self.push_best is None and self.best_pushes is not None


@dataclass(frozen=True)
class SavedGame:
    """An unfinished game: the mid-end's record plus the clock and hint count shown with it."""

    record: dict
    seconds: float = 0.0
    hints: int = 0
    plan: str | None = None  # a shortest plan on from where it stands, proven by the solver (text)
    push_plan: str | None = None  # one of the fewest pushes (then moves) from there, proven too
    when: float = 0.0  # when it was saved (time.time(); 0: before saves said): the newest is "continue"

    def plan_by(self, metric: str) -> str | None:
        """The plan kept by `metric` ("moves" or "pushes")."""
        return self.push_plan if metric == "pushes" else self.plan


class ProgressStore:
    def __init__(self, data_dir: str | None = None) -> None:
        self.data_dir = data_dir or default_data_dir()
        self.messages: list[str] = []  # problems the app should show once
        self._data: dict[str, dict] = {stem: self._load(stem) for stem in _FILES}
        # what this store changed since it last wrote each file (what a write merges in)
        self._touched: dict[str, set] = {stem: set() for stem in _FILES}
        self._dropped: dict[str, set] = {stem: set() for stem in _FILES}
        self._sweep_temp_files()
        self._key_by_content()
        self.levels: dict[str, LevelRecord] = {}
        unread = self._read_levels()
        if unread:  # (left in the file as they are: a later version may read them)
            self.messages.append(f"{self.path('progress')}: {unread} level record(s) unreadable: "
                                 f"ignored, and left in the file as they are.")

    def _sweep_temp_files(self) -> None:
        """Remove the temp files of writes a killed process left (a minute old: another
        instance's write in progress is not touched)."""
        try:
            names = os.listdir(self.data_dir)
        except OSError:
            return
        for name in names:
            if name.startswith(".") and name.endswith(".tmp") and name[1:].split(".json.")[0] in _FILES:
                path = os.path.join(self.data_dir, name)
                try:
                    if time.time() - os.path.getmtime(path) > STALE_TEMP_SECONDS:
                        os.unlink(path)
                except OSError:
                    pass

    def _read_levels(self) -> int:
        """`levels` from the progress file's data; how many of its records did not read."""
        self.levels = {}
        for key, raw in self._data["progress"].items():
            record = LevelRecord.from_json(raw)
            if record is not None and isinstance(key, str):
                self.levels[key] = record
        return len(self._data["progress"]) - len(self.levels)

    # ----- levels -------------------------------------------------------
    def _key_by_content(self) -> None:
        """Records and games kept under `<source>#<fingerprint>` (before levels were keyed
        by what they are alone) move to `<fingerprint>`, once: one level found in two files
        merges its records (solved in either, the better bests) and keeps the newer game."""
        for stem in ("progress", "games"):
            table = self._data[stem]
            for old in [k for k in table if isinstance(k, str) and _CONTENT_KEY.search(k)]:
                new = old.rsplit("#", 1)[1]
                if new not in table:
                    table[new] = table[old]
                elif stem == "progress" and isinstance(table[old], dict):
                    table[new] = _merged_levels(table[old], table[new])
                elif _saved_when(table[old]) > _saved_when(table[new]):
                    table[new] = table[old]
                del table[old]
                self._changed(stem, new)
                self._changed(stem, old, dropped=True)
            if self._dropped[stem]:
                self._write(stem)

    def adopt(self, entries: Sequence[Any]) -> None:
        """Move what is kept under the ids progress used before (a level's place in its
        file, `legacy_key`) to the levels' own ids (`key`), once, before they are shown."""
        moving = {entry.legacy_key: entry.key for entry in entries}
        for stem in ("progress", "games"):
            table = self._data[stem]
            found = [old for old in moving if old in table]
            for old in found:
                if moving[old] not in table:
                    table[moving[old]] = table[old]
                    self._changed(stem, moving[old])
                del table[old]
                self._changed(stem, old, dropped=True)
            if found:
                self._write(stem)
                if stem == "progress":
                    self._read_levels()

    def level(self, key: str) -> LevelRecord:
        return self.levels.get(key) or LevelRecord()

    def record_solve(self, key: str, moves: int, pushes: int | None, assisted: bool, plan: str | None = None,
                     metric: str = "moves") -> bool:
        """Note a finished level; True when it is a new personal best by `metric`
        (unassisted only); the best by the other metric is kept too, where the family
        counts pushes (`pushes` not None). `plan` (the moves' text) is kept with each best,
        and with a solve that equals a best kept without one (recorded before plans were)."""
        record = self.levels.setdefault(key, LevelRecord())
        first_own = not record.solved or record.assisted
        record.solved = True
        improved: set[str] = set()  # (the metrics whose best it is)
        if assisted:
            record.assisted = record.assisted or first_own
        else:
            record.assisted = False
            if pushes is not None and record._kept_before_push_bests():
                record.offer_best("pushes", record.best_pushes, record.best_moves, record.best_plan)
            offers = [("moves", (moves, pushes or 0))] + ([("pushes", (pushes, moves))] if pushes is not None else [])
            improved = {name for name, counts in offers if record.offer_best(name, *counts, plan)}
        self._save_level(key)
        return metric in improved

    def remember_par(self, key: str, par: int, plan: str | None = None, metric: str = "moves") -> None:
        """Keep a par the solver proved, counted by `metric`, with the plan it found (its
        text; under pushes, one whose moves are proven fewest too), so that the level met
        again needs no search for a hint or solve from its start."""
        record = self.levels.setdefault(key, LevelRecord())
        names = ("push_par", "push_par_plan") if metric == "pushes" else ("par", "par_plan")
        known, known_plan = (getattr(record, name) for name in names)
        if known != par:
            setattr(record, names[0], par)
            setattr(record, names[1], plan)
        elif plan is not None and known_plan is None:
            setattr(record, names[1], plan)
        else:
            return
        self._save_level(key)

    def remember_found(self, key: str, metric: str, count: int, then: int, plan: str) -> bool:
        """Keep a plan from the start that a search found (not proven shortest), counted
        `count` by `metric` and `then` by the other, if it is shorter than the one kept (its
        text `plan`); True if kept."""
        record = self.levels.setdefault(key, LevelRecord())
        if not record.offer_found(metric, count, then, plan):
            return False
        self._save_level(key)
        return True

    def _save_level(self, key: str) -> None:
        self._data["progress"][key] = asdict(self.levels[key])
        self._changed("progress", key)
        self._write("progress")
        self._read_levels()  # (with what another instance wrote meanwhile)

    # ----- unfinished games ---------------------------------------------
    def saved_game(self, key: str) -> SavedGame | None:
        raw = self._data["games"].get(key)
        if not isinstance(raw, dict) or not isinstance(raw.get("record"), dict):
            return None
        seconds, hints = raw.get("seconds", 0.0), raw.get("hints", 0)
        plans = [plan if isinstance(plan, str) else None for plan in (raw.get("plan"), raw.get("push_plan"))]
        clock_ok = isinstance(seconds, (int, float)) and 0 <= seconds < 1e9  # (not NaN, inf or 1e400)
        when = raw.get("when", 0.0)
        return SavedGame(
            raw["record"],
            float(seconds) if clock_ok else 0.0,
            hints if type(hints) is int and hints >= 0 else 0,
            *plans,
            float(when) if isinstance(when, (int, float)) and 0 <= when < 1e12 else 0.0,
        )

    def last_saved(self, keys: Iterable[str]) -> str | None:
        """Of the levels `keys`, the one whose unfinished game was saved last (None: none;
        ties, as games saved before saves were dated: the first)."""
        newest, found = -1.0, None
        for key in keys:
            saved = self.saved_game(key)
            if saved is not None and saved.when > newest:
                newest, found = saved.when, key
        return found

    def save_game(self, key: str, game: SavedGame) -> None:
        self._data["games"][key] = asdict(game)
        self._changed("games", key)
        self._write("games")

    def drop_game(self, key: str, finished: bool = False) -> None:
        """Forget the unfinished game of `key`: this store's, or, when the level was just
        `finished`, one another instance of the app may have saved meanwhile too."""
        if self._data["games"].pop(key, None) is not None or finished:
            self._changed("games", key, dropped=True)
            self._write("games")

    # ----- recent files -------------------------------------------------
    @property
    def recent(self) -> list[str]:
        files = self._data["recent"].get("list", [])
        return [f for f in files if isinstance(f, str)] if isinstance(files, list) else []

    def add_recent(self, path: str) -> None:
        path = os.path.abspath(path)
        files = [path] + [f for f in self.recent if f != path]
        self._data["recent"]["list"] = files[:RECENT_LIMIT]
        self._changed("recent", path)
        self._write("recent")

    def remove_recent(self, path: str) -> None:
        self._data["recent"]["list"] = [f for f in self.recent if f != path]
        self._changed("recent", path, dropped=True)
        self._write("recent")

    def keep_pasted(self, text: str, extension: str) -> str | None:
        """Pasted levels saved as `pasted/pasted-<digest><extension>`: the path, or None
        when the disk refused (the reason is queued in `messages`)."""
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
        folder = os.path.join(self.data_dir, PASTED_DIR)
        path = os.path.join(folder, f"{PASTED_PREFIX}{digest}{extension}")
        try:
            _write_atomically(folder, path, text)
        except OSError as exc:
            self.messages.append(f"Cannot save {path}: {exc.strerror or exc}")
            return None
        return path

    # ----- settings -----------------------------------------------------
    def setting(self, name: str, default: Any = None) -> Any:
        return self._data["settings"].get(name, default)

    def set_setting(self, name: str, value: Any) -> None:
        self._data["settings"][name] = value
        self._changed("settings", name)
        self._write("settings")

    # ----- disk ---------------------------------------------------------
    def path(self, stem: str) -> str:
        return os.path.join(self.data_dir, stem + ".json")

    def _load(self, stem: str) -> dict:
        """The file's inner object; {} when missing; a damaged file is moved aside."""
        path = self.path(stem)
        try:
            return self._read(stem)
        except FileNotFoundError:
            return {}  # nothing saved yet (a bad data dir is reported when we first write)
        except OSError as exc:
            self.messages.append(f"Cannot read {path}: {exc.strerror or exc}")
            return {}
        except ValueError as exc:
            self._move_aside(path, str(exc))
            return {}

    def _read(self, stem: str) -> dict:
        """The file's inner object as on disk now; FileNotFoundError when there is none
        (or no data dir), ValueError saying why when it is damaged, OSError otherwise."""
        try:
            with open(self.path(stem), encoding="utf-8") as handle:
                data = json.load(handle)
        except NotADirectoryError:
            raise FileNotFoundError(self.path(stem)) from None
        except (ValueError, RecursionError) as exc:  # JSONDecodeError and bad UTF-8 alike
            raise ValueError(f"it is not valid JSON ({exc})") from None
        inner = data.get(_FILES[stem]) if isinstance(data, dict) else None
        if stem == "recent":  # {"files": [...]} is kept as {"list": [...]} in memory
            inner = {"list": inner} if isinstance(inner, list) else None
        if not isinstance(inner, dict):
            raise ValueError("it does not have the expected layout")
        return inner

    def _move_aside(self, path: str, why: str) -> None:
        aside = f"{path}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}"
        try:
            os.replace(path, aside)
            self.messages.append(f"{os.path.basename(path)} was unreadable: {why}. "
                                 f"Moved it to {aside} and started afresh.")
        except OSError as exc:
            self.messages.append(f"{path} is unreadable ({why}) and could not be moved: {exc}")

    def _write(self, stem: str) -> None:
        path = self.path(stem)
        try:
            with _locked(self.data_dir):
                self._merge(stem)
                inner: Any = self._data[stem]
                if stem == "recent":
                    inner = inner.get("list", [])
                payload = json.dumps({_FILES[stem]: inner, "version": 1}, indent=1, sort_keys=True)
                _write_atomically(self.data_dir, path, payload)
        except OSError as exc:
            message = f"Cannot save {path}: {exc.strerror or exc}"
            if message not in self.messages:
                self.messages.append(message)
            return
        self._touched[stem].clear()
        self._dropped[stem].clear()

    def _changed(self, stem: str, key: str, dropped: bool = False) -> None:
        """Note that this store set (or, `dropped`, removed) `key` of the file: what its next
        write puts into the file as it is then."""
        (self._dropped if dropped else self._touched)[stem].add(key)
        (self._touched if dropped else self._dropped)[stem].discard(key)

    def _merge(self, stem: str) -> None:
        """Take the file as it is on disk now, with this store's changes put in: another
        instance's writes since this one read it are kept (a damaged file is overwritten)."""
        try:
            disk = self._read(stem)
        except (OSError, ValueError):
            return
        mine, touched, dropped = self._data[stem], self._touched[stem], self._dropped[stem]
        if stem == "recent":
            ours = [f for f in mine.get("list", []) if f in touched]
            theirs = [f for f in disk.get("list", []) if isinstance(f, str) and f not in touched | dropped]
            self._data[stem] = {"list": (ours + theirs)[:RECENT_LIMIT]}
            return
        merged = {key: value for key, value in disk.items() if key not in dropped}
        for key in touched & mine.keys():
            merged[key] = _merged_levels(disk.get(key), mine[key]) if stem == "progress" else mine[key]
        self._data[stem] = merged


def _saved_when(raw: Any) -> float:
    """When a saved game (as kept in the file) was saved: 0 if it does not say."""
    when = raw.get("when", 0.0) if isinstance(raw, dict) else 0.0
    return float(when) if isinstance(when, (int, float)) else 0.0


def _merged_levels(theirs: Any, mine: dict) -> dict:
    """One level's record as two instances left it: solved in either, assisted only where
    neither solved it unaided, the better best by each metric (with its plan), the shorter
    plan a search found by each, the par this one proved by each (with its plan, or the
    other's plan for the same par)."""
    other = LevelRecord.from_json(theirs)
    if other is None:
        return mine
    record = LevelRecord.from_json(mine) or LevelRecord()
    unaided = (record.solved and not record.assisted) or (other.solved and not other.assisted)
    record.solved = record.solved or other.solved
    record.assisted = record.solved and not unaided
    for metric, (count, then, plan) in _BESTS.items():
        if getattr(other, count) is not None:
            record.offer_best(metric, getattr(other, count), getattr(other, then) or 0, getattr(other, plan))
    for metric, (count, then, plan) in _FOUND.items():
        if getattr(other, count) is not None:
            record.offer_found(metric, getattr(other, count), getattr(other, then) or 0, getattr(other, plan))
    for par, plan in (("par", "par_plan"), ("push_par", "push_par_plan")):
        if getattr(record, par) is None:
            setattr(record, par, getattr(other, par))
            setattr(record, plan, getattr(other, plan))
        elif getattr(record, plan) is None and getattr(other, par) == getattr(record, par):
            setattr(record, plan, getattr(other, plan))
    return asdict(record)


@contextmanager
def _locked(folder: str) -> Iterator[None]:
    """Held while a file is read, merged and replaced, so that two instances do not
    interleave (flock on a lock file, where the system has it; else nothing)."""
    try:
        import fcntl
    except ImportError:  # (Windows: the merge alone, with its short window)
        yield
        return
    _make_folder(folder)
    with open(os.path.join(folder, LOCK_FILE), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _make_folder(folder: str) -> None:
    if os.path.exists(folder) and not os.path.isdir(folder):  # (makedirs would say "File exists")
        raise NotADirectoryError(errno.ENOTDIR, f"{folder} is a file, not a folder")
    os.makedirs(folder, exist_ok=True)


def _write_atomically(folder: str, path: str, text: str) -> None:
    """`text` to `path` in `folder` (made if missing) through a synced temp file and a
    rename: a crash leaves the old file or the new one, never half of one."""
    _make_folder(folder)
    fd, temp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise
    _sync_folder(folder)


def _sync_folder(folder: str) -> None:
    """Make the rename itself durable: a power cut right after it keeps the new file, not
    the old one (POSIX; where a folder cannot be opened, as on Windows, the rename stands)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # (a file system that does not sync folders)
        pass
    finally:
        os.close(fd)

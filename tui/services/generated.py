"""Generated levels as the app and the command line use them: a recipe (family, difficulty
or par, board size, seed, number) that always makes the same level, the level entry it
makes (its proven par, the recipe kept in its `Generated:` header so "more like this" can
make the next one), and the day's puzzles (one per family, seeded by the date)."""

from __future__ import annotations

import datetime
import os
import re
from dataclasses import dataclass, replace

from fewest.levels.base import LevelEntry, LevelFormatError
from fewest.engine.base import format_plan
from fewest.engine.registry import rules_for
from fewest.levels.files import read_file, write_entries
from fewest.levels.sokoban_xsb import write_xsb
from fewest.solvers import api
from fewest.solvers.common.control import Budget, Control
from fewest.solvers.generate import FAMILIES, generate
from fewest.solvers.generate.proof import PROOF_SECONDS
from fewest.solvers.generate.seeding import daily_seed, rng_for
from fewest.solvers.generate.targets import Target, target_for
from fewest.tui.services.progress import _write_atomically as write_atomically  # (its crash-safe write)

GENERATED_KEY = "Generated"  # the header that keeps a level's recipe
DAILY_DIFFICULTY = "medium"
DAILY_DIR = "daily"  # in the data directory: the day's puzzles, made on first open
MORE_DIR = "generated"  # in the data directory: levels made by "more like this", a file per recipe
_RECIPE = re.compile(r"^(\w+) (easy|medium|hard|expert|par \d+)(?: size (\d+)x(\d+))? seed (\S+) #(\d+)$")


@dataclass(frozen=True)
class Recipe:
    """Everything that decides a generated level: the same recipe, the same level."""

    family: str
    difficulty: str = "medium"
    par: int | None = None  # an exact par instead of the difficulty's range
    size: tuple[int, int] | None = None  # None: the difficulty's board
    seed: str = "1"
    number: int = 1  # the level's place in its run (1-based)

    def target(self) -> Target:
        """ValueError when the options do not make a target (see targets.target_for)."""
        return target_for(self.family, self.difficulty, self.par, self.size)

    def text(self) -> str:
        """One line, read back by `parse_recipe` (`traffic hard seed 7 #2`)."""
        how = self.difficulty if self.par is None else f"par {self.par}"
        size = "" if self.size is None else f" size {self.size[0]}x{self.size[1]}"
        return f"{self.family} {how}{size} seed {self.seed} #{self.number}"

    def title(self) -> str:
        how = self.difficulty if self.par is None else f"par {self.par}"
        return f"{self.family.capitalize()} {how} #{self.number} (seed {self.seed})"

    def series(self) -> str:
        """The recipe but its number: what the levels of one run share (`traffic hard seed 7`)."""
        return self.text().rsplit(" #", 1)[0]

    def pack_title(self) -> str:
        """The title of a file of the series' levels (`fewest generate`'s, the app's kept ones)."""
        return f"Generated {self.series()}"

    def following(self) -> Recipe:
        """The recipe of the next level with the same settings ("more like this")."""
        return replace(self, number=self.number + 1)


def parse_recipe(text: str) -> Recipe | None:
    """The recipe a `Generated:` header holds; None when it holds none."""
    match = _RECIPE.match(text.strip())
    if match is None or match.group(1) not in FAMILIES:
        return None
    family, how, rows, cols, seed, number = match.groups()
    par = int(how.split()[1]) if how.startswith("par") else None
    size = (int(rows), int(cols)) if rows else None
    return Recipe(family, "medium" if par is not None else how, par, size, seed, int(number))


def recipe_of(entry: LevelEntry) -> Recipe | None:
    """The recipe of a generated level (None for any other level)."""
    text = entry.metadata.get(GENERATED_KEY)
    return None if text is None else parse_recipe(text)


def generated_entry(recipe: Recipe, control: Control, source: str = "<generated>") -> LevelEntry:
    """The recipe's level with its proven par (Stopped when `control` ends first)."""
    target = recipe.target()
    how = recipe.difficulty if recipe.par is None else f"par {recipe.par}"
    rng = rng_for(recipe.seed, recipe.family, how, recipe.size, recipe.number)
    proven = generate(recipe.family, target, rng, control)
    entry = LevelEntry(
        family=recipe.family, level=proven.level, title=recipe.title(), index=recipe.number,
        par=proven.par, source=source, format="pack", metadata={GENERATED_KEY: recipe.text()},
    )
    return _with_pushes(entry, proven.moves, control) if recipe.family == "sokoban" else entry


def _with_pushes(entry: LevelEntry, moves: tuple, control: Control) -> LevelEntry:
    """A Sokoban level with its proven plan saved under it, and its fewest pushes (its
    push par) where their proof ends within the proof's budget."""
    rules = rules_for("sokoban")
    left = control.budget.seconds
    seconds = PROOF_SECONDS if left is None else max(0.1, min(PROOF_SECONDS, left - control.seconds))
    by_pushes = api.solve("sokoban", entry.level, metric="pushes", budget=Budget(seconds=seconds),
                          should_stop=control.should_stop)
    push_par = sum(move.push for move in by_pushes.moves) if by_pushes.optimal else None
    return replace(entry, push_par=push_par, format="xsb", solutions=(format_plan(rules, moves),))


def pack_text(entries: list[LevelEntry], title: str) -> str:
    """The levels in their family's native file (XSB for Sokoban, else a `.fewest` pack)
    under a pack title."""
    if entries[0].family == "sokoban":
        return write_xsb(entries, title)
    return write_entries(entries).replace("\n", f"\nTitle: {title}\n", 1)  # (after its Family line)


def daily_recipes(date: datetime.date) -> list[Recipe]:
    """The day's puzzles: one per family, the same on every machine."""
    return [Recipe(family, DAILY_DIFFICULTY, seed=daily_seed(date)) for family in FAMILIES]


def share_line(date: datetime.date, family: str, moves: int, par: int | None) -> str:
    """What a solved daily puzzle shares: the count and the par, never the moves."""
    against = "" if par is None else f" (par {par})"
    return f"fewest daily {date.isoformat()} {family}: {moves} moves{against}"


def daily_share(entry: LevelEntry, moves: int, par: int | None) -> str | None:
    """The share line of a solved daily puzzle; None for any other level."""
    date = daily_date(entry)
    return None if date is None else share_line(date, entry.family, moves, par)


def next_recipe(entry: LevelEntry, entries: list[LevelEntry]) -> Recipe | None:
    """"More like this": the recipe after the last of `entries` made like `entry` (None:
    `entry` was not generated)."""
    recipe = recipe_of(entry)
    if recipe is None:
        return None
    same = [r.number for r in map(recipe_of, entries) if r is not None and replace(r, number=1) == replace(recipe, number=1)]
    return replace(recipe, number=max(same) + 1)


def daily_date(entry: LevelEntry) -> datetime.date | None:
    """The day of a daily puzzle (None for any other level)."""
    recipe = recipe_of(entry)
    if recipe is None or not recipe.seed.startswith("daily-"):
        return None
    try:
        return datetime.date.fromisoformat(recipe.seed.removeprefix("daily-"))
    except ValueError:
        return None


def daily_path(data_dir: str, date: datetime.date, family: str) -> str:
    """Where the app keeps a day's puzzle of one family (a file holds one family)."""
    return os.path.join(data_dir, DAILY_DIR, daily_name(date, family))


def daily_name(date: datetime.date, family: str) -> str:
    """The file name of a day's puzzle of one family: XSB for Sokoban, else a pack."""
    return f"daily-{date.isoformat()}-{family}{'.xsb' if family == 'sokoban' else '.fewest'}"


def load_daily(data_dir: str, date: datetime.date) -> list[LevelEntry] | None:
    """The day's puzzles as kept in the data directory; None while any is missing or
    unreadable (then `make_daily` makes it again: the same level, from the date)."""
    entries = []
    for family in FAMILIES:
        try:
            entries.extend(read_file(daily_path(data_dir, date, family)))
        except LevelFormatError:
            return None
    return entries


def make_daily(data_dir: str, date: datetime.date, control: Control) -> list[LevelEntry]:
    """The day's puzzles, made where missing and kept in the data directory (OSError when
    the disk refuses; Stopped when `control` does)."""
    for recipe in daily_recipes(date):
        path = daily_path(data_dir, date, recipe.family)
        if not os.path.isfile(path):
            text = pack_text([generated_entry(recipe, control, path)], f"Daily {date}")
            write_atomically(os.path.dirname(path), path, text)
    entries = load_daily(data_dir, date)
    if entries is None:
        raise OSError(f"the day's puzzles in {os.path.join(data_dir, DAILY_DIR)} do not read back")
    return entries


def more_path(data_dir: str, recipe: Recipe) -> str:
    """Where the app keeps the levels made like `recipe` (its series: all but the number)."""
    name = re.sub(r"[^\w.-]+", "-", recipe.series())
    return os.path.join(data_dir, MORE_DIR, f"{name}{'.xsb' if recipe.family == 'sokoban' else '.fewest'}")


def kept_like(data_dir: str, entry: LevelEntry) -> list[LevelEntry]:
    """The levels kept of the series `entry` belongs to ([] when none, or not generated)."""
    recipe = recipe_of(entry)
    if recipe is None:
        return []
    try:
        return [kept for kept in read_file(more_path(data_dir, recipe)) if _same_series(kept, recipe)]
    except LevelFormatError:  # (missing, or spoilt: the next level made writes it afresh)
        return []


def keep_more(data_dir: str, entry: LevelEntry) -> LevelEntry:
    """Keep a level made "more like this" in its series' file (atomically; OSError when the
    disk refuses), and give it back as read from there (its source that file)."""
    recipe = recipe_of(entry)
    assert recipe is not None, "only generated levels are kept"
    path = more_path(data_dir, recipe)
    kept = [k for k in kept_like(data_dir, entry) if recipe_of(k) != recipe] + [entry]
    kept.sort(key=lambda k: getattr(recipe_of(k), "number", 0))
    write_atomically(os.path.dirname(path), path, pack_text(kept, recipe.pack_title()))
    return next(k for k in read_file(path) if recipe_of(k) == recipe)


def kept_series_paths(data_dir: str) -> list[str]:
    """The files of levels made "more like this", by name."""
    folder = os.path.join(data_dir, MORE_DIR)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [os.path.join(folder, name) for name in names if name.endswith((".xsb", ".fewest"))]


def _same_series(entry: LevelEntry, recipe: Recipe) -> bool:
    other = recipe_of(entry)
    return other is not None and other.series() == recipe.series()

"""Keep every test (and every process a test starts) off the user's real cache and data dirs,
and the app's colours off the terminal the tests happen to run in."""

import gc
import os
from pathlib import Path

import pytest


@pytest.fixture(autouse=True, scope="session")
def isolated_user_dirs(tmp_path_factory):
    saved = {key: os.environ.get(key) for key in ("FEWEST_CACHE_DIR", "FEWEST_DATA_DIR", "COLORTERM")}
    os.environ["FEWEST_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    os.environ["FEWEST_DATA_DIR"] = str(tmp_path_factory.mktemp("data"))
    os.environ["COLORTERM"] = "truecolor"  # (a TERM=xterm machine would get the 16-colour styles)
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


HEAVY_FILES = Path(__file__).with_name("heavy_files.txt")
# Workers a core for `-n auto`: a worker spends about 40% of its time waiting (on the apps'
# timers, the terminals and servers the tests start, helper processes), so two a core keep
# the cores busy (on 2 cores 2 workers were each idle 38% of the time; the whole suite then
# took 246-268 s with 2 workers, and now 230 s with 4 where 3 took 240 s).
WORKERS_PER_CORE, MOST_WORKERS = 2, 16


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(MOST_WORKERS, WORKERS_PER_CORE * cores))


# Python's cyclic collector walks every object it tracks at each full collection: with
# Textual, numpy, hypothesis and every test module loaded, that was 17% of a worker's CPU
# (7.4 of 43 s on the app, Sokoban and switch tests), and pytest's own five collections at
# the end of a session about 0.5 s each. What collection loaded lives to the end of the
# session, so it is frozen out of the collector's walks, and young collections come every
# 50,000 new objects, not 700 (the same tests: 3.1 s of collecting). The searches pause the
# collector anyway (solvers/common/control.py); processes the tests start keep Python's defaults.
YOUNG_OBJECTS, MIDDLE_COLLECTIONS, OLD_COLLECTIONS = 50_000, 20, 100


def pytest_configure(config: pytest.Config) -> None:
    gc.set_threshold(YOUNG_OBJECTS, MIDDLE_COLLECTIONS, OLD_COLLECTIONS)


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


def pytest_sessionfinish(session: pytest.Session) -> None:
    # (pytest then collects five times over, for unraisable exceptions: the first of them is
    # this one, and the other four walk only what it leaves new, not the whole session's heap)
    gc.collect()
    gc.freeze()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The heaviest test files first (see heavy_files.txt), each file's tests kept together
    and in their order."""
    listed = [line for line in HEAVY_FILES.read_text(encoding="utf-8").splitlines() if line and line[0] != "#"]
    rank = {path: index for index, path in enumerate(listed)}
    root = Path(__file__).resolve().parent.parent
    items.sort(key=lambda item: rank.get(Path(item.path).resolve().relative_to(root).as_posix(), len(rank)))

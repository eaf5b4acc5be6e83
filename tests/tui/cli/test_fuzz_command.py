"""The installed command fuzzed (#74): a few hundred mutated level files, the inputs that once
failed, and paths that are no level file at all (a directory, a FIFO, a symlink loop, a file
over 10 MB, an unreadable one, a name with a newline) through one `fewest check` and one
`fewest solve` with a small budget: no traceback, exit code 0/1/2 only, every path named,
and an answer in time."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fewest.levels.base import MAX_FILE_BYTES, shown_name
from tests.levels.fuzzing import corpus, mutated, seeds

_BESIDE = Path(sys.executable).parent / "fewest"
FEWEST = shutil.which("fewest") or (str(_BESIDE) if _BESIDE.exists() else None)
pytestmark = pytest.mark.skipif(FEWEST is None, reason="needs the installed fewest command")

MUTATED = 300
SEED = int(os.environ.get("FEWEST_FUZZ_SEED", "75"))


def _inputs(folder: Path) -> list[str]:
    rng, pool = random.Random(SEED), seeds()
    paths = []
    for number in range(MUTATED):
        name, data = mutated(rng, pool)
        path = folder / f"{number:03d}-{name}"
        path.write_bytes(data)
        paths.append(str(path))
    for name, data in corpus():
        (folder / name).write_bytes(data)
        paths.append(str(folder / name))
    return paths


def _odd_paths(folder: Path) -> list[str]:
    """Paths that are no level file, or hard to print."""
    odd = folder / "odd"
    odd.mkdir()
    (odd / "a directory.xsb").mkdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(odd / "fifo.xsb")
    (odd / "loop1.xsb").symlink_to(odd / "loop2.xsb")
    (odd / "loop2.xsb").symlink_to(odd / "loop1.xsb")
    with open(odd / "huge.xsb", "wb") as handle:  # (sparse: over 10 MB at no cost)
        handle.truncate(MAX_FILE_BYTES + 1)
    (odd / "locked.xsb").write_text("#####\n#@$.#\n#####\n")
    (odd / "locked.xsb").chmod(0)  # (unreadable, unless the tests run as root)
    (odd / "empty.xsb").write_bytes(b"")
    (odd / "two\nlines.xsb").write_text("#####\n#@$.#\n#####\n")
    (odd / "utf16.xsb").write_bytes("#####\n#@$.#\n#####\n".encode("utf-16"))
    return [str(path) for path in sorted(odd.iterdir())] + [str(odd / "missing.xsb")]


def _run(argv: list[str]) -> tuple[int, str]:
    done = subprocess.run([FEWEST, *argv], capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    return done.returncode, (done.stdout + done.stderr).decode("utf-8", "replace")


def test_check_of_hundreds_of_fuzzed_and_odd_paths_names_each_and_never_breaks(tmp_path):
    paths = _inputs(tmp_path) + _odd_paths(tmp_path)
    code, out = _run(["check", *paths])
    assert "Traceback" not in out and code in (0, 2), out[-3000:]
    unnamed = [path for path in paths if shown_name(path) not in out]
    assert not unnamed, f"not named: {unnamed[:5]}"
    assert len(paths) >= MUTATED + 10


def test_solve_with_a_small_budget_of_fuzzed_and_odd_paths_never_breaks(tmp_path):
    paths = _inputs(tmp_path)[:: MUTATED // 12] + _odd_paths(tmp_path)
    code, out = _run(["solve", "--level", "1", "--timeout", "0.2", "--memory", "0.25", *paths])
    assert "Traceback" not in out and code in (0, 1, 2), out[-3000:]
    unnamed = [path for path in paths if shown_name(path) not in out]
    assert not unnamed, f"not named: {unnamed[:5]}"

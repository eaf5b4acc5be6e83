"""The level readers fuzzed in-process (#74): over 10,000 inputs, each read or refused with
an error naming its file; never another exception, never a hang (tests/levels/fuzzing.py
has the seeds, the mutations and the rule). The seed is fixed, so a failure reruns;
FEWEST_FUZZ_SEED=n explores others."""

from __future__ import annotations

import os
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from fewest.levels.base import MAX_FILE_BYTES
from tests.levels.fuzzing import EXTENSIONS, corpus, mutated, packs, problem, seeds

MUTATED = 10_000
SEED = int(os.environ.get("FEWEST_FUZZ_SEED", "74"))


def _failures(inputs, tmp_path: Path) -> list[str]:
    """The problems of `inputs` (name, bytes), each input left in `tmp_path` to keep."""
    found = []
    for number, (name, data) in enumerate(inputs):
        said = problem(name, data)
        if said is not None:
            kept = tmp_path / f"{number}-{name}"
            kept.write_bytes(data)
            found.append(f"{kept} (keep it in tests/data/fuzz_corpus): {said}")
    return found


def test_ten_thousand_mutated_files_read_or_say_what_is_wrong_naming_the_file(tmp_path):
    rng, pool = random.Random(SEED), seeds()
    inputs = (mutated(rng, pool) for _ in range(MUTATED))
    failures = _failures(inputs, tmp_path)
    assert not failures, f"{len(failures)} of {MUTATED} inputs (seed {SEED}):\n" + "\n".join(failures[:5])


def test_the_bundled_packs_whole_and_mutated(tmp_path):
    rng, whole = random.Random(SEED), packs()
    assert all(problem(name, data) is None for name, data in whole)
    failures = _failures((mutated(rng, whole) for _ in range(20)), tmp_path)
    assert not failures, "\n".join(failures[:5])


def test_every_seed_in_utf16_with_and_without_its_mark_and_in_windows_1252(tmp_path):
    inputs = []
    for name, data in seeds():
        text = data.decode("utf-8", "replace")
        for encoding in ("utf-16", "utf-16-le", "utf-16-be", "cp1252"):
            inputs.append((name, text.encode(encoding, "replace")))
    assert not _failures(inputs, tmp_path)


def test_sizes_at_and_past_every_limit(tmp_path):
    row = b"#" + b" " * 98 + b"#\n"
    level = b"#" * 100 + b"\n" + b"#@$." + b" " * 95 + b"#\n" + row * 97 + b"#" * 100 + b"\n"  # 10,000 cells
    inputs = [
        ("limit.xsb", level),
        ("over.xsb", level + b"#\n"),  # (10,001 cells)
        ("over.xsb", level.replace(b"#\n", b"##\n", 1)),
        ("wide.xsb", b"#" * 10_001 + b"\n#@$.#\n#####\n"),
        ("long.txt", b"x" * 2_000_000 + b"\n"),
        ("big.xsb", b"#" * (MAX_FILE_BYTES + 1)),  # (over 10 MB)
        ("many.txt", b"\n" * 1_000_000),
        ("deep.slc", b"<a>" * 100_000),
        ("number.in", b"9" * 5000 + b" 3\n"),
    ]
    failures = _failures(inputs, tmp_path)
    assert not failures, "\n".join(failures)


def test_the_inputs_that_once_failed_are_replayed(tmp_path):
    kept = corpus()
    assert kept and not _failures(kept, tmp_path)


GRID = "#@+$*. -_|0123456789\n;:ABCox=/<>LTitle"


@settings(max_examples=600, deadline=None, derandomize=True)
@given(st.text(alphabet=GRID, max_size=300), st.sampled_from(EXTENSIONS))
def test_grid_like_text_reads_or_says_what_is_wrong(text, extension):
    said = problem("h" + extension, text.encode("utf-8"))
    assert said is None, said


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.binary(max_size=400), st.sampled_from(EXTENSIONS))
def test_any_bytes_read_or_say_what_is_wrong(data, extension):
    said = problem("b" + extension, data)
    assert said is None, said

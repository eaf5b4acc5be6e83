"""The rotation distance tables on disk: one file per digit count k, checked before use.

Kept in `$FEWEST_CACHE_DIR` when that variable is set, else in
`platformdirs.user_cache_dir("fewest")`, as `rotation-distances-kNN.bin`: a
magic line, a JSON header (k, size, SHA-256 of the table, digest of the rules
it was built from), then the zlib-compressed table. A file that is truncated,
corrupted, for another k or from other rules is detected, ignored and rebuilt,
never trusted. An unwritable cache directory only costs a rebuild per process.

Tables travel as bytes (one distance per rank): reading them needs no numpy.
The k = 8 table (every board with 8 of each digit) also ships in the package
(solvers/data/), in the same checked format, so a fresh install answers those
boards without building anything.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from pathlib import Path
from typing import Callable

from fewest.engine.rotation import CELLS, CENTRE, LETTERS, SOURCES
from fewest.solvers.rotation.masks import table_size

CACHE_ENV = "FEWEST_CACHE_DIR"
MAGIC = b"fewest rotation distances 2\n"  # 2: one ranked table per digit count
_LEVEL = 1  # zlib level: fast (k = 8: 735 KB -> 0.27 MB in ~7 ms; level 6 takes 15x longer)


def cache_name(k: int) -> str:
    """The file holding table k (older single-table files are simply never read)."""
    return f"rotation-distances-k{k:02d}.bin"


def cache_dir() -> Path:
    """$FEWEST_CACHE_DIR, else the user's cache directory for fewest."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("fewest"))


def packaged_path(k: int) -> Path:
    """Where a table shipped inside the package would be (only k = 8 is shipped)."""
    return Path(__file__).resolve().parent / "data" / cache_name(k)


def rules_digest() -> str:
    """What the tables depend on; a cache built from other lines or centre is not used."""
    text = repr((CELLS, CENTRE, [SOURCES[k] for k in LETTERS]))
    return hashlib.sha256(text.encode()).hexdigest()


def write_cache(path: Path, k: int, raw: bytes) -> None:
    """Header line (JSON) + zlib payload, written to a temporary file then renamed into place."""
    import tempfile  # only when writing: keeps warm start-up lean

    header = {
        "rules": rules_digest(),
        "cells": k,
        "size": len(raw),
        "sha256": hashlib.sha256(raw).hexdigest(),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(MAGIC + json.dumps(header).encode() + b"\n" + zlib.compress(raw, _LEVEL))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_cache(path: Path, k: int) -> bytes | None:
    """Table k stored at `path`, or None when missing, damaged, for another k or other rules."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(MAGIC):
        return None
    end = data.find(b"\n", len(MAGIC))
    size = table_size(k)
    try:
        header = json.loads(data[len(MAGIC) : end])
        if (header.get("rules"), header.get("cells"), header.get("size")) != (
            rules_digest(), k, size
        ):
            return None
        unpack = zlib.decompressobj()
        raw = unpack.decompress(data[end + 1 :], size + 1)  # never inflate more than a table
    except (ValueError, zlib.error, AttributeError, RecursionError):
        return None
    if len(raw) != size or not unpack.eof or unpack.unused_data:
        return None
    if hashlib.sha256(raw).hexdigest() != header.get("sha256"):
        return None
    return raw


def load_or_build(
    k: int, directory: Path | None = None, check: Callable[[], None] | None = None
) -> bytes:
    """Table k from the cache if it is intact, else a fresh build (saved when writable)."""
    path = (cache_dir() if directory is None else Path(directory)) / cache_name(k)
    raw = read_cache(path, k)
    if raw is None:
        raw = read_cache(packaged_path(k), k)
    if raw is None:
        from fewest.solvers.rotation.table import build  # numpy: only when building

        raw = build(k, check).tobytes()
        try:
            write_cache(path, k, raw)
        except OSError:
            pass  # a read-only cache costs a rebuild next time, nothing more
    return raw

"""One exact distance table that answers every rotation board.

Whether a board is solved for digit d depends only on WHICH cells hold d, and
the moves permute cells the same way whatever they hold. So a 24-bit mask S
(bit i set = cell i holds d) carries everything: `dist[S]` is the fewest moves
until the 8 centre bits are all set. One uint8 array over all 2**24 masks
covers every digit count at once (boards need not hold 8 of each digit); a
mask with fewer than 8 bits can never fill the centre and stays UNREACHABLE.

Built by a level-synchronous backward BFS from the 2**16 goal masks (centre
set, the other 16 bits free), vectorised with numpy: a move permutes the mask
bits, done as two lookups in 4096-entry tables (low and high 12 bits). The
eight moves are closed under inverse (A<->F, B<->E, C<->H, D<->G), so the
predecessors of a frontier are its images under all eight moves.

Cache: the table is kept in `$FEWEST_CACHE_DIR` when that variable is set,
else in `platformdirs.user_cache_dir("fewest")`, as a zlib-compressed file
with a JSON header holding the SHA-256 of the table and of the rules it was
built from. A file that is truncated, corrupted or from other rules is
detected, ignored and rebuilt, never trusted. An unwritable cache directory
only costs a rebuild per process.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
import zlib
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from fewest.engine.rotation import CELLS, CENTRE, LETTERS, SOURCES

MASKS = 1 << CELLS
UNREACHABLE = 255
CENTRE_MASK = sum(1 << c for c in CENTRE)
CACHE_ENV = "FEWEST_CACHE_DIR"
CACHE_NAME = "rotation-distances.bin"
_MAGIC = b"fewest rotation distances 1\n"
_CHUNK = 1 << 19  # frontier slice between cancellation checks (~50 ms of work at most)


def _move_destinations(letter: str) -> list[int]:
    """dest[b]: the bit a set bit b lands on when `letter` is played."""
    dest = [0] * CELLS
    for new, old in enumerate(SOURCES[letter]):
        dest[old] = new
    return dest


def _half_tables() -> tuple[np.ndarray, np.ndarray]:
    """lo[m][x], hi[m][x]: move m's image of the low / high 12 bits x (uint32, shape 8 x 4096)."""
    x = np.arange(4096, dtype=np.uint32)
    lo = np.zeros((len(LETTERS), 4096), dtype=np.uint32)
    hi = np.zeros((len(LETTERS), 4096), dtype=np.uint32)
    for m, letter in enumerate(LETTERS):
        dest = _move_destinations(letter)
        for b in range(12):
            bit = (x >> np.uint32(b)) & np.uint32(1)
            lo[m] |= bit << np.uint32(dest[b])
            hi[m] |= bit << np.uint32(dest[b + 12])
    return lo, hi


LO, HI = _half_tables()


def rules_digest() -> str:
    """What the table depends on; a cache built from other lines or centre is not used."""
    text = repr((CELLS, CENTRE, [SOURCES[k] for k in LETTERS]))
    return hashlib.sha256(text.encode()).hexdigest()


def goal_masks() -> np.ndarray:
    """Every mask with the centre set: the 2**16 ways to fill the other cells."""
    free = [b for b in range(CELLS) if not CENTRE_MASK >> b & 1]
    x = np.arange(1 << len(free), dtype=np.uint32)
    masks = np.full(x.shape, CENTRE_MASK, dtype=np.uint32)
    for i, b in enumerate(free):
        masks |= ((x >> np.uint32(i)) & np.uint32(1)) << np.uint32(b)
    return masks


def move_images(masks: np.ndarray, move: int) -> np.ndarray:
    """The masks after playing move number `move` (0 = A .. 7 = H), vectorised."""
    return LO[move][masks & np.uint32(0xFFF)] | HI[move][masks >> np.uint32(12)]


def build(check: Callable[[], None] | None = None) -> np.ndarray:
    """The distance of every mask (uint8, UNREACHABLE when < 8 bits); `check` may raise to stop."""
    dist = np.full(MASKS, UNREACHABLE, dtype=np.uint8)
    frontier = goal_masks()
    dist[frontier] = 0
    depth = 0
    while frontier.size:
        for start in range(0, frontier.size, _CHUNK):
            part = frontier[start : start + _CHUNK]
            for move in range(len(LETTERS)):
                images = move_images(part, move)
                images = images[dist[images] == UNREACHABLE]
                dist[images] = depth + 1  # duplicates within `images` are harmless
            if check is not None:
                check()
        depth += 1
        # Rescanning gives the next frontier sorted and without duplicates; sorted masks
        # have images close together, which keeps the lookups above cache-friendly.
        frontier = np.flatnonzero(dist == depth).astype(np.uint32)
    return dist


# ----- the cache file -------------------------------------------------------
def cache_dir() -> Path:
    """$FEWEST_CACHE_DIR, else the user's cache directory for fewest."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("fewest"))


def write_cache(path: Path, dist: np.ndarray) -> None:
    """Header line (JSON) + zlib payload, written to a temporary file then renamed into place."""
    raw = np.ascontiguousarray(dist, dtype=np.uint8).tobytes()
    header = {"rules": rules_digest(), "size": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(_MAGIC + json.dumps(header).encode() + b"\n" + zlib.compress(raw, 6))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_cache(path: Path) -> np.ndarray | None:
    """The table stored at `path`, or None when missing, damaged or built from other rules."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(_MAGIC):
        return None
    end = data.find(b"\n", len(_MAGIC))
    try:
        header = json.loads(data[len(_MAGIC) : end])
        if header.get("rules") != rules_digest() or header.get("size") != MASKS:
            return None
        raw = zlib.decompress(data[end + 1 :])
    except (ValueError, zlib.error, AttributeError, RecursionError):
        return None
    if len(raw) != MASKS or hashlib.sha256(raw).hexdigest() != header.get("sha256"):
        return None
    return np.frombuffer(raw, dtype=np.uint8)


def load_or_build(
    directory: Path | None = None, check: Callable[[], None] | None = None
) -> np.ndarray:
    """The cached table if it is intact, else a fresh build (saved when the directory is writable)."""
    path = (cache_dir() if directory is None else Path(directory)) / CACHE_NAME
    dist = read_cache(path)
    if dist is None:
        dist = build(check)
        try:
            write_cache(path, dist)
        except OSError:
            pass  # a read-only cache costs a rebuild next time, nothing more
    return dist


class DistanceTable:
    """Lookups for the per-board solver: distances of masks and mask images under a move."""

    def __init__(self, dist: np.ndarray) -> None:
        self.dist = dist
        self._lo = [row.tolist() for row in LO]  # plain lists: faster than numpy scalars
        self._hi = [row.tolist() for row in HI]

    def distance(self, mask: int) -> int:
        return int(self.dist[mask])

    def image(self, mask: int, move: int) -> int:
        return self._lo[move][mask & 0xFFF] | self._hi[move][mask >> 12]

    def board_distance(self, masks: Sequence[int]) -> int:
        """Fewest moves to fill the centre with any of the digits whose masks are given."""
        return min(int(self.dist[m]) for m in masks)


_shared: DistanceTable | None = None
_lock = threading.Lock()


def shared_table(check: Callable[[], None] | None = None) -> DistanceTable:
    """The process-wide table, loaded from the cache or built on first use (thread-safe)."""
    global _shared
    with _lock:
        if _shared is None:
            _shared = DistanceTable(load_or_build(check=check))
        return _shared


def forget_shared_table() -> None:
    """Drop the process-wide table (tests use it to start from a known cache directory)."""
    global _shared
    with _lock:
        _shared = None

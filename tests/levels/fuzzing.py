"""The fuzz harness of the level readers (#74): seeds, mutations, and the rule every input keeps.

Seeds are a sample of every reader's format: the bundled packs, the test data and a few
written here (SLC, traffic grids, XSB with its headers and saved solutions). A mutation
truncates, flips and inserts bytes, breaks counts and numbers (wrong, huge, negative),
mixes encodings (UTF-16 with and without its mark, Windows-1252, bytes that are no
UTF-8), draws very long lines and levels over 10,000 cells, and splices two seeds.

The rule (`problem`): reading the bytes under a file name either gives levels or says
what is wrong in a LevelFormatError that names the file, for the file and for every
level left out; anything else (another exception, a hang) is a problem. Inputs that
once broke it are kept in tests/data/fuzz_corpus and replayed.
"""

from __future__ import annotations

import random
import signal
import threading
import traceback
from importlib import resources
from pathlib import Path
from typing import Callable

from fewest.levels.base import LevelFormatError, NoLevelReads, shown_name
from fewest.levels.files import read_data_each
from fewest.levels.registry import FORMATS
from tests.paths import DATA_DIR

CORPUS = Path(DATA_DIR) / "fuzz_corpus"
EXTENSIONS = sorted({ext for fmt in FORMATS for ext in fmt.extensions} | {"", ".dat"})
HANG_SECONDS = 10  # one input read for longer than this is a hang

_SLC = b"""<?xml version="1.0" encoding="ISO-8859-1"?>
<SokobanLevels xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <Title>Pack</Title>
  <Description>two levels</Description>
  <LevelCollection Copyright="Ann" MaxWidth="7" MaxHeight="4">
    <Level Id="One" Width="7" Height="3">
      <L>#######</L>
      <L>#@ $ .#</L>
      <L>#######</L>
    </Level>
    <Level Id="2" Width="6" Height="4" Copyright="Bob">
      <L>  ####</L>
      <L>###  #</L>
      <L>#@$ .#</L>
      <L>######</L>
    </Level>
  </LevelCollection>
</SokobanLevels>
"""
_XSB = b"""; A collection
Title: Tiny
Author: someone

Title: First
Par: 3
Push-par: 1
#####
#@$.#
#####
Comment:
two lines
of comment
Comment-End:

; 2
7#|#@-$-.#|7#
Solution (moves 4, pushes 1)
rrRr

  ####
###  ####
#     $ #
# #  #$ #
# . .#@ #
#########
"""
_GRID = b"""; two levels
goal: exit A
......
......
AA..B.
....B.
......
......

goal: clear-row 2
xCC...
......
..DD..
......
......
......
"""
INLINE = {"inline.slc": _SLC, "inline.xsb": _XSB, "inline.traffic": _GRID}


def packs() -> list[tuple[str, bytes]]:
    """(file name, bytes) of each bundled pack, whole."""
    folder = resources.files("fewest.levels.packs")
    return [(item.name, item.read_bytes()) for item in sorted(folder.iterdir(), key=lambda item: item.name)
            if item.name.endswith((".xsb", ".fewest"))]


def seeds() -> list[tuple[str, bytes]]:
    """(file name, bytes) of every reader's format, small enough to read by the thousand:
    a big collection gives its first levels (`packs` has them whole)."""
    found: list[tuple[str, bytes]] = list(INLINE.items())
    found += [(name, _head(data, 1200)) for name, data in packs()]
    data_dir = Path(DATA_DIR)
    for path in sorted((data_dir / "rulebook").iterdir()):
        if path.suffix in (".in", ".txt"):
            found.append((path.name, path.read_bytes()))
    found.append(("database.txt", _head((data_dir / "traffic" / "database_sample.txt").read_bytes(), 800)))
    found.append(("Microban.xsb", _head((data_dir / "Microban_155.xsb").read_bytes(), 1200)))
    return found


def corpus() -> list[tuple[str, bytes]]:
    """The inputs that once broke a reader (file name, bytes), to replay."""
    return [(path.name, path.read_bytes()) for path in sorted(CORPUS.iterdir()) if path.name != "README.md"]


def _head(data: bytes, size: int) -> bytes:
    """The first `size` bytes or so, cut at a line's end."""
    cut = data.find(b"\n", size)
    return data if cut < 0 else data[: cut + 1]


# ----- mutations ------------------------------------------------------------------
_TOKENS = [b"\0", b"\xff", b"\xfe", b"\xc3", b"\xe9", b"\x1b[31m", b"\r", b"\n", b"\n\n", b"#", b"@", b"$",
           b".", b"*", b"+", b"|", b";", b":", b" ", b"-", b"<", b">", b"</L>", b"<L>", b"&", b"goal:",
           b"Title:", b"Par:", b"Family: sokoban\n", b"Family: traffic\n", b"0", b"9" * 30, b"-1",
           b"\xef\xbb\xbf", "\u00e9\u4e2d\U0001f600".encode(), b"\t", b"\x85", "\u2028".encode()]


def _truncate(data: bytes, rng: random.Random, _: list) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def _flip(data: bytes, rng: random.Random, _: list) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if out:
            at = rng.randrange(len(out))
            out[at] = rng.randrange(256) if rng.random() < 0.5 else out[at] ^ (1 << rng.randrange(8))
    return bytes(out)


def _insert(data: bytes, rng: random.Random, _: list) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice(_TOKENS) * rng.randint(1, 3) + data[at:]


def _delete(data: bytes, rng: random.Random, _: list) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + data[at + rng.randint(1, 40):]


def _lines(data: bytes, rng: random.Random, _: list) -> bytes:
    lines = data.split(b"\n")
    at, other = rng.randrange(len(lines)), rng.randrange(len(lines))
    choice = rng.randrange(3)
    if choice == 0:
        lines.insert(at, lines[other])  # a line twice
    elif choice == 1:
        lines[at], lines[other] = lines[other], lines[at]
    else:
        del lines[at]
    return b"\n".join(lines)


def _numbers(data: bytes, rng: random.Random, _: list) -> bytes:
    """A number made wrong: one off (a count that disagrees), zero, negative or huge."""
    starts = [i for i, byte in enumerate(data) if 48 <= byte <= 57 and (i == 0 or not 48 <= data[i - 1] <= 57)]
    if not starts:
        return _insert(data, rng, [])
    at = rng.choice(starts)
    end = at
    while end < len(data) and 48 <= data[end] <= 57:
        end += 1
    value = int(data[at:end][:18])
    new = rng.choice([str(value + 1), str(value - 1), "0", f"-{value}", "1" + "0" * rng.randint(4, 25), "10001",
                      str(2**63), "9" * 4400])
    return data[:at] + new.encode() + data[end:]


def _long_line(data: bytes, rng: random.Random, _: list) -> bytes:
    at = data.find(b"\n", rng.randrange(len(data) + 1)) + 1
    line = rng.choice([b"#", b" ", b"x", b"A", b"o", b"@", b";"]) * rng.choice([10_001, 20_000, 150_000])
    return data[:at] + line + b"\n" + data[at:]


def _big_level(data: bytes, rng: random.Random, _: list) -> bytes:
    width = rng.choice([100, 101, 10_001])
    rows = [b"#" * width] + [b"#" + b" " * (width - 2) + b"#"] * (10_001 // width) + [b"#" * width]
    rows[1] = b"#@$." + rows[1][4:]
    return data + b"\n\n" + b"\n".join(rows) + b"\n"


def _encoding(data: bytes, rng: random.Random, _: list) -> bytes:
    text = data.decode("utf-8", "replace")
    choice = rng.randrange(6)
    if choice == 0:
        return text.encode("utf-16")  # (with its mark)
    if choice == 1:
        return text.encode(rng.choice(["utf-16-le", "utf-16-be"]))  # (without)
    if choice == 2:
        return text.encode("cp1252", "replace") + "é à".encode("cp1252")
    if choice == 3:
        half = len(text) // 2
        return text[:half].encode("utf-8") + text[half:].encode("utf-16")  # (two encodings in one file)
    if choice == 4:
        return data.replace(b"\n", rng.choice([b"\r\n", b"\r", b"\n\r"]))
    return b"\xef\xbb\xbf" + data


def _splice(data: bytes, rng: random.Random, others: list) -> bytes:
    other = rng.choice(others)[1]
    return data[: rng.randrange(len(data) + 1)] + other[rng.randrange(len(other) + 1):]


def _repeat(data: bytes, rng: random.Random, _: list) -> bytes:
    return data * rng.randint(2, max(2, min(40, 20_000 // max(len(data), 1))))


_SMALL: list[Callable[[bytes, random.Random, list], bytes]] = [
    _truncate, _flip, _flip, _flip, _insert, _insert, _insert, _delete, _delete, _lines, _lines, _lines,
    _numbers, _numbers, _numbers, _encoding, _encoding, _splice, _splice,
]
# The big ones (a line or a level past 10,000 cells, a file many times over) cost the
# readers some 30 times a small one: drawn a third as often, each still meets some 270
# of the 10,000 inputs, and the harness takes 40% less time (11 s of CPU to 6.4 s).
MUTATIONS: list[Callable[[bytes, random.Random, list], bytes]] = _SMALL * 3 + [_long_line, _big_level, _repeat]


def mutated(rng: random.Random, pool: list[tuple[str, bytes]]) -> tuple[str, bytes]:
    """A file name and bytes: a seed of `pool` with one to three mutations, the name's
    extension sometimes changed (a reader chosen by it meets another format's text)."""
    name, data = rng.choice(pool)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        data = rng.choice(MUTATIONS)(data, rng, pool)
    if rng.random() < 0.2:
        name = "x" + rng.choice(EXTENSIONS)
    return name, data


# ----- the rule -------------------------------------------------------------------
class Hang(Exception):
    pass


def _hang(*_: object) -> None:
    raise Hang


def problem(name: str, data: bytes) -> str | None:
    """What is wrong with reading `data` as file `name`; None when all is well (levels, or
    errors that name the file)."""
    timed = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if timed:
        before = signal.signal(signal.SIGALRM, _hang)
        signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
    try:
        collection = read_data_each(data, name)
        errors = [left.error for left in collection.unreadable]
        for entry in collection.entries:  # (what check and the browser show of each)
            entry.display_title(), entry.key  # noqa: B018
    except NoLevelReads as exc:
        errors = [exc] + [left.error for left in exc.unreadable]
    except LevelFormatError as exc:
        errors = [exc]
    except Hang:
        return f"no answer within {HANG_SECONDS} s"
    except Exception:  # (the defect searched for: anything but a located error)
        return traceback.format_exc()
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, before)
    for error in errors:
        if shown_name(name) not in str(error):
            return f"an error that does not name the file: {error}"
    return None

"""The pull table (sokoban/pulls/table.py) with numpy: a layer of pulls at a time, as arrays.

The same breadth-first search backwards over pulls, the same keys (box set,
lowest cell of the player's region) and the same answers, but a layer is
pulled from a few thousand positions at a time, as arrays:
- a position's box set and region are a few 64-bit words (the padded
  numbering cut to the rows with floor), so a pull is a shift of words and
  the regions of all the children grow side by side (a flood fill whose
  finished columns drop out);
- its boxes are also one word over the cells a box can ever stand on, and a
  key is one word: the box set's number in the combinatorial number system
  (C(64, 16) < 2**50) above the region's cell among the floor's;
- duplicates go by sorting; the table is sorted keys with a depth byte each
  (sokoban/pulls/sorted_blocks.py), 9 bytes an entry against ~150 in a dict;
- a layer is closed (its duplicates dropped, its keys merged into the table)
  a key range at a time, so the budget and a cancel are looked at between
  steps of a few hundredths of a second however big the layer.
On a symmetric board a key is the least among the position's images (as the
dict's): a box set's image is 8 byte lookups of its word, and the lowest floor
rank of its region's image is the least of a lookup per byte of the region.
A board with more than 64 box cells, rows beyond MOST_WORDS words, or a key
beyond 64 bits keeps the dict (`fits`; sokoban/pulls/table.py picks).
"""

from __future__ import annotations

from math import comb
from typing import Callable

import numpy as np

from fewest.solvers.common.control import Control
from fewest.solvers.sokoban.pulls.sorted_blocks import MOST, SortedBlocks
from fewest.solvers.sokoban.board.board import Board, cells_of, pullable_to, pushable_to
from fewest.solvers.sokoban.pulls.forward import ForwardBound
from fewest.solvers.sokoban.pulls.interface import PullTableLike
from fewest.solvers.sokoban.board.symmetry import Symmetry, symmetry_keeping
from fewest.solvers.sokoban.board.tables import UNREACHABLE

MOST_WORDS = 4  # rows of the board, in 64-bit words, at most
CHUNK = 8192  # positions pulled from at a time (the budget is looked at between)
SPAN = 1 << 18  # keys made, about, closed into the table at a time (the same): the table's `span` unless given
SAMPLE = 64  # one key in SAMPLE of what a layer made marks out the spans: its `sample` unless given
# Positions held to pull from or to close, per entry counted, at most, and what a span
# being closed holds besides (its keys sorted, its positions gathered: copies of SPAN
# positions, whatever the table's size). Measured (tracemalloc's peak while growing to
# a size limit, what was made counted with its duplicates, ~1.4 a position on deep
# layers): on Microban #93 and #144, plain and symmetric, 40-69 bytes an entry counted
# from 1.5M entries up (3 words: 9 + 56 * 1.06 at most), up to 92 at 100k-400k, where
# a span's copies are most of it. The frontier was 1.6 while the layer pulled from was
# held through the close.
FRONTIER = 1.2
CLOSE_COPIES = 3
DEEPEST = 255  # depths are bytes
ONE = np.uint64(1)
NO_RANK = 1 << 30  # above every floor rank
SEEN_MOST = 1 << 18  # box sets `bound` remembers on a symmetric board, at most (then it forgets): its `seen_most`
SEEN_BYTES = 172  # an entry of those (measured with tracemalloc: 140-bit box sets)


def _layout(board: Board, start_boxes: int) -> tuple[int, int, int, int, int] | None:
    """(base cell, words, cells a pull may put a box on, box cells (those and the goals),
    rank bits), or None where the board does not fit."""
    floor = board.floor
    base = ((floor & -floor).bit_length() - 1) // board.width * board.width
    words = -(-(floor.bit_length() - base) // 64)
    # a pull puts a box where a start box can be pushed to and which leads to a goal
    landing = pushable_to(board, start_boxes) & pullable_to(board, board.goals)
    live = landing | board.goals
    rank_bits = max(1, (bin(floor).count("1") - 1).bit_length())
    cells = bin(live).count("1")
    numbers = comb(cells, bin(board.goals).count("1"))
    if words > MOST_WORDS or cells > 64 or (numbers - 1).bit_length() + rank_bits > 64:
        return None
    return base, words, landing, live, rank_bits


def fits(board: Board, start_boxes: int) -> bool:
    return _layout(board, start_boxes) is not None


class CompactPullTable(PullTableLike):
    """The pull table (sokoban/pulls/interface.py) on numpy arrays."""

    def __init__(
        self, board: Board, start_boxes: int, *, span: int = SPAN, sample: int = SAMPLE, seen_most: int = SEEN_MOST,
        block_most: int = MOST,
    ) -> None:
        """`span`, `sample`, `seen_most` (see SPAN, SAMPLE, SEEN_MOST above) and its storage's
        `block_most` (sokoban/pulls/sorted_blocks.py MOST): the sizes it works in. Tests
        choose small ones to reach every path."""
        layout = _layout(board, start_boxes)
        if layout is None:
            raise ValueError("this board does not fit the compact pull table (use PullTable)")
        self.board = board
        self._span, self._sample, self._seen_most = span, sample, seen_most
        self._base, self._words, landing, live, self._rank_bits = layout
        # memory while growing, per entry: a key and a depth, and the positions still to
        # pull from or to close (packed boxes, box and region words) for a share
        self.bytes_per_entry = 9 + int(FRONTIER * (8 + 16 * self._words))
        self.fixed_bytes = CLOSE_COPIES * span * (16 + 16 * self._words)
        self.radius = 0
        self.complete = False
        self.beyond = 1
        span = 64 * self._words
        base, floor = self._base, board.floor
        # per grid bit (cell - base): its words, its bit among the box cells, its floor rank
        self._cell_words = np.zeros((span, self._words), dtype=np.uint64)
        for bit in range(span):
            self._cell_words[bit, bit // 64] = ONE << np.uint64(bit % 64)
        self._live_index = {cell: index for index, cell in enumerate(cells_of(live))}
        self._live_bit = np.zeros(span, dtype=np.uint64)
        for cell, index in self._live_index.items():
            self._live_bit[cell - base] = ONE << np.uint64(index)
        self._rank_of = {cell: index for index, cell in enumerate(cells_of(floor))}
        self._rank = np.zeros(span, dtype=np.uint64)
        for cell, index in self._rank_of.items():
            self._rank[cell - base] = index
        # a box set's number, a byte of box cells at a time: by_byte[byte position, byte,
        # boxes below it] = what the byte's boxes add (_byte_adds)
        boxes = bin(board.goals).count("1")
        by_byte = np.zeros((8, 256, boxes + 1), dtype=np.uint64)
        for position in range(8):
            for byte in range(256):
                by_byte[position, byte] = _byte_adds([8 * position + p for p in range(8) if byte >> p & 1], boxes)
        self._by_byte = by_byte.reshape(-1)
        self._box_bytes, self._byte_numbers = self._number_tables(live, boxes)
        self._ones = np.array([bin(byte).count("1") for byte in range(256)], dtype=np.int64)
        self._symmetry = symmetry_keeping(board, pushable_to(board, start_boxes))
        self._start_boxes = start_boxes
        self._forward: ForwardBound | None = None  # made when a limit first comes
        self._seen: dict = {}  # box set -> `_looked_up`'s answer
        self._images = self._image_tables(self._symmetry)
        self._floor = self._split(floor)
        self._steps = board.steps
        # per direction: bit c set where c + step may take a box (pulls land on box cells only)
        self._landing = [_shift(self._split(landing), -step) for step in board.steps]
        # the solved positions (layer 0): every region of the floor around the goals
        goals = board.goals
        keys, regions = [], []
        for region in board.parts(floor & ~goals):
            key = self._key(*self._looked_up(goals), goals, region)
            if key not in keys:  # (on a symmetric board, regions may be images)
                keys.append(key)
                regions.append(self._split(region)[:, 0])
        self._seen.clear()  # (what the search asks is remembered, not the solved box set)
        count = len(keys)
        packed = sum(self._live_bit[cell - base] for cell in cells_of(goals))
        # the layer being pulled from, in pieces: (packed boxes, box words, region words)
        self._layer: list | None = [
            (
                np.full(count, packed, dtype=np.uint64),
                np.repeat(self._split(goals), count, axis=1),
                np.stack(regions, axis=1) if regions else np.zeros((self._words, 0), dtype=np.uint64),
            )
        ] if count else []
        self._table = SortedBlocks(block_most)
        self._table.add(np.unique(np.array(keys, dtype=np.uint64)), 0)
        self._made: list | None = []  # what the layer has made so far: (keys, packed, boxes, regions)
        self._done = (0, 0)  # (piece, position in it) of the layer, pulled from so far

    def __len__(self) -> int:
        return len(self._table)

    def nbytes(self) -> int:
        """The memory it holds now (the table, the frontier unless sent, what `bound` remembers)."""
        arrays = [array for piece in self._layer or () for array in piece]
        arrays += [array for part in self._made or () for array in part]
        return self._table.nbytes() + sum(array.nbytes for array in arrays) + len(self._seen) * SEEN_BYTES

    def big_containers(self) -> list:
        return []  # (numpy arrays: freed at once, in no time)

    def __getstate__(self) -> dict:
        # sent from a child process (sokoban/pulls/apart.py) without its frontier: looked up only
        state = self.__dict__.copy()
        state.update(_layer=None, _made=None, _done=(0, 0), _seen={}, _forward=None)
        return state

    def stop_growing(self) -> None:
        """Let go of the positions kept to grow on (looked up only from now on)."""
        self.__dict__.update(self.__getstate__())

    def most_within(self, memory_bytes: int) -> int:
        """The entries it may grow to within `memory_bytes` from what it holds now (asked
        again after each layer): each position made holds its key and words until the layer
        closes, then its words as the next layer and its key and depth in the table,
        besides a span's copies while closing."""
        room = memory_bytes - self.fixed_bytes - self.nbytes()
        return len(self) + max(0, room) // (33 + 32 * self._words)

    @property
    def can_grow(self) -> bool:
        """Does it still hold its frontier (not stopped, not sent from another process)?"""
        return self._layer is not None and self._made is not None

    def _split(self, mask: int) -> np.ndarray:
        """A padded bit set -> its words, shape (words, 1)."""
        mask >>= self._base
        return np.array([[(mask >> (64 * k)) & 0xFFFFFFFFFFFFFFFF] for k in range(self._words)], dtype=np.uint64)

    def _image_tables(self, symmetry: Symmetry | None) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per symmetry, looked up by byte position * 256 + byte: (a packed box set's image,
        a byte at a time; the least floor rank of a region byte's image)."""
        if symmetry is None:
            return []
        live = list(self._live_index)
        out = []
        for cells in symmetry.maps:
            live_image = {cell: self._live_index[cells[cell]] for cell in live}
            rank_image = {cell: self._rank_of[cells[cell]] for cell in self._rank_of}
            boxes = np.zeros(8 * 256, dtype=np.uint64)
            for position in range(8):
                for byte in range(1, 256):
                    low = byte & -byte
                    index = 8 * position + low.bit_length() - 1
                    moved = ONE << np.uint64(live_image[live[index]]) if index < len(live) else np.uint64(0)
                    boxes[position * 256 + byte] = boxes[position * 256 + (byte ^ low)] | moved
            ranks = np.full(8 * self._words * 256, NO_RANK, dtype=np.int64)
            for position in range(8 * self._words):
                for byte in range(1, 256):
                    low = byte & -byte
                    cell = self._base + 8 * position + low.bit_length() - 1
                    rank = rank_image.get(cell, NO_RANK)  # (a region holds floor cells only)
                    ranks[position * 256 + byte] = min(ranks[position * 256 + (byte ^ low)], rank)
            out.append((boxes, ranks))
        return out

    def _key(self, number: int, which: int | None, boxes: int, region: int) -> int:
        """A position's key: the `number` of its box set's least image (`_looked_up`) above
        the lowest floor rank of its region's image. That is the image the dict table keys
        it by (`Symmetry.least`: least box set, then least lowest cell; box cells and floor
        ranks go in the cells' order, so `_least` picks the same one from words)."""
        if which is None:  # images tie: the region decides which is least
            shift = self.board.size.bit_length()
            lowest = self._symmetry.least(boxes, region, shift) & ((1 << shift) - 1)
        else:
            if which >= 0:
                region = self._symmetry.image(region, which)
            lowest = (region & -region).bit_length() - 1
        return (number << self._rank_bits) | self._rank_of[lowest]

    def _number_tables(self, live: int, boxes: int) -> tuple[int, list[dict]]:
        """(bytes of a box set, per byte of it: byte -> (its boxes, then what they add to
        the number per count of boxes below it, of `boxes` in all)), bytes with a cell off
        `live` left out."""
        size = -(-self.board.size // 8)
        tables: list[dict] = []
        for position in range(size):
            here = live >> 8 * position & 255
            table: dict = {}
            for byte in range(1, 256):
                if byte & ~here:
                    continue
                indices = [self._live_index[8 * position + bit] for bit in range(8) if byte >> bit & 1]
                table[byte] = (len(indices), *_byte_adds(indices, boxes))
            tables.append(table)
        return size, tables

    def _number(self, boxes: int) -> int | None:
        """The box set's number (None: a box where no pull ever puts one), a byte of
        the box set at a time (half the time a box at a time took)."""
        number = below = 0
        for byte, table in zip(boxes.to_bytes(self._box_bytes, "little"), self._byte_numbers):
            if byte:
                entry = table.get(byte)
                if entry is None:
                    return None
                number += entry[below + 1]
                below += entry[0]
        return number

    def _looked_up(self, boxes: int) -> tuple[int | None, int | None]:
        """(the number of the least image of `boxes`, which symmetry gives it: -1 none,
        None where images tie and the region decides; live cells map onto live cells, so
        the number is None for all images or none). On a symmetric board remembered: a
        search asks for the same box set with the player elsewhere about twice (Microban
        #144: 620,220 asks, 298,086 box sets)."""
        if self._symmetry is None:
            return self._number(boxes), -1
        seen = self._seen.get(boxes)
        if seen is None:
            if len(self._seen) >= self._seen_most:
                self._seen.clear()
            images = self._symmetry.images(boxes)
            best = min(images)
            if boxes < best:
                seen = (self._number(boxes), -1)
            elif boxes > best and images.count(best) == 1:
                seen = (self._number(best), images.index(best))
            else:
                seen = (self._number(min(best, boxes)), None)
            self._seen[boxes] = seen
        return seen

    def bound(self, boxes: int, player: int, region: int | None = None) -> int:
        """The pushes left: exact near the goal, else a lower bound (or UNREACHABLE).
        `region`: the player's, when the caller has it."""
        number, which = self._looked_up(boxes)
        # Most box sets asked about are in no entry at all (Microban #144: 90% of 630,797
        # asks): those go without their region's flood fill.
        if number is None or not self._table.holds_within(
            number << self._rank_bits, (number + 1) << self._rank_bits
        ):
            return self.beyond
        if region is None:
            region = self.board.reach(player, self.board.floor & ~boxes)
        depth = self._table.get(self._key(number, which, boxes, region))
        return self.beyond if depth is None else depth

    def grow(
        self, control: Control, seconds: float | None, most: int, until: int | None = None,
        limit: Callable[[], int | None] | None = None,
    ) -> None:
        """Pull on until `seconds` more have passed (None: no limit), the table holds `most`
        entries, its layers are complete up to radius `until`, or no position is left.
        The control's budget and cancel still apply. `limit`, asked as it goes: the pushes
        of a plan the search knows (None: none yet); from then on positions no plan of so
        many pushes goes through are left out (sokoban/pulls/forward.py)."""
        if not self.can_grow:
            raise ValueError("a pull table sent from another process cannot grow on")
        deadline = None if seconds is None else control.seconds + seconds
        while self._layer:
            if self.radius >= DEEPEST - 1:
                return
            piece, done = self._done
            for packed, boxes, regions in self._layer[piece:]:
                for start in range(done, len(packed), CHUNK):
                    control.check()
                    made = sum(len(part[0]) for part in self._made)
                    if len(self._table) + made >= most or (deadline is not None and control.seconds > deadline):
                        self._done = (piece, start)
                        return
                    end = start + CHUNK
                    most_pushes = None if limit is None else limit()
                    self._made.append(
                        self._pull(packed[start:end], boxes[:, start:end], regions[:, start:end], most_pushes)
                    )
                piece, done = piece + 1, 0
            self._done = (piece, 0)
            self._close_layer(control)
            if self._layer and until is not None and self.radius >= until:
                return
        self.complete = True
        self.beyond = UNREACHABLE

    def _close_layer(self, control: Control) -> None:
        """The layer made is complete: into the table, and the next one to pull from.
        A span of keys at a time (each part made is sorted): its duplicates dropped, its
        keys merged into the table, its positions a piece of the next layer. (Stopped
        midway, what was merged is exact and merging again adds nothing twice.)"""
        parts = [part for part in self._made if len(part[0])]
        # the layer pulled from is spent: let go of it (its pieces stay counted, so a
        # close stopped midway and begun again pulls from none of them)
        self._layer = [()] * len(self._layer)
        layer = []
        if parts:
            marks = np.zeros(0, dtype=np.uint64)  # one span, unless the layer is big
            span, every = self._span, self._sample
            if sum(len(part[0]) for part in parts) > span:
                sample = np.sort(np.concatenate([part[0][::every] for part in parts]))
                marks = sample[span // every :: span // every]
            cuts = [[0, *np.searchsorted(part[0], marks).tolist(), len(part[0])] for part in parts]
            for span in range(len(marks) + 1):
                control.check()
                pieces = [
                    (part, cut[span], cut[span + 1]) for part, cut in zip(parts, cuts) if cut[span] < cut[span + 1]
                ]
                if not pieces:
                    continue
                keys, first = np.unique(np.concatenate([p[0][a:b] for p, a, b in pieces]), return_index=True)
                self._table.add(keys, self.radius + 1)
                layer.append((
                    np.concatenate([p[1][a:b] for p, a, b in pieces])[first],
                    np.concatenate([p[2][:, a:b] for p, a, b in pieces], axis=1)[:, first],
                    np.concatenate([p[3][:, a:b] for p, a, b in pieces], axis=1)[:, first],
                ))
        self.radius += 1
        self.beyond = self.radius + 1
        self._layer = layer
        self._made = []
        self._done = (0, 0)

    def _pull(self, packed: np.ndarray, boxes: np.ndarray, regions: np.ndarray, most_pushes: int | None) -> tuple:
        """Every pull from these positions that makes one not yet in the table (and, with
        `most_pushes`, one some plan of that many pushes may go through): (keys, packed
        boxes, box words, region words), keys unique."""
        if most_pushes is not None:  # (a parent too far from the start has no child near enough)
            forward = self._forward_bound()
            near = forward.pushes(packed) + self.radius <= most_pushes
            packed, boxes, regions = packed[near], boxes[:, near], regions[:, near]
        parts = []
        for direction, step in enumerate(self._steps):
            # a box on c pulled to c + step: the player stands on c + step, backs onto c + 2 step
            pullable = boxes & _shift(regions, -step) & _shift(regions, -2 * step) & self._landing[direction]
            row, bit = _set_bits(pullable)
            to = bit + step
            child_packed = packed[row] ^ self._live_bit[bit] ^ self._live_bit[to]
            if most_pushes is not None:
                near = forward.pushes(child_packed) + self.radius + 1 <= most_pushes
                row, bit, to, child_packed = row[near], bit[near], to[near], child_packed[near]
            if not len(row):
                continue
            child = boxes[:, row] ^ (self._cell_words[bit] ^ self._cell_words[to]).T
            region = _flood(self._cell_words[to + step].T.copy(), self._floor & ~child, self.board.width)
            if self._images:
                keyed, rank = self._least(child_packed, region)
            else:
                keyed, rank = child_packed, self._rank[_lowest_bit(region)]
            key = (self._numbers(keyed) << np.uint64(self._rank_bits)) | rank
            parts.append((key, child_packed, child, region))
        if not parts:
            empty = np.zeros((self._words, 0), dtype=np.uint64)
            return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.uint64), empty, empty
        keys, first = np.unique(np.concatenate([part[0] for part in parts]), return_index=True)
        new = self._table.absent(keys)
        first = first[new]
        return (
            keys[new],
            np.concatenate([part[1] for part in parts])[first],
            np.concatenate([part[2] for part in parts], axis=1)[:, first],
            np.concatenate([part[3] for part in parts], axis=1)[:, first],
        )

    def _forward_bound(self) -> ForwardBound:
        if self._forward is None:
            # (the index was made in cell order: its keys are the box cells by index)
            self._forward = ForwardBound(self.board, self._start_boxes, list(self._live_index), self._symmetry)
        return self._forward

    def _least(self, packed: np.ndarray, regions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per position, the image that keys it (as `_key`): its box cells' word and its
        region's lowest floor rank."""
        eight, byte = np.uint64(8), np.uint64(255)
        images = []
        for boxes, _ in self._images:
            image = boxes[(packed & byte).astype(np.int64)]
            for position in range(1, 8):
                image |= boxes[position * 256 + ((packed >> (eight * np.uint64(position))) & byte).astype(np.int64)]
            images.append(image)
        best = np.minimum.reduce([packed, *images])
        rank = np.full(len(packed), NO_RANK, dtype=np.int64)
        own = np.flatnonzero(packed == best)
        rank[own] = self._rank[_lowest_bit(regions[:, own])]
        for (_, ranks), image in zip(self._images, images):
            tie = np.flatnonzero(image == best)  # (mostly one image per position)
            if len(tie):
                by_byte = np.ascontiguousarray(regions[:, tie].T).view(np.uint8).astype(np.int64)
                by_byte += np.arange(0, by_byte.shape[1] * 256, 256)
                rank[tie] = np.minimum(rank[tie], ranks[by_byte].min(axis=1))
        return best, rank.astype(np.uint64)

    def _numbers(self, packed: np.ndarray) -> np.ndarray:
        """The numbers of box sets given one word each (bit i: a box on box cell i)."""
        number = np.zeros(len(packed), dtype=np.uint64)
        below = np.zeros(len(packed), dtype=np.int64)
        width = self._by_byte.shape[0] // (8 * 256)
        for position in range(8):
            byte = ((packed >> np.uint64(8 * position)) & np.uint64(255)).astype(np.int64)
            number += self._by_byte[(position * 256 + byte) * width + below]
            below += self._ones[byte]
        return number


def _byte_adds(indices: list[int], boxes: int) -> tuple[int, ...]:
    """What boxes on these box cells (their indices, lowest first) add to a box set's
    number, per count of boxes below them (0 to `boxes`): the sum of C(j, below + i) over
    the i-th of them, on box cell j (0 where they would make more than `boxes`)."""
    return tuple(
        sum(comb(j, below + i) for i, j in enumerate(indices, 1)) if below + len(indices) <= boxes else 0
        for below in range(boxes + 1)
    )


def _shift(words: np.ndarray, by: int) -> np.ndarray:
    """Bit i of the result is bit i - by of `words` (a left shift by `by`; negative: right),
    over words shaped (words, n), lowest word first."""
    whole, part = divmod(abs(by), 64)
    if whole:  # whole words first, then the rest
        out = np.zeros_like(words)
        if whole < len(words):
            if by > 0:
                out[whole:] = words[:-whole]
            else:
                out[:-whole] = words[whole:]
        return _shift(out, part if by > 0 else -part)
    if by > 0:
        out = words << np.uint64(part)
        out[1:] |= words[:-1] >> np.uint64(64 - part)
    elif by < 0:
        out = words >> np.uint64(part)
        out[:-1] |= words[1:] << np.uint64(64 - part)
    else:
        out = words.copy()
    return out


def _set_bits(words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(column, bit) of every set bit of words shaped (words, n)."""
    as_bytes = np.ascontiguousarray(words.T).view(np.uint8)  # (n, 8 * words), little-endian
    row, position = np.nonzero(as_bytes)  # few bytes are set: their bits only
    bits = np.unpackbits(as_bytes[row, position][:, None], axis=1, bitorder="little")
    which, bit = np.nonzero(bits)
    return row[which], position[which] * 8 + bit


def _flood(seen: np.ndarray, free: np.ndarray, width: int) -> np.ndarray:
    """The regions of `free` reached from `seen`, column by column (side by side)."""
    free = free | seen
    done = np.empty_like(seen)
    active = np.arange(seen.shape[1])
    while len(active):
        # two rounds (sideways, then up and down) between looks at which columns still grow
        grown = seen
        for _ in range(2):
            across = (grown | _shift(grown, 1) | _shift(grown, -1)) & free
            grown = (across | _shift(across, width) | _shift(across, -width)) & free
        moving = grown[0] != seen[0]
        for k in range(1, len(grown)):
            moving |= grown[k] != seen[k]
        still = len(moving) - np.count_nonzero(moving)
        # half done: those columns drop out (a quarter, as before, gathered the columns
        # left so often that it cost more than the rounds they saved)
        if 2 * still >= len(moving):
            done[:, active[~moving]] = grown[:, ~moving]
            active, grown, free = active[moving], grown[:, moving], free[:, moving]
        seen = grown
    return done


def _lowest_bit(words: np.ndarray) -> np.ndarray:
    """The index of the lowest set bit of each column (every column has one)."""
    lowest = np.zeros(words.shape[1], dtype=np.int64)
    for k in range(words.shape[0] - 1, -1, -1):
        word = words[k]
        there = word != 0
        low = word[there] & (~word[there] + ONE)
        _, exponent = np.frexp(low.astype(np.float64))
        lowest[there] = exponent.astype(np.int64) - 1 + 64 * k
    return lowest

"""The labyrinth: what is at (x, y, z), built lazily chunk by chunk from the seed.

Only chunks that someone asks about are generated and cached, so a whole km
cube costs memory in proportion to what was explored.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable

from .cells import CELL_CHARS, MINOTAUR_OPEN, RAMP_DOWN, RAMP_UP, ROCK
from .constants import CHUNK, CHUNKS_PER_SIDE, MOVES_CACHE_CELLS, USER_SIGHT, WORLD_LEVELS, WORLD_SIZE
from .geometry import HORIZONTAL, ID_STEPS, LINES, X_SHIFT, Y_SHIFT, Pos, cell_id, id_pos, sight_table
from .maze import chunk_ramp, generate_chunk, ramp_cell
from .presets import Bounds

ChunkKey = tuple[int, int, int]  # (cx, cy, z)
_ROCK_CHUNK = bytes([ROCK]) * (CHUNK * CHUNK)  # a chunk outside the cube, as chunk_cells gives it


class World:
    """The cells of one seed's cube, generated on demand and remembered."""

    __slots__ = ("_chunks", "_exits", "_paths", "_ramp_cells", "_sights", "routes", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._chunks: dict[int, bytes] = {}
        self._ramp_cells: dict[ChunkKey, int] = {}  # where each ramp lies, by its lower chunk (maze.ramp_cell)
        self._paths: dict[int, tuple[int, ...]] = {}  # the Minotaur's moves from each cell, as asked, by cell id
        self._exits: dict[Pos, tuple[str, ...]] = {}  # the user's ways out of each cell, as asked
        self._sights: dict[Pos, tuple[tuple[Pos, int], ...]] = {}  # what the user sees from each cell, as asked
        self.routes: dict[tuple[Pos, Pos], tuple[Pos, ...]] = {}  # the Minotaur's paths found (pathfinding.py)

    @property
    def chunks_generated(self) -> int:
        return len(self._chunks)

    def cell(self, x: int, y: int, z: int) -> int:
        """The kind of cell at (x, y, z); ROCK outside the cube."""
        if not (0 <= x < WORLD_SIZE and 0 <= y < WORLD_SIZE and 0 <= z < WORLD_LEVELS):
            return ROCK
        return self._chunk(x >> 3, y >> 3, z)[((y & 7) << 3) | (x & 7)]

    def _chunk(self, cx: int, cy: int, z: int) -> bytes:
        """The cells of a chunk inside the cube, generated on first use."""
        key = (z * CHUNKS_PER_SIDE + cy) * CHUNKS_PER_SIDE + cx
        chunk = self._chunks.get(key)
        if chunk is None:
            chunk = self._chunks[key] = generate_chunk(self.seed, cx, cy, z, self._ramp_cell)
        return chunk

    def _ramp_cell(self, seed: int, cx: int, cy: int, z: int) -> int:
        """maze.ramp_cell, remembered: asked for by both chunks a ramp joins, and by ``ramps_within``."""
        key = (cx, cy, z)
        found = self._ramp_cells.get(key)
        if found is None:
            found = self._ramp_cells[key] = ramp_cell(seed, cx, cy, z)
        return found

    def chunk_cells(self, cx: int, cy: int, z: int) -> bytes:
        """The kinds of chunk (cx, cy, z)'s cells, a byte each, row by row from its southern row (the
        cell (x, y) at ``(y % CHUNK) * CHUNK + x % CHUNK``); all ROCK for a chunk outside the cube: a
        map read a chunk at a time, in one piece rather than CHUNK rows."""
        if not (0 <= cx < CHUNKS_PER_SIDE and 0 <= cy < CHUNKS_PER_SIDE and 0 <= z < WORLD_LEVELS):
            return _ROCK_CHUNK
        return self._chunk(cx, cy, z)

    def row(self, x0: int, width: int, y: int, z: int) -> bytes:
        """The kinds of ``width`` cells eastward from (x0, y, z), a byte each (ROCK outside the cube):
        a map's row read a chunk at a time instead of a cell at a time."""
        lo, hi = max(x0, 0), min(x0 + width, WORLD_SIZE)
        if lo >= hi or not (0 <= y < WORLD_SIZE and 0 <= z < WORLD_LEVELS):
            return bytes([ROCK]) * width
        start = (y % CHUNK) * CHUNK
        joined = b"".join(self._chunk(cx, y // CHUNK, z)[start:start + CHUNK]
                          for cx in range(lo // CHUNK, (hi - 1) // CHUNK + 1))
        inside = joined[lo % CHUNK:lo % CHUNK + hi - lo]
        return bytes([ROCK]) * (lo - x0) + inside + bytes([ROCK]) * (x0 + width - hi)

    def ramps_within(self, pos: Pos, reach: int) -> list[tuple[Pos, int]]:
        """The ramps at most ``reach`` steps (dx + dy) from ``pos`` on its level, with their kinds:
        read from where the seed puts each chunk's ramp, so no chunk is generated for it."""
        x, y, z = pos
        if not 0 <= z < WORLD_LEVELS:
            return []
        found = []
        last = CHUNKS_PER_SIDE - 1
        for cy in range(max(0, (y - reach) >> 3), min(last, (y + reach) >> 3) + 1):
            for cx in range(max(0, (x - reach) >> 3), min(last, (x + reach) >> 3) + 1):
                ramp = chunk_ramp(self.seed, cx, cy, z, self._ramp_cell)
                if ramp is None:
                    continue
                rx, ry = cx * CHUNK + (ramp[0] & 7), cy * CHUNK + (ramp[0] >> 3)
                if abs(rx - x) + abs(ry - y) <= reach:
                    found.append(((rx, ry, z), ramp[1]))
        return found

    def is_open(self, pos: Pos) -> bool:
        return self.cell(*pos) != ROCK

    def user_exits(self, pos: Pos) -> list[str]:
        """The directions the user can move from ``pos``, in a fixed order."""
        exits = self._exits.get(pos)
        if exits is None:
            if len(self._exits) >= MOVES_CACHE_CELLS:
                self._exits.clear()
            exits = self._exits[pos] = self._user_exits(pos)
        return list(exits)

    def _user_exits(self, pos: Pos) -> tuple[str, ...]:
        x, y, z = pos
        cell = self.cell
        exits = [d for d, (dx, dy) in HORIZONTAL.items() if cell(x + dx, y + dy, z) != ROCK]
        here = cell(x, y, z)
        if here == RAMP_UP:
            exits.append("UP RAMP")
        elif here == RAMP_DOWN:
            exits.append("DOWN RAMP")
        return tuple(exits)

    def minotaur_neighbours(self, pos: Pos) -> tuple[Pos, ...]:
        """Cells the Minotaur can step to from ``pos`` (no crawlways), ramps included."""
        return tuple(map(id_pos, self.minotaur_moves(cell_id(pos))))

    def minotaur_moves(self, cid: int) -> tuple[int, ...]:
        """``minotaur_neighbours`` by cell id (geometry.cell_id), remembered: what the searches read."""
        moves = self._paths.get(cid)
        if moves is None:
            if len(self._paths) >= MOVES_CACHE_CELLS:
                self._paths.clear()
            moves = self._paths[cid] = self._minotaur_moves(cid)
        return moves

    @property
    def known_moves(self) -> dict[int, tuple[int, ...]]:
        """The Minotaur's moves found so far by cell id, for a search that reads them in its inner loop
        and asks ``minotaur_moves`` for the others (read only: that method is its one writer)."""
        return self._paths

    def moves_within(self, chunks: Iterable[ChunkKey]
                     ) -> tuple[dict[int, tuple[int, ...]], Callable[[int], tuple[int, ...]]]:
        """``minotaur_moves`` among the cells of ``chunks`` only, (cx, cy, z) keys, for a search confined
        to them (a PATHFIND corridor), which generates no chunk outside them: a table of the moves worked
        out so far, to read first, and the function that answers for any other cell. A search expands
        nearly every open cell of a chunk it enters, so it works out the moves of all of them at once
        (``_chunk_moves``), into the table, which lives as long as the search."""
        inside = {(z * CHUNKS_PER_SIDE + cy) * CHUNKS_PER_SIDE + cx for cx, cy, z in chunks}
        known: dict[int, tuple[int, ...]] = {}
        chunk_moves = self._chunk_moves

        def moves(cid: int) -> tuple[int, ...]:
            chunk_moves(cid, inside, known)
            return known[cid]
        return known, moves

    def _chunk_moves(self, cid: int, within: Container[int], into: dict[int, tuple[int, ...]]) -> None:
        """The moves of every open cell of ``cid``'s chunk into ``within``'s chunks (keys as ``_chunks``'s), into
        ``into``: ``_minotaur_moves`` with a way into any other chunk left out, in one pass over the chunk's
        bytes. A step east or north out of a chunk lands on a maze cell of the next one, always open
        (maze.py: a chunk's openings lie in its own east column and north row), so only the chunks west
        and south are read, each once: the others are not generated for the search's sake."""
        x, y, z = cid >> X_SHIFT, (cid >> Y_SHIFT) & 511, cid & 255
        cx, cy = x >> 3, y >> 3
        chunks = self._chunks
        key = (z * CHUNKS_PER_SIDE + cy) * CHUNKS_PER_SIDE + cx
        chunk = chunks.get(key) or self._chunk(cx, cy, z)
        opened = chunk.translate(_OPEN)
        base = cid - ((x & 7) << X_SHIFT) - ((y & 7) << Y_SHIFT)
        # by HORIZONTAL, the next chunks' cells as opened (none where the search may not enter), then this one's
        opens = []
        for dcx, dcy in HORIZONTAL.values():
            ncx, ncy, nkey = cx + dcx, cy + dcy, key + dcy * CHUNKS_PER_SIDE + dcx
            if not (0 <= ncx < CHUNKS_PER_SIDE and 0 <= ncy < CHUNKS_PER_SIDE and nkey in within):
                opens.append(_NONE_OPEN)
            elif dcx > 0 or dcy > 0:
                opens.append(_ALL_OPEN)
            else:
                opens.append((chunks.get(nkey) or self._chunk(ncx, ncy, z)).translate(_OPEN))
        opens.append(opened)
        up, down = key + _LEVEL_CHUNKS in within, key - _LEVEL_CHUNKS in within
        for local, steps in enumerate(_CHUNK_STEPS):
            if not opened[local]:
                continue
            cell, out = base + _LOCAL_IDS[local], []
            for index, step, side in steps:
                if opens[side][index]:
                    out.append(cell + step)
            here = chunk[local]
            if here == RAMP_UP:
                if up:
                    out.append(cell + 1)
            elif here == RAMP_DOWN and down:
                out.append(cell - 1)
            into[cell] = tuple(out)

    def _minotaur_moves(self, cid: int) -> tuple[int, ...]:
        """The moves from cell ``cid``, read from the chunks' bytes directly, the next chunk's too."""
        x, y, z = cid >> X_SHIFT, (cid >> Y_SHIFT) & 511, cid & 255
        local = ((y & 7) << 3) | (x & 7)
        cx, cy = x >> 3, y >> 3
        chunks = self._chunks
        key = (z * CHUNKS_PER_SIDE + cy) * CHUNKS_PER_SIDE + cx
        chunk = chunks.get(key) or self._chunk(cx, cy, z)
        out = []
        for inner, step, dcx, dcy, across in _STEPS[local]:
            if inner >= 0:
                kind = chunk[inner]
            else:  # in the next chunk, if there is one (ROCK beyond the cube)
                ncx, ncy = cx + dcx, cy + dcy
                if not (0 <= ncx < CHUNKS_PER_SIDE and 0 <= ncy < CHUNKS_PER_SIDE):
                    continue
                other = chunks.get(key + dcy * CHUNKS_PER_SIDE + dcx) or self._chunk(ncx, ncy, z)
                kind = other[across]
            if _OPEN[kind]:
                out.append(cid + step)
        here = chunk[local]
        if here == RAMP_UP:
            out.append(cid + 1)
        elif here == RAMP_DOWN:
            out.append(cid - 1)
        return tuple(out)

    def line_clear(self, a: Pos, b: Pos) -> bool:
        """Line of sight between two cells of one level, at most the Minotaur's sight apart."""
        x, y, z = a
        between = LINES.get((b[0] - x, b[1] - y))
        if between is None or a[2] != b[2]:
            return False
        cell = self.cell
        return all(cell(x + dx, y + dy, z) != ROCK for dx, dy in between)

    def visible_cells(self, pos: Pos, radius: int = USER_SIGHT) -> tuple[tuple[Pos, int], ...]:
        """The cells the user sees from ``pos`` within ``radius`` steps (senses.user_sight) with their kinds:
        the map it learns. The user's usual sight is remembered by cell; a wider one (an item's effect) is not."""
        seen = self._sights.get(pos) if radius == USER_SIGHT else None
        if seen is None:
            x, y, z = pos
            cell = self.cell
            seen = tuple(((x + dx, y + dy, z), cell(x + dx, y + dy, z)) for dx, dy, between in sight_table(radius)
                         if all(cell(x + bx, y + by, z) != ROCK for bx, by in between))
            if radius == USER_SIGHT:
                if len(self._sights) >= MOVES_CACHE_CELLS:
                    self._sights.clear()
                self._sights[pos] = seen
        return seen


    def level_rows(self, bounds: Bounds, z: int) -> list[str]:
        """Rows of one level of a box as text (``CELL_CHARS``), the northernmost first."""
        last_x, last_y, _ = bounds.last
        first_cx, last_cx = bounds.x0 >> 3, last_x >> 3
        skip = bounds.x0 - first_cx * CHUNK
        rows = []
        for y in range(last_y, bounds.y0 - 1, -1):
            for cx in range(first_cx, last_cx + 1):
                self.cell(cx * CHUNK, y, z)  # make sure the chunk exists
            base = (z * CHUNKS_PER_SIDE + (y >> 3)) * CHUNKS_PER_SIDE
            start = (y & 7) * CHUNK
            row = b"".join(self._chunks[base + cx][start:start + CHUNK] for cx in range(first_cx, last_cx + 1))
            rows.append(row[skip:skip + bounds.width].translate(_CHAR_TABLE).decode())
        return rows


def _step_table() -> tuple[tuple[tuple[int, int, int, int, int], ...], ...]:
    """For each cell of a chunk (its index, row by row), each horizontal step in HORIZONTAL's order
    as (the neighbour's index in the same chunk or -1 when it lies in the next one, what the step
    adds to a cell id, which way the next chunk lies (dcx, dcy: 0, 0 inside), the neighbour's index
    in whichever chunk holds it)."""
    table = []
    for i in range(CHUNK * CHUNK):
        lx, ly, steps = i & 7, i >> 3, []
        for d, (dx, dy) in HORIZONTAL.items():
            dcx, dcy = (lx + dx) // CHUNK, (ly + dy) // CHUNK
            index = ((ly + dy) % CHUNK) * CHUNK + (lx + dx) % CHUNK
            steps.append((index if dcx == dcy == 0 else -1, ID_STEPS[d], dcx, dcy, index))
        table.append(tuple(steps))
    return tuple(table)


_STEPS = _step_table()
# _STEPS for _chunk_moves: (the neighbour's index in whichever chunk holds it, what the step adds to a cell id,
# which chunk holds it: the next one's place in HORIZONTAL, or 4 for the same chunk).
_CHUNK_STEPS = tuple(tuple((index, step, 4 if inner >= 0 else tuple(HORIZONTAL.values()).index((dcx, dcy)))
                           for inner, step, dcx, dcy, index in steps) for steps in _STEPS)
_LEVEL_CHUNKS = CHUNKS_PER_SIDE * CHUNKS_PER_SIDE  # what a level up adds to a chunk's key
_LOCAL_IDS = tuple(((i & 7) << X_SHIFT) + ((i >> 3) << Y_SHIFT) for i in range(CHUNK * CHUNK))  # in a chunk's cell ids
_OPEN = bytes(int(kind in MINOTAUR_OPEN) for kind in range(256))  # by kind: 1 where the Minotaur may stand
_ALL_OPEN, _NONE_OPEN = bytes([1]) * (CHUNK * CHUNK), bytes(CHUNK * CHUNK)
_CHAR_TABLE = bytes(ord(CELL_CHARS[i]) if i < len(CELL_CHARS) else ord("?") for i in range(256))

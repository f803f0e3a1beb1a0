"""The built-in user's memory of the labyrinth: the cells it has seen, and
searches over them (it plans only through what it knows).

The ways between known open cells and the set of frontier cells (open cells with
an unseen neighbour) are kept up to date as cells are learned, because the
user searches its map every turn.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from labyrinth.engine.cells import CELL_CHARS, ROCK
from labyrinth.engine.geometry import HORIZONTAL as STEPS
from labyrinth.engine.geometry import Pos

OPEN = frozenset(CELL_CHARS) - {CELL_CHARS[ROCK]}
Found = dict[Pos, tuple[int, Pos | None]]  # a search's cells: cell -> (distance, previous cell)
Searched = Mapping[Pos, tuple[int, Pos | None]]  # the same, whole (Found) or worked out as asked (Reach)
_WORD = {step: word for word, step in STEPS.items()}
_AROUND = tuple(STEPS.values())


class UserMap:
    """Cells seen, by kind character ('.', '=', '^', 'v'; '#' for rock)."""

    def __init__(self) -> None:
        self.cells: dict[Pos, str] = {}
        # Open cell -> its known open neighbours on the level, in the order of STEPS as they were
        # learned (``moves`` adds their words). Each cell is one tuple object throughout (``_one``),
        # so that the search's lookups match by identity, not by comparing coordinates.
        self.ways: dict[Pos, list[Pos]] = {}
        self._one: dict[Pos, Pos] = {}
        self.frontier: set[Pos] = set()

    def learn(self, seen: Iterable[Sequence[Any]]) -> None:
        """Take in the cells seen ([x, y, z, kind] of the observation's JSON); one seen before is passed over."""
        cells, one, ways, touched = self.cells, self._one, self.ways, set()
        for x, y, z, kind in seen:
            p = (x, y, z)
            if p in cells:
                continue
            cells[p] = kind
            touched.add(p)
            is_open = kind in OPEN
            if is_open:
                one[p] = p
                out = ways.setdefault(p, [])
            for dx, dy in _AROUND:
                n = (x + dx, y + dy, z)
                touched.add(n)
                if is_open and (known := one.get(n)) is not None:
                    out.append(known)
                    ways[known].append(p)
        for p in touched:
            if p in one and self._unseen_side(p):
                self.frontier.add(p)
            else:
                self.frontier.discard(p)

    def _unseen_side(self, p: Pos) -> bool:
        cells = self.cells
        x, y, z = p
        for dx, dy in _AROUND:
            if (x + dx, y + dy, z) not in cells:
                return True
        here = cells[p]
        return (here == "^" and (x, y, z + 1) not in cells) or (here == "v" and (x, y, z - 1) not in cells)

    def kind(self, p: Pos) -> str | None:
        return self.cells.get(p)

    def moves(self, p: Pos, ramps: str = "^v") -> list[tuple[str, Pos]]:
        """Known ways out of ``p``: (direction word, next cell). A ramp whose kind is
        in ``ramps`` leads to the cell above or below, even before that level was seen."""
        out = [(_WORD[n[0] - p[0], n[1] - p[1]], n) for n in self.ways.get(p, ())]
        here = self.cells.get(p)
        if here == "^" and "^" in ramps:
            return [*out, ("UP RAMP", (p[0], p[1], p[2] + 1))]
        if here == "v" and "v" in ramps:
            return [*out, ("DOWN RAMP", (p[0], p[1], p[2] - 1))]
        return out

    def is_frontier(self, p: Pos) -> bool:
        """An open cell with an unseen neighbour, or a ramp to a level not yet seen there."""
        return p in self.frontier

    def exits(self, p: Pos) -> int:
        """How many known open neighbours on the level: 1 is a dead end."""
        return len(self.ways.get(p, ()))

    def search(self, start: Pos, limit: int, avoid: AbstractSet[Pos] = frozenset(), ramps: str = "^v") -> Found:
        """Breadth-first over known cells, through the kinds of ramp in ``ramps``:
        cell -> (distance, previous cell), at most ``limit`` cells, in the order reached."""
        return self.reach(start, limit, avoid, ramps).whole()

    def reach(self, start: Pos, limit: int, avoid: AbstractSet[Pos] = frozenset(), ramps: str = "^v") -> Reach:
        """The same search, worked out only as far as it is asked about (Reach)."""
        found: Found = {start: (0, None)}
        return Reach(found, self._breadth_first(found, {*avoid, start}, limit, ramps))

    def _breadth_first(self, found: Found, closed: set[Pos], limit: int, ramps: str) -> Iterator[list[Pos]]:
        """Take the cells one step farther into ``found``, handing over each layer's (at most
        ``limit`` cells in all: it may stop within a layer); ``closed``: the cells not to enter,
        those found among them.

        The user searches every turn, so this is written out: one distance a layer, the ways
        out of ``moves`` read straight from ``ways`` and the ramps. It reaches the cells in the
        order ``moves`` gives them, which every tie-break of the callers depends on."""
        ways_out, cells, ramp_kinds = self.ways.get, self.cells.get, set(ramps)
        layer, dist = list(found), 0
        while layer and len(found) < limit:
            dist += 1
            reached = []
            for here in layer:
                if len(found) >= limit:
                    break
                ways = ways_out(here, ())
                if ramp_kinds:
                    kind = cells(here)
                    if kind in ramp_kinds:
                        ways = [*ways, (here[0], here[1], here[2] + (1 if kind == "^" else -1))]
                for nxt in ways:
                    if nxt not in closed:
                        closed.add(nxt)
                        found[nxt] = (dist, here)
                        reached.append(nxt)
            yield reached
            layer = reached


class Reach(Mapping[Pos, tuple[int, Pos | None]]):
    """A search's cells, worked out only as far as it is asked about: cell -> (distance,
    previous cell). Walking on to a goal it has, the user needs the cells up to that goal (a
    sixth of all it can reach, on average); choosing a new goal, those up to a distance the
    best one found so far rules out. The cells come in the same order however far it goes,
    and never beyond the whole search's ``limit``, so every question has the answer the whole
    search would give, as long as the map learns nothing meanwhile (a Reach serves one turn)."""

    def __init__(self, found: Found, layers: Iterator[list[Pos]]) -> None:
        self.found = found  # the cells reached so far
        self._layers = layers  # each takes the cells one step farther

    def __contains__(self, p: object) -> bool:
        found = self.found
        if p in found:
            return True
        for _ in self._layers:
            if p in found:
                return True
        return False

    def __getitem__(self, p: Pos) -> tuple[int, Pos | None]:
        if p in self:
            return self.found[p]
        raise KeyError(p)

    def __iter__(self) -> Iterator[Pos]:
        return iter(self.whole())

    def __len__(self) -> int:
        return len(self.whole())

    def items(self) -> ItemsView[Pos, tuple[int, Pos | None]]:
        return self.whole().items()

    def whole(self) -> Found:
        """Every cell the search reaches."""
        for _ in self._layers:
            pass
        return self.found

    def nearest_first(self) -> Iterator[tuple[Pos, tuple[int, Pos | None]]]:
        """The cells with their (distance, previous cell) in the order reached, so by distance,
        searching on only as far as they are taken. Ask nothing else while taking them: a
        layer it searched for a question would be missed."""
        found = self.found
        yield from list(found.items())
        for layer in self._layers:
            for cell in layer:
                yield cell, found[cell]


def path_to(found: Searched, goal: Pos) -> list[Pos]:
    """The searched path from the search's start to ``goal``, both included."""
    path = [goal]
    while (prev := found[path[-1]][1]) is not None:
        path.append(prev)
    path.reverse()
    return path


def first_leg(path: list[Pos]) -> tuple[str, int]:
    """The first straight stretch of a path: (direction word, steps)."""
    direction = step_word(path[0], path[1])
    steps = 1
    while steps + 1 < len(path) and step_word(path[steps], path[steps + 1]) == direction and "RAMP" not in direction:
        steps += 1
    return direction, steps


def step_word(a: Pos, b: Pos) -> str:
    """The move from ``a`` to the next cell ``b``."""
    if b[2] != a[2]:
        return "UP RAMP" if b[2] > a[2] else "DOWN RAMP"
    return _WORD[b[0] - a[0], b[1] - a[1]]

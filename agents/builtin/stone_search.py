"""Where a stone can be, as the built-in user works it out: every maze cell of
the stone's level in the hunting ground whose compass bearing matches every hum
heard so far, and that it has not seen empty. Each LOOK from a new place, and
each cell seen, narrows the set."""

from __future__ import annotations

from collections.abc import Container, Iterable

from labyrinth.engine.geometry import Pos

from .bearings import row_spans

LEVEL_GAP = 8  # the steps gap counts for each level between a place and the candidates' box (ppo_routes counts alike)


class StoneSearch:
    def __init__(self, ground: dict[str, int], looked: Container[Pos]) -> None:
        """``looked``: the cells seen so far (the user's map); a stone in one would have been seen."""
        self.ground = ground
        self.looked = looked
        # By stone: the places it may lie in. A narrowed set replaces the old one, never changes it in place, so
        # a reader may keep what it worked out from a set for as long as it holds the same set (an RL observation).
        self.candidates: dict[str, set[Pos]] = {}
        self._boxes: dict[str, tuple[int, int, int, int, int]] = {}
        # each stone's last hum: where, its bearing, its levels
        self._heard: dict[str, tuple[Pos, str | None, int]] = {}
        self._ends: dict[str, dict[int, tuple[int, int]]] = {}  # bounds of the places' rows (_row_ends)

    def hear(self, name: str, at: Pos, direction: str | None, levels: int) -> None:
        """A hum heard at ``at``: keep only the cells it agrees with (its bearing from ``at``, compass's
        word, is ``direction``). The same hum heard again from the same place is no news: every place
        left agrees with it already (or, a contradiction kept, none does), however the set narrowed
        since, so it is not worked out again; nor is one that the places' whole box agrees with."""
        z = at[2] + levels
        cells = self.candidates.get(name)
        if self._heard.get(name) == (at, direction, levels) and cells and next(iter(cells))[2] == z:
            return
        self._heard[name] = (at, direction, levels)
        g = self.ground
        xs = range(g["x0"], g["x0"] + g["width"])
        ends: dict[int, tuple[int, int]] | None
        if cells is None or not cells or next(iter(cells))[2] != z:
            # A level heard first: the maze cells (even x and y) it agrees with, of those not seen yet.
            spans, odd = row_spans(at, direction, range(g["y0"], g["y0"] + g["height"], 2), xs), g["x0"] & 1
            kept = {(x, y, z) for y, span in spans.items()
                    for x in range(span.start + ((span.start ^ odd) & 1), span.stop, 2) if (x, y, z) not in self.looked}
            if kept:  # then it is smaller than the level's places not seen, or all of them
                self._set(name, kept, {y: (span.start, span.stop - 1) for y, span in spans.items() if span})
                return
            level = {(x, y, z) for x in range(g["x0"], g["x0"] + g["width"], 2)
                     for y in range(g["y0"], g["y0"] + g["height"], 2)}
            cells, ends = {c for c in level if c not in self.looked} or level, None
        else:  # a sector is convex: a row of places agrees with it when its two ends (or bounds on them) do
            bounds = self._row_ends(name)
            spans = row_spans(at, direction, bounds, xs)
            ends = {y: (max(west, span.start), min(east, span.stop - 1)) for y, (west, east) in bounds.items()
                    if (span := spans[y]) and west < span.stop and east >= span.start}
            if ends == bounds or not ends:
                return  # every place agrees (no news), or none does (a contradiction): the places are kept
        kept = {c for c in cells if c[0] in spans[c[1]]}
        if kept and len(kept) < len(cells):  # an empty set would be a contradiction, a whole one no news: keep the old
            cells = kept
        if cells is not self.candidates.get(name):
            self._set(name, cells, ends)

    def in_ground(self, p: Pos) -> bool:
        """Whether ``p`` lies in the hunting ground, where every stone and lantern is placed:
        the map beyond it is no place to search."""
        g = self.ground
        return g["x0"] <= p[0] < g["x0"] + g["width"] and g["y0"] <= p[1] < g["y0"] + g["height"] \
            and g["z0"] <= p[2] < g["z0"] + g["levels"]

    def look(self, cells: Iterable[Pos]) -> None:
        """Cells just seen, with no stone in them unless ``seen`` says so: no stone is there."""
        cells = set(cells)
        for name, places in self.candidates.items():
            if not places.isdisjoint(cells):
                self._set(name, (places - cells) or places, self._ends.get(name))  # the one place it was seen stays

    def places(self, names: Iterable[str]) -> int:
        """How many places the named stones may still be in (a stone not heard yet: the whole ground)."""
        g = self.ground
        whole = (g["width"] // 2) * (g["height"] // 2) * g["levels"]
        return sum(len(self.candidates[n]) if n in self.candidates else whole for n in names)

    def seen(self, name: str, at: Pos) -> None:
        if self.candidates.get(name) != {at}:
            self._set(name, {at})

    def _row_ends(self, name: str) -> dict[int, tuple[int, int]]:
        """By y, bounds on the westmost and eastmost x of the stone's places in that row (all ``hear``
        asks of them): kept from the sector they were narrowed to and while places seen empty are
        dropped (every turn), worked out from the places only when a stone was seen."""
        ends = self._ends.get(name)
        if ends is None:
            west: dict[int, int] = {}
            east: dict[int, int] = {}
            for x, y, _ in self.candidates[name]:
                if x < west.get(y, x + 1):
                    west[y] = x
                if x > east.get(y, x - 1):
                    east[y] = x
            ends = self._ends[name] = {y: (x, east[y]) for y, x in west.items()}
        return ends

    def _set(self, name: str, cells: set[Pos], ends: dict[int, tuple[int, int]] | None = None) -> None:
        """The stone's places are now ``cells``; ``ends``: bounds on their rows (_row_ends), when known."""
        self.candidates[name] = cells
        if ends is None:
            self._ends.pop(name, None)
        else:
            self._ends[name] = ends
        xs, ys = [c[0] for c in cells], [c[1] for c in cells]
        self._boxes[name] = (min(xs), max(xs), min(ys), max(ys), next(iter(cells))[2])

    def box(self, name: str) -> tuple[int, int, int, int, int] | None:
        """The candidates' bounding box (x0, x1, y0, y1, z), or None before any hum."""
        return self._boxes.get(name)

    def gap(self, name: str, p: Pos) -> int:
        """Steps from ``p`` to the nearest corner of the candidates' box on the same level (a level counts
        LEVEL_GAP)."""
        box = self.box(name)
        if box is None:
            return 0
        x0, x1, y0, y1, z = box
        dx = max(x0 - p[0], 0, p[0] - x1)
        dy = max(y0 - p[1], 0, p[1] - y1)
        return dx + dy + LEVEL_GAP * abs(z - p[2])

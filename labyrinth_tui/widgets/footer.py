"""Textual's Footer, rebuilt only when the keys it shows change, and fitted to its width.

Textual's Footer throws its keys away and builds them again each time the screen's bindings may have
changed: a focus moving, look mode, a level peeked at, each of which also re-applies the stylesheet to
every key. That was 20-25 ms of such a key press at 120x40, for a footer that showed the same keys
after as before. This one compares what it would show (each key, its words, whether it is enabled, its
tooltip and group) with what it shows, and rebuilds only when they differ.

Where the keys do not all fit (80 columns), the entries first lose their padding (Textual's compact
footer), then whole entries go, the least used first (``LEAST_USED``: the command palette's among them,
the lantern's last), then from the right, help and Esc last, rather than the last one cut in the middle
of its word (`space ha`): every key stays in the help.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterLabel

# Binding ids, the first to go when the footer is too narrow: what the help and the mouse also give.
PALETTE = "command-palette"  # the palette's entry, which has no binding id of ours
LEAST_USED = ("map-examine", "map-halt", "messages", "map-level-up", "replay-omniscient", "spectate-omniscient",
              "to-title", "save", PALETTE, "quit", "map-use")  # ids of bindings (keymap.py's are "map-" and the action)
KEPT = ("help",)  # the last to go, with Esc's entry: where every key is told, and the way back
# Below this width the entries lose their padding (Textual's compact footer), so that 80 columns keep the lantern.
COMPACT_BELOW = 100


class SteadyFooter(Footer):
    # Textual's compact footer runs a group's label (`<> ramps`) into the next key: keep its space.
    DEFAULT_CSS = """
    SteadyFooter.-compact FooterLabel {
        margin: 0 1 0 0;
    }
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._showing: tuple[tuple[Any, ...], ...] | None = None
        self._widths: dict[Widget, int] = {}  # each entry's width as built, all shown: what it needs

    def bindings_changed(self, screen: Screen) -> None:
        showing = tuple((binding.key, binding.key_display, binding.description, binding.action, enabled, tooltip,
                         binding.group) for _, binding, enabled, tooltip in screen.active_bindings.values()
                        if binding.show)
        if showing == self._showing and screen.app.app_focus:
            return
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self._showing = showing  # Footer rebuilds now (it waits for the app's focus to do so)
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        await super().recompose()
        self._widths = {}  # measured once the new keys are laid out (a screen in the background lays out later)

    def on_mount(self) -> None:
        super().on_mount()
        self.screen.screen_layout_refresh_signal.subscribe(self, self._laid_out)

    def on_unmount(self) -> None:
        super().on_unmount()
        self.screen.screen_layout_refresh_signal.unsubscribe(self)

    def _laid_out(self, screen: Screen) -> None:
        if not self._widths:
            self._fit()

    def on_resize(self) -> None:
        narrow = self.size.width < COMPACT_BELOW
        if narrow != self.compact:  # the entries' widths change: all shown, measured again once laid out (_laid_out)
            self.compact, self._widths = narrow, {}
            for child in self.children:
                child.display = True
            return
        self._fit()

    def _entries(self) -> list[list[Widget]]:
        """The footer's entries, left to right: a key, or a group's keys followed by its label; the
        command palette's key, docked at the right, first."""
        entries: list[list[Widget]] = []
        for child in self.children:
            if isinstance(child, FooterLabel) and entries:
                entries[-1].append(child)
            elif child.has_class("-command-palette"):
                entries.insert(0, [child])
            else:
                entries.append([child])
        return entries

    def _fit(self) -> None:
        """Show the entries that fit, leaving out the least used first."""
        entries = self._entries()
        if not self._widths:  # just built: every entry is shown, at its own width once laid out
            measured = {child: child.outer_size.width + child.styles.margin.width for entry in entries
                        for child in entry}
            if not all(measured.values()):
                return
            self._widths = measured
        widths = [sum(self._widths.get(child, 0) for child in entry) for entry in entries]
        need, left_out = sum(widths), set()
        for at in sorted(range(len(entries)), key=lambda at: self._rank(entries[at], at, len(entries))):
            if need <= self.size.width:
                break
            need -= widths[at]
            left_out.add(at)
        for at, entry in enumerate(entries):
            for child in entry:
                child.display = at not in left_out

    def _rank(self, entry: list[Widget], at: int, count: int) -> tuple[int, int]:
        """Which entries go first: those of LEAST_USED in its order, then from the right."""
        if entry[0].has_class("-command-palette"):
            return (LEAST_USED.index(PALETTE), 0)
        key = getattr(entry[0], "key", None) or getattr(next(iter(entry[0].children), None), "key", None)
        bound = self.screen.active_bindings.get(key) if key else None
        ident = bound.binding.id if bound is not None else None
        if ident in LEAST_USED:
            return (LEAST_USED.index(ident), 0)
        return (len(LEAST_USED) + 1 + (ident in KEPT or key == "escape"), count - at)

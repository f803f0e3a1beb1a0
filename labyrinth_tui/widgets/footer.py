"""Textual's Footer, rebuilt only when the keys it shows change.

Textual's Footer throws its keys away and builds them again each time the screen's bindings may have
changed: a focus moving, look mode, a level peeked at, each of which also re-applies the stylesheet to
every key. That was 20-25 ms of such a key press at 120x40, for a footer that showed the same keys
after as before. This one compares what it would show (each key, its words, whether it is enabled, its
tooltip and group) with what it shows, and rebuilds only when they differ.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Footer


class SteadyFooter(Footer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._showing: tuple[tuple[Any, ...], ...] | None = None

    def bindings_changed(self, screen: Screen) -> None:
        showing = tuple((binding.key, binding.key_display, binding.description, binding.action, enabled, tooltip,
                         binding.group) for _, binding, enabled, tooltip in screen.active_bindings.values()
                        if binding.show)
        if showing == self._showing and screen.app.app_focus:
            return
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self._showing = showing  # Footer rebuilds now (it waits for the app's focus to do so)
        super().bindings_changed(screen)

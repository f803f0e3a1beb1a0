"""A Static that asks for a layout only when its box must change: when its height follows its content
(``height: auto``) and the new content's number of lines differs from the box's.

Static.update lays the whole screen out again by default, whatever changed: on the game screen that
was four layouts a turn (the status line, the cue panel, the threat line, the hint), 12 ms each
measured at 120x40, most of a key's time. A one-line status whose words change keeps its box, and
so does a cue panel whose three lines say something new.
"""

from __future__ import annotations

from textual.visual import VisualType
from textual.widgets import Static


class Fitted(Static):
    def update(self, content: VisualType = "", *, layout: bool | None = None) -> None:
        """``layout``: True or False to decide, None (the default) to lay out only if the box changes."""
        super().update(content, layout=False)
        if layout or (layout is None and self._box_changes()):
            self.refresh(layout=True)

    def _box_changes(self) -> bool:
        height = self.styles.height
        if height is not None and not height.is_auto:
            return False  # a fixed height: the words change, never the box
        size = self.content_size
        if not size.width:
            return False  # hidden, or not laid out yet: showing it, or its first layout, will measure it
        return self.get_content_height(size, self.app.size, size.width) != size.height

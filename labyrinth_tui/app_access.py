"""The one typed way from a screen or a widget to the LabyrinthApp it runs in."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.message_pump import MessagePump

if TYPE_CHECKING:  # app.py imports the screens, which import this: the app is known here by its type only
    from .app import LabyrinthApp


def labyrinth_app(node: MessagePump) -> LabyrinthApp:
    """``node.app``, as the LabyrinthApp it is. Textual types it ``App[object]`` (it knows no app
    subclass), and the import cycle keeps textual.getters.app, which would check it, out of the screens'
    class bodies; every screen and widget that asks for this runs in a LabyrinthApp (run() makes one)."""
    return cast("LabyrinthApp", node.app)

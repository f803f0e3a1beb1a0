"""Blocking calls (a model's answer) off the UI thread, in daemon threads.

Textual's thread workers run in asyncio's default executor, which is joined
when the app exits: quitting while a model thinks would wait for its answer
(measured: 9.5 s for a 10 s reply; up to about 100 s with the default timeout
and retries). A daemon thread is simply left behind.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from textual.app import App


def run_in_background(app: App, call: Callable[[], Any],
                      done: Callable[[Any, BaseException | None], None]) -> None:
    """Run ``call()`` in a daemon thread, then ``done(result, error)`` on the UI thread."""
    def run() -> None:
        try:
            result, error = call(), None
        except Exception as exc:  # noqa: BLE001 - handed to ``done``, which tells the player
            result, error = None, exc
        try:
            app.call_from_thread(done, result, error)
        except RuntimeError:
            pass  # the app has closed meanwhile: nobody waits for the answer

    threading.Thread(target=run, daemon=True, name="labyrinth-background").start()

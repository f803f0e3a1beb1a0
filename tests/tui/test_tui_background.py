"""Work off the UI thread (labyrinth_tui/background.py): what it gives back arrives on the UI
thread as ``done(result)``, what it raised as ``failed(error)``, never both, and nothing at all
once the app has closed."""

from __future__ import annotations

import threading

from textual.app import App

from labyrinth.tui.background import run_in_background
from tests.tui.test_tui import wait_for


async def test_a_result_goes_to_done_and_an_error_to_failed_on_the_ui_thread():
    app, heard = App(), []
    ui = threading.get_ident()

    def hear(what: str):
        return lambda value: heard.append((what, value, threading.get_ident() == ui))

    def broken() -> int:
        raise ZeroDivisionError("no")

    async with app.run_test() as pilot:
        run_in_background(app, lambda: 42, hear("done"), hear("failed"))
        await wait_for(pilot, lambda: len(heard) == 1)
        run_in_background(app, broken, hear("done"), hear("failed"))
        await wait_for(pilot, lambda: len(heard) == 2)
    (first, result, on_ui), (second, error, error_on_ui) = heard
    assert (first, result, on_ui) == ("done", 42, True)
    assert second == "failed" and isinstance(error, ZeroDivisionError) and error_on_ui


def _background() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == "labyrinth-background"}


async def test_nothing_comes_back_once_the_app_has_closed():
    app, heard, gate = App(), [], threading.Event()
    before = _background()
    async with app.run_test():
        run_in_background(app, lambda: gate.wait(timeout=10), heard.append, heard.append)
        (thread,) = _background() - before
    gate.set()  # the call returns after the app has gone
    thread.join(timeout=10)
    assert not thread.is_alive() and heard == []

"""Blocking calls (a model's answer) off the UI thread, in daemon threads, and
a turn of the one turn loop carried on from a screen that must stay live.

Textual's thread workers run in asyncio's default executor, which is joined
when the app exits: quitting while a model thinks would wait for its answer
(measured: 9.5 s for a 10 s reply; up to about 100 s with the default timeout
and retries). A daemon thread is simply left behind.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from textual.app import App
from textual.message import Message
from textual.screen import Screen

from labyrinth.agents.runner import Answer, Match, Turn


def run_in_background(app: App, call: Callable[[], Any],
                      done: Callable[[Any, BaseException | None], None]) -> None:
    """Run ``call()`` in a daemon thread, then ``done(result, error)`` on the UI thread."""
    def run() -> None:
        try:
            result, error = call(), None
        except Exception as exc:  # noqa: BLE001 - handed to ``done``, which tells the player
            result, error = None, exc
        if not app.is_running:
            return  # the app has closed meanwhile: nobody waits for the answer
        try:
            app.call_from_thread(done, result, error)
        except RuntimeError:
            pass  # it closed between the check and the call

    threading.Thread(target=run, daemon=True, name="labyrinth-background").start()


class Session(Protocol):
    """What a turn is carried on with: a session's match, and its step that takes the answers."""

    match: Match

    def answer(self, turn: Turn, answers: Mapping[str, Answer]) -> Turn: ...


@dataclass
class TurnPlayed(Message):
    """A turn is done (played, or refused at once): the screen shows it. ``said``: the user's
    command in words, as typed or as the user's agent chose it."""

    turn: Turn
    said: str


def carry_turn(screen: Screen, session: Session, turn: Turn, *, played: Callable[[Turn], Message],
               waiting: Callable[[], None], failed: Callable[[BaseException], None]) -> None:
    """Take ``turn`` on until it is done, then post ``played(turn)`` to ``screen`` (made at once:
    it tells the turn as it was). A blocking agent's ask is the only part that goes to a thread
    (``waiting()`` is called first); the answers and the engine's step stay on the UI thread. An
    ask that raised (a bug: an agent's own failure is a fallback) goes to ``failed`` instead."""
    match = session.match
    while not turn.done and not match.blocking:
        turn = session.answer(turn, match.ask(turn))
    if turn.done:
        screen.post_message(played(turn))
        return
    waiting()

    def answered(answers: Mapping[str, Answer] | None, error: BaseException | None) -> None:
        if error is not None:
            failed(error)
        else:
            carry_turn(screen, session, session.answer(turn, answers), played=played, waiting=waiting, failed=failed)

    run_in_background(screen.app, lambda: match.ask(turn), answered)

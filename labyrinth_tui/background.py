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
from typing import Protocol, TypeVar

from textual.app import App
from textual.message import Message
from textual.screen import Screen

from labyrinth.agents.match.runner import Answer, Match, Turn
from labyrinth.engine.turn import TurnResult

T = TypeVar("T")
A = TypeVar("A")


def run_in_background(app: App[object], call: Callable[[], T], done: Callable[[T], object],
                      failed: Callable[[BaseException], object]) -> None:
    """Run ``call()`` in a daemon thread, then on the UI thread ``done(result)``, or ``failed(error)``
    when it raised."""
    def run() -> None:
        try:
            result = call()
        except Exception as exc:  # noqa: BLE001 - handed to ``failed``, which tells the player
            _back_on_ui_thread(app, failed, exc)
        else:
            _back_on_ui_thread(app, done, result)

    threading.Thread(target=run, daemon=True, name="labyrinth-background").start()


def _back_on_ui_thread(app: App[object], callback: Callable[[A], object], argument: A) -> None:
    """``callback(argument)`` on the UI thread, unless the app has closed: nobody waits for it then."""
    if not app.is_running:
        return
    try:
        app.call_from_thread(callback, argument)
    except RuntimeError:
        pass  # it closed between the check and the call


class Session(Protocol):
    """What a turn is carried on with: a session's match, and its step that takes the answers."""

    match: Match
    left: bool  # the game was left (saved, its replay closed): it plays no more turns

    def answer(self, turn: Turn, answers: Mapping[str, Answer]) -> Turn: ...


@dataclass
class TurnPlayed(Message):
    """A turn is done (played, or refused at once): the screen shows it. ``result``: the done turn's
    (``turn.result``, which its type cannot say is set). ``said``: the user's command in words, as
    typed or as the user's agent chose it."""

    turn: Turn
    result: TurnResult
    said: str


def carry_turn(screen: Screen, session: Session, turn: Turn, *, played: Callable[[Turn, TurnResult], Message],
               waiting: Callable[[], None], failed: Callable[[BaseException], None]) -> None:
    """Take ``turn`` on until it is done, then post ``played(turn, its result)`` to ``screen`` (made at once:
    it tells the turn as it was). A blocking agent's ask is the only part that goes to a thread
    (``waiting()`` is called first); the answers and the engine's step stay on the UI thread, and an
    answer that comes back once the game was left is dropped. An ask that raised (a bug: an agent's
    own failure is a fallback) goes to ``failed`` instead."""
    match = session.match
    while turn.result is None and not match.blocking:
        turn = session.answer(turn, match.ask(turn))
    if turn.result is not None:
        screen.post_message(played(turn, turn.result))
        return
    waiting()

    def answered(answers: Mapping[str, Answer]) -> None:
        if session.left:  # quit or stopped while the agent thought: the game was saved as of the turn before
            return
        carry_turn(screen, session, session.answer(turn, answers), played=played, waiting=waiting, failed=failed)

    run_in_background(screen.app, lambda: match.ask(turn), answered, failed)

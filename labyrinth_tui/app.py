"""The Textual app: it only wires screens together; sessions hold the games."""

from __future__ import annotations

import gc

from textual.app import App
from textual.binding import Binding

from saves.games import SavedGame, SaveError

from .screens.game import GameScreen
from .screens.help import HelpScreen
from .screens.title import NewGame, TitleScreen
from .session import PlaySession, SpectateSession


class LabyrinthApp(App):
    CSS_PATH = "labyrinth.tcss"
    TITLE = "Labyrinth: The Temporal Hunt"
    BINDINGS = [
        Binding("ctrl+q", "quit", "quit", priority=True, id="quit"),
        Binding("f1", "help", "help", id="help"),
    ]

    def __init__(self, first: NewGame | None = None) -> None:
        super().__init__()
        self.first = first

    def on_mount(self) -> None:
        self.push_screen(TitleScreen())
        if self.first is not None:
            self.start(self.first)
        # Everything alive now lives as long as the app: keep it out of the garbage collector's full
        # passes, which otherwise stall a key press every few seconds (40-60 ms measured).
        self.call_after_refresh(gc.freeze)

    def start(self, new: NewGame) -> None:
        """Open a game (or a spectated match) from the title's form or the command line."""
        if new.spectated:
            from .screens.spectate import SpectateScreen

            session = SpectateSession(new.seed, new.preset, new.difficulty, new.user, new.minotaur)
            self.push_screen(SpectateScreen(session))
        else:
            self._play(PlaySession(new.seed, new.preset, new.difficulty, new.minotaur))

    def resume(self, saved: SavedGame | None) -> None:
        if saved is None:
            return
        try:
            session = PlaySession.resume(saved)
        except (SaveError, ValueError) as exc:
            self.notify(str(exc), title="Cannot resume", severity="error")
            return
        self._play(session)

    def _play(self, session: PlaySession) -> None:
        self.push_screen(GameScreen(session))

    def after_game(self, choice: str | None, session: PlaySession) -> None:
        """What the game-over screen chose: a new game with the same settings, the title, or quit."""
        self.pop_screen()  # the finished game
        if choice == "quit":
            self.exit()
        elif choice == "new":
            import secrets

            self._play(PlaySession(secrets.randbelow(2**31), session.preset, session.difficulty,
                                   session.minotaur_kind))

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())


def run(first: NewGame | None = None) -> int:
    LabyrinthApp(first).run()
    return 0


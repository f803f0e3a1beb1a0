"""The Textual app: it only wires screens together; sessions hold the games."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import ClassVar, TextIO

from textual import events
from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from labyrinth.agents.registry import ProviderNotConfigured, check_configured, parse_contestant, provider_of
from labyrinth.engine import UserInput
from labyrinth.engine.rng import DRAWN_SEEDS
from labyrinth.engine.wsap.actions import GAME_NAME
from labyrinth.saves.config import ConfigError
from labyrinth.saves.games import PLAYER, SavedGame, SaveError
from labyrinth.saves.paths import advice
from labyrinth.saves.results_terms import ROLES

from .background import run_in_background
from .idle_gc import IDLE_S, IdleCollector
from .keymap import textual_keymap, walk_keys
from .player_settings import PlayerSettings, read_settings
from .relaunch import again_command
from .screens.game import GameScreen
from .screens.opening import OpeningScreen
from .screens.provider_missing import ProviderMissingScreen
from .screens.title import NewGame, TitleScreen
from .session import PlaySession, SpectateSession
from .stop_signals import STOP_SIGNALS, on_sigterm
from .terminal_text import printable, say
from .themes import THEMES


def llm_providers(new: NewGame) -> list[str]:
    """The LLM providers a new game would call."""
    return [p for p in dict.fromkeys(provider_of(kind) for kind in (new.user, new.minotaur)) if p]


class Backdrop(Screen):
    """The bottom of the screen stack, under the title. The title is built when it is first uncovered:
    a game opened from the command line starts without it (building it, and drawing it before the
    game, took about a fifth of the time to the game's first frame). Whatever leaves the backdrop
    uncovered (a game ended or left, a spectated match closed, a failed start) shows the title."""

    def __init__(self) -> None:
        super().__init__(id="_default")
        self.covered = False

    def on_screen_suspend(self) -> None:
        self.covered = True

    def on_screen_resume(self) -> None:
        if self.covered and self.app.screen is self:  # not when another screen was pushed meanwhile
            self.app.push_screen(TitleScreen())


class LabyrinthApp(App):
    CSS_PATH = "labyrinth.tcss"
    TITLE = GAME_NAME
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "app.quit", "quit", priority=True, id="quit"),  # as the screens' q: one footer entry
        Binding("f1", "help", "help", id="help"),
    ]

    def __init__(self, first: NewGame | None = None, *, clock: Callable[[], float] = time.monotonic,
                 autoplay: bool = True, catch_signals: bool = False, theme: str | None = None,
                 settings: PlayerSettings | None = None) -> None:
        """``clock`` times the screens' waits and ``autoplay`` starts a spectated match playing: tests pass a
        clock they move by hand and autoplay off, so that nothing they see hangs on the wall clock.
        ``catch_signals``: the app runs on the process's terminal (``run``), and a stop signal ends it
        through ``stop_by_signal``; a test's app, in the test runner's process, leaves them alone.
        ``settings``: the player's keys and options (by default the config file's, read now); ``theme``
        (--theme) wins over theirs."""
        super().__init__()
        self.settings = settings or read_settings(screen_keys())
        self.chosen_theme = theme or self.settings.options.theme
        self.first = first
        self.clock = clock
        self.autoplay = autoplay
        self.catch_signals = catch_signals
        self.stopped_by: int | None = None  # the signal that ended the app (stop_by_signal)
        self.providers = first.providers if first else {}  # the command line's LLM options, for every game
        self.learning = first.learning if first else True  # the command line's --learn, for every game
        self.opening = False  # a game is being made in the background (its agents ask for plans)
        self.last_chosen = first  # the last game started: the title's form starts from its ground and opponent
        self.unsaved_told = False  # a quit could not save a game and said so: the next quits anyway
        self.saved_on_leaving: list[Path] = []  # the saves quitting wrote: the shell is told where they are
        self.unsaved_on_leaving: list[str] = []  # why a stop signal could not save a game: the shell is told
        self.collector = IdleCollector(clock)  # full garbage passes while the player pauses (idle_gc.py)

    def on_load(self) -> None:
        """Before the terminal is taken: from here until the event loop closes (which puts the handlers
        back as they were), a stop signal is heard between two steps of the loop, never inside a turn."""
        if self.catch_signals:
            loop = asyncio.get_running_loop()
            for signum in STOP_SIGNALS:
                loop.add_signal_handler(signum, self.stop_by_signal, signum)

    def on_mount(self) -> None:
        for theme in THEMES:
            self.register_theme(theme)
        if self.chosen_theme:
            self.theme = self.chosen_theme
        self.set_keymap(textual_keymap(self.settings.keys))
        if self.settings.problems:  # one toast, not one each stacked over the map (`labyrinth doctor` lists them too)
            self.notify("\n".join(self.settings.problems), title="Config file", severity="warning", timeout=20,
                        markup=False)
        if self.first is None:
            self.push_screen(TitleScreen())
        else:
            self.start(self.first)  # the title waits under it, built when uncovered (Backdrop)
        self.call_after_refresh(self._collect_when_idle)

    def _collect_when_idle(self) -> None:
        self.collector.start()
        self.set_interval(IDLE_S / 2, self.collector.tick)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.InputEvent):
            self.collector.touched()
        await super().on_event(event)

    def on_unmount(self) -> None:
        self.collector.stop()

    def get_default_screen(self) -> Screen:
        return Backdrop()

    def get_key_display(self, binding: Binding) -> str:
        """The map's footer entry for walking (and look mode's cursor) shows the four ways' letters ("hjkl",
        or as [keys] remapped them), not the one key of its binding that Textual would."""
        if binding.id in ("map-north", "map-north-looking"):
            return walk_keys(self.settings.keys)
        return super().get_key_display(binding)

    def start(self, new: NewGame) -> None:
        """Open a game (or a spectated match) from the title's form or the command line. With an
        LLM on either side, the agents are made in a worker: each asks its model for a plan."""
        if self.opening:
            self.notify("A game is already starting.", timeout=2)
            return
        self.last_chosen = new
        missing = self._missing_provider(new)
        if missing:
            problem, role = missing

            def chosen(builtin: bool | None) -> None:
                if builtin:
                    self.start(replace(new, user="builtin") if role == "user" else replace(new, minotaur="builtin"))

            self.push_screen(ProviderMissingScreen(problem, "user" if role == "user" else "Minotaur"), chosen)
        elif llm_providers(new):
            self._open_in_background(lambda: self._session(new), " and ".join(llm_providers(new)),
                                     typing=not new.spectated)
        else:
            self._open(self._session(new))

    def _missing_provider(self, new: NewGame) -> tuple[str, str] | None:
        """Why a chosen provider cannot be used (no key, a broken config file), and for which role."""
        for role in ROLES:
            kind = getattr(new, role)
            if provider_of(kind):
                try:
                    check_configured(parse_contestant(role, kind).settings(new.providers))
                except (ConfigError, ProviderNotConfigured) as exc:
                    return str(exc), role
        return None

    @staticmethod
    def _session(new: NewGame) -> PlaySession | SpectateSession:
        if new.spectated:
            return SpectateSession(new.seed, new.preset, new.difficulty, new.user, new.minotaur,
                                   providers=new.providers, learning=new.learning)
        return PlaySession(new.seed, new.preset, new.difficulty, new.minotaur, new.providers, new.learning)

    def _open_in_background(self, make: Callable[[], PlaySession | SpectateSession], asking: str,
                            typing: bool = True) -> None:
        """Make a session whose agents call a model (a plan, a saved game's agent) off the UI thread,
        while the opening screen keeps the keys (``typing``: a game one plays, whose commands it keeps
        until the game starts)."""
        self.opening = True
        opening = OpeningScreen("The Minotaur is getting ready" if typing else "The agents are getting ready",
                                asking, typing, self.clock)
        self.push_screen(opening)

        def opened() -> None:
            self.opening = False
            while opening in self.screen_stack:  # a help screen may be open above it
                self.pop_screen()

        def made(session: PlaySession | SpectateSession) -> None:
            opened()
            self._open(session, opening.typed_ahead, opening.draft)

        def failed(error: BaseException) -> None:
            opened()
            self.notify(printable(str(error)), title="Cannot start", severity="error", markup=False)

        run_in_background(self, make, made, failed)

    def _open(self, session: PlaySession | SpectateSession, typed_ahead: Sequence[tuple[str, UserInput]] = (),
              draft: str = "") -> None:
        notice = session.memory_notice or (session.memory.log and session.memory.log.take_notice())
        if notice:
            self.notify(printable(notice), title="Experience log", severity="warning", timeout=10, markup=False)
        if isinstance(session, SpectateSession):
            from .screens.spectate import SpectateScreen

            self.push_screen(SpectateScreen(session, self.autoplay))
        else:
            self.push_screen(GameScreen(session, self.clock, typed_ahead, draft))

    def resume(self, saved: SavedGame | None) -> None:
        if saved is None:
            return
        if provider_of(saved.minotaur):
            missing = self._missing_provider(NewGame(saved.seed, saved.preset, saved.difficulty, PLAYER,
                                                     saved.minotaur, self.providers))
            if missing:  # the recorded decisions replay as they are; from here on the built-in agent decides
                def chosen(builtin: bool | None) -> None:
                    if builtin:
                        self.resume(replace(saved, minotaur="builtin"))

                self.push_screen(ProviderMissingScreen(missing[0], "Minotaur"), chosen)
            elif not self.opening:
                self._open_in_background(lambda: PlaySession.resume(saved, self.providers, self.learning),
                                         saved.minotaur)
            return
        try:
            session = PlaySession.resume(saved, learning=self.learning)
        except (SaveError, ValueError) as exc:
            self.notify(printable(str(exc)), title="Cannot resume", severity="error", markup=False)
            return
        self._open(session)

    def after_game(self, choice: str | None, session: PlaySession) -> None:
        """What the game-over screen chose: a new game with the same settings, the title, or quit."""
        if choice == "quit":
            self.exit()
            return
        self.pop_screen()  # the finished game
        if choice == "new":
            import secrets

            self.start(NewGame(secrets.randbelow(DRAWN_SEEDS), session.preset, session.difficulty, PLAYER,
                               session.minotaur_kind, session.providers, session.learning))

    async def action_quit(self) -> None:
        """Quit, each game in play autosaved first. When one cannot be saved, say so and stay: the
        next quit goes without it."""
        if self._leave_games() or self.unsaved_told:
            self.exit()
        self.unsaved_told = True

    def stop_by_signal(self, signum: int) -> None:
        """A stop signal (STOP_SIGNALS: the terminal closed, or another process asks the game to end):
        every game in play saved as quitting saves it, with no one to ask (``run`` tells the shell where,
        once the screen is gone), and the app exits through Textual's own shutdown, which gives the
        terminal back as it was. Its status is 128 + the signal's number, as a shell reports a process a
        signal ended. A game whose Minotaur is thinking is saved as of its last whole turn (the turn's
        inputs and the state change only on this thread), and the answer that comes back after plays
        nothing (PlaySession.left). A second signal while the app closes changes nothing."""
        if self.stopped_by is not None:
            return
        self.stopped_by = signum
        self._leave_games(quiet=True)
        self.exit(return_code=128 + signum)

    def action_to_title(self) -> None:
        """Back to the title from a game, which is autosaved: the title offers to continue it."""
        screen = self.screen
        if not isinstance(screen, GameScreen):
            return
        if screen.thinking is not None:  # the turn is half played: its answer comes back to this screen
            self.notify("Wait for the Minotaur's move, then leave.", timeout=2)
        else:
            saved: list[Path] = []
            if self._leave(screen.session, keep=saved):
                if not saved and not screen.session.over:  # an untouched game has nothing to resume
                    self.notify("No turn was played, so there is no game to continue.", timeout=4)
                self.pop_screen()

    def _leave_games(self, quiet: bool = False) -> bool:
        """Leave every game in play (saved, its replay closed); whether all were saved."""
        games = [screen.session for screen in self.screen_stack if isinstance(screen, GameScreen)]
        saved = [self._leave(session, quiet, keep=self.saved_on_leaving) for session in games]  # each one tried
        return all(saved)

    def _leave(self, session: PlaySession, quiet: bool = False, keep: list[Path] | None = None) -> bool:
        """Leave a game; whether it could be saved (its save's path goes into ``keep``, when one was written).
        ``quiet``: nobody is asked (a stop signal): why it could not be saved is kept for the shell."""
        try:
            path = session.leave()
            if path is not None and keep is not None:
                keep.append(path)
        except (OSError, SaveError) as exc:
            why = advice(exc) if isinstance(exc, OSError) else exc
            if quiet:
                self.unsaved_on_leaving.append(printable(str(why)))
            else:
                self.notify(printable(f"{why}. Quit again to leave without saving."), title="Could not save the game",
                            severity="error", timeout=8, markup=False)
            return False
        return True

    def action_help(self) -> None:
        from .screens.help import HelpScreen  # its Markdown is imported only when asked for

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())


def screen_keys() -> dict[str, str]:
    """The game screen's and the app's own keys (a key -> what it does), which no map key may take."""
    return {binding.key: binding.description for binding in
            Binding.make_bindings([*GameScreen.BINDINGS, *LabyrinthApp.BINDINGS])}


def run(first: NewGame | None = None, out: TextIO = sys.stdout, theme: str | None = None) -> int:
    """The game on this terminal until it is quit (status 0) or a signal stops it (128 + the signal: 129
    SIGHUP, 130 SIGINT, 143 SIGTERM; stop_by_signal); then, the screen gone, where each game was saved.
    ``theme``: --theme's, over the config file's."""
    app = LabyrinthApp(first, catch_signals=True, theme=theme)
    # Until the app's loop hears it (on_load), SIGTERM ends the process as it would: nothing is on the
    # terminal or in play yet, and a Stopped raised into the loop would leave it half shut (stop_signals.py).
    with on_sigterm(signal.SIG_DFL):
        app.run()
    try:
        told_where(app.saved_on_leaving, out)
        for why in app.unsaved_on_leaving:
            say(f"the game could not be saved: {why}")
    except OSError:
        pass  # the terminal is gone (SIGHUP): nobody is left to tell
    return app.return_code or 0


def told_where(saves: Sequence[Path], out: TextIO) -> None:
    """On the shell, once the screen is gone: where quitting saved each game, and how to go on with it."""
    for path in saves:
        print(f"labyrinth: your game is saved in {path}\n"
              f"labyrinth: to go on with it, run `{again_command()}` and choose Continue (or Saved games).", file=out)


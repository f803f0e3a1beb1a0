"""The title screen: the new-game form (preset, seed, difficulty, who plays
each role) and the ways in: Continue (the game saved last, when there is one),
Play, Spectate, Saved games, Replays, Leaderboard, Memory, Help, Quit."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from labyrinth.agents.llm.config import ProviderSettings, provider_settings
from labyrinth.agents.registry import MINOTAUR_AGENTS, USER_AGENTS, configured_contestants
from labyrinth.engine import DEFAULT_DIFFICULTY, DEFAULT_PRESET, DIFFICULTIES, PRESETS
from labyrinth.engine.rng import DRAWN_SEEDS
from labyrinth.saves.config import ConfigError
from labyrinth.saves.games import PLAYER, list_games
from labyrinth.saves.providers import PROVIDERS

from ..app_access import labyrinth_app
from ..game_words import agent_words
from ..terminal_text import plain, printable
from ..widgets.footer import SteadyFooter

BANNER = """\
 L A B Y R I N T H
 the temporal hunt"""
MENU = (("play", "Play"), ("spectate", "Spectate"), ("hotseat", "Hot-seat"),
        ("resume", "Saved games"), ("replays", "Replays"),
        ("leaderboard", "Leaderboard"), ("memory", "Memory"), ("help", "Help"), ("quit", "Quit"))


@dataclass(frozen=True)
class NewGame:
    """What the form asks for."""

    seed: int
    preset: str
    difficulty: str
    user: str  # "you" or a user agent's name
    minotaur: str
    providers: Mapping[str, ProviderSettings] = field(default_factory=dict, repr=False)  # from command-line flags
    learning: bool | tuple[str, ...] = True  # who learns from the experience log (True: both); the game adds to it

    @property
    def spectated(self) -> bool:
        return self.user != PLAYER


class TitleScreen(Screen):
    DEFAULT_CSS = """
    #title {
        align: center middle;
    }

    #menu {
        width: 26;
        height: auto;
        padding: 0 1;
    }

    #banner {
        color: $accent;
        text-style: bold;
        padding: 1 0;
    }

    #menu-list {
        height: auto;
        border: round $primary-darken-2;
        padding: 0 1;
    }

    #form {
        grid-size: 2;
        grid-columns: 16 36;
        grid-rows: 3;
        width: 54;
        height: auto;
        padding: 1 1;
        border: round $primary-darken-2;
    }

    #form Label {
        padding: 1 0;
    }
    """
    AUTO_FOCUS = "#menu-list"
    saved_shown: list | None = None  # the save Continue offered when the title last showed (None: never shown)
    BINDINGS: ClassVar[list[BindingType]] = [Binding("p", "play", "play", id="title-play"),
                                             Binding("s", "spectate", "spectate", id="title-spectate"),
                                             Binding("q", "app.quit", "quit", id="title-quit")]

    def compose(self) -> ComposeResult:
        last = labyrinth_app(self).last_chosen  # the form starts where the last game was (the user is asked anew)
        with Horizontal(id="title"):
            with Vertical(id="menu"):
                yield Static(BANNER, id="banner")
                yield OptionList(*(Option(label, id=ident) for ident, label in MENU), id="menu-list")
            with Grid(id="form"):
                yield Label("Hunting ground")
                yield Select([(f"{name} ({b.width}x{b.height}, {b.levels} level{'s' * (b.levels > 1)})", name)
                              for name, b in PRESETS.items()], value=last.preset if last else DEFAULT_PRESET,
                             allow_blank=False, id="preset")
                yield Label("Seed")
                yield Input(placeholder="random", id="seed", restrict=r"[0-9]*", max_length=10)
                yield Label("Difficulty")
                yield Select([(d, d) for d in DIFFICULTIES], value=last.difficulty if last else DEFAULT_DIFFICULTY,
                             allow_blank=False, id="difficulty")
                yield Label("User")
                models = _models()
                yield Select([("you, at the keyboard", PLAYER), *((agent_words(n, "user"), n) for n in USER_AGENTS),
                              *models], value=PLAYER, allow_blank=False, id="user")
                yield Label("Minotaur")
                minotaurs: list[tuple[str | Text, str]] = [*((agent_words(n, "minotaur"), n) for n in MINOTAUR_AGENTS),
                                                           *models]
                known = last is not None and last.minotaur in (name for _, name in minotaurs)
                yield Select(minotaurs, value=last.minotaur if last and known else "builtin", allow_blank=False,
                             id="minotaur")
        yield SteadyFooter()

    def on_screen_resume(self) -> None:
        """Each time the title shows (at start, back from a game or another screen): Continue, first, when a
        game is saved. The highlight is on Continue at start and when a game was saved since the title last
        showed (a game left for the title), else where the player left it (back from Replays, on Replays)."""
        menu = self.query_one("#menu-list", OptionList)
        highlighted = menu.highlighted_option
        latest = list_games()[0][:1]
        saved = [(g.path, g.saved_at) for g in latest]
        newly_saved, self.saved_shown = saved != self.saved_shown, saved
        menu.clear_options()
        menu.add_options([*(Option(Text.assemble("Continue\n", plain(g.summary, style="dim")), id="continue")
                            for g in latest), *(Option(label, id=ident) for ident, label in MENU)])
        ids = [option.id for option in menu.options]
        kept = highlighted is not None and highlighted.id in ids and not (newly_saved and latest)
        menu.highlighted = ids.index(highlighted.id) if kept and highlighted else 0

    def new_game(self, spectate: bool = False) -> NewGame:
        seed_text = self.query_one("#seed", Input).value
        user = self._chosen("#user")
        if spectate and user == PLAYER:
            user = "builtin"
        app = labyrinth_app(self)
        return NewGame(int(seed_text) if seed_text else secrets.randbelow(DRAWN_SEEDS), self._chosen("#preset"),
                       self._chosen("#difficulty"), user, self._chosen("#minotaur"), app.providers, app.learning)

    def _chosen(self, select: str) -> str:
        """The value chosen in one of the form's Selects: none allows a blank, so one is always chosen."""
        value = self.query_one(select, Select).selection
        assert isinstance(value, str), f"{select} has no choice"
        return value

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        getattr(self, f"action_{event.option.id}")()

    def action_continue(self) -> None:
        latest = list_games()[0][:1]  # read again: the file may have gone meanwhile
        if latest:
            labyrinth_app(self).resume(latest[0])

    def action_play(self) -> None:
        labyrinth_app(self).start(self.new_game())

    def action_spectate(self) -> None:
        labyrinth_app(self).start(self.new_game(spectate=True))

    def action_hotseat(self) -> None:
        labyrinth_app(self).start(replace(self.new_game(), user=PLAYER, minotaur="gemini"))

    def action_resume(self) -> None:
        from .saved_games import SavedGamesScreen

        self.app.push_screen(SavedGamesScreen(), labyrinth_app(self).resume)

    def action_replays(self) -> None:
        from .replays import ReplaysScreen

        self.app.push_screen(ReplaysScreen())

    def action_leaderboard(self) -> None:
        from .leaderboard import LeaderboardScreen

        self.app.push_screen(LeaderboardScreen())

    def action_memory(self) -> None:
        from .memory import MemoryScreen

        self.app.push_screen(MemoryScreen())

    def action_help(self) -> None:
        labyrinth_app(self).action_help()

    def action_quit(self) -> None:
        self.app.exit()


def _models() -> list[tuple[Text, str]]:
    """The LLM providers as form options, each with its model (as the config file or the
    environment names it: words, not markup), or what it lacks; then the config file's contestants."""
    options = []
    for provider in PROVIDERS:
        try:
            settings = provider_settings(provider)
            detail = settings.model if settings.configured else "no key"
        except ConfigError:
            detail = "config file broken"
        options.append((Text(printable(f"LLM: {provider} ({detail})")), provider))
    try:
        contestants = configured_contestants()
    except ConfigError:
        contestants = {}  # said above, on each provider's line
    for name in contestants:  # its model and endpoint are in the config file: the name is what fits here
        options.append((Text(printable(f"contestant: {name}")), name))
    return options

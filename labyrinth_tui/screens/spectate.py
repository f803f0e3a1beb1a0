"""Spectate: watch two agents play, the map first. Space plays or pauses, n steps one turn,
+ and - change the speed, o shows the whole level with both agents (omniscient) or only what
the user has seen, a folds the agent panel away, f2 gives the map the whole screen."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.timer import Timer

from labyrinth.engine import Game
from labyrinth.engine.geometry import Pos
from labyrinth.engine.presets import PRESETS, Bounds
from labyrinth.engine.world import World
from labyrinth.engine.wsap.perception import UserPerception
from labyrinth.saves.results_terms import ROLE_WORDS

from ..background import TurnPlayed, carry_turn, run_in_background
from ..command_parser import typed
from ..game_words import matchup, side_ended
from ..knowledge import Knowledge
from ..session import SpectateSession, ended
from ..terminal_text import plain, printable
from ..waits import Countdowns
from ..widgets.agent_panel import AgentPanel
from ..widgets.cue_panel import CuePanel
from ..widgets.footer import SteadyFooter
from ..widgets.map_frame import MapView
from ..widgets.minimap import Minimap
from ..widgets.narrative import NarrativeLog
from ..widgets.status_bar import StatusBar
from .playback import PlaybackScreen, playback_bindings

WAITS_TICK_S = 0.5  # how often a model's quota wait is counted down while the agents think


class WorldCells:
    """The whole hunting ground as a map the minimap can read (omniscient view); beyond its edge, what
    the user has seen (the maze goes on there, and the edge stays drawn where nothing is known)."""

    def __init__(self, world: World, ground: Bounds, seen: Mapping[Pos, int]) -> None:
        self.world, self.ground, self.seen = world, ground, seen

    def get(self, pos: Pos, /) -> int | None:
        return self.world.cell(*pos) if self.ground.contains(*pos) else self.seen.get(pos)


class SpectateScreen(PlaybackScreen):
    """The footer fits 80 columns with quit and help (the app's keys, shown last): short words, the speed
    keys paired; the full-screen map, the other levels and the command palette are in the help only."""

    AUTO_FOCUS = "#map"
    BINDINGS: ClassVar[list[BindingType]] = [
        *playback_bindings("spectate", "all-seeing", [Binding("n", "step", "step", id="spectate-step")]),
        Binding("a", "app.toggle_class('#agents', '-hidden')", "agents", id="spectate-agents"),
        Binding("f2", "app.toggle_class('#side', '-hidden')", "big map", show=False, id="spectate-full-map"),
        Binding("escape,q", "back", "title", id="spectate-back"),
    ]

    def __init__(self, session: SpectateSession, autoplay: bool = True) -> None:
        """``autoplay``: the match starts playing on its timer; off, it waits for space or n (tests step by hand,
        so what they see never depends on how fast the machine is)."""
        super().__init__()
        self.session = session
        self.autoplay = autoplay
        self.stepping = False  # a turn is being played in the background
        self.told: set[str] = set()  # the roles whose lessons the log has shown
        self.replaced_told: set[str] = set()
        self.countdowns = Countdowns(self.clock)  # on the app's clock
        self.waits_timer: Timer | None = None  # counts a model's quota wait down while the agents think

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield Minimap(id="map")
            with Vertical(id="side"):
                yield AgentPanel(id="agents")
                yield NarrativeLog(id="log")
                yield CuePanel(id="cue")
        yield StatusBar(id="status")
        yield SteadyFooter(show_command_palette=False)  # ctrl+p still opens it

    def on_mount(self) -> None:
        s = self.session
        self.query_one(NarrativeLog).titled(s.preset, s.difficulty, f"seed {s.seed}",
                                            matchup(s.user_kind, s.minotaur_kind))
        self.query_one("#cue", CuePanel).border_title = "Minotaur"
        self.query_one(StatusBar).preset = s.preset  # the bar shows the hunting ground's bounds
        self.query_one("#agents", AgentPanel).border_title = "Agents"
        self.show()
        self.call_after_refresh(self.query_one(NarrativeLog).tell, None, s.response)  # once it knows its width
        if self.autoplay:
            self.action_toggle_play()

    @property
    def over(self) -> bool:
        return self.session.over

    def action_step(self) -> None:
        self.play_turn()

    def play_turn(self) -> bool:
        """One turn through the session's match; an agent that calls a model is asked in a thread, so the
        screen stays live meanwhile. The finished turn comes back as a TurnPlayed message."""
        if self.stepping or self.session.over:
            return False
        carry_turn(self, self.session, self.session.begin(),
                   played=lambda turn, result: TurnPlayed(turn, result, typed(turn.record.user) if turn.record else ""),
                   waiting=self._think, failed=self._turn_failed)
        return True

    def _think(self) -> None:
        self.stepping = True
        self.query_one(AgentPanel).thinking = True
        self.waits_timer = self.set_interval(WAITS_TICK_S, self._show_agents)
        self.show()

    def _done_thinking(self) -> None:
        self.stepping = False
        if self.waits_timer is not None:
            self.waits_timer.stop()
            self.waits_timer = None

    def _turn_failed(self, error: BaseException) -> None:
        """Asking raised: a bug, not a model's failure (those are fallbacks). Nothing was played."""
        self._done_thinking()
        if not self.is_attached:  # the spectator left meanwhile
            return
        self.query_one(AgentPanel).thinking = False
        self.notify(printable(f"The turn failed: {error}"), severity="error", markup=False)
        self.show()

    def on_turn_played(self, message: TurnPlayed) -> None:
        self._done_thinking()
        self.query_one(AgentPanel).thinking = False
        for role, side in self.session.match.sides.items():
            if side.stats.replaced and role not in self.replaced_told:
                self.replaced_told.add(role)
                self.notify(f"The {ROLE_WORDS[role]}'s model kept failing: the built-in agent plays it from now on.",
                            title="Agent replaced", severity="warning", timeout=8)
        match = self.session.match
        log = self.query_one(NarrativeLog)
        log.tell(message.said, message.result.response)
        if match.outcome is not None and ended(match, message.turn):
            self.pause()
            log.write(Text(f"Match over: the user {side_ended('user', match.outcome)} after {match.turns} turns.",
                           style="bold reverse"))
            if self.session.memory.log is not None:
                self._remembered(match.reflections, match.memory_error)
                if match.blocking and match.memory_error is None:  # the models' own words: calls, off the UI thread
                    run_in_background(self.app, match.refine, lambda found: self._remembered(found, None),
                                      lambda error: self._remembered(None, error))
        self.show()

    def _remembered(self, reflections, error: BaseException | str | None) -> None:
        if not self.is_attached:
            return
        log = self.query_one(NarrativeLog)
        if error is not None:
            log.write(plain(f"The lessons could not be written: {error}", style="bold red"))
        for r in reflections or []:
            if r.source == "model" or not self.session.match.blocking or r.role not in self.told:
                self.told.add(r.role)
                log.write(Text.assemble((f"The {ROLE_WORDS[r.role]} learned: ", "bold"), printable(r.key_reflection)))

    def action_back(self) -> None:
        self.pause()
        self.app.pop_screen()

    def show(self) -> None:
        s = self.session
        minimap = self.query_one(Minimap)
        minimap.show(map_view(s.game, s.preset, s.mapped, s.known, self.omniscient))
        minimap.border_subtitle = self.pace  # under the map: playing or paused (or over), and how fast
        self.query_one(CuePanel).show(s.response, s.known.bearings, s.difficulty == "hard")
        self.query_one(StatusBar).show(s.response)
        self._show_agents()

    def _show_agents(self) -> None:
        """The agents' panel, with the quota wait of a model that is waiting one out, counted down."""
        sides = self.session.sides
        waits = {role: said for role, side in sides.items() if (said := self.countdowns.saying(side.agent))}
        self.query_one(AgentPanel).show(sides, self.session.match.plans, self.session.lessons, waits)


def map_view(game: Game, preset: str, mapped: UserPerception, known: Knowledge, omniscient: bool) -> MapView:
    """What a watched game's map draws: what the user has seen (and where it last saw or guessed the
    Minotaur), or with ``omniscient`` the whole level with both agents."""
    state, ground = game.state, PRESETS[preset]
    if omniscient:
        return MapView(WorldCells(game.world, ground, mapped.seen), state.user, dict(state.items), state.minotaur,
                       True, mapped.walked, ground, whole=True)
    where, seen = known.minotaur_mark()
    return MapView(mapped.seen, state.user, mapped.items, where, seen, mapped.walked, ground)

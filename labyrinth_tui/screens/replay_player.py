"""A recorded match played back on the map: space plays or pauses, right or n steps a turn,
left steps back, + and - change the speed, o shows the whole labyrinth, [ and ] look at other
levels, q or Esc goes back to the list. Playback is spectate's (playback.py)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from labyrinth.saves.replays import RecordedTurn, ReplayError, read_replay
from labyrinth.saves.results_terms import ROLE_WORDS

from ..command_parser import typed
from ..game_words import matchup, side_ended
from ..session import ReplaySession
from ..terminal_text import plain
from ..widgets.cue_panel import CuePanel
from ..widgets.footer import SteadyFooter
from ..widgets.minimap import Minimap
from ..widgets.narrative import NarrativeLog
from ..widgets.status_bar import StatusBar
from .playback import PlaybackScreen, playback_bindings
from .spectate import map_view


class ReplayPlayerScreen(PlaybackScreen):
    AUTO_FOCUS = "#map"
    BINDINGS: ClassVar[list[BindingType]] = [
        *playback_bindings("replay", "all-seeing", [
            Binding("right,n", "step", "step", key_display="→/n", id="replay-step"),
            Binding("left", "back", "back", key_display="←", id="replay-back"),
        ]),
        Binding("escape,q", "close", "close", id="replay-close"),
    ]

    def __init__(self, session: ReplaySession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):  # map first, as in a game and in spectate
            yield Minimap(id="map")
            with Vertical(id="side"):
                yield NarrativeLog(id="log")
                yield CuePanel(id="cue")
        yield StatusBar(id="status")
        yield Static(id="replay-position")
        yield SteadyFooter()

    def on_mount(self) -> None:
        h = self.session.header
        self.query_one(NarrativeLog).titled(f"replay: {h.preset}", h.difficulty, f"seed {h.seed}",
                                            matchup(h.user_agent, h.minotaur_agent))
        self.query_one("#cue", CuePanel).border_title = "Minotaur"
        self.query_one(StatusBar).preset = h.preset
        self.show()
        self.call_after_refresh(self._tell_start)

    def _tell_start(self) -> None:
        """The lessons each agent was given (why it played as it did), and the opening."""
        log = self.query_one(NarrativeLog)
        for role, found in self.session.header.lessons.items():
            for r in found:
                log.write(plain(f"lesson offered to the {ROLE_WORDS.get(role, role)}: {r['text']}", style="dim"))
        log.tell(None, self.session.response)
        if self.session.mismatch is not None:
            m = self.session.mismatch
            said = (f"Every turn of this recording plays again, but not its ending ({m.detail})." if m.ending else
                    f"This recording does not play again past turn {m.turn - 1} (turn {m.turn}: {m.detail}): "
                    "it stops there.")
            log.write(plain(said, style="bold red"))

    # --- playing -------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.session.over

    def action_step(self) -> None:
        self.pause()
        self.play_turn()
        self.show()

    def play_turn(self) -> bool:
        recorded = self.session.step()
        if recorded is not None:
            self._tell(recorded)
        return recorded is not None

    def _tell(self, recorded: RecordedTurn) -> None:
        log = self.query_one(NarrativeLog)
        for role, why in (("user", recorded.user_fallback), ("minotaur", recorded.minotaur_fallback)):
            if why:
                log.write(plain(f"[{role} fallback: {why}]", style="dim"))
        log.tell(f"{recorded.turn}. {typed(recorded.user)}", self.session.response)
        if self.session.over and self.session.replay.end is not None and self.session.mismatch is None:
            end = self.session.replay.end
            log.write(Text(f"Match over: the user {side_ended('user', end.outcome)} after {end.turns} turns.",
                           style="bold reverse"))

    def action_back(self) -> None:
        """One turn back: the game is played again from the start to the turn before."""
        self.pause()
        s = self.session
        if s.at == 0:
            return
        s.seek(s.at - 1)
        log = self.query_one(NarrativeLog)
        log.write(Text(f"(back to turn {s.at})", style="italic"))
        log.tell(None, s.response)
        self.show()

    def action_close(self) -> None:
        self.pause()
        self.app.pop_screen()

    # --- showing -------------------------------------------------------------

    def show(self) -> None:
        s = self.session
        self.query_one(Minimap).show(map_view(s.game, s.preset, s.mapped, s.known, self.omniscient))
        self.query_one(CuePanel).show(s.response, s.known.bearings, s.header.difficulty == "hard")
        self.query_one(StatusBar).show(s.response)
        self.sub_title = "playing" if self.playing else "paused"
        self.query_one("#replay-position", Static).update(Text.assemble(
            (f"turn {s.at}/{s.length}", "bold"), f" · {self.pace}",
            ("   [ ] other levels", "dim")))  # the footer has room for the rest of the keys


def watch(app: App, path: Path, what: str) -> Text | str | None:
    """Open the replay at ``path`` in the player, for the screens that list games (Replays,
    Leaderboard); or why it cannot be watched, in a sentence naming it as ``what`` ("This file"),
    and nothing opens."""
    try:
        replay = read_replay(path)
    except ReplayError as exc:
        return plain(f"{what} cannot be read: {exc}")
    if not replay.turns:
        return "This match ended before its first turn: nothing to watch."
    app.push_screen(ReplayPlayerScreen(ReplaySession(replay)))
    return None

"""A recorded match played back on the map: space plays or pauses, right or n steps a turn,
left steps back, + and - change the speed, o shows the whole labyrinth, [ and ] look at other
levels, q or Esc goes back to the list. Playback runs on the app's clock (tests move it by hand);
a timer only looks at it, and plays every turn that is due."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from labyrinth.saves.replays import RecordedTurn, ReplayError, read_replay

from ..command_parser import typed
from ..session import ReplaySession
from ..terminal_text import plain
from ..widgets.cue_panel import CuePanel
from ..widgets.minimap import Minimap
from ..widgets.narrative import NarrativeLog
from ..widgets.status_bar import StatusBar
from .spectate import SPEED, SPEEDS, map_view

TICK_S = 0.05  # how often the timer looks at the clock while playing


class ReplayPlayerScreen(Screen):
    AUTO_FOCUS = "#map"
    BINDINGS = [
        Binding("space", "toggle_play", "play", id="replay-play"),
        Binding("right,n", "step", "step", key_display="→/n", id="replay-step"),
        Binding("left", "back", "back", key_display="←", id="replay-back"),
        Binding("plus,equals_sign", "faster", "faster", key_display="+", group=SPEED, id="replay-faster"),
        Binding("minus", "slower", "slower", key_display="-", group=SPEED, id="replay-slower"),
        Binding("o", "omniscient", "all-seeing", id="replay-omniscient"),
        Binding("left_square_bracket", "look_level(1)", "level above", key_display="[", show=False,
                id="replay-level-up"),
        Binding("right_square_bracket", "look_level(-1)", "level below", key_display="]", show=False,
                id="replay-level-down"),
        Binding("escape,q", "close", "back", id="replay-close"),
    ]

    def __init__(self, session: ReplaySession) -> None:
        super().__init__()
        self.session = session
        self.speed = 2
        self.omniscient = False
        self.timer = None
        self.due_from = 0.0  # the clock's time the next turn is counted from, while playing

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):  # map first, as in a game and in spectate
            yield Minimap(id="map")
            with Vertical(id="side"):
                yield NarrativeLog(id="log")
                yield CuePanel(id="cue")
        yield StatusBar(id="status")
        yield Static(id="replay-position")
        yield Footer()

    def on_mount(self) -> None:
        h = self.session.header
        self.query_one(NarrativeLog).border_title = plain(f"replay: {h.user_agent} user vs {h.minotaur_agent} "
                                                          f"Minotaur: {h.preset}, seed {h.seed}, {h.difficulty}")
        self.query_one("#cue", CuePanel).border_title = "Minotaur"
        self.query_one(StatusBar).preset = h.preset
        self.sub_title = "paused"
        self._show()
        self.call_after_refresh(self._tell_start)

    def _tell_start(self) -> None:
        """The lessons each agent was given (why it played as it did), and the opening."""
        log = self.query_one(NarrativeLog)
        for role, found in self.session.header.lessons.items():
            for r in found:
                log.write(plain(f"lesson offered to the {role}: {r['text']}", style="dim"))
        log.tell(None, self.session.response)
        if self.session.mismatch is not None:
            m = self.session.mismatch
            log.write(plain(f"This recording does not play again past turn {m.turn - 1} "
                            f"(turn {m.turn}: {m.detail}): it stops there.", style="bold red"))

    # --- playing -------------------------------------------------------------

    def action_toggle_play(self) -> None:
        if self.timer is None and not self.session.over:
            self.due_from = self.app.clock()
            self.timer = self.set_interval(TICK_S, self._tick)
        else:
            self._pause()
        self._show_position()

    def _pause(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def _tick(self) -> None:
        """Play every turn due by the clock at this speed; pause at the end."""
        due = int((self.app.clock() - self.due_from) / SPEEDS[self.speed])
        self.due_from += due * SPEEDS[self.speed]
        for _ in range(due):
            self._play_one()
        if self.session.over:
            self._pause()
        self._show()

    def action_step(self) -> None:
        self._pause()
        self._play_one()
        self._show()

    def _play_one(self) -> None:
        recorded = self.session.step()
        if recorded is not None:
            self._tell(recorded)

    def _tell(self, recorded: RecordedTurn) -> None:
        log = self.query_one(NarrativeLog)
        for role, why in (("user", recorded.user_fallback), ("minotaur", recorded.minotaur_fallback)):
            if why:
                log.write(plain(f"[{role} fallback: {why}]", style="dim"))
        log.tell(f"{recorded.turn}. {typed(recorded.user)}", self.session.response)
        if self.session.over and self.session.replay.end is not None and self.session.mismatch is None:
            end = self.session.replay.end
            log.write(Text(f"Match over: {end.outcome} after {end.turns} turns.", style="bold reverse"))

    def action_back(self) -> None:
        """One turn back: the game is played again from the start to the turn before."""
        self._pause()
        s = self.session
        if s.at == 0:
            return
        s.seek(s.at - 1)
        log = self.query_one(NarrativeLog)
        log.write(Text(f"(back to turn {s.at})", style="italic"))
        log.tell(None, s.response)
        self._show()

    def action_faster(self) -> None:
        self._set_speed(min(self.speed + 1, len(SPEEDS) - 1))

    def action_slower(self) -> None:
        self._set_speed(max(self.speed - 1, 0))

    def _set_speed(self, speed: int) -> None:
        self.speed = speed
        self.due_from = self.app.clock()
        self._show_position()

    def action_omniscient(self) -> None:
        self.omniscient = not self.omniscient
        self._show()

    def action_look_level(self, step: int) -> None:
        self.query_one(Minimap).level_offset += step

    def action_close(self) -> None:
        self._pause()
        self.app.pop_screen()

    # --- showing -------------------------------------------------------------

    def _show(self) -> None:
        s = self.session
        self.query_one(Minimap).show(map_view(s.game, s.preset, s.mapped, s.known, self.omniscient))
        self.query_one(CuePanel).show(s.response, s.known.bearings, s.header.difficulty == "hard")
        self.query_one(StatusBar).show(s.response)
        self._show_position()

    def _show_position(self) -> None:
        s = self.session
        self.sub_title = "playing" if self.timer else "paused"
        self.query_one("#replay-position", Static).update(Text.assemble(
            (f"turn {s.at}/{s.length}", "bold"),
            f"   {'playing' if self.timer else 'paused'}, {1 / SPEEDS[self.speed]:g} turns a second",
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

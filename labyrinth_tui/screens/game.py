"""The game screen: the narrative log, the map, the Minotaur cue panel, the
status bar and the command line. Typing works at once; Esc moves the focus to
the map, where single keys play (widgets/game_map.py); `x` looks around the map
and travels (game_travel.py). While typing, PageUp PageDown and shift+up/down
scroll the log; ctrl+o shows the whole game's messages; F2 gives the map the
whole screen, keeping the threat on one line. Commands entered while a model
Minotaur thinks queue, and are played in order.

Danger drops the keys typed ahead, as DCSS and Brogue do: when a turn brings it
(knowledge.py ``alarm``: the Minotaur in sight, its hoofbeats rising to CLOSE,
a move or a travel cut short, the end of the game), or when autoexplore is refused
for it, every key pressed before that moment (Textual stamps each event with the
time it was read) is thrown away, and the commands queued behind a thinking
Minotaur too; the log says so once."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input, Static

from labyrinth.agents.match.runner import Turn
from labyrinth.engine import UserInput
from labyrinth.engine.commands import shorten
from labyrinth.engine.items import USABLE
from labyrinth.engine.presets import PRESETS
from labyrinth.engine.turn import TurnResult
from labyrinth.saves.games import SaveError
from labyrinth.saves.paths import advice

from ..app_access import labyrinth_app
from ..background import TurnPlayed, carry_turn
from ..keymap import shown as shown_key
from ..session import PlaySession, ended
from ..terminal_text import plain, printable
from ..waits import Countdowns
from ..widgets.command_line import CommandLine
from ..widgets.cue_panel import CuePanel
from ..widgets.fitted import Fitted
from ..widgets.footer import SteadyFooter
from ..widgets.game_map import GameMap, way_shut
from ..widgets.map_frame import MapView
from ..widgets.narrative import NarrativeLog
from ..widgets.status_bar import StatusBar
from ..widgets.threat_line import ThreatLine
from ..word_start import whole_word
from .game_travel import LookAndTravel

THINKING_TICK_S = 0.1
# The session's work ahead (the Minotaur's first routes) begins this long after the screen is shown: begun at
# its first refresh, its steps (a search that builds the chunks it crosses, up to a few hundred ms on `full`)
# held back the refreshes that draw the rest of the first frame, some 0.3 s of it on `full`. A player reads
# the opening for seconds before a first key, so it is done as early as any key needs it.
WORK_AHEAD_AFTER_S = 0.2


@dataclass
class Flush:
    """The keys typed ahead of a danger: every key stamped ``before`` it goes, and the log says so once
    (``told``), below the turn that brought it (once it is ``shown``)."""

    before: float
    why: str
    dropped: int = 0
    shown: bool = False
    told: bool = False


class GameCommandLine(CommandLine):
    """The game's command line: while typing, the page keys and shift+up/down scroll the log."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pageup", "screen.scroll_log('page_up')", "log page up", key_display="PgUp", show=False,
                id="log-page-up"),  # in the help: the footer keeps room for quit and help at 80 columns
        Binding("pagedown", "screen.scroll_log('page_down')", "log page down", show=False, id="log-page-down"),
        Binding("shift+up", "screen.scroll_log('up')", "log line up", show=False, id="log-line-up"),
        Binding("shift+down", "screen.scroll_log('down')", "log line down", show=False, id="log-line-down"),
    ]

    @property
    def game(self) -> GameScreen:
        """The screen this line is on: only the game screen has one."""
        screen = self.screen
        assert isinstance(screen, GameScreen)
        return screen

    async def on_key(self, event: events.Key) -> None:
        """A key typed ahead of danger is dropped (an Enter with the line it would have sent), one pressed
        while travelling stops it. (Textual calls each class's handler: CommandLine's comes after this one,
        unless this one prevents it.)"""
        if self.game.key_taken(event):
            event.stop()
            event.prevent_default()
            if event.key == "enter":
                self.value = ""

    async def action_submit(self) -> None:
        self.game.mend_first_word(ended=True)  # Enter ends a word begun on the map too
        await super().action_submit()


class GameScreen(LookAndTravel):
    DEFAULT_CSS = """
    #command {
        border: tall $primary-darken-1;
    }

    #command:focus {
        border: tall $accent;
    }

    #hint {
        height: auto;
        max-height: 2;
        color: $warning;
        padding: 0 1;
    }
    """
    AUTO_FOCUS = "#command"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "toggle_focus", "keys / typing", id="toggle-focus"),
        Binding("ctrl+o", "messages", "messages", id="messages"),
        Binding("ctrl+s", "save", "save", id="save"),
        Binding("f2", "full_map", "big map", show=False, id="full-map"),  # in the help
        Binding("ctrl+t", "app.to_title", "title", id="to-title"),
    ]

    def __init__(self, session: PlaySession, clock: Callable[[], float] = time.monotonic,
                 typed_ahead: Sequence[tuple[str, UserInput]] = (), draft: str = "") -> None:
        """``clock`` times the Minotaur's thinking and the game-over screen's quiet moment; tests pass their own.
        ``typed_ahead``: commands entered while the game opened, played first, one after the other (the
        queue that commands entered while the Minotaur thinks join);
        ``draft``: the text typed then but not entered, left in the command line."""
        super().__init__()
        self.session = session
        self.typed_ahead, self.draft = list(typed_ahead), draft
        self.clock = clock
        self.thinking: tuple[float, Timer] | None = None  # since when, and the indicator's timer
        self.replaced_told = False
        self.played_before = ""  # letters played on the map just before typing began there (word_start.py)
        self.answers_due = 0  # turns done whose TurnPlayed message is on its way (queued behind keys already sent)
        self.taken_note: Text | None = None  # the word-taken hint, shown again once those answers are in
        self.countdowns = Countdowns(clock)  # a model Minotaur's quota wait, counted down on our clock
        self.flush: Flush | None = None  # the last danger's, while keys typed ahead of it may come

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield GameMap(id="map", margin=labyrinth_app(self).settings.options.map_margin)
            with Vertical(id="side"):
                yield NarrativeLog(id="log")
                yield CuePanel(id="cue")
        yield ThreatLine(id="threat")
        yield StatusBar(id="status")
        yield GameCommandLine(id="command")
        yield Fitted(id="hint")
        yield SteadyFooter()

    def on_mount(self) -> None:
        s = self.session
        self.query_one("#cue", CuePanel).border_title = "Minotaur"
        look_keys = labyrinth_app(self).settings.keys["look"]
        self.query_one(CuePanel).look_key = self.query_one(ThreatLine).look_key = shown_key(look_keys[0])
        self.query_one(StatusBar).preset = s.preset  # the bar shows the hunting ground's bounds
        against = s.minotaur.agent
        self.query_one(NarrativeLog).titled(  # a model's Minotaur is named: who plays
            s.preset, s.difficulty, f"seed {s.seed}", *([f"vs {against.name}"] if against.blocking else []))
        self._show()
        log = self.query_one(NarrativeLog)
        for said, response in s.told:  # the opening, and a resumed game's turns: wrapped once the width is known
            log.tell(said, response)
        if len(s.told) == 1:
            log.show_start()  # the premise, read before the first key
        command = self.query_one(CommandLine)
        command.value = self.draft
        command.history = s.history  # the session's: what is typed is kept with the save, and Continue gives it back
        command.history.extend(said for said, _ in self.typed_ahead)
        self.call_after_refresh(self._play_typed_ahead)
        self.set_timer(WORK_AHEAD_AFTER_S, partial(self._work_ahead, self.session.ahead(), self.session.game.state))

    def _work_ahead(self, steps: Iterator[object], state: object) -> None:
        """A step of the session's work ahead, then the next at the next idle moment (a key waits for
        one step at most, 100 ms on `full`); it stops for good once a turn is under way or played."""
        if self.session.game.state is state and self.thinking is None and next(steps, None) is not None:
            self.call_after_refresh(self._work_ahead, steps, state)

    # --- playing -----------------------------------------------------------

    def on_command_line_entered(self, message: CommandLine.Entered) -> None:
        """A command entered while the Minotaur thinks (or behind others that wait) joins the queue; one
        entered before the last danger is dropped."""
        if self._dropped(message.pressed_at):
            return
        if self.thinking is None and not self.typed_ahead:
            self.play(message.said, message.command)
            return
        self.typed_ahead.append((message.said, message.command))
        if self.thinking is not None:
            self._show_thinking(self.thinking[0])

    def on_command_line_refused(self, message: CommandLine.Refused) -> None:
        self.query_one("#hint", Static).update(plain(f"'{printable(shorten(message.said))}': {message.hint}"))

    def play(self, said: str, command: UserInput) -> bool:
        """Play one turn through the session's match; a Minotaur's agent that may wait on the network
        is asked in a thread, while the screen stays live and says so. The finished turn comes back as
        a TurnPlayed message. Nothing is played once the game is over, nor a move the player knows goes
        nowhere (a known wall: free, typed or keyed); whether a turn began."""
        if self.session.over:
            return False
        shut = self._known_shut(command)
        if shut:
            self.query_one("#hint", Static).update(shut)
            return False
        if self.thinking is not None:
            self.notify("The Minotaur is still thinking.", timeout=1.5)
            return False
        carry_turn(self, self.session, self.session.begin(command),
                   played=lambda turn, result: self._played(turn, result, said), waiting=self._think,
                   failed=self._turn_failed)
        return True

    def _known_shut(self, command: UserInput) -> str | None:
        """Why ``command`` goes nowhere, when it is a move the player knows is into a wall (way_shut)."""
        if command.command != "MOVE" or command.direction is None:  # a MOVE has one (UserInput checks)
            return None
        return way_shut(command.direction, self._known_ways())

    def _played(self, turn: Turn, result: TurnResult, said: str) -> TurnPlayed:
        """The done turn as a message, made the moment it is done: a danger it brought (or a travel it
        cut short) drops every key stamped before this message."""
        message = TurnPlayed(turn, result, said)
        self.answers_due += 1
        danger = self.session.known.alarm
        if self.travel is not None:
            danger = self.travel.check(result, danger)
        if danger:
            self.flush = Flush(message.time, danger)
        return message

    def key_taken(self, event: events.Key) -> bool:
        """Whether a key goes no further: pressed before the last danger (dropped), or while travelling
        (it stops the travel)."""
        return self._dropped(event.time) or self.stop_travel_by_key(self.query_one(NarrativeLog))

    def _dropped(self, pressed_at: float) -> bool:
        """Whether a key (or the Enter of a line) pressed at ``pressed_at`` was typed ahead of the last
        danger: then it is dropped, and counted."""
        flush = self.flush
        if flush is None or pressed_at > flush.before:
            return False
        flush.dropped += 1
        self._tell_dropped(flush)
        return True

    def drop_typed_ahead(self, why: str) -> None:
        """Drop the keys typed ahead of now, and the commands queued, as a turn that brings danger does: a
        command refused for danger (autoexplore near the Minotaur) leaves the keys typed after it unplayed."""
        now = Message().time  # stamped as Textual stamps each key it reads
        self.flush = Flush(now, why, dropped=len(self.typed_ahead), shown=True)
        self.typed_ahead.clear()
        self._tell_dropped(self.flush)

    def _tell_dropped(self, flush: Flush) -> None:
        """Say once, below the dangerous turn, that keys typed ahead of it were dropped."""
        if flush.dropped and flush.shown and not flush.told:
            flush.told = True
            self.query_one(NarrativeLog).write(plain(f"Keys typed ahead were dropped: {flush.why}.",
                                                     style="bold yellow"))

    def _play_typed_ahead(self) -> None:
        """The next command typed ahead (while the game opened, or while the Minotaur thought),
        if any is left and the game goes on."""
        if self.typed_ahead and not self.session.over and self.thinking is None:
            self.play(*self.typed_ahead.pop(0))

    def _think(self) -> None:
        """The Minotaur is asked off the UI thread: the focus stays where it is, the command line takes
        commands into the queue, the map's keys (levels, help) still answer."""
        began = self.clock()
        self.thinking = (began, self.set_interval(THINKING_TICK_S, lambda: self._show_thinking(began)))
        self._show_thinking(began)

    def _show_thinking(self, began: float) -> None:
        """How long the Minotaur has been thinking (since ``began``), or, while its model waits out a quota,
        how long it still waits."""
        waiting = self.countdowns.saying(self.session.minotaur.agent)
        hint = (Text(printable(waiting), style="italic bold") if waiting else
                Text(f"The Minotaur is thinking... {self.clock() - began:.1f} s", style="italic"))
        if self.typed_ahead:
            hint.append(plain("   next: " + ", ".join(printable(said) for said, _ in self.typed_ahead)))
        self.query_one("#hint", Static).update(hint)

    def _done_thinking(self) -> None:
        if self.thinking is None:
            return
        self.thinking[1].stop()
        self.thinking = None

    def _turn_failed(self, error: BaseException) -> None:
        """Asking raised: a bug, not a model's failure (those are fallbacks). Nothing was played."""
        if not self.is_attached:
            return
        self._done_thinking()
        self.typed_ahead.clear()
        self.notify(printable(f"The turn failed: {error}"), severity="error", markup=False)
        self.query_one("#hint", Static).update("")

    def on_turn_played(self, message: TurnPlayed) -> None:
        self._done_thinking()
        self.answers_due -= 1
        note = self._minotaur_note(message.turn)
        if self.taken_note is not None and not self.answers_due:  # the word came in before this answer: kept
            note, self.taken_note = Text.assemble(self.taken_note, "  ", note), None
        self.query_one("#hint", Static).update(note)
        log = self.query_one(NarrativeLog)
        log.tell(message.said, message.result.response)
        flush = self.flush
        if flush is not None and flush.before == message.time:  # the danger this turn brought
            flush.shown, flush.dropped = True, flush.dropped + len(self.typed_ahead)
            self.typed_ahead.clear()
            self._tell_dropped(flush)
        self.travel_after(log)
        self._show()
        if ended(self.session.match, message.turn):
            from .game_over import GameOverScreen

            if self.looking:
                self.action_leave_look()
            self.app.push_screen(GameOverScreen(self.session, self.clock),
                                 lambda choice: labyrinth_app(self).after_game(choice, self.session))
        else:
            self._play_typed_ahead()

    def _minotaur_note(self, turn: Turn) -> Text | str:
        """A model Minotaur's trouble this turn (its answer replaced by WAIT), and its replacement, once."""
        side = self.session.minotaur
        if side.stats.replaced and not self.replaced_told:
            from labyrinth.agents.llm.llm_agent import LLMAgent  # loaded already: only a model's agent is replaced

            self.replaced_told = True
            agent = side.agent
            model = agent.transport.name if isinstance(agent, LLMAgent) else agent.name
            self.notify(f"{printable(model)} kept failing: the built-in Minotaur hunts "
                        "from now on.", title="Minotaur replaced", severity="warning", timeout=8, markup=False)
        why = turn.record and turn.record.minotaur_fallback
        return Text(printable(f"(the Minotaur's model: {why.split('; ')[0]}; it waited)"), style="dim") if why else ""

    def _show(self) -> None:
        s, hard = self.session, self.session.difficulty == "hard"
        where, seen = s.known.minotaur_mark()
        self.query_one(GameMap).show(MapView(s.mapped.seen, s.game.state.user, s.mapped.items, where, seen,
                                             s.mapped.walked, PRESETS[s.preset]))
        self.query_one(CuePanel).show(s.response, s.known.bearings, hard)
        self.query_one(ThreatLine).show(s.response, s.known.bearings, hard)
        self.query_one(StatusBar).show(s.response)
        if self.looking:
            self._describe_cursor()

    # --- keys ---------------------------------------------------------------

    def action_walk(self, direction: str) -> None:
        self.play(f"walk {direction.lower()} 1", UserInput(command="MOVE", direction=direction, steps=1))

    def action_run(self, direction: str) -> None:
        """A run: a MOVE without a count, which follows the corridor to the next junction, ramp or item;
        running (fast, loud), or walking when the player's options say so (``shift_move``)."""
        gait = labyrinth_app(self).settings.options.shift_move
        self.play(f"{gait} {direction.lower()}", UserInput(command="MOVE", direction=direction,
                                                           speed=1 if gait == "walk" else 2))

    def action_ramp(self, direction: str) -> None:
        self.play(direction.lower(), UserInput(command="MOVE", direction=direction, steps=1))

    def _known_ways(self) -> Sequence[str]:
        return self.session.response.environment.visible_paths

    def action_full_map(self) -> None:
        """The map on the whole screen, the threat kept on one line; and back."""
        self.toggle_class("-full-map")

    def action_simple(self, command: str) -> None:
        fields = {"command": command, **({"target": USABLE[0]} if command == "USE" else {})}  # u: the lantern
        self.play(command.lower(), UserInput.model_validate(fields))

    def action_look_level(self, step: int) -> None:
        game_map = self.query_one(GameMap)
        game_map.level_offset += step
        if game_map.cursor is not None:  # look mode's cursor goes with the level shown
            game_map.cursor = game_map.at_level_shown(*game_map.cursor[:2])
            self._describe_cursor()

    def action_scroll_log(self, how: str) -> None:
        """Scroll the log (``how``: page_up, page_down, up, down) while the command line types."""
        getattr(self.query_one(NarrativeLog), f"scroll_{how}")(animate=False)

    def action_messages(self) -> None:
        from .history import HistoryScreen

        self.app.push_screen(HistoryScreen(self.query_one(NarrativeLog).entries))

    def start_typing(self, text: str, played: str) -> None:
        """What was typed on the map (a letter that is no key there, or a word taken whole): the command
        line takes it, at once (not after the keys already on their way: focus() waits), knowing the letters
        played just before it."""
        command = self.query_one(CommandLine)
        self.set_focus(command)
        command.insert_text_at_cursor(text)
        if played:
            self.played_before = played

    def take_word(self, word: str, played: str) -> None:
        """A word typed on the map, its keys after the first held there (word_start.py): the command line
        takes it whole, and the hint says which letters were played first."""
        self.start_typing(word, "")
        self._tell_taken(played)

    def type_on(self, event: events.Key) -> None:
        """A key on its way to the map when typing began there: the command line's, as if typed there (a
        letter at once, in order; any other key as the line's own, Enter sending it)."""
        command = self.query_one(CommandLine)
        if event.is_printable and event.character:
            command.insert_text_at_cursor(event.character)
            return
        forwarded = events.Key(event.key, event.character)
        forwarded.time = event.time  # when it was pressed: a danger since drops it still
        command.post_message(forwarded)

    def _tell_taken(self, played: str) -> None:
        """The hint that says which keys of a word typed on the map played first: shown now, and again once the
        answers of turns still on their way are in (on_turn_played), which would otherwise replace it."""
        said = plain(f"'{played}' played as map key{'s' * (len(played) > 1)} first; the command line has the whole "
                     "word.")
        self.taken_note = said if self.answers_due else None
        self.query_one("#hint", Static).update(said)

    def action_no_diagonal(self) -> None:
        """vi's diagonal keys: no way of the labyrinth goes so (and the key plays nothing)."""
        self.query_one("#hint", Static).update("No diagonal ways here: the passages run north, south, east "
                                               "and west.")

    def on_input_changed(self, event: Input.Changed) -> None:
        self.mend_first_word()

    def mend_first_word(self, ended: bool = False) -> None:
        """The first word typed after letters played on the map: whole, once it is one (word_start.py).
        It ends at a space, or at Enter (``ended``): decided then, whatever it is."""
        if not self.played_before:
            return
        command = self.query_one(CommandLine)
        first, space, rest = command.value.partition(" ")
        ended = ended or bool(space) or not first  # typed in one burst, the space may be there already
        whole = first and (whole_word(self.played_before, first) or ended and whole_word(self.played_before, first,
                                                                                        ended=True)) or None
        if whole is None and not ended:
            return  # typing on: not decided yet
        self.played_before = ""
        if whole is not None:
            command.value = whole + space + rest
            command.cursor_position = len(command.value)
            self._tell_taken(whole[:len(whole) - len(first)])

    def action_toggle_focus(self) -> None:
        self.played_before = ""
        command, game_map = self.query_one(CommandLine), self.query_one(GameMap)
        (game_map if command.has_focus else command).focus()

    def action_save(self) -> None:
        if self.thinking is not None:  # the turn is half played
            self.notify("Wait for the Minotaur's move, then save.", timeout=2)
            return
        try:
            path = self.session.save()
        except OSError as exc:
            self.notify(printable(f"Could not save: {advice(exc)}"), severity="error", markup=False)
            return
        except SaveError as exc:  # the game's inputs did not play again to its state: nothing was written
            self.notify(printable(f"Could not save: {exc}"), severity="error", markup=False)
            return
        self.notify(printable(f"Saved: {path.name}"), title="Game saved", markup=False)

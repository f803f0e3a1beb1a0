"""The game screen's look mode, travel and autoexplore, a part of GameScreen of their own.

Look mode (`x` as in DCSS, `;` as in NetHack, or a click on the map) puts a cursor on the map; the
walking keys (arrows, WASD, hjkl; shifted they leap) or the mouse move it, and the hint line says what the player
knows of the cell under it (look.py). Enter (or a second click on the cursor) travels there; Esc
leaves. Travel (that, or `travel <`, `travel >`, `travel X Y LEVEL` typed) walks the known way
(travel.py) a leg a turn, the screen drawn between legs; it stops at once on danger (the keys typed
ahead are dropped then, as for any danger), when a leg is cut short, or when a key is pressed.
Autoexplore (`o`, or `explore` typed) is walked the same way, to the nearest place not seen yet
(explore.py), and stops on what it finds too (the stops the player's options keep); it will not start
while the Minotaur is in sight or heard close, and the keys typed ahead of that refusal are dropped, as
on any danger."""

from __future__ import annotations

from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from labyrinth.engine import UserInput
from labyrinth.engine.geometry import Pos, place_words
from labyrinth.engine.presets import PRESETS

from ..app_access import labyrinth_app
from ..command_parser import Travel, typed
from ..explore import NOTHING_LEFT, Exploring, refusal
from ..look import describe
from ..session import PlaySession
from ..terminal_text import plain
from ..travel import RAMP_KINDS, Travelling, nearest, route
from ..widgets.command_line import CommandLine
from ..widgets.game_map import STEP, GameMap
from ..widgets.minimap import Minimap
from ..widgets.narrative import NarrativeLog

PLAYING = {"walk", "run", "ramp", "simple", "no_diagonal", "look_mode", "explore"}  # the map's actions, not looking
LOOKING = {"move_cursor", "travel_to_cursor", "leave_look"}  # and in it
STOP_STYLE = "bold yellow"  # the log's lines that say why a travel or an autoexplore stopped or ended


class LookAndTravel(Screen):
    """Look mode and travel, the part of GameScreen (its one subclass) they make; what they use of the
    rest of it is declared here."""

    looking = False
    travel: Travelling | Exploring | None = None  # a travel or an autoexplore under way
    session: PlaySession
    thinking: tuple[float, Timer] | None  # while the Minotaur is asked: since when, and the indicator's timer

    def play(self, said: str, command: UserInput) -> bool:
        """Play one turn (GameScreen.play); whether a turn began."""
        raise NotImplementedError

    def _dropped(self, pressed_at: float) -> bool:
        """Whether a key pressed then was typed ahead of the last danger (GameScreen._dropped)."""
        raise NotImplementedError

    def drop_typed_ahead(self, why: str) -> None:
        """Drop the keys typed ahead of now, for ``why`` (GameScreen.drop_typed_ahead)."""
        raise NotImplementedError

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The map's keys play, or in look mode move the cursor: one key answers one of them."""
        if action in LOOKING:
            return self.looking
        if action in PLAYING:
            return not self.looking
        return True

    # --- look mode ------------------------------------------------------------------------

    def action_look_mode(self, at: Pos | None = None) -> None:
        if self.session.over:
            return
        game_map = self.query_one(GameMap)
        x, y, _ = at or self.session.game.state.user
        self.looking = True
        game_map.cursor = game_map.at_level_shown(x, y)
        game_map.focus()
        self.refresh_bindings()
        self._describe_cursor()

    def action_leave_look(self) -> None:
        self.looking = False
        self.query_one(GameMap).cursor = None
        self.refresh_bindings()
        self.query_one("#hint", Static).update("")

    def action_move_cursor(self, direction: str, cells: int = 1) -> None:
        game_map = self.query_one(GameMap)
        if game_map.cursor is None:  # look mode's keys: the cursor is set (None only before the map's first view)
            return
        (x, y, z), (dx, dy) = game_map.cursor, STEP[direction]
        game_map.cursor = (x + dx * cells, y + dy * cells, z)
        self._describe_cursor()

    def action_travel_to_cursor(self) -> None:
        """Travel to the cursor's cell; when no known way leads there, look mode stays (another cell may
        be chosen) and says so until the cursor moves or Esc leaves, which clears it."""
        goal = self.query_one(GameMap).cursor
        if goal is not None and route(self.session.mapped.seen, self.session.game.state.user, goal) is None:
            self.query_one("#hint", Static).update(f"No way you know leads to {place_words(goal)}: "
                                                   "choose another cell, or Esc.")
            return
        self.action_leave_look()
        self.travel_to(goal)

    def on_minimap_pointed(self, message: Minimap.Pointed) -> None:
        """A click looks at a cell (a second one on the cursor travels there); the mouse moving in
        look mode moves the cursor."""
        game_map = self.query_one(GameMap)
        if not self.looking:
            if not message.moved:
                self.action_look_mode(message.cell)
        elif not message.moved and message.cell == game_map.cursor:
            self.action_travel_to_cursor()
        else:
            game_map.cursor = message.cell
            self._describe_cursor()

    def _describe_cursor(self) -> None:
        s, cursor = self.session, self.query_one(GameMap).cursor
        if cursor is None:
            return
        words = describe(cursor, cells=s.mapped.seen, walked=s.mapped.walked, items=s.mapped.items,
                         user=s.game.state.user, sighting=s.known.sighting, bearings=s.known.bearings,
                         ground=PRESETS[s.preset], turn=s.response.environment.turn)
        self.query_one("#hint", Static).update(plain(words + "   (Enter travels there, Esc leaves)"))

    # --- travel -----------------------------------------------------------------------------

    def on_command_line_travel_asked(self, message: CommandLine.TravelAsked) -> None:
        if self._dropped(message.pressed_at):
            return
        if message.travel.explore:
            self.action_explore()
        else:
            self.travel_to(self._destination(message.travel))

    def _destination(self, travel: Travel) -> Pos | None:
        user, hint = self.session.game.state.user, self.query_one("#hint", Static)
        if travel.ramp:
            ramp = nearest(self.session.mapped.seen, user, RAMP_KINDS[travel.ramp])
            if ramp is None:
                hint.update(f"You know of no way to a ramp {'up' if travel.ramp == '<' else 'down'} yet.")
            return ramp
        assert travel.cell is not None  # parse_travel's Travel is to a ramp or to a cell
        x, y, z = travel.cell
        return x, y, user[2] if z is None else z

    def travel_to(self, goal: Pos | None) -> None:
        """Walk the known way to ``goal``, a leg a turn; or say why not (nothing is played then)."""
        if goal is None or self.session.over:
            return
        legs = route(self.session.mapped.seen, self.session.game.state.user, goal)
        hint = self.query_one("#hint", Static)
        if legs is None:
            hint.update(f"No way you know leads to {place_words(goal)}.")
        elif not legs:
            hint.update(f"You are at {place_words(goal)}.")
        else:
            self.travel = Travelling(goal, legs)
            self._travel_on()

    def action_explore(self) -> None:
        """Walk to the nearest place not seen yet, a leg a turn, until something stops it or nothing is
        left; or say why not (nothing is played then): the Minotaur in sight or heard close (a danger:
        the keys typed ahead go), or nothing left to see (the log says so too, as when it ends so)."""
        s, hint = self.session, self.query_one("#hint", Static)
        if s.over:
            return
        danger = s.known.danger_near
        if danger:
            hint.update(refusal(danger))
            self.drop_typed_ahead(danger)
            return
        exploring = Exploring.begin(s.mapped.seen, s.known, PRESETS[s.preset], s.game.state.user,
                                    labyrinth_app(self).settings.options.explore_stops)
        if exploring is None:
            hint.update(NOTHING_LEFT)
            self.query_one(NarrativeLog).write(plain(NOTHING_LEFT, style=STOP_STYLE))
        else:
            self.travel = exploring
            self._travel_on()

    def _travel_on(self) -> None:
        """The next leg, if the travel still goes on (and the player is still in the game: not left to
        the title between two legs)."""
        if self.travel is None or self.session.over or self.thinking is not None or not self.is_attached:
            return
        leg = self.travel.legs[0]
        if not self.play(f"{typed(leg.command)} ({self.travel.note})", leg.command):
            self.travel = None

    def travel_after(self, log: NarrativeLog) -> None:
        """A leg was played and told: the travel stops (saying why), ends, or goes on after this frame."""
        t = self.travel
        if t is None:
            return
        if t.stopped:
            self.travel = None
            log.write(plain(f"{t.name} stopped: {t.stopped}.", style=STOP_STYLE))
            return
        if t.onward():
            self.call_after_refresh(self._travel_on)
            return
        self.travel = None
        if isinstance(t, Exploring):
            log.write(plain(NOTHING_LEFT, style=STOP_STYLE))
        else:
            self.query_one("#hint", Static).update(f"You arrive at {place_words(t.goal)}.")

    def stop_travel_by_key(self, log: NarrativeLog) -> bool:
        """A key pressed while travelling stops it (the key does nothing else); whether one was under way."""
        if self.travel is None:
            return False
        log.write(plain(f"{self.travel.name} stopped: a key was pressed.", style=STOP_STYLE))
        self.travel = None
        return True

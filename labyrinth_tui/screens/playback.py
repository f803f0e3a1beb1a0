"""What the two screens that play a match back share (spectate and the replay player): play and
pause, one of SPEEDS, faster and slower, the whole labyrinth or what the user saw, the other
levels, and the pace in words. Playing runs on the app's clock (tests move it by hand): a timer
only looks at it and plays each turn that is due, so a slow turn never makes the pace drift."""

from __future__ import annotations

from textual.binding import Binding
from textual.screen import Screen
from textual.timer import Timer

from ..app_access import labyrinth_app
from ..widgets.minimap import Minimap

SPEEDS = (2.0, 1.0, 0.5, 0.25, 0.1, 0.03)  # seconds between turns
FIRST_SPEED = 2  # a turn every half second
TICK_S = 0.05  # how often the timer looks at the clock while playing
SPEED = Binding.Group("speed", compact=True)


def playback_bindings(screen: str, whole: str, steps: list[Binding]) -> list[Binding]:
    """The keys both screens give playback (ids ``<screen>-play`` ...; ``whole``: the o key's footer word),
    the screen's own keys for stepping shown after play."""
    return [
        Binding("space", "toggle_play", "play", id=f"{screen}-play"),
        *steps,
        Binding("plus,equals_sign", "faster", "faster", key_display="+", group=SPEED, id=f"{screen}-faster"),
        Binding("minus", "slower", "slower", key_display="-", group=SPEED, id=f"{screen}-slower"),
        Binding("o", "omniscient", whole, id=f"{screen}-omniscient"),
        Binding("left_square_bracket", "look_level(1)", "level above", key_display="[", show=False,
                id=f"{screen}-level-up"),
        Binding("right_square_bracket", "look_level(-1)", "level below", key_display="]", show=False,
                id=f"{screen}-level-down"),
    ]


def pace_words(over: bool, playing: bool, speed: int) -> str:
    """'▶ playing · 2 turns/s', '❚❚ paused · 2 turns/s', or 'match over'."""
    if over:
        return "match over"
    return f"{'▶ playing' if playing else '❚❚ paused'} · {1 / SPEEDS[speed]:.3g} turns/s"


class PlaybackScreen(Screen):
    """A screen that plays a match's turns on a timer. A subclass says whether the match is ``over``,
    plays one turn with ``play_turn`` (False when none can be played now: the agents are still
    thinking of the last), and redraws with ``show`` (the pace: ``pace_words(...)``)."""

    def __init__(self) -> None:
        super().__init__()
        self.speed = FIRST_SPEED
        self.omniscient = False
        self.timer: Timer | None = None
        self.due_from = 0.0  # the clock's time the next turn is counted from, while playing

    @property
    def over(self) -> bool:
        raise NotImplementedError

    def play_turn(self) -> bool:
        raise NotImplementedError

    def show(self) -> None:
        raise NotImplementedError

    def clock(self) -> float:
        """The app's clock, which times the pace (tests move it by hand)."""
        return labyrinth_app(self).clock()

    @property
    def playing(self) -> bool:
        return self.timer is not None

    @property
    def pace(self) -> str:
        return pace_words(self.over, self.playing, self.speed)

    def action_toggle_play(self) -> None:
        if self.timer is None and not self.over:
            self.due_from = self.clock()
            self.timer = self.set_interval(TICK_S, self._tick)
        else:
            self.pause()
        self.show()

    def pause(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def _tick(self) -> None:
        """Play each turn due by the clock at this speed; one that cannot be played yet is not owed later
        (the pace starts again from now); pause at the end."""
        now = self.clock()
        due = int((now - self.due_from) / SPEEDS[self.speed])
        self.due_from += due * SPEEDS[self.speed]
        played = 0
        for _ in range(due):
            if self.over or not self.play_turn():
                self.due_from = now
                break
            played += 1
        if self.over:
            self.pause()
        if played or not self.playing:
            self.show()

    def action_faster(self) -> None:
        self._set_speed(min(self.speed + 1, len(SPEEDS) - 1))

    def action_slower(self) -> None:
        self._set_speed(max(self.speed - 1, 0))

    def _set_speed(self, speed: int) -> None:
        self.speed = speed
        self.due_from = self.clock()
        self.show()

    def action_omniscient(self) -> None:
        self.omniscient = not self.omniscient
        self.show()

    def action_look_level(self, step: int) -> None:
        self.query_one(Minimap).level_offset += step

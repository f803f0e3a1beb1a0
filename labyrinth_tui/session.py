"""The TUI's one writer of game state: a game a person plays against an agent's
Minotaur, or a match the person watches. Screens and widgets read it and call
its methods; nothing else changes a game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace

from labyrinth.agents.config import ProviderSettings
from labyrinth.agents.game_digest import GameDigest
from labyrinth.agents.memory_manager import GameMemory, learning_injection
from labyrinth.agents.registry import make_agent
from labyrinth.agents.runner import Match
from labyrinth.agents.side import Side
from labyrinth.engine import WAIT, Game, GameStateResponse, MinotaurDecision, UserInput
from labyrinth.engine import events as ev
from labyrinth.engine.geometry import Pos
from labyrinth.engine.turn import TurnResult, unexecutable
from labyrinth.engine.wsap.perception import UserPerception
from labyrinth.saves.experience import Experience, Reflection
from labyrinth.saves.games import SavedGame, SaveError, now_iso
from labyrinth.saves.paths import StorageError

STONE_COUNT = 3
PERSON = SimpleNamespace(name="you")  # the user at the keyboard, as a reflection names who played


def open_memory(learning: bool, seed: int, preset: str) -> tuple[GameMemory, str | None]:
    """The game's memory of earlier games; when the experience log cannot be used (a data directory
    that is read-only or a file), none, and the one line that says so."""
    try:
        return GameMemory(Experience() if learning else None, seed, preset), None
    except StorageError as exc:
        return GameMemory(None, seed, preset), f"Playing without memory: {exc}"


@dataclass
class Figures:
    """What the game-over screen tells: the run in numbers."""

    turns: int = 0
    walked: int = 0  # steps the user moved
    jumps_seen: int = 0  # Temporal Whines at the Minotaur's leap
    lanterns_used: int = 0
    errors: int = 0  # commands the game refused


@dataclass
class PlaySession:
    """A person plays the user; an agent of this project plays the Minotaur."""

    seed: int
    preset: str = "standard"
    difficulty: str = "normal"
    minotaur_kind: str = "builtin"
    providers: Mapping[str, ProviderSettings] = field(default_factory=dict, repr=False)  # for an LLM Minotaur
    learning: bool = True  # the Minotaur learns from the experience log, and this game adds to it
    figures: Figures = field(default_factory=Figures)

    def __post_init__(self) -> None:
        self.game = Game.new(self.seed, self.preset, self.difficulty)
        self.response, observation = self.game.view()
        self.memory, self.memory_notice = open_memory(self.learning, self.seed, self.preset)
        agent = make_agent("minotaur", self.minotaur_kind, self.seed, self.providers,
                           self.memory.lessons["minotaur"], self.preset)
        self.minotaur = Side("minotaur", agent, self.game.world, self.game.state, observation)
        self.digest = GameDigest(self.game.world, self.game.state.user)
        self.mapped = UserPerception(self.game.world)  # the map the user has seen
        self.observation = self.mapped.observe(self.game.state, self.response)
        self.turns: list[tuple[UserInput, MinotaurDecision]] = []
        self.last: TurnResult | None = None
        self.minotaur_fallback: str | None = None  # why the agent's answer was not played last turn

    @property
    def over(self) -> bool:
        return self.game.state.outcome is not None

    def play(self, command: UserInput) -> TurnResult:
        """One turn: the Minotaur decides (unless the command cannot be carried out), the game steps."""
        if self.over or unexecutable(self.game.state, command):
            result = self.game.step(command, WAIT)  # an ERROR, or the final status: nothing happens
            self.minotaur_fallback = None
            self._remember(result)
            return result
        decision, why = self.minotaur.decide()
        return self._step(command, decision, why)

    def _step(self, command: UserInput, decision: MinotaurDecision, why: str | None) -> TurnResult:
        self.minotaur_fallback = why
        result = self.game.step(command, decision)
        self.digest.turn(result)
        self.minotaur.tell(result, why, done=self.over)
        self.turns.append((command, decision))
        self._remember(result)
        return result

    def _remember(self, result: TurnResult) -> None:
        self.last, self.response = result, result.response
        self.observation = self.mapped.observe(result.state, result.response, result.events)
        f = self.figures
        if result.response.status == "ERROR":
            f.errors += 1
            return
        f.turns += 1
        for e in result.events:
            if isinstance(e, ev.UserMoved):
                f.walked += e.steps
            elif isinstance(e, ev.WhineHeard) and e.phase == "VANISHING":
                f.jumps_seen += 1
            elif isinstance(e, ev.LanternUsed):
                f.lanterns_used += 1

    def remember(self) -> list[Reflection]:
        """Once the game is over: its reflections from the events, in the experience log."""
        if not self.over:
            return []
        state = self.game.state
        return self.memory.remember(self.digest, state, state.outcome, state.turn, self._agents())

    def refine(self) -> list[Reflection]:
        """A model Minotaur's own words for its reflection (a blocking call)."""
        return self.memory.refine(self._agents())

    def _agents(self) -> dict:
        return {"user": PERSON, "minotaur": self.minotaur.agent}

    def minotaur_mark(self) -> tuple[Pos | None, bool]:
        """Where the user last knew the Minotaur to be, and whether it is in sight now."""
        return minotaur_mark(self.observation, self.game.state.user)

    def to_saved(self) -> SavedGame:
        state, r = self.game.state, self.response
        stones = sum("STONE" in item for item in r.user_state.inventory)
        summary = (f"{self.preset}, seed {self.seed}: level {state.user[2]}, {stones}/{STONE_COUNT} stones, "
                   f"{r.environment.game_time:g} s, turn {state.turn}")
        return SavedGame(None, now_iso(), self.seed, self.preset, self.difficulty, self.minotaur_kind,
                         list(self.turns), state.digest(), summary)

    @classmethod
    def resume(cls, saved: SavedGame, providers: Mapping[str, ProviderSettings] | None = None,
               learning: bool = True) -> PlaySession:
        """The saved game, played again turn by turn (a rule agent re-lives each decision so
        that its memory is where it was; an LLM is not asked again, it only hears how each
        turn went), with the recorded decisions, and checked against the saved hash."""
        session = cls(saved.seed, saved.preset, saved.difficulty, saved.minotaur, providers or {}, learning)
        relive = not session.minotaur.agent.blocking
        for command, decision in saved.turns:
            if relive:
                session.minotaur.decide()
            session._step(command, decision, None)
        if session.game.state.digest() != saved.digest:
            raise SaveError(f"{saved.path}: the saved game does not replay to the same state")
        return session


BAND = {"VERY CLOSE": 2, "CLOSE": 5, "FAINT": 11}  # steps each proximity suggests, for a guess on the map
UNIT = {"NORTH": (0, 1), "NORTH-EAST": (1, 1), "EAST": (1, 0), "SOUTH-EAST": (1, -1), "SOUTH": (0, -1),
        "SOUTH-WEST": (-1, -1), "WEST": (-1, 0), "NORTH-WEST": (-1, 1)}


def minotaur_mark(observation, user: Pos) -> tuple[Pos | None, bool]:
    """The Minotaur's cell when in sight; else a guess from the sound's band and direction; else None."""
    seen = observation.details["minotaur_in_sight"]
    if seen:
        return (seen["x"], seen["y"], seen["z"]), True
    status = observation.status
    band, direction = BAND.get(status["minotaur_proximity"]), status["minotaur_direction"]
    if band and direction in UNIT:
        dx, dy = UNIT[direction]
        return (user[0] + dx * band, user[1] + dy * band, user[2]), False
    return None, False


class SpectateSession:
    """A match between two agents, played a turn at a time for a person to watch."""

    def __init__(self, seed: int, preset: str = "standard", difficulty: str = "normal", user: str = "builtin",
                 minotaur: str = "builtin", max_turns: int = 400,
                 providers: Mapping[str, ProviderSettings] | None = None, learning: bool = True) -> None:
        self.memory, self.memory_notice = open_memory(learning, seed, preset)
        lessons = self.memory.lessons
        self.lessons = {role: learning_injection(found) for role, found in lessons.items()}  # shown in the panel
        self.match = Match(make_agent("user", user, seed, providers, lessons["user"], preset),
                           make_agent("minotaur", minotaur, seed, providers, lessons["minotaur"], preset),
                           seed=seed, preset=preset, difficulty=difficulty, max_turns=max_turns,
                           digest=learning)
        self.seed, self.preset = seed, preset
        self.user_kind, self.minotaur_kind = user, minotaur
        self.response: GameStateResponse = self.match.game.view()[0]
        self.mapped = self.match.sides["user"].perception  # the map the user has seen
        self.last: TurnResult | None = None

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def blocking(self) -> bool:
        """An agent calls a model: turns are played off the UI thread."""
        return self.match.user.blocking or self.match.minotaur.blocking

    @property
    def over(self) -> bool:
        return self.match.outcome is not None

    def remember(self) -> list[Reflection]:
        """Once the match is over: its reflections from the events, in the experience log."""
        if not self.over or self.match.digest is None:
            return []
        return self.memory.remember(self.match.digest, self.game.state, self.match.outcome, self.match.turns,
                                    self._agents())

    def refine(self) -> list[Reflection]:
        """The models' own words for their reflections (blocking calls)."""
        return self.memory.refine(self._agents())

    def _agents(self) -> dict:
        return {"user": self.match.user, "minotaur": self.match.minotaur}

    def step(self) -> TurnResult | None:
        """Play one turn; None once the match is over."""
        if self.over:
            return None
        record = self.match.play_turn().record
        self.last, self.response = record.result, record.result.response
        return record.result

"""The TUI's one writer of game state: a game a person plays against an agent's
Minotaur, a match the person watches, or a recorded one played back. All are
played through the one turn loop (agents/match/runner.py's Match); screens read the
sessions and drive their turns, nothing else changes a game."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from labyrinth.agents.learning.memory_manager import GameMemory, learners_of, learning_injection
from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.match.resume import resume_into
from labyrinth.agents.match.runner import DEFAULT_MAX_TURNS, Answer, Match, Outside, Turn
from labyrinth.agents.match.side import OutsideSide, Side, user_map
from labyrinth.agents.registry import make_agent
from labyrinth.engine import DEFAULT_DIFFICULTY, DEFAULT_PRESET, Game, GameStateResponse, UserInput
from labyrinth.engine import events as ev
from labyrinth.engine.items import STONES, stones_held
from labyrinth.engine.minotaur import routes_ahead
from labyrinth.engine.presets import PRESETS
from labyrinth.engine.turn import TurnResult
from labyrinth.saves.clock import now_iso
from labyrinth.saves.experience import Experience
from labyrinth.saves.games import PLAYER, SavedGame, delete_game, save_game, saves_dir
from labyrinth.saves.paths import StorageError, confined, remove, replays_dir
from labyrinth.saves.replays import (
    Mismatch,
    RecordedTurn,
    Replay,
    ReplayError,
    ReplayWriter,
    first_mismatch,
    read_replay,
)

from .command_parser import typed
from .knowledge import Knowledge


def open_memory(learning: bool | tuple[str, ...], seed: int, preset: str,
                difficulty: str) -> tuple[GameMemory, str | None]:
    """The game's memory of earlier games for the roles that learn (``learning``: True both, False
    none, or the roles: `--learn`); when the experience log cannot be used (a data directory that is
    read-only or a file), none, and the one line that says so."""
    learners = learners_of(learning)
    try:
        return GameMemory(Experience() if learners else None, seed, preset, difficulty, learners), None
    except StorageError as exc:
        return GameMemory(None, seed, preset, difficulty), f"Playing without memory: {exc}"


def asked(seat: Side | OutsideSide) -> Side:
    """A seat of ``match.sides``, as the Side it is: the match keeps its asked seats there, and only
    a Side is asked."""
    assert isinstance(seat, Side), "an Outside seat is never asked"
    return seat


@dataclass
class Figures:
    """What the game-over screen tells: the run in numbers."""

    turns: int = 0
    walked: int = 0  # steps the user moved
    jumps_seen: int = 0  # Temporal Whines at the Minotaur's leap
    lanterns_used: int = 0

    def count(self, result: TurnResult) -> None:
        """One played turn and what happened in it. Only played turns are counted: a refused command
        is none (the user's seat counts those, in ``match.stats["user"].errors``), nor is one sent
        after the end (the game-over box once said 12 turns where the replay had 11)."""
        self.turns += 1
        for e in result.events:
            if isinstance(e, ev.UserMoved):
                self.walked += e.steps
            elif isinstance(e, ev.WhineHeard) and e.phase == "VANISHING":
                self.jumps_seen += 1
            elif isinstance(e, ev.LanternUsed):
                self.lanterns_used += 1


@dataclass
class PlaySession:
    """A person plays the user (an Outside seat: the keyboard pushes each command); an agent of
    this project plays the Minotaur. A screen starts a turn with ``begin`` and, while it is not
    done, hands the Minotaur's answer (``match.ask``, off the UI thread when it may block) to
    ``answer``; ``play`` does both in the caller's thread.

    Every game is recorded as it is played (a replay, saves/replays.py). A game has one save,
    written the first time it is saved and overwritten after (ctrl+s, an autosave on leaving),
    and removed when the game ends: a finished game is not resumed. A game has one replay too: a
    resumed game records itself from its first turn again, so once it plays on, the replay its
    save names (the game up to the save) is removed; the new one holds all of it."""

    seed: int
    preset: str = DEFAULT_PRESET
    difficulty: str = DEFAULT_DIFFICULTY
    minotaur_kind: str = "builtin"
    providers: Mapping[str, ProviderSettings] = field(default_factory=dict, repr=False)  # for an LLM Minotaur
    learning: bool | tuple[str, ...] = True  # who learns from the experience log (open_memory); this game adds to it
    figures: Figures = field(default_factory=Figures)

    def __post_init__(self) -> None:
        self.memory, self.memory_notice = open_memory(self.learning, self.seed, self.preset, self.difficulty)
        agent = make_agent("minotaur", self.minotaur_kind, self.seed, self.providers,
                           self.memory.lessons["minotaur"], self.preset, self.memory.books["minotaur"])
        self.recording = ReplayWriter()  # its path stays known once the replay is closed: the story is told from it
        self.match = Match(Outside(PLAYER), agent, seed=self.seed, preset=self.preset, difficulty=self.difficulty,
                           max_turns=None, memory=self.memory, recorder=self.recording)
        self.save_path: Path | None = None  # this game's save, once it has one
        self.resumed_turns = 0  # the turns a resumed game had played before (its replay's start)
        self.earlier_replay: str | None = None  # a resumed game's replay up to its save, until this one supersedes it
        self.left = False  # saved and closed (leave): an answer that comes back after plays nothing (carry_turn)
        self.mapped = user_map(self.match.seats["user"])
        self.response: GameStateResponse = self.match.last.response  # the latest answer, a refusal too
        self.known = Knowledge(PRESETS[self.preset], self.response, self.observation)  # bearings, sightings, danger
        self.told: list[tuple[str | None, GameStateResponse]] = [(None, self.response)]  # what the log opens with
        self.history: list[str] = []  # the commands typed, oldest first: the command line's, kept with the save

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def minotaur(self) -> Side:
        return asked(self.match.sides["minotaur"])

    @property
    def observation(self):
        """What the user knows now (the map, the sounds): the Outside seat's observation."""
        return self.match.seats["user"].observation

    @property
    def over(self) -> bool:
        return self.match.outcome is not None

    def ahead(self) -> Iterator[object]:
        """Work for the time the player spends reading, a step at a time: the Minotaur's likely first
        routes (engine.minotaur.routes_ahead), so that the first key's turn is not the one that builds
        the labyrinth it crosses. Changes nothing of the game; stale once a turn is played."""
        return routes_ahead(self.game.world, self.game.state)

    def begin(self, command: UserInput) -> Turn:
        """A turn with the person's command; done at once when the command is refused or the game
        is over (the Minotaur is not asked)."""
        return self._finished(self.match.begin(user=command))

    def answer(self, turn: Turn, answers: Mapping[str, Answer]) -> Turn:
        """The Minotaur's answer taken, and the turn played (on the UI thread)."""
        return self._finished(self.match.answer(turn, answers))

    def play(self, command: UserInput) -> Turn:
        """One whole turn in the caller's thread."""
        return self._finished(self.match.play_turn(user=command))

    def _finished(self, turn: Turn) -> Turn:
        """A done turn counted in the figures (the match keeps the played ones for a save); the
        turn that ends the game finishes its replay and removes its save."""
        result = turn.result
        if result is not None:  # done
            self.response = result.response
            if turn.record is not None:  # played: not refused, nor sent after the end
                self.figures.count(result)
            self.known.learn(result, self.observation)
            if self.earlier_replay is not None and self.match.recorder is not None:
                self._drop_earlier_replay(self.earlier_replay)
            if ended(self.match, turn):
                self.match.close()
                self._forget_save()
        return turn

    def save(self) -> Path:
        """Write the game into its save (a new one the first time); its path. OSError, SaveError."""
        self.save_path = save_game(self.to_saved())
        return self.save_path

    def autosave(self) -> Path | None:
        """Save the game as one leaves it, when there is something to resume: a game under way that
        was played or saved before (a finished one has nothing left, an untouched one nothing yet)."""
        if self.over or not (self.match.played or self.save_path):
            return None
        return self.save()

    def leave(self) -> Path | None:
        """The person leaves the game (to the title, or quitting): it is autosaved, and its replay
        closed where the game stopped (removed when no turn was played here). OSError, SaveError: the
        game could not be saved, nothing was closed, it can go on."""
        path = self.autosave()
        self.left = True
        replay = self.replay_path
        self.match.close()
        if replay is not None and len(self.match.played) == self.resumed_turns:  # nothing new: no replay to keep
            try:
                remove(replay, replays_dir())
            except OSError:
                pass  # an empty replay left behind is harmless; the game was saved
        return path

    @property
    def replay_path(self) -> Path | None:
        """The replay being written; None once it is closed or stopped (the match lets go of its
        recorder, ``recording``, then)."""
        return self.recording.path if self.match.recorder is not None else None

    def _drop_earlier_replay(self, name: str) -> None:
        """The resumed game played on and its recording holds every turn: the replay its save named
        (``name``) goes, when it is the same game up to the save (an edited save naming another file
        leaves that be)."""
        self.earlier_replay = None
        folder = replays_dir()
        path = folder / Path(name).name
        try:
            earlier = read_replay(path)
            same = (earlier.header.seed, earlier.header.preset, earlier.header.difficulty) == (
                self.seed, self.preset, self.difficulty)
            if same and path != self.replay_path and earlier.end is None and [
                    (t.user, t.minotaur) for t in earlier.turns] == self.match.played[:len(earlier.turns)]:
                remove(path, folder)
        except (ReplayError, OSError):
            pass  # gone already, or unreadable: nothing of this game to remove

    def _forget_save(self) -> None:
        if self.save_path is not None:
            try:
                delete_game(self.save_path)
            except OSError:
                pass  # it stays listed (as the unfinished game it saved) until deleted from the list
            self.save_path = None

    def to_saved(self) -> SavedGame:
        state, r = self.game.state, self.response
        stones = stones_held(r.user_state.inventory)
        summary = (f"{self.preset}, seed {self.seed}: level {state.user[2]}, {stones}/{len(STONES)} stones, "
                   f"{r.environment.game_time:g} s, turn {state.turn}")
        recording = self.replay_path
        return SavedGame(self.save_path, now_iso(), self.seed, self.preset, self.difficulty, self.minotaur_kind,
                         list(self.match.played), state.digest(), summary,
                         replay_file=self.earlier_replay or (recording.name if recording else None),
                         history=list(self.history))

    @classmethod
    def resume(cls, saved: SavedGame, providers: Mapping[str, ProviderSettings] | None = None,
               learning: bool | tuple[str, ...] = True) -> PlaySession:
        """The saved game, played again turn by turn with the recorded decisions (the match's
        replay: a rule agent re-lives each decision, a model only hears how each turn went),
        counted in the figures as when it was played, and checked turn by turn against the save
        (agents/match/resume.py: SaveError naming the first turn that differs)."""
        session = cls(saved.seed, saved.preset, saved.difficulty, saved.minotaur, providers or {}, learning)
        resume_into(session.match, saved, session._replayed)
        session.save_path, session.resumed_turns = _own_save(saved.path), len(saved.turns)
        session.earlier_replay = saved.replay_file
        session.history.extend(saved.history)
        return session

    def _replayed(self, result: TurnResult) -> None:
        """A saved turn played again: counted, known and told as when it was played (the log opens
        with the game's turns, in the words the command line reads)."""
        self.figures.count(result)
        self.response = result.response
        self.known.learn(result, self.observation)
        self.told.append((typed(self.match.played[-1][0]), result.response))


def _own_save(path: Path | None) -> Path | None:
    """A resumed save's path when saving the game again may overwrite it: a file of the saves directory."""
    try:
        return confined(path, saves_dir()) if path is not None else None
    except StorageError:
        return None


def ended(match: Match, turn: Turn) -> bool:
    """Whether ``turn`` is the one that ended the match (not one answered after the end)."""
    return match.outcome is not None and turn.record is not None and turn.record.turn == match.turns


class SpectateSession:
    """A match between two agents, played a turn at a time for a person to watch (the screen
    drives each turn with ``begin`` and ``answer``), and recorded as a replay."""

    left = False  # a watched match is never left with a save to keep (background.Session)

    def __init__(self, seed: int, preset: str = DEFAULT_PRESET, difficulty: str = DEFAULT_DIFFICULTY,
                 user: str = "builtin", minotaur: str = "builtin", max_turns: int = DEFAULT_MAX_TURNS,
                 providers: Mapping[str, ProviderSettings] | None = None,
                 learning: bool | tuple[str, ...] = True) -> None:
        self.memory, self.memory_notice = open_memory(learning, seed, preset, difficulty)
        lessons = self.memory.lessons
        books = self.memory.books
        self.lessons = {role: learning_injection(found, books[role]) for role, found in lessons.items()}  # the panel
        self.match = Match(make_agent("user", user, seed, providers, lessons["user"], preset, books["user"]),
                           make_agent("minotaur", minotaur, seed, providers, lessons["minotaur"], preset,
                                      books["minotaur"]),
                           seed=seed, preset=preset, difficulty=difficulty, max_turns=max_turns,
                           memory=self.memory, recorder=ReplayWriter())
        self.seed, self.preset, self.difficulty = seed, preset, difficulty
        self.user_kind, self.minotaur_kind = user, minotaur
        self.mapped = user_map(self.match.sides["user"])
        self.known = Knowledge(PRESETS[preset], self.response, self.observation)  # what the user knows besides

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def response(self) -> GameStateResponse:
        return self.match.last.response

    @property
    def sides(self) -> dict[str, Side]:
        """The agents' seats, by role (both are agents' here)."""
        return {role: asked(seat) for role, seat in self.match.sides.items()}

    @property
    def observation(self):
        """What the user knows now (the map, the sounds)."""
        return self.match.sides["user"].observation

    @property
    def over(self) -> bool:
        return self.match.outcome is not None

    def begin(self) -> Turn:
        return self.match.begin()

    def answer(self, turn: Turn, answers: Mapping[str, Answer]) -> Turn:
        """The agents' answers taken and the turn played; the turn that ends the match finishes its replay."""
        turn = self.match.answer(turn, answers)
        if turn.result is not None:  # done
            self.known.learn(turn.result, self.observation)
        if ended(self.match, turn):
            self.match.close()
        return turn


class ReplaySession:
    """A recorded match played back a turn at a time: its inputs re-run through a new Match of
    the same world, both seats pushed from the recording (the user's keeps what it saw, for the
    map). The recording is checked once, as it is opened (replays.first_mismatch): playback
    stops before the first turn that does not play again as recorded (``mismatch`` says which; one whose
    turns all play again and whose ending alone differs is played back whole)."""

    def __init__(self, replay: Replay) -> None:
        self.replay, self.header = replay, replay.header
        self.mismatch: Mismatch | None = first_mismatch(replay)
        self.length = len(replay.turns) if self.mismatch is None or self.mismatch.ending else \
            max(self.mismatch.turn - 1, 0)
        self._start()

    def _start(self) -> None:
        h = self.header
        self.match = Match(Outside(h.user_agent), Outside(h.minotaur_agent, observe=False), seed=h.seed,
                           preset=h.preset, difficulty=h.difficulty, max_turns=None)
        self.at = 0  # turns played back
        self.mapped = user_map(self.match.seats["user"])
        self.known = Knowledge(PRESETS[self.preset], self.response, self.observation)

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def preset(self) -> str:
        return self.header.preset

    @property
    def response(self) -> GameStateResponse:
        return self.match.last.response

    @property
    def observation(self):
        return self.match.seats["user"].observation

    @property
    def over(self) -> bool:
        return self.at >= self.length

    def step(self) -> RecordedTurn | None:
        """The next recorded turn played back; None at the end."""
        if self.over:
            return None
        recorded = self.replay.turns[self.at]
        self.known.learn(self.match.replay_turn(recorded.user, recorded.minotaur), self.observation)
        self.at += 1
        return recorded

    def seek(self, turn: int) -> None:
        """Play back to just after ``turn`` (0: the start); going back plays again from the start."""
        turn = max(0, min(turn, self.length))
        if turn < self.at:
            self._start()
        while self.at < turn:
            self.step()

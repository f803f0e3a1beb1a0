"""The Labyrinth's AvatarGameAdapter: an agent is embodied as the intruder.

An agent (a name) owns up to three avatars. Each lives in one labyrinth (a
seed); jacking out leaves it dormant in a saved game (or suspended) that it,
or a person from the TUI's saved games, can come back to and continue exactly;
despawning removes it. When it is caught it is destroyed, and may respawn at
the start of the same labyrinth or in a new one, keeping its death count, its
play time and the stones it has ever found. Rosters live in saves/.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path
from types import EllipsisType
from typing import Any

from labyrinth.engine.figures import seconds
from labyrinth.engine.items import STONES
from labyrinth.engine.presets import DEFAULT_DIFFICULTY, DEFAULT_PRESET
from labyrinth.engine.wsap import (
    Action,
    ActionResult,
    ActionSpace,
    Avatar,
    AvatarSpec,
    AvatarState,
    DeathEvent,
    JackInResult,
    JackOutResult,
    Observation,
    RespawnOption,
)
from labyrinth.engine.wsap.actions import USER_ACTIONS, USER_DESCRIPTION
from labyrinth.saves.avatars import AvatarRecord, load_roster, store_roster
from labyrinth.saves.clock import now_iso
from labyrinth.saves.games import SavedGame, SaveError, load_game, save_game, saves_dir
from labyrinth.saves.paths import StorageError, confined, remove

from ..match.resume import resume_into
from ..match.runner import DEFAULT_MAX_TURNS
from .adapters import LabyrinthAdapter

GAME_ID = "labyrinth"
MAX_AVATARS = 3
RESPAWNS = {
    "restart": RespawnOption("restart", "spawn_point", "the start of the same labyrinth", None,
                             ["the game's progress is lost"], "Start the same labyrinth again from its beginning."),
    "new_seed": RespawnOption("new_seed", "random", "a new labyrinth", None, ["the game's progress is lost"],
                              "Wake in a new labyrinth."),
}


def _seed_for(agent_id: str, count: int) -> int:
    """A stable labyrinth for an agent's n-th avatar (hash(), unlike sha256, changes per process)."""
    return int.from_bytes(hashlib.sha256(f"{agent_id}:{count}".encode()).digest()[:4], "big") >> 1


class LabyrinthAvatars:
    """Avatars for the user role, and the GameAdapter of the one jacked in."""

    def __init__(self, preset: str = DEFAULT_PRESET, difficulty: str = DEFAULT_DIFFICULTY, opponent: str = "builtin",
                 directory: Path | None = None, max_turns: int = DEFAULT_MAX_TURNS) -> None:
        self.preset, self.difficulty, self.opponent = preset, difficulty, opponent
        self.directory, self.max_turns = directory, max_turns
        self.agent_id: str | None = None  # who is jacked in, and into which avatar
        self.avatar_id: str | None = None
        self.game: LabyrinthAdapter | None = None
        self.session_start = 0.0

    # --- the GameAdapter of the bound avatar --------------------------------

    @property
    def game_description(self) -> str:
        return USER_DESCRIPTION  # avatars are intruders: the user's role, bound or not

    @property
    def action_space(self) -> ActionSpace:
        return USER_ACTIONS

    def observe(self) -> Observation:
        return self._bound().observe()

    def reset(self) -> Observation:
        return self._bound().reset()

    def act(self, action: Action) -> ActionResult:
        agent_id, avatar_id, game = self._jacked()
        result = game.act(action)
        if result.done and game.game.state.outcome == "DEATH":
            record = self._record(agent_id, avatar_id)
            self._update(record, state=AvatarState.DESTROYED, health=0.0, death_count=record.avatar.death_count + 1)
        return result

    # --- avatars ----------------------------------------------------------------

    def list_avatars(self, agent_id: str) -> list[Avatar]:
        return [r.avatar for r in load_roster(agent_id, self.directory)]

    def create_avatar(self, agent_id: str, spec: AvatarSpec) -> Avatar:
        """A new avatar in a labyrinth of its own; ValueError when the roster is full."""
        records = load_roster(agent_id, self.directory)
        alive = [r for r in records if r.avatar.state is not AvatarState.DESTROYED]
        if len(alive) >= MAX_AVATARS:
            raise ValueError(f"{agent_id} already has {MAX_AVATARS} avatars: despawn one first")
        number = len(records) + 1
        seed = _seed_for(agent_id, number) if spec.spawn_location != "random" else \
            int.from_bytes(hashlib.sha256(f"{agent_id}:{number}:{now_iso()}".encode()).digest()[:4], "big") >> 1
        difficulty = "hard" if spec.spawn_location == "challenging" else self.difficulty
        game = LabyrinthAdapter("user", seed, self.preset, difficulty, self.opponent, self.max_turns)
        now = now_iso()
        avatar = Avatar(f"{agent_id}-{number}", GAME_ID, None, AvatarState.UNBOUND, spec.name or f"Intruder {number}",
                        game.game.state.user, dict(spec.appearance), 1.0, 1.0, {}, {}, now, now, 0, 0,
                        game.game.state.user)
        store_roster(agent_id, [*records, AvatarRecord(avatar, seed, self.preset, difficulty, self.opponent)],
                     self.directory)
        return avatar

    def jack_in(self, agent_id: str, avatar_id: str) -> JackInResult:
        """Bind the agent to its avatar: a new avatar starts its labyrinth, a sleeping one
        continues exactly where it was."""
        if self.game is not None:
            return JackInResult(False, None, f"{self.agent_id} is jacked into {self.avatar_id}: jack out first", {},
                                None)
        try:
            record = self._record(agent_id, avatar_id)
        except KeyError as exc:
            return JackInResult(False, None, str(exc), {}, None)
        if record.avatar.state is AvatarState.DESTROYED:
            return JackInResult(False, record.avatar, f"{avatar_id} is destroyed: respawn it", {}, None)
        game = LabyrinthAdapter("user", record.seed, record.preset, record.difficulty, record.opponent,
                                self.max_turns)
        if record.save:
            try:
                saved = load_game(confined(Path(record.save), saves_dir()))
                if len(saved.turns) >= self.max_turns:  # a game over here, and a save no reader would take back
                    return JackInResult(False, record.avatar, f"its sleeping game has played {len(saved.turns)} "
                                        f"turns, this world's limit is {self.max_turns}: it cannot go on here",
                                        {}, None)
                resume_into(game.match, saved, game.earn)  # what it had earned stays earned
            except (SaveError, StorageError) as exc:
                return JackInResult(False, record.avatar, f"its sleeping game cannot be resumed: {exc}", {}, None)
        self.agent_id, self.avatar_id, self.game = agent_id, avatar_id, game
        self.session_start = seconds(game.game.state.tick)
        avatar = self._update(record, state=AvatarState.BOUND, bound_agent=agent_id)
        return JackInResult(True, avatar, f"{agent_id} is {avatar.name}, at {avatar.position}.", {}, game.observe())

    def jack_out(self, agent_id: str, mode: str = "dormant") -> JackOutResult:
        """Release the avatar: dormant (saved, to come back to), suspend (frozen, saved)
        or despawn (removed for good)."""
        if self.game is None or agent_id != self.agent_id:
            return JackOutResult(False, AvatarState.UNBOUND, f"{agent_id} is not jacked in", {})
        if mode not in ("dormant", "suspend", "despawn"):
            return JackOutResult(False, AvatarState.BOUND, f"mode must be dormant, suspend or despawn, not {mode!r}",
                                 {})
        _, avatar_id, game = self._jacked()
        record = self._record(agent_id, avatar_id)
        stats = {"playtime_s": seconds(game.game.state.tick) - self.session_start, "turns": game.turns,
                 "achievements": sorted(game.unlocked)}
        if mode == "despawn":
            self.agent_id = self.avatar_id = self.game = None
            kept = ""
            if record.save:
                try:
                    remove(Path(record.save), saves_dir())  # its sleeping game goes with it
                except StorageError as exc:  # an edited roster naming another file: never touched
                    kept = f" Its save was left alone: {exc}."
            records = [r for r in load_roster(agent_id, self.directory)
                       if r.avatar.avatar_id != record.avatar.avatar_id]
            store_roster(agent_id, records, self.directory)
            return JackOutResult(True, AvatarState.DESTROYED, f"{record.avatar.name} is gone.{kept}", stats)
        if record.avatar.state is AvatarState.DESTROYED:
            self.agent_id = self.avatar_id = self.game = None
            return JackOutResult(True, AvatarState.DESTROYED, f"{record.avatar.name} died: respawn it.", stats)
        state = AvatarState.DORMANT if mode == "dormant" else AvatarState.SUSPENDED
        path = save_game(SavedGame(None, now_iso(), record.seed, record.preset, record.difficulty, record.opponent,
                                   list(game.history), game.game.state.digest(),
                                   f"avatar {record.avatar.name} of {agent_id}", agent_id, self.max_turns))
        self._update(record, state=state, bound_agent=None, save=str(path))  # still bound: the game's facts go in
        self.agent_id = self.avatar_id = self.game = None
        return JackOutResult(True, state, f"{record.avatar.name} sleeps ({mode}).", stats)

    def handle_death(self, avatar_id: str) -> DeathEvent:
        record = self._find(avatar_id)
        a = record.avatar
        return DeathEvent(avatar_id, "combat", "the Minotaur", a.position, a.last_active,
                          dict(a.inventory), 0.0, list(RESPAWNS.values()))

    def respawn(self, avatar_id: str, option: RespawnOption | str) -> JackInResult:
        """Back to life: the same labyrinth from its start, or a new one; deaths, play time
        and the stones ever found are kept."""
        record = self._find(avatar_id)
        option_id = option.id if isinstance(option, RespawnOption) else option
        if option_id not in RESPAWNS:
            return JackInResult(False, record.avatar, f"no respawn option {option_id!r}: choose {', '.join(RESPAWNS)}",
                                {}, None)
        agent_id = record.avatar.bound_agent or avatar_id.rsplit("-", 1)[0]
        seed = record.seed if option_id == "restart" else _seed_for(agent_id, 100 + record.avatar.death_count)
        if self.game is not None and self.avatar_id == avatar_id:
            self.agent_id = self.avatar_id = self.game = None
        self._update(record, state=AvatarState.UNBOUND, health=1.0, inventory={}, save=None, seed=seed)
        return self.jack_in(agent_id, avatar_id)

    # --- inside -------------------------------------------------------------------

    def _bound(self) -> LabyrinthAdapter:
        return self._jacked()[2]

    def _jacked(self) -> tuple[str, str, LabyrinthAdapter]:
        """Who is jacked in, into which avatar, and its game (the three are set and cleared together)."""
        if self.agent_id is None or self.avatar_id is None or self.game is None:
            raise RuntimeError("no avatar is jacked in: jack_in() first")
        return self.agent_id, self.avatar_id, self.game

    def _find(self, avatar_id: str) -> AvatarRecord:
        return self._record(avatar_id.rsplit("-", 1)[0], avatar_id)

    def _record(self, agent_id: str, avatar_id: str) -> AvatarRecord:
        for record in load_roster(agent_id, self.directory):
            if record.avatar.avatar_id == avatar_id:
                return record
        raise KeyError(f"{agent_id} has no avatar {avatar_id!r}")

    def _update(self, record: AvatarRecord, save: str | None | EllipsisType = ..., seed: int | None = None,
                **avatar_fields: Any) -> Avatar:
        """Store ``record`` with the game's latest facts and the changes asked for."""
        agent_id = record.avatar.avatar_id.rsplit("-", 1)[0]
        if self.game is not None and self.avatar_id == record.avatar.avatar_id:
            state = self.game.game.state
            played = seconds(state.tick) - self.session_start
            self.session_start = seconds(state.tick)
            stones = [s for s in STONES if s in state.inventory]
            record.stones_ever = sorted(set(record.stones_ever) | set(stones), key=STONES.index)
            avatar_fields = {"position": state.user, "inventory": {s: 1 for s in state.inventory},
                             "total_playtime": record.avatar.total_playtime + int(played), **avatar_fields}
        record.avatar = replace(record.avatar, last_active=now_iso(), **avatar_fields)
        if save is not ...:
            record.save = save
        if seed is not None:
            record.seed = seed
        records = [record if r.avatar.avatar_id == record.avatar.avatar_id else r
                   for r in load_roster(agent_id, self.directory)]
        store_roster(agent_id, records, self.directory)
        return record.avatar

"""The vector env's step in the kernel (issue 43): for every row it can, the whole of a scalar env's step in
compiled code over the rows, in the order RLGame plays it: the learner's action as its input (a user's command
the game refuses played as commands.STAND_IN, with the refusal's words), the opponent's (the built-in or the
waiting Minotaur: minotaur_agent.py; the waiting or the random user: user_opponents.py), the turn
(turn.play_turns), the reward and the flags (signals.py), the mask, the achievements (achieved.py) and the
observation (user_obs.py, minotaur_obs.py), and the info RLGame.info gives.

Each row's game still has its LabyrinthEnv (vector_env.py): it draws each game's seed (LabyrinthEnv.seed_game), makes
the game the kernel does not take at its start, and takes the row over when the kernel cannot go on with it (a
fallback: work.REASONS).
Taking over, the env's game is made again from the row's inputs so far (RLGame.replay: the engine plays them
again, the opponent re-lives its decisions), so that the env stands where the row does; it plays the rest of
that game on the engine. A turn the kernel played whose observation or mask it cannot make is handed over with
that turn included, and the step's figures are then the env's (``settle``).

What stays in Python, per step: the refusals' words (engine.turn.unexecutable on the refused rows' states) and the
batch's info; per game: the first state (engine.game.initial_state, which looks at the items in sight through the
engine's World) and the opponent, made and loaded into the row; no Match and no env's game unless the kernel does
not take it. The built-in user (Minotaur-Tiny) is not ported: those games are the env's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from labyrinth.engine import DEFAULT_DIFFICULTY, MinotaurDecision, UserInput
from labyrinth.engine.items import ITEM_ORDER, STONES
from labyrinth.engine.schemas import Coords
from labyrinth.engine.turn import unexecutable
from labyrinth.engine.world import World
from labyrinth.engine.wsap.roles import ROLES

from ..commands import STAND_IN
from ..game import first_state
from ..opponents import seated_opponent
from . import achieved, minotaur_obs, mt, user_obs, user_opponents
from .draws import Draws
from .items import NEEDED
from .jit import jit
from .minotaur_actions import minotaur_decisions
from .minotaur_agent import DECISION, MinotaurMemory, decide_rows
from .signals import B_TICK, action_masks, before_turn, step_signals
from .state import OUTCOME_CODES, StateRows
from .turn import (
    COMMAND_WORDS,
    USER_ACTIONS,
    USER_COMMANDS,
    Told,
    command_row,
    decision_row,
    play_turns,
    unexecutable_rows,
)
from .user_memory import UserMemory
from .ways import DIRECTIONS
from .work import LEFT_REGION, PLANS

if TYPE_CHECKING:
    from ...builtin.builtin_minotaur import BuiltinMinotaur
    from ...builtin.naive import RandomWalker
    from ..gym_env import LabyrinthEnv

COMMAND = USER_ACTIONS.shape[1]  # a command row's width
_STAND_IN = command_row(STAND_IN)
_WAIT = decision_row(MinotaurDecision(action="WAIT"))
# The opponents the kernel plays, by the learner's role: the Minotaur's (its decisions) and the user's (its commands).
OPPONENTS = {"user": ("builtin", "wait"), "minotaur": user_opponents.OPPONENTS}


def kernel_plays(role: str, opponent: str) -> bool:
    """Whether the kernel plays ``role``'s games against ``opponent``; the others' are their envs' alone."""
    return opponent in OPPONENTS.get(role, ())


class KernelSteps:
    """The steps of the ``rows``' games of ``role`` against ``opponent`` (kernel_plays), ``max_turns`` a game."""

    def __init__(self, rows: StateRows, role: str, opponent: str, max_turns: int, difficulty: str = DEFAULT_DIFFICULTY,
                 frozen: bool = False, observations: dict[str, np.ndarray] | None = None) -> None:
        """The games are LabyrinthEnv's of these settings (``frozen``: the Minotaur frozen all game).
        ``observations``: where the rows' observations are written (the vector env's own batch), a key each,
        (n, its flat size), float32; the kernel writes only the rows it plays. Arrays of its own when None."""
        if not kernel_plays(role, opponent):
            raise ValueError(f"the kernel plays no {role}'s games against {opponent!r}")
        n = rows.user.shape[0]
        self.rows, self.role, self.opponent, self.max_turns = rows, role, opponent, max_turns
        self.difficulty, self.frozen = difficulty, frozen
        self.draws = Draws(n)
        self.minotaurs = MinotaurMemory(n) if opponent == "builtin" else None  # the built-in Minotaur's memories
        self.walkers = np.zeros((n, mt.STATE), dtype=np.uint32)  # the random user's streams (random walkers)
        self.turns = np.zeros(n, dtype=np.int64)  # the Match's turns: one a step, a refused command's included
        self.on_engine = np.ones(n, dtype=np.bool_)  # the rows their env plays, until their game ends
        self.log = np.zeros((n, max_turns, COMMAND + DECISION), dtype=np.int64)  # each turn's inputs, to hand over
        self.achievements = tuple(ROLES[role].achievements)
        self.unlocked = np.zeros((n, len(self.achievements)), dtype=np.bool_)
        self.masks = np.zeros((n, len(action_masks(rows, role)[0][0])), dtype=np.int8)  # each row's mask now
        if role == "user":
            self.memory = UserMemory(n, rows.preset)
            self.observations = user_obs.new_observations(n) if observations is None else observations
        else:
            self.levels = minotaur_obs.coarse_levels(rows)
            self.observations = minotaur_obs.observations(n) if observations is None else observations

    def start(self, started: np.ndarray, seeds: Sequence[int] | np.ndarray) -> None:
        """The ``started`` rows (a bool mask) begin the games of ``seeds`` (one per row; the others' unread), made
        here as LabyrinthEnv makes them, with no Match: the first state written into the row (first_state), the
        region laid, the draws, the opponent's memory or stream (as its seat leaves it), the opening's
        observation and mask; no turn yet. A row whose state, opponent or opening the kernel does not port is
        left ``on_engine``, for its env to make that game (LabyrinthEnv.start_game)."""
        rows = self.rows
        at = np.flatnonzero(started).tolist()
        self.turns[started] = 0
        self.unlocked[started] = False
        other = ROLES[self.role].other
        for i in at:
            seed = int(seeds[i])
            world = World(seed)
            rows.write(i, first_state(seed, preset=rows.preset, difficulty=self.difficulty,
                                      max_turns=self.max_turns, frozen=self.frozen, world=world))
            rows.lay_region(i, world, whole=False)
            self.draws.write(i, seed)
        rows.lay_near(started)
        ported = started & ~rows.kept
        for i in at:
            opponent = seated_opponent(other, self.opponent, int(rows.region_seed[i]), rows.preset, self.difficulty)
            if self.minotaurs is not None:
                self.minotaurs.load(i, cast("BuiltinMinotaur", opponent))
                ported[i] &= bool(self.minotaurs.ported[i])
            elif self.opponent == "random":
                self.walkers[i] = user_opponents.streams([cast("RandomWalker", opponent)])[0]
        if self.role == "user":
            why = user_obs.observe_opening(rows, self.memory, ported, self.max_turns, self.observations)
        else:
            minotaur_obs.pool_levels(rows, self.levels, ported)
            why = minotaur_obs.observe(rows, self.levels, self.turns, rows.tick.copy(), self.max_turns,
                                       self.observations, ported)
        masks, unseen = action_masks(rows, self.role)
        ported &= (why == 0) & ~unseen
        self.masks[ported] = masks[ported]
        self.on_engine[started] = ~ported[started]

    def step(self, actions: np.ndarray, playing: np.ndarray) -> Played:
        """One turn of the rows ``playing`` (a bool mask) that the kernel plays, with the learners' ``actions``.
        A row whose turn it could not play is left as it was (``fallen``), one whose outputs it could not make is
        played and left for ``settle`` (``unsettled``): both for ``hand_over``.

        A game starts with only the first stage of its region laid (StateRows.lay_region, region.stages): before a
        turn a row lays the chunks within a chunk and a level of its user and Minotaur (StateRows.lay_near), and a
        row that fell back on a region not laid whole (a cell it needed not laid, read as outside the region, its
        chunk marked needed) lays what its checks marked, or else its next stage (_lay_needed), and plays its turn
        again, from where it stood, until it is played or its region is whole: a fallen row's state is as it was,
        and its opponent's memory or stream, which decided before the turn fell, is put back as it was."""
        rows = self.rows
        mine = playing & ~self.on_engine
        self._laid(rows.lay_near(mine))
        risky = np.flatnonzero(mine & rows.partial)
        before = [array[risky] for array in self._opponent_arrays()]  # copies
        done = self._step(actions, mine)
        while (again := done.fallen & rows.partial).any():
            self._lay_needed(again)
            back = again[risky]
            for array, was in zip(self._opponent_arrays(), before, strict=True):
                array[risky[back]] = was[back]
            done.update(again, self._step(actions, again))
        return done

    def _lay_needed(self, at: np.ndarray) -> None:
        """What the ``at`` rows' turns, observations or masks fell back on: the chunks their checks marked needed
        (StateRows.lay_wanted), or, for a row that marked none (a read past its region's box, or a fall of another
        kind), its region's next stage. The Minotaur's view's coarse planes are pooled again for those rows."""
        laid = self.rows.lay_wanted(at)
        self._laid(laid | self.rows.lay_more(at & ~laid))

    def _laid(self, rows: np.ndarray) -> None:
        """After chunks of the ``rows``' regions were laid: the Minotaur's view pools their levels' coarse planes
        again (a level's chunks not laid were pooled as nothing)."""
        if self.role == "minotaur" and rows.any():
            minotaur_obs.pool_levels(self.rows, self.levels, rows)

    def _opponent_arrays(self) -> tuple[np.ndarray, ...]:
        """What the opponent's decisions change, a row per env: the built-in Minotaur's memories and streams, the
        random user's streams (the waiting ones keep nothing)."""
        if self.minotaurs is not None:
            return self.minotaurs.floats, self.minotaurs.ints, self.minotaurs.rng
        return (self.walkers,) if self.opponent == "random" else ()

    def _step(self, actions: np.ndarray, mine: np.ndarray) -> Played:
        """``step``'s turn of the rows ``mine``, as their regions stand."""
        rows, n = self.rows, len(actions)
        mine = mine.copy()
        refused: dict[int, str | None] = {}
        if self.role == "user":
            commands = USER_ACTIONS[actions]
            cannot = mine & unexecutable_rows(rows, commands)
            refused = {i: unexecutable(rows.state(i), USER_COMMANDS[actions[i]])
                       for i in np.flatnonzero(cannot).tolist()}
            commands[cannot] = _STAND_IN
            decisions = np.empty((n, DECISION), dtype=np.int64)
            decisions[:] = _WAIT
            why = np.zeros(n, dtype=np.int64)
            if self.minotaurs is not None:
                why = decide_rows(rows, self.minotaurs, mine, decisions)
        else:
            decisions = minotaur_decisions(rows, actions)
            commands = np.zeros((n, COMMAND), dtype=np.int64)
            why = user_opponents.decide_rows(self.opponent, rows, self.walkers, mine, commands)
        fallen = mine & (why != 0)
        mine &= why == 0
        before = before_turn(rows)
        was = achieved.before(rows)
        told = Told(n)
        fallen |= mine & (play_turns(rows, commands, decisions, self.draws, told, mine) != 0)
        mine &= ~fallen
        self._log(mine, commands, decisions)
        self.turns[mine] += 1
        rewards, terminated, truncated, unsure = step_signals(before, rows, self.turns, self.max_turns, self.role)
        masks, unseen = action_masks(rows, self.role)
        if self.role == "user":
            unobserved = user_obs.observe_turn(rows, self.memory, commands, told, np.where(mine, 0, -1), self.turns,
                                               self.max_turns, self.observations) != 0
        else:
            unobserved = self._observe_minotaur(mine, before[:, B_TICK], masks, unseen) != 0
        unsettled = mine & (unsure | unseen | unobserved)
        mine &= ~unsettled
        self.masks[mine] = masks[mine]
        self.unlocked[mine] |= achieved.unlocked(self.role, was, rows, told.happened)[mine]
        return Played(mine, fallen, unsettled, rewards, terminated, truncated, refused)

    def _observe_minotaur(self, mine: np.ndarray, since: np.ndarray, masks: np.ndarray, unseen: np.ndarray
                          ) -> np.ndarray:
        """The Minotaur's observation of the rows ``mine`` after their turn, and why each was not made (work.REASONS).
        A row whose window or mask needs a chunk its region has not laid yet (its Minotaur walked or jumped there
        this turn) lays its next stage and is observed again, until it is or its region is whole: the observation
        and the mask read only the row and its region, so the turn, played, stands. ``masks`` and ``unseen`` (the
        rows' masks, action_masks's) are made again for those rows, in place."""
        rows = self.rows
        why = minotaur_obs.observe(rows, self.levels, self.turns, since, self.max_turns, self.observations, mine)
        while (short := mine & rows.partial & ((why == LEFT_REGION) | unseen)).any():
            self._lay_needed(short)
            again, blind = action_masks(rows, self.role)
            masks[short], unseen[short] = again[short], blind[short]
            why[short] = minotaur_obs.observe(rows, self.levels, self.turns, since, self.max_turns, self.observations,
                                              short)[short]
        return why

    def inputs(self, i: int) -> list[tuple[UserInput, MinotaurDecision]]:
        """The engine inputs of the turns the kernel played in row ``i``'s game (a Match's ``played``)."""
        return [(_command(turn[:COMMAND]), _decision(turn[COMMAND:])) for turn in self.log[i, :self.turns[i]].tolist()]

    def hand_over(self, i: int, env: LabyrinthEnv) -> None:
        """Row ``i``'s game to ``env``, which plays it from now on: made again from its seed and the inputs the
        kernel played (RLGame.replay), so that the env's game, opponent and view stand where the row does."""
        game = env.game = env._new_game(int(self.rows.region_seed[i]))
        game.replay(self.inputs(i))
        game.unlocked[self.role] = {name for name, on in zip(self.achievements, self.unlocked[i]) if on}
        self.on_engine[i] = True

    def settle(self, env: LabyrinthEnv, refused: str | None) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The step of a row handed over with its turn played (``unsettled``): what the env reports of it."""
        game = env.game
        assert game is not None, "hand_over made the game"
        info = game.info(self.role)
        if refused is not None:
            info["refused"] = refused
        return (game.observation(self.role), float(ROLES[self.role].reward(game.match.last)), game.terminated,
                game.truncated, info)

    def infos(self, mask: np.ndarray, refused: dict[int, str | None]) -> dict[str, Any]:
        """The ``mask`` rows' infos (RLGame.info's) as gymnasium's VectorEnv._add_info gathers them: each key's array,
        a row each (zero where a row gives none), and its "_key" mask; a key no row gives is absent."""
        rows, n = self.rows, len(mask)
        ending = mask & ((rows.outcome != 0) | (self.turns >= self.max_turns))
        stones = rows.inventory[:, NEEDED].sum(axis=1)
        infos = {"action_mask": np.where(mask[:, None], self.masks, 0).astype(np.int8), "turn": self.turns * mask,
                 "stones": stones * mask}
        infos.update({f"_{key}": mask.copy() for key in list(infos)})
        told = {i: why for i, why in refused.items() if mask[i] and why is not None}
        if told:
            words = np.full(n, None, dtype=object)
            words[list(told)] = list(told.values())
            infos["refused"], infos["_refused"] = words, np.isin(np.arange(n), list(told))
        if ending.any():
            outcome = np.full(n, None, dtype=object)
            for i in np.flatnonzero(ending).tolist():
                outcome[i] = OUTCOME_CODES[rows.outcome[i]] or "TIMEOUT"
            earned: dict[str, Any] = {}
            for k, name in enumerate(self.achievements):
                earned[name], earned[f"_{name}"] = (self.unlocked[:, k] & ending).astype(np.int64), ending.copy()
            progression = (stones + (rows.outcome == achieved.ESCAPED)) / (len(STONES) + 1)
            infos.update({"outcome": outcome, "_outcome": ending.copy(), "achievements": earned,
                          "_achievements": ending.copy(), "progression": np.where(ending, progression, 0.0),
                          "_progression": ending.copy()})
        return infos

    def _log(self, mine: np.ndarray, commands: np.ndarray, decisions: np.ndarray) -> None:
        _write_log(self.log, mine, self.turns, commands, decisions)


class Played:
    """What a kernel step did, each a bool mask of the rows: ``played`` (the kernel's whole step), ``fallen``
    (left as they were), ``unsettled`` (played, their outputs the env's: KernelSteps.settle); the played rows'
    rewards and flags, and the refused commands' words by row."""

    def __init__(self, played: np.ndarray, fallen: np.ndarray, unsettled: np.ndarray, rewards: np.ndarray,
                 terminated: np.ndarray, truncated: np.ndarray, refused: dict[int, str | None]) -> None:
        self.played, self.fallen, self.unsettled, self.refused = played, fallen, unsettled, refused
        self.rewards, self.terminated, self.truncated = rewards, terminated, truncated

    def update(self, rows: np.ndarray, again: Played) -> None:
        """The ``rows`` (a bool mask) as ``again`` played them, in place of what this step said of them."""
        for name in ("played", "fallen", "unsettled", "rewards", "terminated", "truncated"):
            getattr(self, name)[rows] = getattr(again, name)[rows]
        self.refused = {i: why for i, why in self.refused.items() if not rows[i]}
        self.refused.update((i, why) for i, why in again.refused.items() if rows[i])


def _command(row: Sequence[int]) -> UserInput:
    """A command's row (turn.command_row) as the engine's input."""
    command, direction, steps, speed, target = row
    return UserInput(command=COMMAND_WORDS[command], direction=DIRECTIONS[direction] if direction >= 0 else None,
                     steps=steps or None, speed=speed, target=ITEM_ORDER[target] if target >= 0 else None)


def _decision(row: Sequence[int]) -> MinotaurDecision:
    """A decision's row (turn.decision_row) as the engine's input."""
    action, has, x, y, z = row
    return MinotaurDecision(action=PLANS[action], target_coords=Coords(x=x, y=y, z=z) if has else None)


@jit
def _write_log(log: np.ndarray, mine: np.ndarray, turns: np.ndarray, commands: np.ndarray,
               decisions: np.ndarray) -> None:
    """Each played row's inputs at its turn's place in ``log`` (a loop: numpy's fancy indexing took longer)."""
    width = commands.shape[1]
    for r in range(mine.shape[0]):
        if mine[r]:
            log[r, turns[r], :width] = commands[r]
            log[r, turns[r], width:] = decisions[r]

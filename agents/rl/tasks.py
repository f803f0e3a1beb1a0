"""The RL ladder: registered, versioned tasks, MiniGrid-style, each id fixing its role, preset,
opponent, difficulty and turn limit, and its reward: the game's own (the WSAP rewards of the
role, docs/rules.md §16), with no shaping. TASKS is the one table of them: gym_env.py registers
its one-role ids from it, pettingzoo_env.py makes its two-role ids, docs/rl.md's table of tasks is
``card_table()`` (a test checks the page holds it), and each task holds its episode digest, which the
tests recompute (tests/agents/rl/test_rl_tasks.py).

A version rises whenever a game of the task or what it pays can change: the rules (the engine),
the generator (the world, where things are placed), the observation (its keys, shapes, numbers),
the actions, the reward, or a setting the id fixes (the opponent, the turn limit...). The pinned
digests are what catch such a change: a test fails until the version is raised (and the new
digest pinned). ``Labyrinth/User-v0`` and ``Labyrinth/Minotaur-v0`` are not
tasks but the configurable envs, every setting a keyword.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from labyrinth.engine.presets import unknown_setting
from labyrinth.engine.wsap.roles import ROLES

BOTH = "both"  # a two-role task's role: both learn, in the PettingZoo env


@dataclass(frozen=True)
class Task:
    """One rung of the ladder. ``opponent`` names the other role's player (opponents.py), None
    when both roles learn; ``frozen`` begins every game with the Minotaur frozen for the whole
    game (no hunter: the lantern's paralysis, set at the start, outlasting the turn limit)."""

    name: str
    version: int
    role: str
    preset: str
    opponent: str | None
    max_turns: int
    aim: str  # what the task asks, in a line of the env card
    # protocol.episode_digest of the task's games, pinned: the suite recomputes it, so a change that alters the games
    # or what they pay fails until the version is raised (a new id) with its new digest; a paper cites it with the id.
    digest: str
    difficulty: str = "normal"  # the stones hum to LOOK ("hard" silences them)
    frozen: bool = False

    def __post_init__(self) -> None:
        unknown = unknown_setting(self.preset, self.difficulty)
        if unknown or self.role not in (*ROLES, BOTH):
            raise ValueError(f"{self.name}: {unknown or f'no role {self.role!r}'}")
        if (self.role == BOTH) != (self.opponent is None) or (self.frozen and self.role != "user"):
            raise ValueError(f"{self.name}: an opponent is the other role's, and only a user's task freezes it")

    @property
    def id(self) -> str:
        return f"Labyrinth/{self.name}-v{self.version}"

    def settings(self) -> dict[str, Any]:
        """The env's keywords this task fixes (LabyrinthEnv's, or the PettingZoo env's for both roles)."""
        fixed: dict[str, Any] = {"preset": self.preset, "difficulty": self.difficulty, "max_turns": self.max_turns}
        if self.role == BOTH:
            return fixed
        return {"role": self.role, **fixed, "opponent": self.opponent, "frozen": self.frozen}


_TABLE = (
    Task("Stones-Tiny", 1, "user", "tiny", "wait", 400, "find the three stones (holding them is the escape), no "
         "hunter: the Minotaur frozen all game", digest="20b1e958db7689f3", frozen=True),
    Task("User-Tiny-Wait", 1, "user", "tiny", "wait", 400, "escape a Minotaur that waits where it stands",
         digest="c42f9f2c4a8b1ead"),
    Task("User-Tiny", 1, "user", "tiny", "builtin", 400, "escape the built-in Minotaur", digest="608fd0c29c0a6f6a"),
    Task("User-Small", 1, "user", "small", "builtin", 600, "escape the built-in Minotaur on a larger ground",
         digest="96c5586083419f18"),
    Task("User-Standard", 1, "user", "standard", "builtin", 800, "escape the built-in Minotaur on the game's "
         "default ground", digest="288c06b5ef42e6db"),
    Task("User-Large", 1, "user", "large", "builtin", 1200, "escape the built-in Minotaur on a ground of 9 levels",
         digest="7ce3f5eef6e89e8d"),
    Task("User-Full", 1, "user", "full", "builtin", 10000, "escape the built-in Minotaur in the whole km cube",
         digest="2a25e2c12c77be18"),
    Task("Minotaur-Tiny-Wait", 1, "minotaur", "tiny", "wait", 400, "catch a user that waits where it stands",
         digest="1a78b30c89615ba1"),
    Task("Minotaur-Tiny-Random", 1, "minotaur", "tiny", "random", 400, "catch a user that walks at random",
         digest="0e34b04d6a46aac1"),
    Task("Minotaur-Tiny", 1, "minotaur", "tiny", "builtin", 400, "catch the built-in user", digest="57ce0624a80b5fb1"),
    Task("Duel-Tiny", 1, BOTH, "tiny", None, 400, "both roles learn, one against the other (PettingZoo)",
         digest="9fdb4251686c5acc"),
)
TASKS: dict[str, Task] = {task.id: task for task in _TABLE}


def task(task_id: str) -> Task:
    """The task of that id; a clear error listing the ids otherwise."""
    try:
        return TASKS[task_id]
    except KeyError:
        raise ValueError(f"no task {task_id!r}: the tasks are {', '.join(TASKS)}") from None


def card_table() -> str:
    """The env card's table of tasks (docs/rl.md holds it as written here)."""
    rows = ["| id | role | preset | opponent | difficulty | turn limit | what it asks | digest |",
            "|---|---|---|---|---|---|---|---|"]
    for t in TASKS.values():
        opponent = "none (both learn)" if t.opponent is None else f"`{t.opponent}`" + (", frozen" if t.frozen else "")
        rows.append(f"| `{t.id}` | {t.role} | `{t.preset}` | {opponent} | `{t.difficulty}` | {t.max_turns:,} | "
                    f"{t.aim} | `{t.digest}` |")
    return "\n".join(rows)

"""The optional parts of the Wild Spaces Agent Protocol v0.1 (docs/rules.md section 16), pure: the
Memory, Multi-Agent and Tool extensions, the Avatar system and its adapter interface (a
runtime-checkable protocol). Apart from the core (types.py), with the same conventions, so that what
plays a game without them (the pipe, the game screen, the rule agents) does not define them at
every start; ``labyrinth.engine.wsap`` offers them with the core, loaded when first named."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol, runtime_checkable

from .types import Action, GameAdapter, Observation, ParamDef

# --- Extensions (optional): memory, messages between agents, tools ---------------------------


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One past step as an agent remembers it: short texts, not whole observations,
    so that a long history still fits in a prompt."""

    step: int
    observation: str  # a summary of what the agent perceived
    action: Action
    result: str  # the ActionResult's message


@dataclass(slots=True)
class Memory:
    """An agent's long-term memory; it starts empty and grows as the agent plays."""

    facts: list[str] = field(default_factory=list)  # "There's a village to the north"
    plans: list[str] = field(default_factory=list)  # "Need to craft iron pickaxe"
    history: list[HistoryEntry] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class AgentMessage:
    """What one agent says to others."""

    sender: str
    content: str
    type: str  # "broadcast", "direct", "team"


@dataclass(frozen=True, slots=True)
class Tool:
    """An external tool an agent can invoke, described like an action."""

    name: str  # "calculator", "wiki_search"
    description: str
    parameters: list[ParamDef]


# --- Avatar system: an agent's mortal body inside one game ------------------------------------


class AvatarState(Enum):
    """Whether and how an agent is bound to an avatar."""

    UNBOUND = "unbound"  # no agent controlling
    BOUND = "bound"  # an agent actively controlling
    DORMANT = "dormant"  # the agent away, the avatar sleeping in the world
    SUSPENDED = "suspended"  # frozen in time, invisible to the world
    DESTROYED = "destroyed"  # died or despawned


@dataclass(slots=True)
class Avatar:
    """A physical embodiment within a game; the game changes it as it is played."""

    avatar_id: str
    game_id: str
    bound_agent: str | None
    state: AvatarState
    name: str
    position: tuple[float, ...]
    appearance: dict[str, Any]
    health: float
    max_health: float
    inventory: dict[str, int]
    equipment: dict[str, str]  # slot -> item_id
    created_at: str
    last_active: str
    total_playtime: int  # seconds
    death_count: int
    respawn_point: tuple[float, ...] | None


@dataclass(frozen=True, slots=True)
class AvatarSpec:
    """An agent's preferences for a new avatar; every one may be left to the game."""

    name: str | None = None
    appearance: dict[str, Any] = field(default_factory=dict)
    spawn_location: str = "safe"  # safe, random, challenging
    starting_loadout: str = "default"
    skill_bonuses: dict[str, float] = field(default_factory=dict)  # from the agent's skills


@dataclass(frozen=True, slots=True)
class JackInResult:
    """The outcome of binding an agent to an avatar (or of a respawn)."""

    success: bool
    avatar: Avatar | None
    message: str
    bonuses_applied: dict[str, Any]
    initial_observation: Observation | None


@dataclass(frozen=True, slots=True)
class JackOutResult:
    """The outcome of releasing an avatar, with what the session achieved."""

    success: bool
    avatar_state: AvatarState
    message: str
    session_stats: dict[str, Any]  # playtime, achievements, etc.


@dataclass(frozen=True, slots=True)
class RespawnOption:
    """One way back after a death, with its price."""

    id: str
    type: str  # "checkpoint", "bed", "spawn_point", "random"
    location: tuple[float, ...] | str
    cost: dict[str, Any] | None  # resources or currency to respawn
    penalties: list[str]  # "lose_inventory", "lose_xp", "debuff"
    description: str


@dataclass(frozen=True, slots=True)
class DeathEvent:
    """An avatar died: why, what it cost, and the ways back."""

    avatar_id: str
    cause: str  # "combat", "fall", "drowning", "starvation"
    killer: str | None  # the entity that killed, if any
    location: tuple[float, ...]
    timestamp: str
    items_dropped: dict[str, int]
    xp_lost: float
    respawn_options: list[RespawnOption]


@dataclass(slots=True)
class AvatarRoster:
    """An agent's avatars in one game, for games that allow several."""

    agent_id: str
    game_id: str
    avatars: list[Avatar]
    active_avatar_id: str | None
    max_avatars: int = 3  # game-specific limit

    def get_active(self) -> Avatar | None:
        """The avatar currently controlled, if any."""
        return next((a for a in self.avatars if a.avatar_id == self.active_avatar_id), None)

    def get_dormant(self) -> list[Avatar]:
        """The avatars sleeping in the world, which an agent may wake instead of creating one."""
        return [a for a in self.avatars if a.state is AvatarState.DORMANT]

    def can_create_new(self) -> bool:
        """Room for another avatar? Destroyed ones do not count against the limit."""
        alive = [a for a in self.avatars if a.state != AvatarState.DESTROYED]
        return len(alive) < self.max_avatars


@dataclass(slots=True, kw_only=True)
class EmbodiedObservation(Observation):
    """An observation while jacked in: the Observation plus the avatar's body and senses.
    The added fields are keyword-only, since the Observation's last fields have defaults."""

    avatar: Avatar
    facing: str  # "north", "east", etc.
    stance: str  # "standing", "crouching", "prone", "swimming"
    velocity: tuple[float, ...]  # movement vector
    vision_range: float
    vision_cone: float  # degrees
    hearing_range: float

    def to_text(self) -> str:
        """The seed's avatar block, then the observation's text."""
        a = self.avatar
        avatar_text = (f"=== AVATAR: {a.name} ===\nHealth: {a.health}/{a.max_health}\n"
                       f"Position: {a.position}\nFacing: {self.facing} | Stance: {self.stance}\n")
        # Observation.to_text named, not super(): zero-argument super() fails in slots dataclasses before 3.14.
        return avatar_text + Observation.to_text(self)


@runtime_checkable
class AvatarGameAdapter(GameAdapter, Protocol):
    """A game adapter with avatars: agents jack in and out of mortal bodies."""

    def list_avatars(self, agent_id: str) -> list[Avatar]:
        """The avatars this agent has in this game."""

    def create_avatar(self, agent_id: str, spec: AvatarSpec) -> Avatar:
        """A new avatar for the agent."""

    def jack_in(self, agent_id: str, avatar_id: str) -> JackInResult:
        """Bind the agent to the avatar and begin embodied control."""

    def jack_out(self, agent_id: str, mode: str = "dormant") -> JackOutResult:
        """Release the current avatar: "dormant" leaves it sleeping in the world,
        "suspend" freezes it out of sight, "despawn" removes it."""

    def respawn(self, avatar_id: str, option: RespawnOption) -> JackInResult:
        """Bring a destroyed avatar back by one of its DeathEvent's options, and jack in.
        (The seed also writes ``option_id: str``; the option itself carries its id.)"""

    def handle_death(self, avatar_id: str) -> DeathEvent:
        """Process the avatar's death and offer the ways back."""

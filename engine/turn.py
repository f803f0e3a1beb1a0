"""One turn: the user's command and the Minotaur's decision, simulated together
in ticks of 0.5 s until the user's command is done (docs/rules.md sections 4-8).

``advance`` is the engine's one step function. It never mutates the state it
is given: an ERROR, or any command after the game ended, returns that very
state object; otherwise it returns a new one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import events as ev
from .cells import CRAWLWAY, RAMP_DOWN, RAMP_UP, ROCK
from .constants import (
    HEAR_HIGH_SQ,
    HEAR_LOW_SQ,
    JUMP_COOLDOWN_TICKS,
    MAX_STEPS,
    REENTRY_ALERT_TICKS,
    REST_GAIN_PER_TICK,
    RUN_COST,
    STAMINA_MAX,
    TICKS_PER_SECOND,
    VERY_CLOSE_SQ,
    WALK_GAIN,
    WORLD_LEVELS,
    WORLD_SIZE,
)
from .geometry import HORIZONTAL, OPPOSITE, RAMP_LEVELS, SIDEWAYS, Pos, distance_sq
from .items import COUNTDOWNS, ITEM, ITEM_ORDER, STONES, USABLE
from .minotaur import next_cell, plan_for
from .presets import PRESETS
from .report import (
    USER_REJECTED,
    CommandSummary,
    Report,
    error_report,
    final_report,
    turn_report,
)
from .rng import jump_length
from .schemas import (
    GameStateResponse,
    MinotaurDecision,
    MinotaurObservation,
    UserInput,
)
from .senses import (
    NEARNESS,
    audio_direction,
    items_in_sight,
    minotaur_sees_user,
    proximity,
    resonance,
    user_sees_minotaur,
)
from .state import GameState
from .world import World


class TurnResult:
    """A turn's outcome: the new state, both sides' views and what happened.

    Each view is built when first asked for (report.py's Report): a game whose words nobody
    reads (an RL env, a Minotaur that does not look) never pays for them. ``status``,
    ``time_taken`` and ``stop_reason`` are what readers of numbers need of the user's response without it.
    """

    __slots__ = ("_minotaur", "_observation", "_respond", "_response", "events", "state", "status", "stop_reason",
                 "time_taken")

    def __init__(self, state: GameState, report: Report, events: tuple[ev.Event, ...]) -> None:
        self.state, self.events = state, events
        self.status, self.time_taken, self.stop_reason, self._respond, self._minotaur = report
        self._response: GameStateResponse | None = None
        self._observation: MinotaurObservation | None = None

    @property
    def response(self) -> GameStateResponse:
        if self._response is None:
            self._response = self._respond()
        return self._response

    @property
    def observation(self) -> MinotaurObservation:
        if self._observation is None:
            self._observation = self._minotaur.observation()
        return self._observation

    def minotaur_fields(self, words: bool = True) -> dict[str, Any]:
        """The Minotaur's observation as plain data (its ``model_dump()``), a new dict each call, the model
        left unbuilt: what a reader of its numbers takes (the built-in Minotaur's details). Without
        ``words``, its ``raw_text_output`` is left out, unwritten: a reader of numbers only (an RL view)."""
        return self._minotaur.fields(words)


def advance(world: World, state: GameState, command: UserInput, decision: MinotaurDecision) -> TurnResult:
    """Play one turn. Invalid or post-game commands change nothing."""
    if state.outcome:
        return TurnResult(state, final_report(world, state, state.outcome), ())
    problem = unexecutable(state, command)
    if problem:
        return TurnResult(state, error_report(world, state, problem), ())
    return _Turn(world, state.clone(), command, decision).run()


def reject(world: World, state: GameState, problem: str, minotaur_problem: str = USER_REJECTED) -> TurnResult:
    """The ERROR result for input that never became a command (bad JSON, schema)."""
    if state.outcome:
        return TurnResult(state, final_report(world, state, state.outcome), ())
    return TurnResult(state, error_report(world, state, problem, minotaur_problem), ())


def _lying_in_reach(state: GameState) -> Iterator[tuple[str, Pos]]:
    """The lying items within a step of the user on its level, in the state's order: what GRAB can reach."""
    ux, uy, uz = state.user
    return ((name, pos) for name, pos in state.items
            if pos[2] == uz and abs(pos[0] - ux) + abs(pos[1] - uy) <= 1)


def item_in_reach(state: GameState, wanted: str | None) -> tuple[str, Pos] | None:
    """The item GRAB would take: ``wanted``, or the first in reach when None."""
    return next((item for item in _lying_in_reach(state) if wanted in (None, item[0])), None)


def items_in_reach(state: GameState) -> set[tuple[str, Pos]]:
    """The lying items GRAB could take from where the user stands: ``item_in_reach`` of each name
    (the first of a name in reach), in one pass over the items rather than one a name."""
    reach: dict[str, Pos] = {}
    for name, pos in _lying_in_reach(state):
        reach.setdefault(name, pos)
    return set(reach.items())


def run_on(world: World, frm: Pos, to: Pos, heading: str, came: str | None = None) -> str | None:
    """Where a MOVE without a count goes after its step from ``frm`` to ``to`` going ``heading``, as a
    roguelike's run follows a corridor: the heading of its next step, or None where it arrives. It
    arrives on a ramp, and at a junction: a side passage (left or right of the way on) that the cell
    before lacked, or, where the way ahead is shut, more than one way on. A bend with one way on is
    followed (the heading turns), and a dead end is walked into (the next step collides). ``came``:
    the heading of the step into ``frm`` (the run's own at its first step), whose way back is no side
    passage of ``frm``."""
    if world.cell(*to) in (RAMP_UP, RAMP_DOWN):  # where every ramp step lands (rules.md, decision 2)
        return None
    after = world.user_exits(to)
    if heading in after:
        back = OPPOSITE[came or heading]
        before = [way for way in world.user_exits(frm) if way != back]
        return None if any(side in after and side not in before for side in SIDEWAYS[heading]) else heading
    ways_on = [side for side in SIDEWAYS[heading] if side in after]
    if len(ways_on) > 1:
        return None
    return ways_on[0] if ways_on else heading


def unexecutable(state: GameState, command: UserInput) -> str | None:
    """Why a valid command cannot be carried out now, or None."""
    if command.command == "GRAB" and item_in_reach(state, command.target) is None:
        what = f"the {command.target} is not" if command.target else "nothing is"
        others = [n for n, _ in state.items if item_in_reach(state, n)]
        hint = f" Within reach: {', '.join(others)}." if others else (
            " GRAB takes an item on your cell or on one of the four cells next to it, on this level.")
        return f"GRAB failed: {what} within reach.{hint}"
    if command.command == "USE":
        if command.target is not None and command.target not in USABLE:
            return (f"USE failed: the {command.target} cannot be used; only the {' or the '.join(USABLE)} can "
                    "(hold all three stones to escape).")
        if not any(name in state.inventory for name in ((command.target,) if command.target else USABLE)):
            return f"USE failed: you carry no {command.target or ' or '.join(USABLE)}. GRAB one first."
    return None


class _Turn:
    """The working copy of one turn; every tick goes through ``_tick``."""

    def __init__(self, world: World, state: GameState, command: UserInput, decision: MinotaurDecision) -> None:
        self.world, self.s, self.command = world, state, command
        self.events: list[ev.Event] = []
        self.plan, self.refusal = plan_for(world, state, decision)
        self.walks = self.plan[0] in ("CHASE", "PATHFIND")
        if not self.walks:
            state.stride = 0  # standing still loses any half-taken step
        if self.refusal:
            self.events.append(ev.DecisionRefused(state.tick, decision.action, self.refusal))
        self.start_tick = state.tick
        self.minotaur_start = state.minotaur
        self.minotaur_steps = 0
        self.sees = minotaur_sees_user(world, state)
        self.heard: list[tuple[Pos, str]] = []
        self.summary = CommandSummary()
        self._sight: tuple[Pos | None, tuple[tuple[str, Pos], ...], list[tuple[str, Pos]]] = (None, (), [])

    def run(self) -> TurnResult:
        s, cmd = self.s, self.command
        s.turn += 1
        if cmd.command == "MOVE":
            self._move(cmd)
        elif cmd.command == "HALT":
            self._stand(TICKS_PER_SECOND * (cmd.steps or 1))
        else:
            self._act_at_once(cmd)
            if s.outcome:  # escaped: the second still passes and the timers run, but nobody acts in it
                for _ in range(TICKS_PER_SECOND):
                    s.tick += 1
                    self._run_timers()
            else:
                self._stand(TICKS_PER_SECOND)
        self._note_seen_items(self._items_in_sight())
        if self.minotaur_steps:
            self.events.append(ev.MinotaurMoved(s.tick, self.minotaur_start, s.minotaur, self.minotaur_steps))
        if self.heard:
            loud = "HIGH" if any(n == "HIGH" for _, n in self.heard) else "LOW"
            self.events.append(ev.UserHeard(s.tick, self.heard[-1][0], loud, len(self.heard)))
        self.summary.time_taken = (s.tick - self.start_tick) / TICKS_PER_SECOND
        events = tuple(self.events)
        report = turn_report(self.world, s, cmd, self.summary, events, self.refusal, len(self.heard))
        return TurnResult(s, report, events)

    # --- the user's commands ------------------------------------------------

    def _act_at_once(self, cmd: UserInput) -> None:
        """GRAB, USE and LOOK act at the start of their second."""
        s = self.s
        if cmd.command == "GRAB":
            grabbed_item = item_in_reach(s, cmd.target)
            assert grabbed_item is not None, "advance() lets no GRAB through with nothing in reach"
            name, pos = grabbed_item
            s.items = tuple(item for item in s.items if item != (name, pos))
            s.inventory = tuple(n for n in ITEM_ORDER if n in s.inventory or n == name)
            self.events.append(ITEM[name].grab(s, ITEM[name], pos))
            if all(stone in s.inventory for stone in STONES):
                s.outcome = "ESCAPED"
                self.events.append(ev.UserEscaped(s.tick, s.user))
        elif cmd.command == "LOOK" and s.difficulty != "hard":
            self.events.append(ev.StonesHummed(s.tick, resonance(s)))
        elif cmd.command == "USE":
            used = ITEM[cmd.target or next(n for n in USABLE if n in s.inventory)]
            assert used.use is not None, "advance() lets no USE through of an item without a rule"
            s.inventory = tuple(n for n in s.inventory if n != used.name)
            self.events.extend(used.use(s, used))
        if self.plan[0] == "JUMP" and s.paralysis:
            self.plan, self.refusal = ("WAIT",), "JUMP refused: the lantern paralyzed the Minotaur first"
            self.events.append(ev.DecisionRefused(s.tick, "JUMP", self.refusal))

    def _stand(self, ticks: int) -> None:
        s = self.s
        for _ in range(ticks):
            if s.outcome:
                return
            self._tick(None, None)
            s.stamina = min(STAMINA_MAX, s.stamina + REST_GAIN_PER_TICK)

    def _move(self, cmd: UserInput) -> None:
        """MOVE: ``steps`` steps exactly, or, with no count, a run to the first place worth a stop,
        following the corridor round its bends."""
        s, out = self.s, self.summary
        run = cmd.steps is None
        wanted = cmd.steps or MAX_STEPS
        path: list[Pos] = []
        start, ran = s.user, 0
        heading: str = cmd.move_direction
        came = heading
        saw_minotaur = user_sees_minotaur(self.world, s)
        out.stop_reason = "SUCCESS"
        while len(path) < wanted and not s.outcome:
            running = cmd.speed == 2 and s.stamina > 0 and not out.exhausted
            if cmd.speed == 2 and not running and not out.exhausted:
                out.exhausted = True
                self.events.append(ev.StaminaExhausted(s.tick, s.user))
            target, blocked = self._next_cell(heading, running, first=not path)
            if blocked:
                out.stop_reason, out.collision = "COLLISION", blocked
                break
            if run:  # what the run compares its next cell with
                frm, reach, near = s.user, items_in_reach(s), NEARNESS.get(proximity(s), 0)
            if not running:  # a walking step takes two ticks; the user arrives on the second
                self._tick(None, None)
                if s.outcome:
                    break
            self._tick(target, "HIGH" if running else "LOW")
            path.append(target)
            if running:
                ran += 1
                s.stamina = max(0, s.stamina - RUN_COST)
            else:
                s.stamina = min(STAMINA_MAX, s.stamina + WALK_GAIN)
            if s.outcome:
                break
            sees = user_sees_minotaur(self.world, s)
            if sees and not saw_minotaur:
                out.stop_reason = "ENCOUNTER"
                self.events.append(ev.MinotaurSighted(s.tick, s.minotaur))
                break
            saw_minotaur = sees
            if self._note_seen_items(self._items_in_sight()):
                out.stop_reason = "ITEM_SIGHTED"
                break
            if run:
                why, onward = self._run_stop(frm, reach, near, heading, came)
                if why:
                    out.stop_reason = why
                    break
                came, heading = heading, onward
                if heading != came:
                    out.bends += (heading,)
        if s.outcome == "DEATH" and out.stop_reason != "COLLISION":
            out.stop_reason = "ENCOUNTER"  # the Minotaur cut the move short, for good
        out.steps_moved, out.ran = len(path), ran
        if path:
            self.events.append(ev.UserMoved(s.tick, start, s.user, len(path), ran, tuple(path)))
            self._cross_ground_edge(start, path)
        if out.collision:
            self.events.append(ev.UserCollided(s.tick, s.user, out.collision))
        if not path and not s.outcome:
            self._stand(TICKS_PER_SECOND)  # a move that goes nowhere still takes 1 s

    def _cross_ground_edge(self, start: Pos, path: list[Pos]) -> None:
        """Tell each time the move's path crossed the hunting ground's edge, out or back in."""
        s = self.s
        ground = PRESETS[s.preset]
        inside = ground.contains(*start)
        for cell in path:
            if ground.contains(*cell) != inside:
                inside = not inside
                self.events.append((ev.UserReenteredGround if inside else ev.UserLeftGround)(s.tick, cell))

    def _run_stop(self, frm: Pos, reach: set[tuple[str, Pos]], near: int, heading: str, came: str
                  ) -> tuple[str | None, str]:
        """Why a run stops after its step from ``frm``: the hoofbeats grew nearer (ENCOUNTER), an item
        came within reach (ITEM_SIGHTED), or a junction or a ramp (ARRIVED); else None and the heading
        it goes on with (``run_on``: round a bend)."""
        s = self.s
        if NEARNESS.get(proximity(s), 0) > near:
            return "ENCOUNTER", heading
        if items_in_reach(s) - reach:
            return "ITEM_SIGHTED", heading
        onward = run_on(self.world, frm, s.user, heading, came)
        return ("ARRIVED", heading) if onward is None else (None, onward)

    def _next_cell(self, direction: str, running: bool, first: bool) -> tuple[Pos, str | None]:
        """The cell the next step enters, and the collision that stops it (or None)."""
        s, cell = self.s, self.world.cell
        x, y, z = s.user
        if direction in HORIZONTAL:
            dx, dy = HORIZONTAL[direction]
            target = (x + dx, y + dy, z)
            if not (0 <= target[0] < WORLD_SIZE and 0 <= target[1] < WORLD_SIZE):
                return target, "the edge of the labyrinth"
            kind = cell(*target)
            if kind == ROCK:
                return target, "a wall"
            if kind == CRAWLWAY and running:
                return target, "a crawlway too low to run into"
        else:
            up = direction == "UP RAMP"
            if cell(x, y, z) != (RAMP_UP if up else RAMP_DOWN):
                what = "up" if up else "down"
                return s.user, (f"no ramp leading {what} here" if first else "the end of the ramp")
            target = (x, y, z + RAMP_LEVELS[direction])
            if not 0 <= target[2] < WORLD_LEVELS:
                return target, "the end of the ramp"
        if s.paralysis and target == s.minotaur:
            return target, "the paralyzed Minotaur blocking the way"
        return target, None

    def _items_in_sight(self) -> list[tuple[str, Pos]]:
        """senses.items_in_sight now, remembered while the user and the items stay where they are: a
        move's last step and the end of its turn ask the same of the same state."""
        s = self.s
        if self._sight[0] != s.user or self._sight[1] is not s.items:
            self._sight = (s.user, s.items, items_in_sight(self.world, s))
        return self._sight[2]

    def _note_seen_items(self, in_sight: list[tuple[str, Pos]]) -> bool:
        """Remember the items in sight; True when one was new."""
        s = self.s
        new = [item for item in in_sight if item not in s.seen_items]
        if not new:
            return False
        s.seen_items = tuple(sorted((*s.seen_items, *new)))
        self.events.extend(ev.ItemSighted(s.tick, name, pos) for name, pos in new)
        return True

    # --- the tick -----------------------------------------------------------

    def _tick(self, user_to: Pos | None, noise: str | None) -> None:
        """Half a second: both move at once, then timers run, then senses."""
        s = self.s
        if self.plan[0] == "JUMP" and s.tick == self.start_tick:
            self._jump()
        active = s.paralysis == 0 and s.jump_left == 0  # minotaur_active, inlined: this runs every tick
        minotaur_to = next_cell(self.world, s, self.plan, self.sees) if active and self.walks else None
        user_from, minotaur_from = s.user, s.minotaur
        if user_to is not None:
            s.user = user_to
        if minotaur_to is not None:
            s.minotaur = minotaur_to
            self.minotaur_steps += 1
        if active:
            if s.user == s.minotaur:
                self._caught("shared a cell with the Minotaur")
            elif user_to == minotaur_from and minotaur_to == user_from:
                self._caught("ran into the Minotaur as it came the other way")
        s.tick += 1
        self._run_timers()
        if s.outcome:
            return
        if noise and self._hears(noise):
            s.last_heard = (s.user, s.tick, noise)
            self.heard.append((s.user, noise))
        sees = minotaur_sees_user(self.world, s)
        if sees:
            if not self.sees:
                self.events.append(ev.UserSpotted(s.tick, s.user))
            s.last_seen = (s.user, s.tick)
        self.sees = sees

    def _hears(self, noise: str) -> bool:
        s = self.s
        if s.jump_left:
            return False  # out of time, it hears nothing
        return distance_sq(s.user, s.minotaur) <= (HEAR_HIGH_SQ if noise == "HIGH" else HEAR_LOW_SQ)

    def _jump(self) -> None:
        s = self.s
        duration = jump_length(s.seed, s.jumps)
        s.jumps += 1
        s.jump_left = duration
        s.jump_started_turn = s.turn
        s.jump_cooldown = JUMP_COOLDOWN_TICKS
        s.stride = 0
        self.events.append(ev.MinotaurJumped(s.tick, s.minotaur, duration))
        self.events.append(ev.WhineHeard(s.tick, "VANISHING", *self._whine_bearing()))

    def _whine_bearing(self) -> tuple[str | None, bool]:
        """Where the whine comes from (within FAINT range), and whether it is VERY CLOSE."""
        s = self.s
        return audio_direction(s), distance_sq(s.user, s.minotaur) <= VERY_CLOSE_SQ

    def _run_timers(self) -> None:
        s = self.s
        if s.jump_cooldown:
            s.jump_cooldown -= 1
        if s.paralysis:
            s.paralysis -= 1
            if not s.paralysis:
                self.events.append(ev.ParalysisEnded(s.tick, s.minotaur))
        if s.jump_left:
            s.jump_left -= 1
            if s.jump_left == REENTRY_ALERT_TICKS:
                self.events.append(ev.WhineHeard(s.tick, "RE_ENTRY_ALERT", *self._whine_bearing()))
            elif not s.jump_left:
                self.events.append(ev.MinotaurReentered(s.tick, s.minotaur))
                if s.user == s.minotaur and not s.paralysis:
                    self._caught("stood where the Minotaur re-entered time", at_reentry=True)
        for item, countdown in COUNTDOWNS:
            self.events.extend(countdown(s, item))

    def _caught(self, how: str, at_reentry: bool = False) -> None:
        s = self.s
        if not s.outcome:
            s.outcome = "DEATH"
            self.summary.caught = how
            self.events.append(ev.UserCaught(s.tick, s.user, how, at_reentry))

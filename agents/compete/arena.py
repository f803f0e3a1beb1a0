"""The arena: many headless matches, one summary. It backs `labyrinth arena`
and the benchmark that judges the built-in agents by outcomes over many seeds.

Agents cannot be pickled, so a worker process is sent only what makes a match
(the settings, the lessons and a seed) and builds both agents itself; workers
die with the process that runs the arena (worker_pool). With memory, every match
learns from the experience log as it was when the run began, and its reflections
come back in its result for the caller to keep as it ends (arena_log): the results
do not depend on the order the matches finish in. Worlds and agents
draw every random choice from the seed, so a match gives the same result in
whichever process it is played, and results come back in the order of the
seeds: ``jobs`` changes the wall time, never the figures.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from labyrinth.engine.presets import DEFAULT_DIFFICULTY, DEFAULT_PRESET
from labyrinth.saves.experience import Reflection
from labyrinth.saves.results_terms import ROLES, void_of

from ..base import ModelPlayer
from ..learning.behaviour_lessons import Book, book_of
from ..learning.memory_manager import match_reflections, relevant
from ..llm.config import ProviderSettings
from ..match.runner import DEFAULT_MAX_TURNS, Match, MatchResult, Recorder
from ..registry import load_providers, make_agent, parse_contestant
from .health import Health, health
from .intervals import wilson_interval

if TYPE_CHECKING:
    from ..match.schedule import Progress

PER_SIDE = ("fallbacks", "errors", "invalid", "provider_errors", "exceptions", "timeouts", "late_turns", "calls",
            "plan_calls", "lesson_calls", "answered", "answer_s", "tokens_in", "tokens_out", "reasoning_tokens",
            "quota_waits", "quota_wait_s", "pace_waits", "pace_wait_s")  # summed
# Called with a match's seed; must be picklable (a module-level function or a
# class) when jobs > 1, since the recorder is made in the worker that plays.
RecorderFactory = Callable[[int], Recorder | None]
# Given each match's agents as the match begins (a model's quota wait can then be shown while it runs).
Seated = Callable[[Mapping[str, Any]], None]


@dataclass(frozen=True)
class ArenaSettings:
    """What every match of a run shares; small and picklable, unlike the agents."""

    user: str = "builtin"  # a name registry.make_agent takes for the role (registry.contestant_names lists them)
    minotaur: str = "builtin"
    preset: str = DEFAULT_PRESET
    difficulty: str = DEFAULT_DIFFICULTY
    max_turns: int = DEFAULT_MAX_TURNS
    providers: tuple[tuple[str, ProviderSettings], ...] = ()  # each model contestant's settings, by its name
    memory: bool = False  # draw reflections from each match
    lessons: tuple[Reflection, ...] = ()  # the experience log as the run began: what the agents learn from
    learners: tuple[str, ...] = ROLES  # with memory, the roles given lessons (both leave reflections)
    books: tuple[tuple[str, Book], ...] | None = None  # the learners' behaviour lessons, once drawn (prepared)

    def prepared(self) -> ArenaSettings:
        """These settings with the learners' behaviour lessons drawn from the log, once for the run."""
        if not self.memory or self.books is not None:
            return self
        return replace(self, books=tuple((role, book_of(self.lessons, role, self.preset, self.difficulty))
                                         for role in self.learners))

    def for_seed(self, seed: int) -> ArenaSettings:
        """These settings with only the lessons a match on ``seed`` learns from: what a worker
        process is sent, rather than the whole log (megabytes at its cap) for every match."""
        if not self.memory:
            return self
        kept = [r for role in self.learners for r in relevant(self.lessons, role, seed, self.preset)]
        return replace(self.prepared(), lessons=tuple(kept))

    def record(self, role: str) -> str:
        """The settings of the model playing ``role``, as a results row keeps them (JSON; "{}" for a
        rule agent)."""
        contestant = parse_contestant(role, getattr(self, role))
        if contestant.provider is None:
            return "{}"
        return json.dumps(contestant.settings(dict(self.providers)).public(), sort_keys=True)

    def void_reason(self, result: MatchResult) -> str | None:
        """Why ``result`` is no valid result of its contestants (results_db's rule), or None."""
        return void_of({role: getattr(result, role).record(self.record(role)) for role in ROLES})

    def play(self, seed: int, recorder_factory: RecorderFactory | None = None,
             seated: Seated | None = None) -> MatchResult:
        """One match on ``seed``, both agents built here from the seed and, with memory, from the
        lessons relevant to it; its reflections come back in the result. ``seated`` is given the
        agents before they are asked anything (their plans). A model's transport is closed once its
        last call (the reflection's) is over: a run makes one for each of its hundreds of matches."""
        providers = dict(self.providers)
        kinds = {"user": self.user, "minotaur": self.minotaur}
        learners = self.learners if self.memory else ()
        lessons = {role: relevant(self.lessons, role, seed, self.preset) if role in learners else [] for role in kinds}
        books = dict(self.prepared().books or ())
        agents = {role: make_agent(role, kind, seed, providers, lessons[role], self.preset, books.get(role))
                  for role, kind in kinds.items()}
        try:
            if seated:
                seated(agents)
            match = Match(agents["user"], agents["minotaur"], seed=seed, preset=self.preset,
                          difficulty=self.difficulty, max_turns=self.max_turns,
                          recorder=recorder_factory(seed) if recorder_factory else None, digest=self.memory,
                          lessons=lessons, quota_stops=True)
            result = match.play()
            if self.memory:
                result.reflections = match_reflections(match)
        finally:
            for agent in agents.values():
                if isinstance(agent, ModelPlayer):
                    agent.transport.close()
        return result


@dataclass(frozen=True)
class ArenaSummary:
    """The results of a run, in seed order, and the figures drawn from them. Only valid matches
    count in the figures (a match whose model did not play it is void: results_db's rule); the
    faults are counted over every match played."""

    settings: ArenaSettings
    results: tuple[MatchResult, ...]  # every match that ended, valid or void
    wall_s: float
    planned: int = 0  # the matches asked for
    stopped: str | None = None  # why the run stopped before playing them all

    @cached_property
    def void(self) -> dict[int, str]:
        """Each void match's reason, by seed."""
        return {r.seed: why for r in self.results if (why := self.settings.void_reason(r)) is not None}

    @property
    def valid(self) -> tuple[MatchResult, ...]:
        return tuple(r for r in self.results if r.seed not in self.void)

    @property
    def games(self) -> int:
        """The valid matches: those the figures are drawn from."""
        return len(self.valid)

    @property
    def complete(self) -> bool:
        """Every match asked for was played, and by the contestants themselves."""
        return self.stopped is None and len(self.results) == self.planned and not self.void

    def count(self, outcome: str) -> int:
        return sum(r.outcome == outcome for r in self.valid)

    @property
    def escape_rate(self) -> float:
        return self.count("ESCAPED") / self.games if self.games else 0.0

    @property
    def escape_interval(self) -> tuple[float, float]:
        return wilson_interval(self.count("ESCAPED"), self.games)

    @property
    def mean_turns(self) -> float:
        return sum(r.turns for r in self.valid) / self.games if self.games else 0.0

    @property
    def mean_game_time(self) -> float:
        return sum(r.game_time for r in self.valid) / self.games if self.games else 0.0

    def per_side(self, counter: str) -> dict[str, int]:
        """A SideStats counter ("fallbacks", "errors", ...) summed over every match played, per side."""
        return {side: sum(getattr(getattr(r, side), counter) for r in self.results)
                for side in ROLES}

    def mean_latency_s(self) -> dict[str, float]:
        """Each side's mean time per decision; an LLM side's is its answered calls' latency (neither the
        built-in agent's turns after a replacement, nor a call that failed, nor a quota's hold)."""
        return {side: self._latency_s(side) for side in ROLES}

    def _latency_s(self, side: str) -> float:
        stats = [getattr(r, side) for r in self.results]
        if any(s.calls for s in stats):  # a model's
            answered = sum(s.answered for s in stats)
            return sum(s.answer_s for s in stats) / answered if answered else 0.0
        decisions = sum(s.decisions for s in stats)
        return sum(s.think_s for s in stats) / decisions if decisions else 0.0

    @property
    def replaced(self) -> dict[str, int]:
        """Matches in which a side's LLM kept failing and the built-in agent took over."""
        return {side: sum(getattr(r, side).replaced for r in self.results) for side in ROLES}

    def health(self) -> list[Health]:
        """Each model contestant's calls and void matches over the run."""
        return health((getattr(self.settings, role), role, getattr(r, role).record(self.settings.record(role)))
                      for r in self.results for role in ROLES)

    @property
    def matches_per_s(self) -> float:
        return len(self.results) / self.wall_s if self.wall_s else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The `labyrinth arena --json` object."""
        return {"games": self.games, "escaped": self.count("ESCAPED"), "death": self.count("DEATH"),
                "timeout": self.count("TIMEOUT"), "escape_rate": self.escape_rate,
                "mean_turns": self.mean_turns, "mean_game_time": self.mean_game_time,
                **{counter: self.per_side(counter) for counter in PER_SIDE},
                "mean_latency_s": {side: round(s, 4) for side, s in self.mean_latency_s().items()},
                "replaced": self.replaced, "reflections": sum(len(r.reflections) for r in self.results),
                "planned": self.planned, "played": len(self.results), "complete": self.complete,
                "stopped": self.stopped, "void": [{"seed": seed, "reason": why} for seed, why in self.void.items()],
                "health": [asdict(h) for h in self.health()],
                "wall_s": round(self.wall_s, 3),
                "results": [{"seed": r.seed, "outcome": r.outcome, "turns": r.turns, "game_time": r.game_time,
                             **({"void": self.void[r.seed]} if r.seed in self.void else {})}
                            for r in self.results]}


def run_arena(settings: ArenaSettings, seeds: Iterable[int], *, jobs: int = 1,
              recorder_factory: RecorderFactory | None = None,
              on_result: Callable[[MatchResult], None] | None = None,
              progress: Progress | None = None) -> ArenaSummary:
    """Play one match per seed, up to ``jobs`` at once (schedule.play_matches: model matches in
    threads of this process, rule-agent matches in worker processes); ``on_result`` hears of each
    match as it ends (in finishing order, for a progress bar); ``progress`` shows the matches in
    flight and their agents (a model's quota wait). A match stopped by a quota it cannot wait out
    stops the run: the summary says why, and holds what ended. The models' SDKs are imported here,
    before any match starts (registry.load_providers)."""
    from ..match.schedule import Job, Played, play_matches

    seeds, settings = list(seeds), settings.prepared()
    load_providers(model.provider for _, model in settings.providers)
    began = time.perf_counter()
    results: dict[int, MatchResult] = {}

    def ended(played: Played[int]) -> None:
        if played.result is not None:
            results[played.name] = played.result
            if on_result:
                on_result(played.result)

    stopped = play_matches((Job(seed, settings.for_seed(seed), seed) for seed in seeds), ended, concurrency=jobs,
                           recorder_factory=recorder_factory, progress=progress)
    return ArenaSummary(settings, tuple(results[seed] for seed in seeds if seed in results),
                        time.perf_counter() - began, len(seeds), stopped)

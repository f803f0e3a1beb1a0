"""How threatening the built-in Minotaur is on each difficulty (issue 14): the built-in
user's escape rate against it (normal must stay a fair hunt, 0.35..0.65; hard should drop
clearly), and against a person-like user (person.py: long walks, FAINT cues ignored) the
catch rate (with its 95% Wilson interval), how often it catches within EARLY_S of game time,
and the game time until the Minotaur is first heard or seen. A hard game played
by a Minotaur that keeps its normal habits tells the Minotaur's share of the drop from the
stones' share (on hard they are silent). Every rate carries its 95% Wilson interval. A pairing
in which any turn was played by a side's fallback (an agent that failed or answered nothing)
is printed as void: its figures would be the fallback's, not the agents'. Prints figures next
to targets; asserts nothing.

    .venv/bin/python bench/play/threat_bench.py [--games 200] [--preset standard] [--jobs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows
from figures import row
from person import PersonLikeUser  # bench/play/ is on sys.path, as this file runs as a script

from labyrinth.agents.builtin.builtin_minotaur import TACTICS, BuiltinMinotaur
from labyrinth.agents.builtin.builtin_user import BuiltinUser
from labyrinth.agents.compete.intervals import wilson_interval
from labyrinth.agents.match.runner import Match
from labyrinth.engine.presets import DEFAULT_PRESET

FAIR = (0.35, 0.65)  # the built-in user's escape rate on normal
CUE_SOON_S = 60.0  # a person should hear or see the Minotaur within the first minute
EARLY_S = 300.0  # a catch within five minutes of game time is an early one (a person's game is not 400 turns)
USERS = {"builtin": BuiltinUser, "person": PersonLikeUser}


class Habitual(BuiltinMinotaur):
    """The built-in Minotaur hunting with one difficulty's habits whatever the game's difficulty."""

    def __init__(self, seed: int, habits: str) -> None:
        super().__init__(seed)
        self.habits = habits

    def seated(self, difficulty: str) -> None:
        super().seated(self.habits)


def first_cue(observation) -> bool:
    """Whether the user hears the Minotaur (any proximity, a Temporal Whine's included) or sees it."""
    return observation.status["minotaur_proximity"] != "NONE" or observation.details["minotaur_in_sight"] is not None


def play(job: tuple[str, str, str, str, int]) -> tuple[str, float | None, float, int]:
    """One game: (outcome, game time of the first cue or None, game time at the end, the turns
    either side's fallback played)."""
    user, preset, difficulty, habits, seed = job
    match = Match(USERS[user](seed), Habitual(seed, habits), seed=seed, preset=preset, difficulty=difficulty)
    cue = 0.0 if first_cue(match.seats["user"].observation) else None
    while match.outcome is None:
        match.play_turn()
        if cue is None and first_cue(match.seats["user"].observation):
            cue = match.game.state.tick / 2
    match.close()
    return match.outcome, cue, match.game.state.tick / 2, sum(s.stats.fallbacks for s in match.seats.values())


def rate(hits: int, games: int) -> str:
    """A proportion with its 95% Wilson interval."""
    low, high = wilson_interval(hits, games)
    return f"{hits / games:.3f} ({low:.3f}..{high:.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="seeds per pairing (default: 200)")
    parser.add_argument("--preset", default=DEFAULT_PRESET)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    seeds = range(1, args.games + 1)
    print(f"Threat benchmark: {args.preset}, seeds 1..{args.games} ({args.games} games a row), "
          f"{args.jobs} process(es), load average {os.getloadavg()[0]:.1f}")
    row("pairing (user, difficulty, Minotaur habits)", "escaped", "caught", "first cue", "note")
    began = time.perf_counter()
    with Pool(args.jobs) as pool:
        for user, difficulty, habits in (("builtin", "normal", "normal"), ("builtin", "hard", "normal"),
                                         ("builtin", "hard", "hard"), ("person", "normal", "normal"),
                                         ("person", "hard", "normal"), ("person", "hard", "hard")):
            games = pool.map(play, [(user, args.preset, difficulty, habits, s) for s in seeds])
            name, n = f"{user}, {difficulty}, {habits}", len(games)
            fallbacks = sum(g[3] for g in games)
            if fallbacks:
                spoilt = sum(g[3] > 0 for g in games)
                row(name, "void", "void", "", f"{fallbacks:,} turns of {spoilt} games played by a fallback: the "
                                            "figures would not be the agents' play")
                continue
            escapes = sum(g[0] == "ESCAPED" for g in games)
            deaths = [g[2] for g in games if g[0] == "DEATH"]
            cues = [g[1] for g in games if g[1] is not None]
            median = f"{statistics.median(cues):.0f} s" if cues else "never"
            target = ""
            if (user, difficulty) == ("builtin", "normal"):
                verdict = "PASS" if FAIR[0] <= escapes / n <= FAIR[1] else "MISS"
                target = f"; escape target {FAIR[0]}..{FAIR[1]}: {verdict}"
            catch = f"median catch at {statistics.median(deaths):.0f} s" if deaths else "no catch"
            row(name, f"{escapes / n:.3f}", f"{len(deaths) / n:.3f}", f"median {median}",
                f"95% CIs: escaped {rate(escapes, n)}, caught {rate(len(deaths), n)}, within {EARLY_S:g} s "
                f"{rate(sum(d <= EARLY_S for d in deaths), n)}; cue within {CUE_SOON_S:g} s "
                f"{rate(sum(c <= CUE_SOON_S for c in cues), n)}; {catch}{target}")
    print(f"habits: {', '.join(f'{k}={v}' for k, v in TACTICS.items())}")
    print(f"total {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()

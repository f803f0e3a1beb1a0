"""A tournament run's manifest: what it plays and with what, kept in results.db as the run begins
(ResultsDB.begin_run), so that a published table says exactly what made it and a reviewer can
play the same run again (`labyrinth tournament --rerun ID`).

It holds the run's id and start, the command line as typed (any endpoint's password or query
hidden), each contestant with the settings it was asked with and their fingerprint (never a
key) and its prices, the seeds, repeats, ground and turn limit, who learned from the
experience log and a digest of the lessons they learned from, the build (version and git
commit) and the versions of the packages the results could depend on. What each model was
actually sent is in each match's row (the side's record), not here: only the matches know it.

The matches of a run are the keys its manifest gives (``keys``), whichever invocation played
them: a run stopped and resumed by the same command again is the same design, and a rerun is
the same keys with the next ``rerun``.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from datetime import datetime
from typing import Any

from labyrinth.engine.commands import excerpt
from labyrinth.engine.presets import unknown_setting
from labyrinth.engine.rng import SEED_LIMIT
from labyrinth.saves.build import git_commit, package_versions, project_version
from labyrinth.saves.experience import Reflection
from labyrinth.saves.results_db import MatchKey
from labyrinth.saves.results_terms import LEARNED, ROLE_WORDS, fingerprint

from ..llm.config import public_url
from ..llm.providers.secrets import redact
from ..match.match_records import DIGEST_CHARS
from .tournament import MOST_MATCHES, Entrant, Tournament, match_keys

MANIFEST_VERSION = 1
DESIGN = ("seeds", "repeats", "preset", "difficulty", "max_turns", "learned", "build", "rerun")  # what makes the keys


class ManifestError(ValueError):
    """A manifest that cannot give its run's matches (damaged, or written by a newer labyrinth)."""


def new_run_id(began: datetime) -> str:
    """A run's id: when it began (UTC, to the second, so ids sort as runs began) and a random part,
    so that two runs begun in one second on two machines never share one."""
    return f"{began:%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"


def manifest(tournament: Tournament, run_id: str, began: str, command: Sequence[str],
             rerun_of: str | None = None) -> dict[str, Any]:
    """The manifest of a run of ``tournament`` (``command``: the arguments it was started with)."""
    return {"manifest": MANIFEST_VERSION, "run_id": run_id, "began": began, "command": _shown(command),
            "contestants": {role: [_entrant(e) for e in entrants]
                            for role, entrants in (("user", tournament.users), ("minotaur", tournament.minotaurs))},
            "seeds": list(tournament.seeds), "repeats": tournament.repeats, "preset": tournament.preset,
            "difficulty": tournament.difficulty, "max_turns": tournament.max_turns, "learned": tournament.learned,
            "experience": lessons_digest(tournament.lessons) if tournament.memory else None,
            "build": tournament.build, "version": project_version(), "commit": git_commit(),
            "packages": package_versions(), "rerun": tournament.rerun, "rerun_of": rerun_of}


def lessons_digest(lessons: Sequence[Reflection]) -> str:
    """Which state of the experience log a run learned from: a digest of the lessons it was given."""
    return fingerprint([r.model_dump(mode="json") for r in lessons], DIGEST_CHARS)


def keys(recorded: Mapping[str, Any]) -> list[MatchKey]:
    """The matches of the run ``recorded`` (a manifest, with its ``run_id``), as its tournament gave
    them; ManifestError for one that cannot say: damaged (a field missing or not of its kind, no seed,
    who learned not one of LEARNED) or written by a newer labyrinth."""
    run_id = recorded.get("run_id")
    if set(recorded) <= {"run_id"}:  # ResultsDB.runs could not read it, and said why
        raise ManifestError(f"the manifest of run {run_id} could not be read, so neither can its matches")
    try:
        if int(recorded["manifest"]) > MANIFEST_VERSION:
            raise ManifestError(f"run {run_id} was recorded by a newer labyrinth")
        contestants = {role: [(str(c["name"]), str(c.get("setup", ""))) for c in recorded["contestants"][role]]
                       for role in ROLE_WORDS}
        design = {name: recorded[name] for name in DESIGN}
        if not isinstance(seeds := design["seeds"], list):
            raise TypeError(f"the seeds are {excerpt(seeds)}, not a list")
        if not seeds or design["learned"] not in LEARNED:
            raise ValueError("no seed" if not seeds else f"learned is {design['learned']!r}")
        # each a seed as --seed takes one: a rerun plays the list as it is (one beyond SQLite's integers, a crash)
        if bad := [seed for seed in seeds if type(seed) is not int or not -SEED_LIMIT <= seed < SEED_LIMIT]:
            raise ValueError(f"a seed is {excerpt(bad[0])}, not a whole number from {-SEED_LIMIT} to {SEED_LIMIT - 1}")
        if unknown := unknown_setting(design["preset"], design["difficulty"]):  # as their options' choices
            raise ValueError(unknown)
        repeats = int(design["repeats"])
        if (size := len(contestants["user"]) * len(contestants["minotaur"]) * len(seeds) * repeats) > MOST_MATCHES:
            raise ValueError(f"{size:,} matches, more than a tournament plays ({MOST_MATCHES:,})")
        return match_keys(contestants, seeds, repeats, str(design["preset"]),
                          str(design["difficulty"]), int(design["max_turns"]), str(design["learned"]),
                          str(design["build"]), int(design["rerun"]))
    except ManifestError:
        raise
    except (KeyError, TypeError, ValueError) as problem:
        reason = f"it has no {problem.args[0]!r} field" if isinstance(problem, KeyError) else str(problem)
        raise ManifestError(f"the manifest of run {run_id} is damaged: {reason}") from None


def named(runs: Sequence[tuple[str, str, dict[str, Any]]], run_id: str, where: object) -> dict[str, Any]:
    """The manifest of run ``run_id`` among ``runs`` (ResultsDB.runs), whose matches it can give;
    ManifestError naming ``where`` they were looked for, the latest runs, and how to list them."""
    found = {known: recorded for known, _, recorded in runs}
    if run_id not in found:
        latest = ", ".join(sorted(found)[-3:]) or "none yet"
        raise ManifestError(f"{where} holds no run {run_id} (the latest: {latest}); `labyrinth leaderboard --runs` "
                            "lists them")
    keys(found[run_id])
    return found[run_id]


def reproduction(recorded: Mapping[str, Any], runs: Sequence[tuple[str, str, dict[str, Any]]],
                 kept: AbstractSet[MatchKey], build: str) -> int:
    """The number a reproduction of the run ``recorded`` plays under (MatchKey.rerun): the lowest one
    that ``build`` left unfinished (a run of the same design and build, numbered from 1, whose matches
    ``kept`` lacks some of), so that a stopped --rerun carries on when asked again; else one more
    than any run in ``runs`` has had, so that a new reproduction never takes another's matches."""
    started = sorted({_number(other.get("rerun")) for _, _, other in runs
                      if _design(other) == _design(recorded) and other.get("build") == build})
    for number in (n for n in started if n >= 1):
        if not set(keys({**recorded, "build": build, "rerun": number})) <= kept:
            return number
    return 1 + max((_number(other.get("rerun")) for _, _, other in runs), default=0)


def _design(recorded: Mapping[str, Any]) -> tuple[Any, ...]:
    """What makes a run's matches but its build and reproduction: its contestants (name and setup) and
    the rest of DESIGN (a contestant's prices are not who it is)."""
    contestants = recorded.get("contestants") or {}
    return (tuple((role, c.get("name"), c.get("setup")) for role in ROLE_WORDS for c in contestants.get(role, [])),
            *(repr(recorded.get(name)) for name in DESIGN if name not in ("build", "rerun")))


def _number(value: Any) -> int:
    """A count a manifest holds, or 0 when it holds none that can be one."""
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def design(recorded: Mapping[str, Any]) -> str:
    """The run in one line: "2 users x 3 Minotaurs, seeds 1-10, 2 repeats, tiny normal, at most 400
    turns, build 0.1.0+g1a2b3c4d5e6f"."""
    contestants = recorded.get("contestants") or {}
    seeds = recorded.get("seeds") or []
    counts = [f"{len(contestants.get(role, []))} {word}{'s' * (len(contestants.get(role, [])) != 1)}"
              for role, word in ROLE_WORDS.items()]
    span = _span(seeds)
    repeats = f", {recorded.get('repeats')} repeats" if recorded.get("repeats", 1) != 1 else ""
    rerun = f", rerun {recorded.get('rerun')} of {recorded.get('rerun_of')}" if recorded.get("rerun") else ""
    return (f"{' x '.join(counts)}, {span}{repeats}, {recorded.get('preset')} {recorded.get('difficulty')}, at most "
            f"{recorded.get('max_turns')} turns, build {recorded.get('build')}{rerun}")


def _span(seeds: Sequence[Any]) -> str:
    """Seeds in words: "seed 4", "seeds 1-10" when they run on, else each ("seeds 5, 9, 11")."""
    if len(seeds) == 1:
        return f"seed {seeds[0]}"
    if not seeds:
        return "no seeds"
    if all(isinstance(s, int) for s in seeds) and list(seeds) == list(range(seeds[0], seeds[0] + len(seeds))):
        return f"seeds {seeds[0]}-{seeds[-1]}"
    return f"seeds {', '.join(map(str, seeds))}"


def differences(recorded: Mapping[str, Any], tournament: Tournament) -> list[str]:
    """How the contestants of ``tournament`` (resolved now, to play ``recorded`` again) differ from the
    run's: each one whose settings asked are not the run's, with the settings that differ."""
    found = []
    for role, entrants in (("user", tournament.users), ("minotaur", tournament.minotaurs)):
        was = {c["name"]: c for c in recorded["contestants"][role]}
        for entrant in entrants:
            then, now = was[entrant.name].get("settings", {}), _entrant(entrant).get("settings", {})
            changed = [f"{name} {then.get(name)!r} then, {now.get(name)!r} now" for name in sorted({*then, *now})
                       if then.get(name) != now.get(name)]
            if changed:
                found.append(f"{entrant.name}: {'; '.join(changed)}")
    return found


def _entrant(entrant: Entrant) -> dict[str, Any]:
    """A contestant as the manifest keeps it: its name, and a model's settings asked, their
    fingerprint and its prices (never a key)."""
    if entrant.settings is None:
        return {"name": entrant.name, "setup": ""}
    return {"name": entrant.name, "setup": entrant.setup, "settings": entrant.settings.public(),
            **entrant.settings.prices()}


def _shown(command: Sequence[str]) -> list[str]:
    """The command line as a manifest keeps it: an endpoint's user-info, query and fragment hidden
    (a password or key can hide in each, ``--openai-url=URL`` as well as ``--openai-url URL``), and
    any configured key redacted."""
    shown = []
    for arg in command:
        flag, equals, value = arg.partition("=") if arg.startswith("-") else ("", "", arg)
        if not equals:
            flag, value = "", arg
        shown.append(flag + equals + redact(public_url(value) if "://" in value else value))
    return shown

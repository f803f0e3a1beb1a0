"""The table every bench prints: one row a figure, next to its target and PASS/MISS, asserting nothing
(a slow machine must not fail a build, but a regression should be plain to see). A script in a folder of
bench/ puts bench/ on sys.path to import it: bench/ is a folder of scripts, not a package."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping


def installed_env(**more: str) -> dict[str, str]:
    """The environment of a child process timed as a user's install runs it, with ``more`` set: its modules
    read from their cached bytecode. pip compiles a wheel's modules as it installs them, and an editable
    install writes the cache at its first start; a machine that sets PYTHONDONTWRITEBYTECODE (this sandbox
    does) would have every start of the game compile its ~100 modules from source, some 130 ms of the first
    frame, while the libraries it is compared with (textual, pydantic, NLE) load theirs compiled at their
    install. A bench that times starts makes one untimed start first, which writes the cache."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    env.update(more)
    return env


def report(name: str, value: float, unit: str, fmt: str = ",.0f", target: tuple[str, float] | None = None,
           note: str = "") -> None:
    """Print one row of the table; ``target`` is (">=" or "<", bound)."""
    if target is None:
        goal, verdict = "", ""
    else:
        op, bound = target
        goal = f"{op} {bound:{fmt}} {unit}"
        verdict = "PASS" if (value >= bound if op == ">=" else value < bound) else "MISS"
    row(name, f"{value:{fmt}} {unit}", goal, verdict, note)


def row(name: str, figure: str, goal: str = "", verdict: str = "", note: str = "") -> None:
    print(f"{name:<40} {figure:>16} {goal:>16} {verdict:<5} {note}".rstrip(), flush=True)


def spread(values: list[float], fmt: str = ",.0f") -> str:
    """The repetitions' range, lowest..highest, beside a median: how much the machine moved the figure."""
    return f"{min(values):{fmt}}..{max(values):{fmt}}"


def interleaved(runs: Mapping[str, Callable[[], tuple[str, float]]], rounds: int, work: float
                ) -> tuple[dict[str, list[float]], dict[str, set[str]]]:
    """Each of ``runs`` once a round for ``rounds`` rounds, the order turned by one each round, so that none is
    always first (when the machine is freshest, or the caches coldest). A run returns the digest of what it did
    and the CPU seconds it took. Per run: its rate each round (``work`` over those seconds, round by round, so
    that two runs' lists pair up as ratios) and the digests it gave, which runs doing the same work must share."""
    names = list(runs)
    rates: dict[str, list[float]] = {name: [] for name in names}
    digests: dict[str, set[str]] = {name: set() for name in names}
    for round_ in range(rounds):
        for name in names[round_ % len(names):] + names[:round_ % len(names)]:
            digest, spent = runs[name]()
            rates[name].append(work / spent)
            digests[name].add(digest)
    return rates, digests

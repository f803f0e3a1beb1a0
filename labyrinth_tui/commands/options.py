"""The options several subcommands share, each defined once: the game's seed, preset and
difficulty, the agents by role, counts; and what a command reads of them once parsed (the
seed chosen, the providers' settings, the check of a run's last seed)."""

from __future__ import annotations

import argparse
import secrets
from typing import TYPE_CHECKING

from labyrinth.agents.match.runner import MAX_TURNS
from labyrinth.agents.registry import contestant_names
from labyrinth.engine import DEFAULT_DIFFICULTY, DEFAULT_PRESET, DIFFICULTIES, PRESETS
from labyrinth.engine.rng import DRAWN_SEEDS
from labyrinth.saves.config import Bound
from labyrinth.saves.providers import PROVIDERS
from labyrinth.saves.results_terms import ROLE_WORDS

from ..terminal_text import say
from .provider_options import chosen_providers, contestant, provider_settings
from .seed_option import bounded_seed, last_seed_problem

if TYPE_CHECKING:  # loaded when a command reads the providers' settings (start-up): provider_settings
    from labyrinth.agents.llm.config import ProviderSettings

THE_ROLE = {role: f"the {word}" for role, word in ROLE_WORDS.items()}  # each side, as a help line names it
# The counts' ranges: what a run builds before it plays (its matches' keys, claims and manifest) stays
# in proportion to what it plays, and a tournament's matches in all are bounded too (MOST_MATCHES).
TURNS = Bound(1, MAX_TURNS, "turns", whole=True)
GAMES = Bound(1, 100_000, "games", whole=True)  # an arena's matches; a tournament's seeds
REPEATS = Bound(1, 1_000, "repeats", whole=True)
CONCURRENCY = Bound(1, 1_000, "matches at once", whole=True)  # each a thread, or a process per core


def game_options(p: argparse.ArgumentParser, *, seed: int | None = None, seed_help: str = "",
                 difficulty: bool = True) -> None:
    """--seed (``seed``: its default; None draws one, said on stderr), --preset and --difficulty."""
    p.add_argument("--seed", type=bounded_seed, default=seed,
                   help=seed_help or "world seed (default: random, printed on stderr)")
    p.add_argument("--preset", choices=list(PRESETS), default=DEFAULT_PRESET,
                   help=f"hunting ground size (default: {DEFAULT_PRESET})")
    if difficulty:
        p.add_argument("--difficulty", choices=DIFFICULTIES, default=DEFAULT_DIFFICULTY,
                       help=f"hard silences the stones' hum (default: {DEFAULT_DIFFICULTY})")


def role_option(p: argparse.ArgumentParser, role: str, default: str | None, *also: str, words: str = "") -> None:
    """--user or --minotaur: who plays ``role``, by a contestant's name (or one of ``also``)."""
    said = f" (default: {default})" if default else ""
    p.add_argument(f"--{role}", type=contestant(role, *also), default=default, metavar="AGENT",
                   help=words or f"{THE_ROLE[role]}: {contestant_names(role)}{said}")


def parsed_by(p: argparse.ArgumentParser, run, loads: tuple[str, ...] = ()) -> None:
    """``run(args)`` carries out the subcommand ``p`` parsed; ``p`` itself is kept in ``args.own_parser``,
    so that a check made after parsing can complain as argparse does. ``loads``: the modules ``run`` goes
    on to import, named so that the command line loads them first, as it loads its own (entry.py)."""
    p.set_defaults(func=run, own_parser=p, loads=loads)


def check_last_seed(args: argparse.Namespace) -> None:
    """A run of --games seeds from --seed on: its last seed must be one a seed can be (argparse's error)."""
    if problem := last_seed_problem(args.seed, args.games):
        args.own_parser.error(problem)


def chosen_seed(args: argparse.Namespace) -> int:
    """--seed, or one drawn at random and said on stderr, so that the labyrinth can be played again."""
    if args.seed is not None:
        return args.seed
    seed = secrets.randbelow(DRAWN_SEEDS)
    say(f"seed {seed} (pass --seed {seed} to play this labyrinth again)")
    return seed


def providers(args: argparse.Namespace, *, screen: bool = False) -> dict[str, ProviderSettings]:
    """The settings of the providers this command uses. Only those are read, so that a broken config
    file does not stop a game without a model; the game screen's form may pick any provider later,
    so ``screen`` reads them all and leaves a broken one out (the form says what is wrong if chosen)."""
    return provider_settings(args, tuple(PROVIDERS) if screen else chosen_providers(args), skip_broken=screen)

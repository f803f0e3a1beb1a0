"""`labyrinth doctor`: which LLM providers are configured (never a key, only where
it came from), whether each endpoint answers a cheap call that spends no tokens,
where the game keeps its files, and where each package is imported from (the
`agents` package has a namesake on PyPI). A package is found without being run: an
SDK's import costs seconds, and the ollama SDK's reads $OLLAMA_HOST and raises on a bad
one, which this report must name in its table instead.

Every line goes out through ``printable``: what the config file, the environment or an
endpoint's answer holds cannot send the terminal an escape sequence; and through ``redact``:
an endpoint's user:password, or a key a gateway echoes, is never printed."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from .options import parsed_by
from .provider_options import add_provider_options


def add_parser(sub: argparse._SubParsersAction) -> None:
    doctor = sub.add_parser("doctor", help="check the LLM providers, the data paths and the packages",
                            description="Show which LLM providers are configured (never their keys), check "
                                        "each configured endpoint with one cheap call that spends no tokens, "
                                        "and print the data paths and where each package is imported from. "
                                        "Exits 1 when it finds a problem (its last line names them).")
    doctor.add_argument("--offline", action="store_true", help="do not call the endpoints")
    add_provider_options(doctor)
    parsed_by(doctor, run)


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Carried out by doctor_run.py, whose modules load only when this command runs (start-up)."""
    from .doctor_run import run as carry_out

    return carry_out(args, out)

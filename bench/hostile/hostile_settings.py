"""Hostile provider settings for bench/hostile/hostile.py: seeded values for every setting a provider reads
from the environment (each key, base URL and model variable of agents/llm/config.py's tables), and the
judge of what the commands that read them print.

A value goes into one variable; the other providers keep sound settings that point at local
stand-in servers, so every command ends quickly and nothing leaves the machine. What the issue
named is always there (a non-ASCII key, control characters, a line break in a URL, a URL of 120 KB,
bad ports, the OLLAMA_HOST forms the ollama client refuses, a model's name of 100 KB), each in the
variable of a provider drawn from the seed, and so are a few seeded random values.

A command's output fails when it holds a traceback (counted by the harness), the whole of a value
longer than MAX_SHOWN (output must be bounded), any key (a secret) or a URL's password, a line
longer than LONGEST_LINE, or a refusal that is not one line naming the variable; a value that must
be refused and is not is a wrong answer too.
"""

from __future__ import annotations

import contextlib
import random
import re
import string
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hostile_inputs import random_text, rng_for

from labyrinth.saves.config import MAX_URL_CHARS
from labyrinth.saves.providers import PROVIDERS

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the root, for tests.stubs, the stand-in servers
from tests.stubs import Model, Stub

NAMES = tuple(PROVIDERS)  # the providers a case is drawn from
KEY_VARIABLES = {p: row.key_variables for p, row in PROVIDERS.items()}
URL_VARIABLES = {p: row.url_variable for p, row in PROVIDERS.items()}
MODEL_VARIABLES = {p: row.model_variable for p, row in PROVIDERS.items()}
VARIABLES = {*(v for p in PROVIDERS for v in KEY_VARIABLES[p]), *URL_VARIABLES.values(), *MODEL_VARIABLES.values()}
CANARY = "sk-canary-never-printed-0451"  # the sound key of every provider: it must never show
PASSWORD = "pw-never-printed-7781"  # in the user-info of a URL: it must never show either
MAX_SHOWN = MAX_URL_CHARS  # a value longer than the longest setting taken must never be printed whole
LONGEST_LINE = MAX_URL_CHARS + 400  # a line that shows a long (taken) URL, and little more
READ_S = 30.0  # a command that reads settings and has not ended by then is hung: `doctor` imports the four
# SDKs and, online, calls each stand-in (seconds on a loaded machine), an arena plays two turns
RANDOM_CASES = 6  # seeded random values, each in a variable drawn from the seed, on top of the issue's
PRINTABLE = "".join(c for c in string.printable if not c.isspace())
SECRET_CHARS = 8  # a shorter random key may be in any output by chance: not looked for
UNSHOWABLE = ({*map(chr, range(0x20)), "\x7f", *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))}
              - {"\n", "\t"})


@dataclass(frozen=True)
class Case:
    """One hostile value in one provider's variable."""

    label: str
    provider: str
    variable: str
    value: str
    refused: bool | None  # must the value be refused (None: it may go either way)

    @property
    def secret(self) -> str | None:
        """What of the value must never be printed: a key, or a URL's password."""
        if self.variable in KEY_VARIABLES[self.provider] and self.value:
            return self.value
        return PASSWORD if PASSWORD in self.value else None


def key_values() -> list[tuple[str, str, bool | None]]:
    return [("non-ASCII key", "sk-clé-ключ", True), ("control characters", "sk-\x07\x1b[2J\x1b]0;pwned\x07", True),
            ("line break", "sk-abc\nX-Evil: 1", True), ("key of 120 KB", "k" * 120_000, True),
            ("key of 1,000", "k" * 1000, False)]


def url_values(local: str) -> list[tuple[str, str, bool | None]]:
    host_port = local.partition("://")[2]
    return [("line break in URL", f"{local}/v1\nX-Evil: 1", True), ("URL of 120 KB", f"{local}/" + "a" * 120_000, True),
            ("port 99999", "http://127.0.0.1:99999", True), ("port -1", "http://127.0.0.1:-1", True),
            ("port 0", "http://127.0.0.1:0", True), ("bad IPv4", "http://999.1.1.1", True),
            ("IDNA host", "http://ⓐ.example", True), ("password in URL", f"http://user:{PASSWORD}@{host_port}", False),
            ("URL of 2,000", f"{local}/" + "a" * (MAX_URL_CHARS - len(local) - 1), False)]


OLLAMA_FORMS = [(":::", True), ("::1", True), (":99999", True), ("[::1", True), ("h:-1", True), ("http://", True)]


def model_values() -> list[tuple[str, str, bool | None]]:
    return [("model of 100 KB", "m" * 100_000, True), ("line break in model", "qwen3\nX-Evil: 1", None),
            ("control characters", "\x1b]0;pwned\x07", None), ("model of 200", "m" * 200, False)]


@contextlib.contextmanager
def stand_ins() -> Iterator[dict[str, str]]:
    """A sound local server per provider, for the length of a way in: its base URL by provider."""
    servers = {p: Stub(Model(p)) for p in PROVIDERS}
    try:
        yield {p: server.url + ("/v1" if p == "openai" else "") for p, server in servers.items()}
    finally:
        for server in servers.values():
            server.close()


def toml_string(value: str) -> str:
    """``value`` as a TOML basic string, whatever it holds (TOML takes no raw control character)."""
    escaped = (f"\\u{ord(c):04x}" if c < " " or c == "\x7f" else "\\" + c if c in '"\\' else c for c in value)
    return '"' + "".join(escaped) + '"'


def cases(seed: int, stand_ins: dict[str, str]) -> Iterator[Case]:
    """The issue's values, each in a variable of a provider the seed draws, then seeded random values
    in variables it draws. ``stand_ins``: each provider's local server (its sound base URL)."""
    rng = rng_for(seed, "settings")
    for label, value, refused in key_values():
        provider = rng.choice(NAMES)
        yield Case(label, provider, rng.choice(KEY_VARIABLES[provider]), value, refused)
    for number in range(len(url_values(""))):  # each SDK reads a URL its own way: a provider drawn for each
        provider = rng.choice(NAMES)
        label, value, refused = url_values(stand_ins[provider])[number]
        yield Case(label, provider, URL_VARIABLES[provider], value, refused)
    for form, refused in OLLAMA_FORMS:
        yield Case(f"OLLAMA_HOST {form}", "ollama", URL_VARIABLES["ollama"], form, refused)
    for label, value, refused in model_values():
        provider = rng.choice(NAMES)
        yield Case(label, provider, MODEL_VARIABLES[provider], value, refused)
    for _ in range(RANDOM_CASES):
        provider = rng.choice(NAMES)
        variable = rng.choice((*KEY_VARIABLES[provider], URL_VARIABLES[provider], MODEL_VARIABLES[provider]))
        yield Case("random", provider, variable, _random_value(rng, variable, stand_ins[provider]), None)


def _random_value(rng: random.Random, variable: str, local: str) -> str:
    """Any text but NUL (an environment cannot hold one), or printable ASCII (which is mostly taken);
    a URL's after the stand-in's, so that one that is taken is still answered here."""
    if rng.random() < 0.5:
        text = random_text(rng, rng.choice([20, 60, 3000])).replace("\x00", "")
    else:
        text = "".join(rng.choice(PRINTABLE) for _ in range(rng.randint(8, 80)))
    return f"{local}/{text}" if variable in URL_VARIABLES.values() and rng.random() < 0.7 else text


def environment(case: Case, stand_ins: dict[str, str]) -> dict[str, str]:
    """Every provider configured against its stand-in with the canary key, then ``case``'s value in its
    variable (alone among the provider's key variables, so that it is the one read)."""
    env = {variable: CANARY for p in PROVIDERS for variable in KEY_VARIABLES[p][:1]}
    env |= {URL_VARIABLES[p]: stand_ins[p] for p in PROVIDERS}
    if case.variable in KEY_VARIABLES[case.provider]:
        for variable in KEY_VARIABLES[case.provider]:
            env.pop(variable, None)
    env[case.variable] = case.value
    return env


def problems(case: Case, command: str, returncode: int, out: str) -> list[str]:
    """What is wrong with a command's output (stdout and stderr) for ``case``; [] when nothing."""
    found = []
    if len(case.value) > MAX_SHOWN and case.value in out:
        found.append(f"the whole value ({len(case.value):,} characters) is printed")
    for secret in (case.secret, CANARY):
        if secret and len(secret) >= SECRET_CHARS and secret in out:
            found.append("a key is printed" if secret != PASSWORD else "a URL's password is printed")
    if (longest := max((len(line) for line in out.splitlines()), default=0)) > LONGEST_LINE:
        found.append(f"a line of {longest:,} characters")
    if shown := sorted({f"U+{ord(c):04X}" for c in out if c in UNSHOWABLE}):
        found.append(f"a terminal control character is printed ({', '.join(shown[:3])})")
    return found + refusal_problems(out, returncode, (case.variable,), command, case.refused, case.provider)


DOCTOR_REFUSAL = re.compile(r"  [a-z]+ +cannot be read: ")  # doctor's line for a provider it cannot read
DOCTOR_BROKEN = re.compile(r"  config file +.* \(BROKEN: ")  # ... and for a config file it cannot read
BROKEN_BELOW = "cannot be read: the config file is broken (below)"  # a provider's line then: the file's says why


def refusal_lines(out: str, returncode: int, provider: str | None = None) -> list[str]:
    """The lines of ``out`` that refuse a setting: at exit status 2 (a refusal) every line but argparse's
    usage (which starts "usage:" and goes on indented), its error line and the command's own alike; else
    the lines of a command that goes on without the setting ("labyrinth: ...", doctor's "cannot be read"
    line of ``provider``, or of any provider when None, and its line of a broken config file, which says
    why in their place)."""
    lines = out.splitlines()
    if returncode == 2:
        return [line for line in lines if line.strip() and not line.startswith(("usage:", " "))]
    doctor = re.compile(re.escape(f"  {provider:<8} cannot be read")) if provider else DOCTOR_REFUSAL
    return [line for line in lines if line.startswith("labyrinth:") or DOCTOR_BROKEN.match(line)
            or (doctor.match(line) and not line.endswith(BROKEN_BELOW))]


def refusal_problems(out: str, returncode: int, names: tuple[str, ...], command: str, must_refuse: bool | None,
                     provider: str | None = None) -> list[str]:
    """What is wrong with how a command refused a setting, or took it: a refusal (exit status 2, or a
    refusal line) none of whose lines holds all of ``names`` (the setting, and what it must be), an
    exit 2 of other than one line, a value that ``must_refuse`` taken, or (``must_refuse`` False) refused."""
    found = []
    refusals = refusal_lines(out, returncode, provider)
    refused = returncode == 2 or bool(refusals)
    if refused and not any(all(name in line for name in names) for line in refusals):
        found.append(f"the refusal does not name {' and '.join(names)}: {(refusals or out.splitlines() or [''])[0]}")
    if returncode == 2 and len(refusals) != 1:
        found.append(f"a refusal of {len(refusals)} lines")
    if must_refuse and not refused:
        found.append(f"not refused by {command}")
    if must_refuse is False and refused:
        found.append(f"refused by {command}, though it must be taken")
    return found

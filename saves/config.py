"""The user's config file: TOML in the user config directory
(platformdirs; on Linux $XDG_CONFIG_HOME/labyrinth/config.toml). Read only. Its schema, pydantic
models, is config_schema.py's, built when a file is checked: a command that reads none starts without it.

The file is checked in full when it is read: only a table per provider ([gemini],
[mistral], [ollama], [openai]: saves/providers.py's rows), the [contestants.NAME] tables, and the game
screen's [keys] and [options] (which the game checks where it reads them, knowing its keys and themes:
labyrinth_tui/player_settings.py), only their known
keys, each of its kind (a timeout a finite number of seconds in range, a key
printable ASCII, a model's name of a bounded length, a base URL an http(s) URL with a
valid port and a host the HTTP clients take), so that a typo or a
wrong value is named at once rather than making every model call fail later.

A contestant is a model at an endpoint with its settings, used by its name wherever a
role is chosen (``--users llama-local``)::

    [contestants.llama-local]
    provider = "openai"
    model = "llama-3.1-8b-instruct"
    base_url = "http://127.0.0.1:8000/v1"
    temperature = 0.2
    max_tokens = 300
    price_in = 0.10    # optional: US dollars per million tokens in and out, for the reports' cost
    price_out = 0.40
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args
from urllib.parse import urlsplit

from platformdirs import user_config_path

from labyrinth.engine.commands import excerpt

from .paths import APP_NAME, StorageError
from .reading import read_regular

CONFIG_BYTES = 1 << 20  # the most read of the config file
DEFAULT_TIMEOUT_S = 30.0  # what one model call is given unless a flag, the environment or this file says
MIN_TIMEOUT_S = 0.1  # the shortest one model call may be given (Gemini's SDK counts whole milliseconds)
MAX_TIMEOUT_S = 3600.0  # the longest one model call may be given
MIN_RPM = 0.1  # the slowest pace: a request every 600 s, as long as a tournament holds a call by default
MAX_RPM = 100_000.0  # the fastest pace of requests a minute that may be set
MAX_URL_CHARS = 2_000  # the longest base URL taken: real ones are far shorter, a pasted file is not one
MAX_KEY_CHARS = 1_000  # the longest key taken
MAX_MODEL_CHARS = 200  # the longest model name taken: real ones are under 100
MAX_TOKENS = 100_000  # the most tokens an answer may be given
MAX_PRICE = 10_000.0  # the most a million tokens may be priced at (today's dearest are near 100 US dollars)
CONTESTANT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")  # no "/" (provider/model), no space, no comma
Effort = Literal["none", "minimal", "low", "medium", "high"]  # a reasoning model's effort, as OpenAI names them
EFFORTS: tuple[Effort, ...] = get_args(Effort)


@dataclass(frozen=True)
class Bound:
    """A numeric setting's range, the same from wherever it is read (a flag, the environment, the
    config file), and the words a refusal says it in."""

    least: float
    most: float
    unit: str  # "seconds", "requests a minute", "turns"; "" for a number of no unit (a temperature)
    whole: bool = False  # a count: a whole number

    def holds(self, value: object) -> bool:
        """Whether ``value`` is a number in range (inf and nan, which fail every comparison, are not), and
        whole if it must be."""
        kinds = (int,) if self.whole else (int, float)
        return isinstance(value, kinds) and not isinstance(value, bool) and self.least <= value <= self.most

    @property
    def words(self) -> str:
        """The range as a refusal says it: "from 0.1 to 3,600 seconds", "a whole number from 1 to 400 turns"."""
        whole = "a whole number " if self.whole else ""
        return f"{whole}from {_figure(self.least)} to {_figure(self.most)}" + (f" {self.unit}" if self.unit else "")

    def refusal(self, value: object) -> str:
        """Why ``value`` is refused, in words that name the range (what follows the setting's name)."""
        # a count's 9.0 is shown as written (excerpt), not as the 9 _figure would make it
        shown = _figure(value) if isinstance(value, float) and not self.whole else excerpt(value)
        return f"must be {self.words}, not {shown}"


def _figure(number: float) -> str:
    """A bound or a value as a message writes it: 100,000, 0.1, 1e-300."""
    return f"{int(number):,}" if abs(number) < 1e15 and number == int(number) else f"{number:g}"


TIMEOUT = Bound(MIN_TIMEOUT_S, MAX_TIMEOUT_S, "seconds")  # one model call (--llm-timeout, timeout_s)
RPM = Bound(MIN_RPM, MAX_RPM, "requests a minute")  # a provider's pace (--llm-rpm, rpm)
HOLD = Bound(MIN_TIMEOUT_S, MAX_TIMEOUT_S, "seconds")  # the longest a quota may hold a match (--hold-limit)
TEMPERATURE = Bound(0.0, 2.0, "")  # a contestant's sampling temperature (the APIs take 0 to 2)
TOKENS = Bound(16, MAX_TOKENS, "tokens", whole=True)  # a contestant's answer budget (fewer cannot hold an action)
PRICE = Bound(0.0, MAX_PRICE, "US dollars per million tokens")  # a contestant's price_in and price_out


def key_problem(key: str) -> str | None:
    """What is wrong with ``key`` as an API key (None: nothing): only printable ASCII, no space, of
    a bounded length (httpx cannot send anything else in a header, and fails deep inside)."""
    if len(key) > MAX_KEY_CHARS:
        return f"is {len(key):,} characters long (at most {MAX_KEY_CHARS:,})"
    if not all("!" <= c <= "~" for c in key):
        return "holds a character that is not printable ASCII (a space, an accent, a line break?)"
    return None


def model_problem(model: str) -> str | None:
    """What is wrong with ``model`` as a model's name (None: nothing), the one rule wherever a name is
    read (a flag, the environment, the config file, ``provider/model``): not empty, of a bounded length,
    for it is sent, shown and kept in every result row; and no space, comma or character that cannot be
    shown, for a contestant is named ``provider/model`` in a comma-separated list (--users) and a run's
    manifest, which must read back as the contestant it was."""
    if not model:
        return "is empty"
    if len(model) > MAX_MODEL_CHARS:
        return f"is {len(model):,} characters long (at most {MAX_MODEL_CHARS:,})"
    if any(c.isspace() or c == "," or not c.isprintable() for c in model):
        return "holds a space, a comma or a character that cannot be shown (a model's name has none)"
    return None


def url_problem(url: str) -> str | None:
    """What is wrong with ``url`` as a provider's base URL (None: nothing): an http or https URL
    with a host the HTTP clients take, a port in range, of a bounded length, with no space or
    control character."""
    if len(url) > MAX_URL_CHARS:
        return f"is {len(url):,} characters long (at most {MAX_URL_CHARS:,})"
    if any(not c.isprintable() or c.isspace() for c in url):
        return "holds a space, a line break or another character a URL cannot"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        return f"cannot be read as a URL ({exc})"
    if parts.scheme.lower() not in ("http", "https"):
        return f"is not an http(s) URL (it begins {parts.scheme + '://' if parts.scheme else 'without http://'})"
    if not parts.hostname:
        return "names no host"
    if port == 0:
        return "has port 0 (a server listens on a port from 1 to 65535)"
    return _host_problem(parts.hostname)


IPV4_LIKE = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+")  # what httpx reads as an IPv4 address, and checks


def _host_problem(host: str) -> str | None:
    """What the HTTP clients (httpx) would refuse in ``host`` as they are built, with an InvalidURL
    deep in an SDK: a non-ASCII name (they take IDNA 2008 only: write it as xn--...) and four
    numbers that are no IPv4 address (urlsplit has checked a bracketed IPv6 one)."""
    if not host.isascii():
        return "names a host in letters other than ASCII (write an international name in its xn-- form)"
    if IPV4_LIKE.fullmatch(host):
        import ipaddress  # only for four numbers (start-up)

        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            return f"names the host {host}, which is no IPv4 address (each number 0 to 255, no leading 0)"
    return None


class ConfigError(ValueError):
    """A config file that cannot be read; ``str()`` is one line for the user."""


def config_path() -> Path:
    return user_config_path(APP_NAME, appauthor=False) / "config.toml"


def read_config(path: Path | None = None) -> dict[str, Any]:
    """The config file's tables, each only with the keys it sets ({} when there is no file);
    ConfigError naming the file, the field and the problem otherwise."""
    path = path or config_path()
    tables = read_tables(path)
    return validated(tables, path) if tables else {}


def read_tables(path: Path | None = None) -> dict[str, Any]:
    """The config file's tables as TOML reads them, unchecked ({} when there is no file): for a reader
    that checks only the tables it uses (the game screen's [keys] and [options]); ConfigError naming the
    file when it cannot be read as TOML."""
    path = path or config_path()
    try:
        text = read_regular(path, CONFIG_BYTES).decode("utf-8-sig")  # a byte-order mark (Notepad's) skipped
    except FileNotFoundError:
        return {}
    except StorageError as exc:  # a directory, a FIFO, too large, unreadable
        raise ConfigError(str(exc)) from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    import tomllib  # the file's reader and its schema load only when there is a file (start-up)

    try:
        tables = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid TOML (nested too deep)") from None
    except ValueError:  # Python reads an integer of at most 4,300 digits
        raise ConfigError(f"{path}: not valid TOML (a number too long)") from None
    return tables


def validated(tables: dict[str, Any], path: Path | None = None) -> dict[str, Any]:
    """``tables`` (a config file's, or the same given directly) checked, as plain tables of the keys set;
    ConfigError naming the file, the field and the problem otherwise."""
    from . import config_schema  # pydantic's models of the file, built when one is checked (start-up)

    return config_schema.validated(tables, path)

"""A redirecting stand-in that logs the headers it receives: keys stay with their endpoint, through
the real `labyrinth` commands.

    .venv/bin/python bench/hostile/hostile_keys.py [--seed N ...]

Each case runs one command as a user would (`doctor` calling the endpoints, or an `arena` or a
`tournament` whose user or Minotaur is a model), in homes of its own (hostile_commands.py), against
local stand-in servers (tests/stubs.py) that log every request. Per seed, drawn from
random.Random(f"hostile-keys:{seed}"):

- a redirect, for each provider: its endpoint ("home") answers every request with a redirect (301,
  302, 303, 307 or 308, on a drawn path) to another stand-in ("elsewhere": another port, so another
  origin), a key planted in the Location's query. Drawn too: the command, the key's text and where it
  is set (an environment variable or the config file), and where the endpoint is (its variable, its
  --PROVIDER-url option or the config file).
- an Ollama contestant with an endpoint of its own ([contestants.far]) while OLLAMA_API_KEY is set,
  playing against (or beside) the provider's own Ollama, which is given that key.
- a contestant with an endpoint and a key of its own (api_key, or api_key_env), while the
  provider's key is set and the provider plays too: its server must get its own key, never the
  provider's.
- a key in the endpoint, for two providers drawn: a secret in the base URL's query string or in its
  user-info, the URL set in the environment, an option, the provider's table or a contestant's;
  the endpoint answers, answers too late (the timeout's message) or answers 401 echoing the
  request's URL and headers.

Judged: every request the elsewhere server receives is wrong, and each key header it receives
(authorization, x-goog-api-key, whatever it holds) is leaked; so is each key or secret of the case
in a header or the path of a request to a server it was not given to, or in the body of any request
(a prompt); and each appearance of one (the Location's too) in the command's stdout or stderr or in
a file under the data directory (replays, results.db, the experience log). A server the case is
about that gets no request, or a contestant's server that never gets its own key, is wrong too (the
case tried nothing). A traceback or a death by a signal is a crash, no end within
hostile_commands.END_S a hang. ``section`` counts the cases into a hostile_watch.Tally for
bench/hostile/hostile.py; run alone, this prints each case and the totals.
"""

from __future__ import annotations

import base64
import json
import random
import string
import sys
import time
from collections.abc import Callable, Collection, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the root, for tests.stubs, the stand-in servers

from hostile_commands import Home, Ran, home, run
from hostile_settings import toml_string
from hostile_watch import Tally, run_alone

from labyrinth.saves.providers import PROVIDERS
from tests.stubs import WIRE, Model, Stub, StubReply

KEY_HEADERS = ("authorization", "x-goog-api-key", "api-key", "x-api-key")  # what the SDKs send a key in
MODELS = {"gemini": "gemini-2.5-flash", "mistral": "mistral-small-latest", "ollama": "qwen3:8b",
          "openai": "gpt-4o-mini"}
STATUSES = (301, 302, 303, 307, 308)
URL_PLACES = ("environment", "option", "config")
COMMANDS = ("doctor", "arena user", "arena minotaur", "tournament user", "tournament minotaur")
TIMEOUT_S = "5"  # --llm-timeout of every command: a refused redirect fails at once
LATE_S = 1.0  # --llm-timeout when the endpoint answers its first call in twice that
URL_CASES = 2  # providers given a key in their URL, per seed (drawn): each seed's cases take some 25 s
JOBS = 2  # cases at a time (this machine has two cores)


@dataclass
class Server:
    """A stand-in of a case: what it was given, and what it must or must not receive."""

    name: str
    stub: Stub
    given: frozenset[str] = frozenset()  # the keys and secrets it may receive
    reachable: bool = True  # False: a redirect's target, which no request may reach
    needed: bool = False  # the case tried nothing unless it got a request
    owns: str | None = None  # a key it must receive (a contestant's own)


@dataclass
class Case:
    """One command, its homes and environment, its stand-ins and every secret it holds."""

    label: str
    home: Home
    args: list[str]
    settings: dict[str, str]  # the environment's provider settings
    servers: list[Server]
    secrets: dict[str, str]  # by what the reports call it: configured keys, URL secrets, the planted one
    ran: Ran | None = None
    seconds: float = 0.0
    found: list[str] = field(default_factory=list)  # what went wrong, as counted


def leaks(request: Mapping, secrets: Mapping[str, str], given: Collection[str], strict: bool = False) -> list[str]:
    """Where ``request`` holds a secret it should not: a header or its path holding one of ``secrets``
    (by name) not in ``given``, its body holding any (a key has no place in a prompt), and, when
    ``strict`` (a server no request may reach), every key header whatever it holds."""
    found = []
    for header, value in request["headers"].items():
        held = [name for name, secret in secrets.items() if secret in value and secret not in given]
        if held or (strict and header.lower() in KEY_HEADERS):
            found.append(f"header {header}" + (f" holds {', '.join(held)}" if held else ""))
    found += [f"path holds {name}" for name, secret in secrets.items()
              if secret in request["path"] and secret not in given]
    body = json.dumps(request["body"])
    found += [f"body holds {name}" for name, secret in secrets.items() if secret in body]
    return found


def appearances(text: str | bytes, secrets: Mapping[str, str]) -> list[str]:
    """The names of ``secrets`` that ``text`` holds."""
    return [name for name, secret in secrets.items()
            if (secret.encode() if isinstance(text, bytes) else secret) in text]


# --- drawing the cases --------------------------------------------------------------------


def secret(draw: random.Random, kind: str) -> str:
    """A secret of 24 drawn letters and digits: none is found in a text by chance."""
    return f"{kind}-" + "".join(draw.choice(string.ascii_letters + string.digits) for _ in range(24))


def game(args: list[str], command: str, names: dict[str, str], made: Home, timeout: str = TIMEOUT_S) -> list[str]:
    """``command`` ("arena user", "tournament minotaur", ...) playing ``names``' roles ({"user": ...,
    "minotaur": ...}, the model's side and the other), one short match on tiny, keeping replays and
    learning (its lessons asked of the models, kept in the experience log); ``args`` added."""
    if command == "doctor":
        return ["doctor", "--llm-timeout", timeout, *args]
    front, _ = command.split()
    match = ["--games", "1", "--seed", "1", "--preset", "tiny", "--max-turns", "2", "--llm-timeout", timeout,
             "--learn", "both", "--json", *args]
    if front == "arena":
        return ["arena", "--user", names["user"], "--minotaur", names["minotaur"], *match,
                "--replays", str(made.data_home / "labyrinth" / "replays")]
    return ["tournament", "--users", names["user"], "--minotaurs", names["minotaur"], "--concurrency", "1", *match]


def roles(command: str, model: str, other: str | None = None) -> dict[str, str]:
    """Who plays what: ``model`` on the command's side, ``other`` (or a rule agent) on the other."""
    if command.endswith("user"):
        return {"user": model, "minotaur": other or "wait"}
    return {"user": other or "builtin", "minotaur": model}


def endpoint(provider: str, url: str, where: str, config: dict[str, list[str]]) -> tuple[dict[str, str], list[str]]:
    """``url`` set as ``provider``'s endpoint ``where`` (one of URL_PLACES): in its variable (returned as the
    environment's), its option (returned as arguments) or its table of the config file (added to ``config``)."""
    if where == "environment":
        return {PROVIDERS[provider].url_variable: url}, []
    if where == "option":
        return {}, [f"--{provider}-url", url]
    config.setdefault(provider, []).append(f"base_url = {toml_string(url)}")
    return {}, []


def key_setting(draw: random.Random, provider: str, key: str, config: dict[str, list[str]]) -> dict[str, str]:
    """``key`` set as ``provider``'s where the seed says: one of its variables, or its table."""
    if draw.random() < 0.3:
        config.setdefault(provider, []).append(f"api_key = {toml_string(key)}")
        return {}
    return {draw.choice(PROVIDERS[provider].key_variables): key}


def config_text(tables: dict[str, list[str]]) -> str:
    return "".join(f"[{table}]\n" + "".join(f"{line}\n" for line in lines) for table, lines in tables.items())


def base(provider: str, stub: Stub) -> str:
    return stub.url + ("/v1" if provider == "openai" else "")


class Cases:
    """The cases of one seed, their stand-ins started and their homes made in ``stack`` (closed with it)."""

    def __init__(self, seed: int, stack: ExitStack) -> None:
        self.draw, self.stack, self.seed = random.Random(f"hostile-keys:{seed}"), stack, seed

    def server(self, name: str, respond: Callable[[dict], StubReply], **judged) -> Server:
        stub = Stub(respond)
        self.stack.callback(stub.close)
        return Server(name, stub, **judged)

    def bystanders(self, command: str, but: Collection[str]) -> tuple[list[Server], dict[str, str]]:
        """For `doctor`, which calls every provider it can: a sound stand-in for each provider not in ``but``,
        given nothing, and the environment that points each provider at its own."""
        if command != "doctor":
            return [], {}
        servers = {p: self.server(f"{p} (bystander)", Model(p)) for p in PROVIDERS if p not in but}
        return list(servers.values()), {PROVIDERS[p].url_variable: base(p, s.stub) for p, s in servers.items()}

    def all(self) -> list[Case]:
        return [*(self.redirect(p) for p in PROVIDERS), self.ollama_far(), self.own_key(),
                *(self.key_in_url(p) for p in self.draw.sample(tuple(PROVIDERS), URL_CASES))]

    def redirect(self, provider: str) -> Case:
        draw, command = self.draw, self.draw.choice(COMMANDS)
        key, planted = secret(draw, "key"), secret(draw, "planted")
        status, path = draw.choice(STATUSES), draw.choice(("same", "/", "/v2/elsewhere", "/" + secret(draw, "p")))
        elsewhere = self.server("elsewhere", Model(provider), reachable=False)

        def redirect(request: dict) -> StubReply:
            where = request["path"].split("?")[0] if path == "same" else path
            return status, "", {"Location": f"{elsewhere.stub.url}{where}?key={planted}"}

        home_server = self.server("home", redirect, given=frozenset({key}), needed=True)
        tables: dict[str, list[str]] = {}
        settings = key_setting(draw, provider, key, tables)
        at, option = endpoint(provider, base(provider, home_server.stub), draw.choice(URL_PLACES), tables)
        bystanders, pointed = self.bystanders(command, (provider,))
        made = self.stack.enter_context(home(config_text(tables) if tables else None, "labyrinth-keys-"))
        return Case(f"redirect {status} ({path}) from {provider} -> {command}", made,
                    game(option, command, roles(command, provider), made), {**settings, **at, **pointed},
                    [home_server, elsewhere, *bystanders], {f"the {provider} key": key, "the planted key": planted})

    def ollama_far(self) -> Case:
        """An Ollama contestant at its own endpoint beside the provider's Ollama, OLLAMA_API_KEY set."""
        draw = self.draw
        command = draw.choice(COMMANDS[1:])
        key = secret(draw, "ollama")
        near = self.server("ollama's own endpoint", Model("ollama"), given=frozenset({key}), needed=True)
        far = self.server("far (its own endpoint)", Model("ollama"), needed=True)
        config = config_text({"contestants.far": ['provider = "ollama"', 'model = "qwen3:8b"',
                                                  f"base_url = {toml_string(far.stub.url)}"]})
        made = self.stack.enter_context(home(config, "labyrinth-keys-"))
        return Case(f"ollama contestant at its own endpoint, OLLAMA_API_KEY set -> {command}", made,
                    game([], command, roles(command, "far", "ollama"), made),
                    {"OLLAMA_API_KEY": key, "OLLAMA_HOST": near.stub.url}, [near, far], {"OLLAMA_API_KEY": key})

    def own_key(self) -> Case:
        """A contestant with its own endpoint and key, the provider (with the provider's key) playing too."""
        draw = self.draw
        provider, command = draw.choice(tuple(PROVIDERS)), draw.choice(COMMANDS[1:])
        theirs, own = secret(draw, "provider"), secret(draw, "own")
        near = self.server(f"{provider}'s own endpoint", Model(provider), given=frozenset({theirs}), needed=True)
        mine = self.server("own (its own endpoint)", Model(provider), given=frozenset({own}), needed=True, owns=own)
        settings = {PROVIDERS[provider].key_variables[0]: theirs, PROVIDERS[provider].url_variable: base(provider,
                                                                                                        near.stub)}
        table = [f'provider = "{provider}"', f'model = "{MODELS[provider]}"',
                 f"base_url = {toml_string(base(provider, mine.stub))}"]
        if draw.random() < 0.5:
            table.append(f"api_key = {toml_string(own)}")
        else:
            table.append('api_key_env = "OWN_CONTESTANT_KEY"')
            settings["OWN_CONTESTANT_KEY"] = own
        made = self.stack.enter_context(home(config_text({"contestants.own": table}), "labyrinth-keys-"))
        return Case(f"{provider} contestant with its own endpoint and key ({table[-1].split()[0]}) -> {command}",
                    made, game([], command, roles(command, "own", provider), made), settings, [near, mine],
                    {f"the {provider} key": theirs, "the contestant's key": own})

    def key_in_url(self, provider: str) -> Case:
        """A secret in the endpoint's query or user-info; the endpoint answers, late, or 401 echoing the request."""
        draw = self.draw
        command, hidden = draw.choice(COMMANDS), draw.choice(("query", "user-info"))
        behaviour = draw.choice(("answers", "late", "echoes"))
        where = draw.choice((*URL_PLACES, "contestant"))
        key, hidden_secret = secret(draw, "key"), secret(draw, "inurl")
        model = Model(provider, faults={1: "slow"}, timeout_s=LATE_S) if behaviour == "late" else Model(provider)
        respond: Callable[[dict], StubReply] = model if behaviour != "echoes" else echo(provider)
        server = self.server("home", respond, needed=True)
        host = server.stub.url.removeprefix("http://")
        path = "/v1" if provider == "openai" else ""
        url = (f"http://{host}{path}?key={hidden_secret}&region=eu" if hidden == "query" else
               f"http://labyrinth:{hidden_secret}@{host}{path}")
        secrets = {f"the {provider} key": key, f"the secret in the URL's {hidden}": hidden_secret}
        if hidden == "user-info":  # as the SDKs send it: Authorization: Basic base64(user:password)
            secrets["the user-info in base64"] = base64.b64encode(f"labyrinth:{hidden_secret}".encode()).decode()
        server.given = frozenset(secrets.values())
        tables: dict[str, list[str]] = {}
        settings, option, name = {}, [], provider
        if where == "contestant":
            name = "inurl"
            tables["contestants.inurl"] = [f'provider = "{provider}"', f'model = "{MODELS[provider]}"',
                                           f"base_url = {toml_string(url)}", f"api_key = {toml_string(key)}"]
        else:
            settings = key_setting(draw, provider, key, tables)
            at, option = endpoint(provider, url, where, tables)
            settings |= at
        if command == "doctor" and where == "contestant":
            command = "arena user"  # doctor checks the providers, not the contestants
        timeout = f"{LATE_S:g}" if behaviour == "late" else TIMEOUT_S
        bystanders, pointed = self.bystanders(command, (provider,))
        made = self.stack.enter_context(home(config_text(tables) if tables else None, "labyrinth-keys-"))
        return Case(f"{provider} key in the URL's {hidden} ({where}), endpoint {behaviour} -> {command}", made,
                    game(option, command, roles(command, name), made, timeout), {**settings, **pointed},
                    [server, *bystanders], secrets)


def echo(provider: str) -> Callable[[dict], StubReply]:
    """A gateway that refuses the key, echoing in its 401 the URL and the headers it was sent."""
    def refuse(request: dict) -> StubReply:
        said = f"invalid credentials for {request['path']} with headers {json.dumps(request['headers'])}"
        return 401, WIRE[provider][1](401, said), None
    return refuse


# --- running and judging ------------------------------------------------------------------


def judge(tally: Tally, case: Case) -> None:
    """Run ``case``'s command and count what reached where it should not."""
    began = time.monotonic()
    case.ran = run(tally, case.label, case.args, case.home.env(case.settings))
    case.seconds = time.monotonic() - began

    def fail(kind: str, detail: str) -> None:
        case.found.append(f"{kind}: {detail}")
        tally.fail(kind, case.label, detail)

    for server in case.servers:
        for request in server.stub.requests:
            if not server.reachable:
                fail("wrong", f"{server.name} received {request['method']} {request['path'].split('?')[0]}")
            for place in leaks(request, case.secrets, server.given, strict=not server.reachable):
                fail("leaked", f"{server.name} received {place}")
        if server.needed and not server.stub.requests:
            fail("wrong", f"{server.name} got no request: the case tried nothing")
        headers = [value for request in server.stub.requests for value in request["headers"].values()]
        if server.owns and not any(server.owns in value for value in headers):
            fail("wrong", f"{server.name} never received its own key")
    if case.ran is not None:
        for name in appearances(case.ran.out, case.secrets):
            fail("leaked", f"{name} printed")
    for path in case.home.files():
        for name in appearances(path.read_bytes(), case.secrets):
            fail("leaked", f"{name} in {path.relative_to(case.home.data_home)}")


def section(tally: Tally, seed: int) -> list[Case]:
    """The cases of ``seed`` counted into ``tally``, a few at a time; the cases, judged."""
    with ExitStack() as stack:
        cases = Cases(seed, stack).all()
        with ThreadPoolExecutor(JOBS) as pool:
            for future in [pool.submit(judge, tally, case) for case in cases]:
                future.result()
    return cases


def main() -> int:
    return run_alone(__doc__, "keys: a redirecting stand-in", lambda tally, seed: map(said, section(tally, seed)))


def said(case: Case) -> str:
    """One case as run alone prints it."""
    ended = "crashed or hung" if case.ran is None else f"exit {case.ran.returncode}"
    calls = ", ".join(f"{s.name} {len(s.stub.requests)}" for s in case.servers)
    return (f"{case.label}: {ended} in {case.seconds:.1f} s; requests: {calls}; "
            + ("; ".join(case.found) if case.found else "nothing where it should not be"))


if __name__ == "__main__":
    sys.exit(main())

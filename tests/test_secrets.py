"""No secret leaves the provider layer: canary keys for every provider and a password in every
endpoint URL, gateways that echo the refused key in their 401 and models that echo it in their
answers, then `doctor`, `arena` (replays and the experience log) and `gsm` run as the user
runs them; every file written and every byte printed is searched for the canaries."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from labyrinth.agents.compete.health import EXIT_INCOMPLETE
from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.providers.secrets import REDACTED, redact
from tests.stubs import CHAT_PATHS, WIRE, Model, Stub

pytestmark = pytest.mark.slow

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
CANARIES = ("CANARY", base64.b64encode(b"user:CANARYPASS").decode())  # every planted secret holds one
KEYS = {"gemini": "CANARY-GEMINI-7f3a9c1e", "mistral": "CANARY-MISTRAL-2b8d4f60", "ollama": "CANARY-OLLAMA-5e1c7a93",
        "openai": "CANARY-OPENAI-9d2e6b14"}
BASIC_AUTH = ("mistral", "openai")  # httpx2 sends a URL's user:password as Basic authorization, in place of the key
PASSWORD = "user:CANARYPASS@"
REFUSED = {1, 3}  # the plan and the second decision: refused with the key echoed


def sent_key(provider: str, request: dict) -> str:
    headers = {k.lower(): v for k, v in request["headers"].items()}
    return headers.get("x-goog-api-key") or headers.get("authorization", "").removeprefix("Bearer ") or "none"


class EchoingGateway:
    """A gateway that refuses some requests with a 401 quoting the key it was sent, and a model
    whose answers quote the key and the prompt back in their reasoning."""

    def __init__(self, provider: str) -> None:
        self.provider, self.model = provider, Model(provider)

    def __call__(self, request: dict):
        status, payload, headers = self.model(request)
        if not request["path"].endswith(CHAT_PATHS[self.provider]):
            return status, payload, headers
        key = sent_key(self.provider, request)
        if self.model.chats in REFUSED:
            return 401, WIRE[self.provider][1](401, f"Incorrect API key provided: {key}. Check your key."), None
        answer = json.loads(json.dumps(payload))
        text = json.dumps(request["body"])[-300:]
        echo = f"the gateway says my key is {key}; you wrote {text}"
        if self.provider == "gemini":
            part = answer["candidates"][0]["content"]["parts"][0]
            part["text"] = json.dumps({**json.loads(part["text"]), "reasoning": echo})
        else:
            message = answer["message"] if self.provider == "ollama" else answer["choices"][0]["message"]
            message["content"] = json.dumps({**json.loads(message["content"]), "reasoning": echo})
        return status, answer, headers


@pytest.fixture
def gateways():
    servers = {p: Stub(EchoingGateway(p)) for p in KEYS}
    yield servers
    for server in servers.values():
        server.close()


def with_password(url: str) -> str:
    return url.replace("http://", "http://" + PASSWORD)


def environment(gateways, home: Path, urls=None) -> dict[str, str]:
    # BASIC_AUTH's URLs carry no password here: httpx2 would send it as Basic authorization instead of the key
    urls = urls or {p: s.url if p in BASIC_AUTH else with_password(s.url) for p, s in gateways.items()}
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL", "OLLAMA_HOST"))}
    return {**env, "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
            "GEMINI_API_KEY": KEYS["gemini"], "MISTRAL_API_KEY": KEYS["mistral"], "OLLAMA_API_KEY": KEYS["ollama"],
            "OPENAI_API_KEY": KEYS["openai"], "GOOGLE_GEMINI_BASE_URL": urls["gemini"],
            "MISTRAL_BASE_URL": urls["mistral"], "OLLAMA_HOST": urls["ollama"], "OPENAI_BASE_URL": urls["openai"]}


def test_redact_hides_known_keys_and_any_urls_user_info():
    ProviderSettings("mistral", "m", "https://me:s3cr3t-pass@gw.example/v1", api_key="sk-redact-me-0123")
    text = "401: sk-redact-me-0123 refused at https://me:s3cr3t-pass@gw.example/v1 (s3cr3t-pass), ftp://a:b@c"
    assert redact(text) == (f"401: {REDACTED} refused at https://{REDACTED}@gw.example/v1 ({REDACTED}), "
                            f"ftp://{REDACTED}@c")
    assert redact("a key-less line, user@example.org") == "a key-less line, user@example.org"


def test_a_key_in_an_endpoints_query_or_fragment_is_redacted_wherever_the_endpoint_is_named():
    ProviderSettings("ollama", "m", "http://127.0.0.1:9/x?token=q-s3cret%2Bkey&v=1#frag-s3cret", api_key=None)
    said = "ollama is not reachable at http://127.0.0.1:9/x?token=q-s3cret%2Bkey&v=1#frag-s3cret (q-s3cret+key)"
    assert redact(said) == (f"ollama is not reachable at http://127.0.0.1:9/x?token={REDACTED}&v=1#{REDACTED} "
                            f"({REDACTED})")


def test_the_canaries_appear_in_no_file_written_and_no_byte_printed(gateways, tmp_path):
    env = environment(gateways, tmp_path)
    down = environment(gateways, tmp_path, {p: with_password("http://127.0.0.1:9") for p in KEYS})
    replays = tmp_path / "data" / "arena-replays"
    runs = [
        (["doctor"], env, ""),
        (["doctor"], down, ""),
        (["arena", "--games", "2", "--preset", "tiny", "--max-turns", "8", "--user", "mistral", "--minotaur",
          "gemini", "--replays", str(replays), "--learn", "both"], env, ""),  # the experience log too
        (["arena", "--games", "1", "--preset", "tiny", "--max-turns", "8", "--user", "ollama", "--json",
          "--replays", str(replays)], env, ""),
        (["arena", "--games", "1", "--preset", "tiny", "--max-turns", "8", "--user", "openai", "--minotaur",
          "openai", "--replays", str(replays)], env, ""),
        (["arena", "--games", "1", "--preset", "tiny", "--max-turns", "7", "--minotaur", "ollama",
          "--llm-timeout", "1", "--replays", str(replays)], down, ""),
        (["gsm", "--seed", "3", "--preset", "tiny", "--user", "ollama"], env, '{"action": "WAIT"}\n' * 6),
        (["gsm", "--seed", "3", "--preset", "tiny", "--minotaur", "gemini"], env, '{"command": "LOOK"}\n' * 6),
        (["gsm", "--seed", "4", "--preset", "tiny", "--user", "mistral", "--llm-timeout", "1"], down,
         '{"action": "WAIT"}\n' * 7),
    ]
    printed = []
    for args, environ, stdin in runs:
        done = subprocess.run([LABYRINTH, *args], input=stdin, capture_output=True, text=True, timeout=180,
                              env=environ, check=False)
        # 3: a model's faults left a match void; doctor's 1: the endpoints it was given failed their checks
        codes = ((1,) if environ is down else (0,)) if args == ["doctor"] else (0, EXIT_INCOMPLETE)
        assert done.returncode in codes, (args, done.stderr)
        printed.append(done.stdout + done.stderr)
    # the secrets were there to leak: sent where they belong, refused with the key echoed, shown and written
    for provider, stub in gateways.items():
        assert any(sent_key(provider, r) == KEYS[provider] for r in stub.requests)
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    written = {p: p.read_bytes() for p in files}
    assert any(p.suffix == ".jsonl" for p in files) and any("experience" in p.name for p in files), files
    assert b"401" in b"".join(written.values())  # the refusals were recorded
    def leaked(text: str) -> bool:
        return any(canary in text for canary in CANARIES)

    leaks = [p for p, data in written.items() if leaked(data.decode(errors="replace"))]
    leaks += [args for (args, _, _), out in zip(runs, printed, strict=True) if leaked(out)]
    # and never sent back to a model: no prompt holds a key (only the key's own header does)
    leaks += [r["path"] for s in gateways.values() for r in s.requests if leaked(json.dumps(r["body"]))]
    scanned = sum(map(len, written.values())) + sum(len(out.encode()) for out in printed)
    print(f"canary scan: {len(files)} files and {len(printed)} runs' output, {scanned:,} bytes, "
          f"{len(leaks)} hits")
    assert not leaks
    assert REDACTED in "".join(printed)  # doctor's endpoints, shown redacted


QUERY_KEYS = {p: f"CANARY-QUERY-{p.upper()}-83c1" for p in KEYS}


class FaultyGemini:
    """A Gemini stand-in whose answers time out or run past the size bound now and then: the project's own
    messages for those name the endpoint, query and all."""

    def __init__(self) -> None:
        self.model = Model("gemini")

    def __call__(self, request: dict):
        request = {**request, "path": request["path"].partition("?")[0]}  # the SDK keeps the base URL's query
        status, payload, headers = self.model(request)
        if request["path"].endswith(CHAT_PATHS["gemini"]) and self.model.chats in (2, 3, 5):
            if self.model.chats == 5:
                return 200, b"x" * (5 << 20), None  # past bounds.MAX_BODY_BYTES
            return status, payload, {"_delay": 2}  # past --llm-timeout
        return status, payload, headers


def test_a_key_in_an_endpoints_query_appears_in_no_file_written_no_byte_printed_and_no_prompt(tmp_path):
    """A gateway's key may ride in the base URL's query (?key=...): the messages that name the endpoint
    (not reachable, did not answer within, a reply too large) kept it in replays, results.db's last
    error, stderr, the next prompt and `doctor`. Every one of those is searched for it."""
    gemini = Stub(FaultyGemini())
    try:
        down = "http://127.0.0.1:9/?key="
        env = {**environment({}, tmp_path, {p: "http://unused" for p in KEYS}),
               "GOOGLE_GEMINI_BASE_URL": f"{gemini.url}/?key={QUERY_KEYS['gemini']}",
               "MISTRAL_BASE_URL": down + QUERY_KEYS["mistral"], "OLLAMA_HOST": down + QUERY_KEYS["ollama"],
               "OPENAI_BASE_URL": down + QUERY_KEYS["openai"]}
        runs = [["doctor"],
                ["tournament", "--users", "gemini,mistral", "--minotaurs", "ollama,openai", "--games", "1",
                 "--preset", "tiny", "--max-turns", "6", "--llm-timeout", "1"]]  # its replays, results.db
        printed = []
        for args in runs:
            done = subprocess.run([LABYRINTH, *args], capture_output=True, text=True, timeout=180, env=env,
                                  check=False)
            assert done.returncode == (1 if args == ["doctor"] else EXIT_INCOMPLETE), (args, done.stderr)
            printed.append(done.stdout + done.stderr)
        replay = next(p for p in (tmp_path / "data").rglob("*.jsonl") if "gemini" in p.name)
        runs.append(["replay", str(replay)])  # a transcript, as printed
        shown = subprocess.run([LABYRINTH, *runs[-1]], capture_output=True, text=True, timeout=60, env=env,
                               check=False)
        printed.append(shown.stdout + shown.stderr)
    finally:
        gemini.close()
    assert any(QUERY_KEYS["gemini"] in r["path"] for r in gemini.requests)  # sent where it belongs
    files = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert any(p.name == "results.db" for p in files) and len(files) > 3
    everything = b"".join(files.values()).decode(errors="replace") + "".join(printed)
    for said in ("did not answer within 1 s at", "sent a reply of", "is not reachable at"):  # the messages were
        assert said in everything, said  # made: each names the endpoint
    leaks = [str(p) for p, data in files.items() if b"CANARY-QUERY" in data]
    leaks += [" ".join(args) for args, out in zip(runs, printed, strict=True) if "CANARY-QUERY" in out]
    leaks += [r["path"] for r in gemini.requests if "CANARY-QUERY" in json.dumps(r["body"])]  # the next prompt
    assert not leaks
    assert f"?key={REDACTED}" in everything

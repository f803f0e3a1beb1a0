"""Hostile replies for bench/hostile/hostile.py: long, deep, huge and binary answers from stand-in servers,
through the real SDK clients and every kind of call an LLM agent makes (its plan, its turns, its
lesson), and what one such reply costs, each figure measured in a fresh process.

    .venv/bin/python bench/hostile/hostile_replies.py [--seed N] [--figures] [--before /tmp/before/.venv/bin/python]

Ways in, one per kind of reply, each through the four SDKs (two matches of two turns each, then
the lesson), its replies drawn from the seed:
- long: a text of tens of thousands of letters to a megabyte (letters, "a://" over and over,
  printable characters without a space);
- deep: a body nested past the recursion limit, as an answer and as an error;
- huge: a body of 50 MB, its length said or sent in chunks;
- binary: random bytes, as an answer and as an error.
Each stand-in runs in a process of its own: its memory and CPU are not the client's.
Counted: calls tried; crashes (an exception out of a call, or one the turn loop caught and
counted); hangs (no end within the watchdog's time); and the harness's peak RSS growth over the
way (more than FLAT_MB is counted a wrong answer: memory that is not flat).

Figures (with --figures), each in a fresh process of the interpreter given (the stand-in in another, so its CPU
is not counted): CPU time of `redact` and of a whole turn (LLMAgent.decide) for a reply of
40k, 150k and 1M letters, and the peak RSS growth and CPU time of a turn answered with 50 MB.
Given --before (the interpreter of a checkout of the commit before the fix), each figure is
taken there too. A figure past its CPU budget is stopped by the kernel (RLIMIT_CPU) and shown
as "> N".
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import resource
import signal
import string
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the root, for tests.stubs, the stand-in servers

from hostile_watch import HANG_S, Hang, Tally, Watchdog  # bench/hostile/ is on sys.path, as this file runs as a script

from labyrinth.saves.providers import PROVIDERS
from tests.stubs import CHAT_PATHS, WIRE, Model, Stub

KINDS = ("long", "deep", "huge", "binary")
LENGTHS = (40_000, 150_000, 1_000_000)  # letters in a long reply (the issue's: 40k cost 3 s, 1M over 240 s)
HUGE_BYTES = 50 << 20
MATCHES, TURNS = 2, 2  # per provider and way in: each match asks for a plan and TURNS turns
FLAT_MB = 64  # a way in whose calls grow the harness's peak RSS by more has not kept memory flat
TIMEOUT_S = 5.0  # --llm-timeout for the ways' transports
BUDGET_S = {"redact": 10, "turn": 10, "huge": 30}  # CPU seconds a figure may use before it is stopped
MEASURED_S = 0.2  # redact is called again and again until it has used this much CPU
NO_SPACES = "".join(c for c in string.printable if not c.isspace())
SOUND = '{"action": "WAIT", "params": {}, "reasoning": "listening"}'


# --- the stand-ins ----------------------------------------------------------------------------

class Standin:
    """A stand-in server's answers: a sound one to what is not a chat request (a catalogue), and
    to each chat request a hostile reply of ``kind`` drawn from ``seed`` (of ``size`` letters, for
    a long one, when given); with ``first_sound``, the first chat request gets a sound answer
    (a warm-up the figures do not count)."""

    def __init__(self, provider: str, kind: str, seed: int, size: int = 0, first_sound: bool = False) -> None:
        self.provider, self.kind, self.size, self.first_sound = provider, kind, size, first_sound
        self.rng = random.Random(f"{seed}:hostile:replies:{provider}:{kind}")
        self.model, self.chats = Model(provider), 0
        self.made: dict[bool, bytes] = {}  # the 50 MB body (chunked or not), made once

    def __call__(self, request: dict) -> tuple[int, Any, dict | None]:
        if not request["path"].endswith(CHAT_PATHS[self.provider]):
            return self.model(request)
        self.chats += 1
        if self.first_sound and self.chats == 1:
            return 200, WIRE[self.provider][0](SOUND, 10, 10), None
        return getattr(self, self.kind)()

    def long(self) -> tuple[int, Any, dict | None]:
        length = self.size or self.rng.choice(LENGTHS)
        form = "letters" if self.size else self.rng.choice(("letters", "a://", "no spaces"))
        text = {"letters": lambda: "a" * length, "a://": lambda: "a://" * (length // 4),
                "no spaces": lambda: "".join(self.rng.choices(NO_SPACES, k=length))}[form]()
        return 200, WIRE[self.provider][0](text, 10, length // 4), None

    def deep(self) -> tuple[int, Any, dict | None]:
        depth = self.rng.randint(2_000, 200_000)
        opening, closing = self.rng.choice([("[", "]"), ('{"a":', "}"), ('{"choices":[', "]}")])
        return self.rng.choice((200, 400)), opening * depth + "1" + closing * depth, None

    def huge(self) -> tuple[int, Any, dict | None]:
        chunked = self.first_sound or self.rng.random() < 0.5  # the figures: chunked, the length unsaid
        if chunked not in self.made:  # words, not one run of letters: the old redact read those in linear time
            text = "x " * (HUGE_BYTES // 2)
            self.made[chunked] = json.dumps(WIRE[self.provider][0](text, 10, HUGE_BYTES // 4)).encode()
        return 200, self.made[chunked], {"_chunked": True} if chunked else None

    def binary(self) -> tuple[int, Any, dict | None]:
        return self.rng.choice((200, 400)), self.rng.randbytes(self.rng.randint(1, 1 << 20)), None


@contextlib.contextmanager
def serving(provider: str, kind: str, seed: int, size: int = 0, first_sound: bool = False) -> Iterator[str]:
    """A Standin in a process of its own, for as long as the block runs: its URL."""
    proc = subprocess.Popen([sys.executable, __file__, "serve", provider, kind, str(seed), str(size),
                             str(int(first_sound))], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        yield proc.stdout.readline().decode().strip()
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=HANG_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def serve(provider: str, kind: str, seed: int, size: int, first_sound: bool) -> None:
    """Serve a Standin until stdin closes, its URL the first line written."""
    stub = Stub(Standin(provider, kind, seed, size, first_sound))
    print(stub.url, flush=True)
    sys.stdin.read()
    stub.close()


# --- the ways in --------------------------------------------------------------------------------

def agent_for(provider: str, url: str, timeout_s: float = TIMEOUT_S) -> Any:
    from labyrinth.agents.llm.config import ProviderSettings
    from labyrinth.agents.llm.llm_agent import LLMAgent
    from labyrinth.agents.registry import make_transport

    settings = ProviderSettings(provider, f"test-{provider}-model", url, api_key="k", timeout_s=timeout_s)
    return LLMAgent("minotaur", make_transport(settings), 1)


def way(kind: str, seed: int, memory: dict[str, float],
        out_of_time: Callable[[Tally], bool] = lambda tally: False) -> Callable[[Tally], None]:
    """The way in of ``kind``'s replies, its peak RSS growth (MB) put in ``memory``; it stops where
    it is once ``out_of_time``."""
    def body(tally: Tally) -> None:
        from labyrinth.agents.match.runner import Match
        from labyrinth.agents.registry import make_agent

        warm_up()
        before = peak_from_now()
        for provider in PROVIDERS:
            with serving(provider, kind, seed) as url:
                for number in range(MATCHES):
                    if out_of_time(tally):
                        break
                    agent = agent_for(provider, url)
                    label = f"{provider}, match {number + 1}"
                    match = Match(make_agent("user", "builtin", seed), agent, seed=seed, preset="tiny",
                                  max_turns=TURNS)
                    watched(tally, f"{label}: plan and turns", 1 + TURNS, match.play)
                    caught = match.stats["minotaur"].exceptions
                    if caught:
                        tally.fail("crashes", f"{label}: a turn", f"{caught} exceptions, caught by the turn loop")
                    watched(tally, f"{label}: lesson", 1, lambda agent=agent: agent.lesson("You lost."))
        memory[kind] = max(0.0, peak_mb() - before)
        if memory[kind] > FLAT_MB:
            tally.fail("wrong", kind, f"the peak RSS grew by {memory[kind]:.0f} MB")
    return body


def warm_up() -> None:
    """A sound match and lesson through each SDK, so that what their first calls load (modules,
    certificates) is not counted as a way's memory."""
    from labyrinth.agents.match.runner import Match
    from labyrinth.agents.registry import make_agent

    for provider in PROVIDERS:
        stub = Stub(Model(provider))
        try:
            agent = agent_for(provider, stub.url)
            Match(make_agent("user", "builtin", 1), agent, seed=1, preset="tiny", max_turns=TURNS).play()
            agent.lesson("You won.")
        finally:
            stub.close()


def watched(tally: Tally, label: str, calls: int, run: Callable[[], Any]) -> None:
    """``run()`` (``calls`` calls) under the watchdog: what escapes is a crash, no end a hang."""
    for _ in range(calls):
        tally.count()
    try:
        with Watchdog(HANG_S * calls):
            run()
    except Hang:
        tally.fail("hangs", label, f"no end after {HANG_S * calls:g} s")
    except Exception as exc:  # noqa: BLE001 - the point of the harness: whatever escapes is counted
        tally.fail("crashes", label, f"{type(exc).__name__}: {exc}")


def peak_from_now() -> float:
    """This process's RSS now (MB), from which its peak is measured afresh (Linux: clear_refs resets
    the high-water mark, which otherwise holds whatever the process did before)."""
    Path("/proc/self/clear_refs").write_text("5")
    return _status_mb("VmRSS")


def peak_mb() -> float:
    """This process's peak RSS (MB) since ``peak_from_now()``."""
    return _status_mb("VmHWM")


def _status_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024  # kB
    raise LookupError(field)


# --- the figures ------------------------------------------------------------------------------------

FIGURES = [*((f"redact, {n:,} letters", "redact", "-", n) for n in LENGTHS),
           *((f"a turn (ollama), {n:,} letters", "turn", "ollama", n) for n in LENGTHS),
           *((f"a turn ({p}), {LENGTHS[-1]:,} letters", "turn", p, LENGTHS[-1]) for p in PROVIDERS if p != "ollama"),
           *((f"a turn ({p}), 50 MB in chunks", "huge", p, HUGE_BYTES) for p in PROVIDERS)]


def figure(what: str, provider: str, size: int) -> dict[str, Any]:
    """One figure, in this process (``main`` runs each in a fresh one): CPU seconds, and for a huge
    reply the peak RSS growth; what the turn came to."""
    from labyrinth.agents.llm.providers.secrets import redact

    if what == "redact":
        text = "a" * size
        with cpu_budget(BUDGET_S[what]):
            return {"cpu_s": per_call(lambda: redact(text))}
    from labyrinth.agents.wsap.adapters import make_adapter

    with serving(provider, "long" if what == "turn" else "huge", 0, size, first_sound=True) as url:
        agent = agent_for(provider, url, timeout_s=600.0)  # the CPU budget stops it, not the timeout
        adapter = make_adapter("minotaur", seed=1, preset="tiny")
        observation = adapter.reset()
        agent.initialize(adapter.game_description, adapter.action_space)
        agent.decide(observation)  # the warm-up: the SDK's lazy imports, the connection
        before = peak_from_now()
        with cpu_budget(BUDGET_S[what]):  # one turn: five failed turns in a row and the model is replaced
            began = time.process_time()
            agent.decide(observation)
            spent = time.process_time() - began
    return {"cpu_s": spent, "peak_mb": max(0.0, peak_mb() - before),
            "failure": str(agent.failure or "").replace(url, "...")}


def per_call(call: Callable[[], Any]) -> float:
    """The CPU seconds of one ``call()``, from as many calls as use MEASURED_S (the first may alone)."""
    calls, began = 0, time.process_time()
    while not calls or time.process_time() - began < MEASURED_S:
        call()
        calls += 1
    return (time.process_time() - began) / calls


@contextlib.contextmanager
def cpu_budget(seconds: float) -> Iterator[None]:
    """The kernel stops this process (SIGXCPU) once the block has used ``seconds`` of CPU: a scan
    that holds the GIL in C cannot be stopped from inside."""
    used = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(resource.RLIMIT_CPU, (math.ceil(used + seconds), hard))
    yield


def measure(python: str, what: str, provider: str, size: int) -> dict[str, Any] | None:
    """The figure taken by ``python`` in a fresh process; None if its CPU budget ran out."""
    done = subprocess.run([python, __file__, "figure", what, provider, str(size)], capture_output=True,
                          timeout=BUDGET_S[what] * 4 + 60, check=False)
    if done.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return None
    if done.returncode:
        raise RuntimeError(f"{what} {provider} {size}: {done.stderr.decode(errors='replace').strip()[-400:]}")
    return json.loads(done.stdout.splitlines()[-1])


def figures_table(before: str | None) -> str:
    """Each figure now, and before the fix when ``before`` is given."""
    head = ["figure", *(["before"] if before else []), "now", "the turn came to (now)"]
    rows = []
    for label, what, provider, size in FIGURES:
        taken = [measure(python, what, provider, size) for python in ([before] if before else []) + [sys.executable]]
        shown = [_shown(what, found) for found in taken]
        rows.append([label, *shown, (taken[-1] or {}).get("failure", "")[:80]])
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["Hostile replies, what one costs (CPU milliseconds a call; for 50 MB, the peak RSS growth too):"]
    lines += ["  ".join(c.ljust(w) if i in (0, len(head) - 1) else c.rjust(w) for i, (c, w) in
                        enumerate(zip(r, widths, strict=True))) for r in [head, *rows]]
    return "\n".join(lines)


def _shown(what: str, found: dict[str, Any] | None) -> str:
    if found is None:
        return f"> {BUDGET_S[what] * 1000:,} (stopped)"
    ms = found["cpu_s"] * 1000
    cpu = f"{ms:,.0f}" if ms >= 10 else f"{ms:.2g}"
    return f"{cpu}, +{found['peak_mb']:.0f} MB" if what == "huge" else cpu


def main() -> int:
    if sys.argv[1:2] == ["serve"]:
        provider, kind, seed, size, first = sys.argv[2:7]
        serve(provider, kind, int(seed), int(size), first == "1")
        return 0
    if sys.argv[1:2] == ["figure"]:
        what, provider, size = sys.argv[2:5]
        print(json.dumps(figure(what, provider, int(size))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="what every reply is drawn from (default: 1)")
    parser.add_argument("--figures", action="store_true", help="also what one hostile reply costs (some 30 s)")
    parser.add_argument("--before", help="the Python of a checkout before the fix: its figures beside these "
                                         "(implies --figures)")
    args = parser.parse_args()
    memory: dict[str, float] = {}
    for kind in KINDS:
        tally = Tally(f"reply: {kind}")
        began = time.monotonic()
        way(kind, args.seed, memory)(tally)
        print(f"{tally.way}: {tally.tried} calls, {tally.crashes} crashes, {tally.hangs} hangs, peak RSS "
              f"+{memory[kind]:.0f} MB, {time.monotonic() - began:.1f} s", *tally.failures, sep="\n  ")
    if args.figures or args.before:
        print(figures_table(args.before))
    return 0


if __name__ == "__main__":
    sys.exit(main())

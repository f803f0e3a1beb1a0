"""The LLM agents' figures, against local stub servers (no model, no internet):
the prompt sizes of a 400-turn match per role (characters, our estimate and,
when `mistral-common` is installed, Mistral's own tokenizer), and what each SDK
adds to a call (the stub answers at once, so this is the client's overhead).

    .venv/bin/pip install -q -e '.[bench]' && .venv/bin/python bench/llm/llm_bench.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the root, for tests.stubs, the stub servers
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py's rows

from figures import report, row

from labyrinth.agents.llm.config import ProviderSettings
from labyrinth.agents.llm.llm_agent import CONTEXT_TOKENS, REPLY_TOKENS
from labyrinth.agents.llm.providers.base import SCHEMAS, estimate_tokens
from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent, make_transport
from labyrinth.saves.results_terms import ROLES
from tests.stubs import Model, Stub

SEED, TURNS, CALLS = 11, 400, 200
BASE_PATHS = {"openai": "/v1"}  # OpenAI's base URL holds its /v1 (tests.stubs.CHAT_PATHS); the others' are the host


def biggest_prompts(url: str) -> None:
    """Play 400 turns with the model on one side (it never catches or is caught) and keep the biggest request."""
    providers = {"ollama": ProviderSettings("ollama", "qwen3:8b", url, timeout_s=10)}
    budget = CONTEXT_TOKENS - REPLY_TOKENS
    for role in ROLES:
        user = make_agent("user", "ollama" if role == "user" else "random", SEED, providers)
        minotaur = make_agent("minotaur", "ollama" if role == "minotaur" else "wait", SEED, providers)
        match = Match(user, minotaur, seed=SEED, preset="standard", max_turns=TURNS)
        agent = user if role == "user" else minotaur
        agent.transport = sent = Recording(agent.transport)
        estimates, biggest = [], ("", [])
        while match.outcome is None:
            match.play_turn()
            estimates.append(agent.last_exchange["prompt_tokens_estimate"])
            if estimates[-1] == max(estimates):
                biggest = sent.last
        report(f"{role}: biggest request (estimate)", max(estimates), "tokens", target=("<", budget + 1),
               note=f"mean {statistics.mean(estimates):,.0f}; system alone {estimate_tokens(agent.system):,}")
        chars = len(biggest[0]) + sum(len(text) for _, text in biggest[1])
        row(f"{role}: biggest request", f"{chars:,} chars")
        real = _tekken(*biggest)
        if real is not None:
            report(f"{role}: biggest request (Mistral tekken)", real, "tokens", target=("<", budget + 1),
                   note=f"{chars / real:.2f} characters a token")


class Recording:
    """A transport that keeps the last request it passed on, exactly as sent."""

    def __init__(self, inner) -> None:
        self.inner, self.name, self.last = inner, inner.name, ("", [])

    def complete(self, system, turns, schema):
        self.last = (system, list(turns))
        return self.inner.complete(system, turns, schema)


def sdk_overhead() -> None:
    """Milliseconds per call through each real SDK against a stub that answers at once."""
    for provider in ("gemini", "mistral", "ollama", "openai"):
        stub = Stub(Model(provider))
        try:
            url = stub.url + BASE_PATHS.get(provider, "")
            transport = make_transport(ProviderSettings(provider, "m", url, api_key="bench", timeout_s=10))
            turns = [("user", "Step 1\n\nWhat action do you take?")]
            times = []
            for _ in range(CALLS):
                began = time.perf_counter()
                transport.complete("You are the Minotaur.", turns, SCHEMAS["minotaur"])
                times.append((time.perf_counter() - began) * 1000)
            report(f"{provider}: SDK call to a local stub", statistics.median(times), "ms", fmt=".2f",
                   note=f"p95 {statistics.quantiles(times, n=20)[-1]:.2f} ms over {CALLS} calls")
        finally:
            stub.close()


def _tekken(system: str, turns: list[tuple[str, str]]) -> int | None:
    """The request's tokens by Mistral's tokenizer (mistral-common), when it is installed."""
    try:
        from mistral_common.protocol.instruct.messages import (
            AssistantMessage,
            SystemMessage,
            UserMessage,
        )
        from mistral_common.protocol.instruct.request import ChatCompletionRequest
        from mistral_common.tokens.tokenizers.mistral import MistralTokenizer
    except ImportError:
        row("(mistral-common not installed: no real token count)", "")
        return None
    kinds = {"user": UserMessage, "assistant": AssistantMessage}
    messages = [SystemMessage(content=system), *(kinds[role](content=text) for role, text in turns)]
    request = ChatCompletionRequest(messages=messages)
    return len(MistralTokenizer.v3(is_tekken=True).encode_chat_completion(request).tokens)


def main() -> None:
    row("figure", "value", "target", "", "")
    stub = Stub(Model("ollama", minotaur_action="WAIT"))
    try:
        biggest_prompts(stub.url)
    finally:
        stub.close()
    sdk_overhead()


if __name__ == "__main__":
    main()

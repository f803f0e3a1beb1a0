"""Ollama (the WSAP reference backend, qwen3:8b by default) through the `ollama` SDK.

The SDK waits forever unless given a timeout and never retries: both are done
here, and an httpx hook keeps Retry-After, which the SDK's ResponseError drops.
A key (OLLAMA_API_KEY, for a hosted Ollama) is sent only when there is one.
Structured output goes in `format`; `think` is off (Qwen3 would write a
<think> block first, which the agent's reply parser drops if it comes anyway).
"""

from __future__ import annotations

from dataclasses import replace

from ..config import ProviderSettings
from .base import CONTEXT_TOKENS, REPLY_TOKENS, Reply, ResponseSchema
from .retry import Failure, http_failure, retry_after_s, transport_failure, with_retries

OPTIONS = {"num_predict": REPLY_TOKENS, "temperature": 0.7, "top_p": 0.9, "repeat_penalty": 1.1,
           "num_ctx": CONTEXT_TOKENS}  # set, so that a server configured otherwise cannot cut prompts


class OllamaTransport:
    def __init__(self, settings: ProviderSettings) -> None:
        # imported here: `import agents` works without the SDK
        from ollama import Client

        self.settings, self.where, self.timeout_s = settings, settings.endpoint, settings.timeout_s
        self.name = f"ollama/{settings.model}"
        self.retry_after_s: float | None = None  # from the last answer's headers, which ResponseError drops
        key = settings.api_key.reveal() if settings.api_key else None
        self.client = Client(host=self.where, timeout=settings.timeout_s,
                             headers={"authorization": f"Bearer {key}"} if key else None,
                             event_hooks={"response": [self._keep_retry_after]})

    def complete(self, system: str, turns: list[tuple[str, str]], schema: ResponseSchema) -> Reply:
        messages = [{"role": "system", "content": system}, *({"role": r, "content": t} for r, t in turns)]

        def call() -> Reply:
            r = self.client.chat(model=self.settings.model, messages=messages, format=schema.json,
                                 options=OPTIONS, think=False)
            return Reply(r.message.content or "", r.prompt_eval_count, r.eval_count, r.done_reason)

        return with_retries(call, self._classify)

    def _classify(self, exc: Exception) -> Failure | None:
        from ollama import ResponseError

        if isinstance(exc, ResponseError):
            failure = http_failure("ollama", exc.status_code, str(exc.error))
            return replace(failure, retry_after_s=self.retry_after_s)
        return transport_failure("ollama", exc, self.timeout_s, self.where)

    def _keep_retry_after(self, response) -> None:
        self.retry_after_s = retry_after_s(response.headers)

    def check(self) -> str:
        """A cheap call for `labyrinth doctor`: the models the server has (no tokens spent)."""
        names = [m.model for m in with_retries(self.client.list, self._classify, retries=0).models]
        have = "present" if _tagged(self.settings.model) in map(_tagged, names) else \
            "NOT pulled (ollama pull " + self.settings.model + ")"
        return f"{len(names)} models; {self.settings.model} {have}"


def _tagged(model: str) -> str:
    """A model's full name: Ollama serves "qwen3" as "qwen3:latest"."""
    return model if ":" in model.rpartition("/")[2] else f"{model}:latest"

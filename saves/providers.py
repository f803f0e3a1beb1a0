"""The LLM providers, one row each: the one place a provider is described. Everything else
that names providers is derived from it: the config file's tables (saves/config.py), the
settings and their environment variables (agents/llm/config.py), the transports
(agents/registry.py), the command line's options, `labyrinth doctor`'s report and the
tests' lists.

It lives here, in saves/, because the config file is the lowest layer that must know the
providers (one table each, and a contestant's ``provider``), and every layer above may
import saves. It is data only, strings and tuples: a row names its transport and SDK by
module path, never imports them, so reading the table loads neither agents/ nor any SDK
(tests/test_imports.py); agents/registry.py imports a transport when one is made.

A row holds names and defaults, never a key: keys are read into a Secret by
agents/llm/config.py."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

KeyNeed = Literal["always", "never", "at the default endpoint"]  # when a call needs a key


@dataclass(frozen=True)
class Provider:
    """One provider: what the layers above need to read its settings, make its transport and report on it."""

    name: str  # its config table, its --NAME-model/--NAME-url options, the first half of "NAME/model"
    transport: str  # "module:Class", imported only when a transport is made (agents/registry.py)
    sdk: str  # the module its transport imports: what doctor finds, and no front loads before use
    distribution: str  # the SDK's package, whose version doctor prints
    model: str  # the model used when none is set
    url: str  # the endpoint used when none is set
    key_variables: tuple[str, ...]  # the environment variables its key is read from, the first set winning
    url_variable: str  # the environment variable of its endpoint
    needs_key: KeyNeed = "always"
    host_forms: bool = False  # its URL may be a bare host, "host:port" or ":port" (OLLAMA_HOST's forms)
    sdk_variables: tuple[str, ...] = ()  # what its SDK reads from the environment on its own (tests clear them)

    @property
    def model_variable(self) -> str:
        """The environment variable of its model."""
        return f"LABYRINTH_{self.name.upper()}_MODEL"

    @property
    def variables(self) -> tuple[str, ...]:
        """Every environment variable that changes how it is called: a developer's never reach a test."""
        return (*self.key_variables, self.url_variable, self.model_variable, *self.sdk_variables)

    def keyless(self, endpoint: str) -> bool:
        """Whether a call to ``endpoint`` may go without a key, as ``needs_key`` says: never needed (a
        local Ollama), or needed only at the default endpoint (OpenAI's: an OpenAI-compatible server of
        one's own, such as vLLM, llama.cpp or LM Studio, takes none)."""
        return self.needs_key == "never" or (self.needs_key == "at the default endpoint" and endpoint != self.url)


_ROWS = (
    Provider("gemini", "labyrinth.agents.llm.providers.gemini:GeminiTransport", "google.genai", "google-genai",
             "gemini-2.5-flash", "https://generativelanguage.googleapis.com", ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
             "GOOGLE_GEMINI_BASE_URL", sdk_variables=("GOOGLE_GENAI_HTTP_CLIENT",)),
    Provider("mistral", "labyrinth.agents.llm.providers.mistral:MistralTransport", "mistralai.client", "mistralai",
             "mistral-small-latest", "https://api.mistral.ai", ("MISTRAL_API_KEY",), "MISTRAL_BASE_URL"),
    # Ollama needs no key; a hosted one may
    Provider("ollama", "labyrinth.agents.llm.providers.ollama:OllamaTransport", "ollama", "ollama",
             "qwen3:8b", "http://127.0.0.1:11434", ("OLLAMA_API_KEY",), "OLLAMA_HOST", needs_key="never",
             host_forms=True),
    # gpt-4o-mini is cheap and fast, takes strict json_schema output, and spends no hidden reasoning
    # tokens out of a reply's budget (the o-series and gpt-5 models do, and refuse temperature)
    Provider("openai", "labyrinth.agents.llm.providers.openai:OpenAITransport", "openai", "openai",
             "gpt-4o-mini", "https://api.openai.com/v1", ("OPENAI_API_KEY",), "OPENAI_BASE_URL",
             needs_key="at the default endpoint", sdk_variables=("OPENAI_ORG_ID", "OPENAI_PROJECT_ID")),
)
PROVIDERS: Mapping[str, Provider] = {row.name: row for row in _ROWS}  # by name, in the order they are offered

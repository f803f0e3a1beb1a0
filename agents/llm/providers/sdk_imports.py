"""The SDKs and their HTTP stack, imported one at a time, and before any match starts.

Python locks each module while it loads, not imports as a whole: two threads importing modules
that import one another (an SDK, httpx, anyio, pydantic, ...) can each be handed a module the
other has only half loaded (Python's way out of a deadlock), and the first name read from it
fails ("AttributeError: partially initialized module 'ollama' has no attribute 'Client'"). The
mistralai SDK also loads most of its parts on first use, in whichever thread uses them. Matches
that start together met this on their first calls (5 runs in 10 of tests/agents/llm/first_calls.py),
an error that, raised while an answer was read, passed for the endpoint's. So:

- every import of an SDK, its HTTP library and what a transport's classify needs goes through
  ``imported``, under the process's one lock (each transport's module has a ``load_sdk`` that
  does, which its transport calls when made);
- registry.load_providers calls it for every provider of a run's contestants on the
  coordinating thread, before the arena or the tournament starts a match: the matches' threads
  then import nothing.

A module that imports no SDK itself, so that `import labyrinth.agents` and the games without a
model load none (tests/test_imports.py).
"""

from __future__ import annotations

import threading
from importlib import import_module
from types import ModuleType

IMPORT_LOCK = threading.RLock()  # re-entrant: a transport's load_sdk loads the HTTP stack within its own


def imported(*names: str) -> ModuleType:
    """The modules ``names`` imported, once and under IMPORT_LOCK; the first of them."""
    with IMPORT_LOCK:
        modules = [import_module(name) for name in names]
    return modules[0]

"""The numbers a provider's settings take as their defaults, apart from the machinery they govern
(base.py's calls, retry.py's waits): config.py reads them, and so a command that only resolves its
settings (the title screen, `play` against the built-in Minotaur) starts without loading that
machinery (issue 41: the first frame)."""

CONTEXT_TOKENS = 4096  # the smallest context a model is given (Ollama's default num_ctx)
REPLY_TOKENS = 300  # the most a reply may take: an action and a sentence of reasoning
# the longest quota wait a game with a person holds a call: a per-minute quota's window and a margin
QUOTA_WAIT_S = 65.0

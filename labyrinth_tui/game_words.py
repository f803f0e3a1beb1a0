"""The game's words for what files, tables and agents name in the code's terms: how a game ended (the
engine's ESCAPED, DEATH and TIMEOUT) and who played (the rule agents' builtin, random and wait), so
that no screen or title shows a player the code's words. Names that come from a file are the
callers' to make printable."""

from __future__ import annotations

from labyrinth.saves.games import PLAYER
from labyrinth.saves.results_terms import ROLE_WORDS

ENDED = {"ESCAPED": "escaped", "DEATH": "caught", "TIMEOUT": "out of turns"}  # what became of the user
SIDE_ENDED = {  # what each role did, in a sentence
    "user": {"ESCAPED": "escaped", "DEATH": "got caught", "TIMEOUT": "ran out of turns"},
    "minotaur": {"ESCAPED": "let the user escape", "DEATH": "caught the user", "TIMEOUT": "ran out of turns"},
}
RULE_AGENTS = {"builtin": "built-in", "random": "random", "wait": "waiting"}


def ended(outcome: str) -> str:
    """What became of the user ('escaped', 'caught', 'out of turns'); an outcome this build does not
    know, as it is written, in lower case."""
    return ENDED.get(outcome, outcome.lower())


def side_ended(role: str, outcome: str) -> str:
    """What ``role`` did as the game ended: 'got caught', 'caught the user', 'let the user escape'."""
    return SIDE_ENDED.get(role, {}).get(outcome, ended(outcome))


def agent_name(name: str) -> str:
    """An agent as a table's cell names it: 'built-in', 'random', 'waiting', 'you', a model's own name."""
    return RULE_AGENTS.get(name, name)


def agent_words(name: str, role: str) -> str:
    """Who played ``role``, as a sentence names it: 'you', 'the built-in Minotaur', 'the random user',
    'gemini/gemini-2.5-flash as the Minotaur'."""
    if name == PLAYER:
        return PLAYER
    if name in RULE_AGENTS:
        return f"the {RULE_AGENTS[name]} {ROLE_WORDS.get(role, role)}"
    return f"{name} as the {ROLE_WORDS.get(role, role)}"


def matchup(user: str, minotaur: str) -> str:
    """Who played whom: 'you vs the built-in Minotaur'."""
    return f"{agent_words(user, 'user')} vs {agent_words(minotaur, 'minotaur')}"

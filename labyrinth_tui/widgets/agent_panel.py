"""The agent panel (spectating): each side's plan, last decision and reasoning,
and how its answers are going (fallbacks; for a model, tokens and latency). A model's
words (plans, reasoning, lessons, its name from the config) are shown as words: ``printable``."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.widgets import Static

from labyrinth.agents.match.side import Side

from ..game_words import agent_words
from ..terminal_text import printable

LESSON_CHARS = 120  # of each lesson: the whole text is in `labyrinth memory`


def action_words(name: str, parameters: Mapping[str, object]) -> str:
    """An action as a player reads it: 'move south 8', 'move east run', 'grab red stone',
    'pathfind to (200, 206) level 99'; a parameter this panel does not know, as 'name value'."""
    words = [name.lower()]
    for key, value in parameters.items():
        if isinstance(value, Mapping) and {"x", "y", "z"} <= value.keys():
            words.append(f"to ({value['x']}, {value['y']}) level {value['z']}")
        elif key == "speed":
            words += ["run"] if value == 2 else []
        elif key in ("direction", "steps", "target") and value is not None:
            words.append(str(value).lower())
        elif value is not None:
            words.append(f"{key} {value}")
    return " ".join(words)


class AgentPanel(Static):
    thinking = False  # a turn is being asked of the agents right now

    def show(self, sides: Mapping[str, Side], plans: Mapping[str, list[str]], lessons: Mapping[str, str],
             waits: Mapping[str, str] | None = None) -> None:
        """``lessons``: each role's learning injection, the text its agent was given (each
        lesson shortened to fit; `labyrinth memory show` has them whole); ``waits``: what a role's
        model is waiting out while it thinks ("Gemini is rate-limited: waiting 47 s")."""
        text = Text()
        for role, side in sides.items():
            text.append(printable(agent_words(side.agent.name, role)), style="bold")
            waiting = (waits or {}).get(role) if self.thinking else None
            if waiting:
                text.append(f" {printable(waiting)}\n", style="italic bold")
            else:
                text.append(" thinking...\n" if self.thinking and side.agent.blocking else "\n", style="italic")
            action = side.last_action
            if action is None or side.agent.blocking:  # a model's own plan stays; a rule agent's goals do not
                text.append("plan: " + "; ".join(map(printable, plans.get(role, []))) + "\n", style="dim")
            if action is not None:
                text.append(printable(action_words(action.name, action.parameters)) + "\n")
                if action.reasoning:
                    text.append(printable(action.reasoning, newlines=True) + "\n", style="italic dim")
            learned = [line for line in lessons.get(role, "").splitlines() if line.startswith("- ")]
            if learned:
                text.append(f"lessons from {len(learned)} earlier games:\n", style="dim")
                for line in learned:
                    text.append(f"{printable(line[:LESSON_CHARS])}{'...' if len(line) > LESSON_CHARS else ''}\n",
                                style="dim italic")
            stats = side.stats
            text.append(f"fallbacks {stats.fallbacks}, errors {stats.errors}", style="dim")
            if side.agent.blocking and stats.decisions:
                mean_s = stats.answer_s / stats.answered if stats.answered else 0.0  # its answered calls' time
                text.append(f"\ninvalid {stats.invalid}, provider errors {stats.provider_errors}, "
                            f"timeouts {stats.timeouts}, tokens {stats.tokens_in:,}/{stats.tokens_out:,}, "
                            f"{mean_s:.1f} s an answer", style="dim")
            text.append("\n\n")
        self.update(text)

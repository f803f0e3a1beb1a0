"""The agent panel (spectating): each side's plan, last decision and reasoning,
and how its answers are going (fallbacks; for a model, tokens and latency)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from agents.side import Side


class AgentPanel(Static):
    thinking = False  # a turn is being asked of the agents right now

    def show(self, sides: dict[str, Side], plans: dict[str, list[str]]) -> None:
        text = Text()
        for role, side in sides.items():
            text.append(f"{role} ({side.agent.name})", style="bold")
            text.append(" thinking...\n" if self.thinking and side.agent.blocking else "\n", style="italic")
            action = side.last_action
            if action is None or side.agent.blocking:  # a model's own plan stays; a rule agent's goals do not
                text.append("plan: " + "; ".join(plans.get(role, [])) + "\n", style="dim")
            if action is not None:
                params = " ".join(f"{k}={v}" for k, v in action.parameters.items())
                text.append(f"{action.name} {params}\n")
                if action.reasoning:
                    text.append(f"{action.reasoning}\n", style="italic dim")
            stats = side.stats
            text.append(f"fallbacks {stats.fallbacks}, errors {stats.errors}", style="dim")
            if side.agent.blocking and stats.decisions:
                text.append(f"\ninvalid {stats.invalid}, provider errors {stats.provider_errors}, "
                            f"tokens {stats.tokens_in:,}/{stats.tokens_out:,}, "
                            f"{stats.think_s / stats.decisions:.1f} s a call", style="dim")
            text.append("\n\n")
        self.update(text)

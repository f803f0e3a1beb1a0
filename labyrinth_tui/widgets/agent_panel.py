"""The agent panel (spectating): each side's last decision and its reasoning."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from agents.side import Side


class AgentPanel(Static):
    def show(self, sides: dict[str, Side], plans: dict[str, list[str]]) -> None:
        text = Text()
        for role, side in sides.items():
            text.append(f"{role} ({side.agent.name})\n", style="bold")
            action = side.last_action
            if action is None:
                text.append("plan: " + "; ".join(plans.get(role, [])) + "\n", style="dim")
            else:
                params = " ".join(f"{k}={v}" for k, v in action.parameters.items())
                text.append(f"{action.name} {params}\n")
                if action.reasoning:
                    text.append(f"{action.reasoning}\n", style="italic dim")
            stats = side.stats
            text.append(f"fallbacks {stats.fallbacks}, errors {stats.errors}\n\n", style="dim")
        self.update(text)

"""The status bar: stamina, the game clock, the three stones, the lantern."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from labyrinth.engine import GameStateResponse

from .cue_panel import _clock

STONE_STYLES = (("RED STONE", "red"), ("BLUE STONE", "dodger_blue1"), ("YELLOW STONE", "yellow"))
BAR = 10


class StatusBar(Static):
    def show(self, response: GameStateResponse) -> None:
        state = response.user_state
        filled = round(state.stamina_pct * BAR)
        text = Text("stamina ")
        text.append("█" * filled, style="green" if state.stamina_pct > 0.3 else "red")
        text.append("░" * (BAR - filled), style="grey37")
        text.append(f" {state.stamina_pct:.0%}   time {_clock(response.environment.game_time)}   stones ")
        for name, colour in STONE_STYLES:
            held = name in state.inventory
            text.append(name[0] if held else "·", style=f"bold {colour}" if held else "grey42")
        text.append("   lantern ")
        if "LANTERN" in state.inventory:
            text.append("held", style="bold orange1")
        elif state.lantern_cooldown:
            text.append(f"new one in {_clock(state.lantern_cooldown)}", style="dim")
        else:
            text.append("somewhere", style="dim")
        text.append(f"   level {state.position.z}")
        self.update(text)

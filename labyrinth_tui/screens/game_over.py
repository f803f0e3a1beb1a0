"""Game over: the outcome, the run in figures, and where to go next."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..session import PlaySession

HEADLINES = {"ESCAPED": "You escaped the labyrinth!", "DEATH": "The Minotaur caught you."}


class GameOverScreen(ModalScreen[str]):
    BINDINGS = [Binding("n", "choose('new')", "new game", id="over-new"),
                Binding("t", "choose('title')", "title", id="over-title"),
                Binding("q", "choose('quit')", "quit", id="over-quit")]

    def __init__(self, session: PlaySession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        s, f = self.session, self.session.figures
        outcome = s.game.state.outcome or "TIMEOUT"
        env, user = s.response.environment, s.response.user_state
        stones = sum("STONE" in item for item in user.inventory)
        with Vertical(id="over", classes=outcome.lower()):
            yield Static(HEADLINES.get(outcome, outcome), id="headline")
            yield Static(
                f"time {env.game_time:g} s   turns {f.turns}   walked {f.walked} steps\n"
                f"stones {stones}/3   jumps seen {f.jumps_seen}   lanterns used {f.lanterns_used}\n"
                f"{s.preset}, seed {s.seed}, {s.difficulty}", id="figures")
            with Horizontal(id="over-buttons"):
                yield Button("New game", id="new", variant="primary")
                yield Button("Title", id="title")
                yield Button("Quit", id="quit", variant="error")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_choose(event.button.id)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

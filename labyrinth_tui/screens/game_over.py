"""Game over: the outcome, the run in figures, and where to go next."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from saves.experience import Reflection

from ..background import run_in_background
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
            if s.log is not None:
                yield Static(Text("Writing down what was learned...", style="italic"), id="lessons")
            with Horizontal(id="over-buttons"):
                yield Button("New game", id="new", variant="primary")
                yield Button("Title", id="title")
                yield Button("Quit", id="quit", variant="error")

    def on_mount(self) -> None:
        if self.session.log is not None:  # a model Minotaur is asked for its own words: off the UI thread
            run_in_background(self.app, self.session.remember, self._show_lessons)

    def _show_lessons(self, reflections: list[Reflection] | None, error: BaseException | None) -> None:
        if not self.is_attached:
            return
        text = Text()
        if error is not None:
            text.append(f"The lessons could not be written: {error}", style="bold red")
        for r in reflections or []:
            text.append(f"{'You' if r.role == 'user' else 'The Minotaur'} learned: ", style="bold")
            text.append(f"{r.key_reflection}\n")
        self.query_one("#lessons", Static).update(text)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_choose(event.button.id)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

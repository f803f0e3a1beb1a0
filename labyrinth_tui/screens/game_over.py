"""Game over: the outcome, the run in figures, where to go next, and the game's story (a plain-text
summary, as a roguelike's morgue file) written next to its replay as the screen opens, as DCSS writes
a morgue every game; `s` says where it is."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from labyrinth.engine.items import STONES, stones_held
from labyrinth.saves.experience import Reflection
from labyrinth.saves.replays import read_replay, write_story

from ..background import run_in_background
from ..session import PlaySession
from ..story import story
from ..terminal_text import plain, printable
from ..widgets.footer import SteadyFooter

QUIET_S = 1.0  # keys come to the choices only after this long without typing: the rest of a
# command typed as the game ended is not a choice
HEADLINES = {"ESCAPED": "You escaped the labyrinth!", "DEATH": "The Minotaur caught you."}


class Choice(Button):
    """A button that Space presses too, as Enter does (Textual's buttons take Enter only)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("space", "press", "press", show=False)]


class GameOverScreen(ModalScreen[str]):
    """Every choice is a button (Enter, Space, a click) and a key (n, t, s, q), and the keys are shown:
    on the buttons and in the footer."""

    DEFAULT_CSS = """
    #over {
        width: 72;
        height: auto;
        border: heavy $accent;
        background: $surface;
        padding: 1 2;
    }

    #over.escaped {
        border: heavy $success;
    }

    #over.death {
        border: heavy $error;
    }

    #headline {
        text-style: bold;
        text-align: center;
        padding-bottom: 1;
    }

    #figures {
        text-align: center;
        padding-bottom: 1;
    }

    #lessons {
        padding-bottom: 1;
        color: $text-muted;
    }

    #over-buttons {
        height: auto;
        align: center middle;
    }

    #over-buttons Button {
        margin: 0 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('new')", "new game", id="over-new"),
        Binding("t", "choose('title')", "title", id="over-title"),
        Binding("s", "story", "story", id="over-story"),
        Binding("q", "app.quit", "quit", id="over-quit"),  # as ctrl+q: one footer entry
    ]

    def __init__(self, session: PlaySession, clock: Callable[[], float] = time.monotonic) -> None:
        """``clock`` measures the quiet moment; tests pass one they move by hand."""
        super().__init__()
        self.session = session
        self.clock = clock

    def compose(self) -> ComposeResult:
        s, f = self.session, self.session.figures
        outcome = s.game.state.outcome or "TIMEOUT"
        env, user = s.response.environment, s.response.user_state
        stones = stones_held(user.inventory)
        with Vertical(id="over", classes=outcome.lower()):
            yield Static(HEADLINES.get(outcome, outcome), id="headline")
            yield Static(plain(
                f"time {env.game_time:g} s   turns {f.turns}   walked {f.walked} step{'s' * (f.walked != 1)}\n"
                f"stones {stones}/{len(STONES)}   jumps seen {f.jumps_seen}   lanterns used {f.lanterns_used}\n"
                f"{s.preset}, seed {s.seed}, {s.difficulty}"), id="figures")
            if s.memory.log is not None:
                yield Static(id="lessons")
            with Horizontal(id="over-buttons"):
                yield Choice("New game (n)", id="new", variant="primary", disabled=True)
                yield Choice("Title (t)", id="title", disabled=True)
                yield Choice("Quit (q)", id="quit", variant="error", disabled=True)
                yield Choice("Story (s)", id="story", disabled=True)
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.ready, self.typed_at = False, self.clock()
        self.waiting = self.set_interval(QUIET_S / 5, self._get_ready)  # the buttons come alive without a key
        self.story: Path | str | None = None  # where the story was written, or why it was not; None while writing
        self._write_story()
        if self.session.memory.log is None:
            return
        match = self.session.match
        self._show_lessons(match.reflections, match.memory_error)  # remembered as the game ended
        if match.blocking and match.memory_error is None:  # its own words: a call to the model, off the UI thread
            run_in_background(self.app, match.refine, lambda found: self._show_lessons(found, None),
                              lambda error: self._show_lessons(None, error))

    def _show_lessons(self, reflections: list[Reflection] | None, error: BaseException | str | None) -> None:
        if not self.is_attached:
            return
        text = Text()
        if error is not None:
            text.append(f"The lessons could not be written: {printable(str(error))}\n", style="bold red")
        for r in reflections or []:
            text.append(f"{'You' if r.role == 'user' else 'The Minotaur'} learned: ", style="bold")
            text.append(f"{printable(r.key_reflection)}\n")
        self.query_one("#lessons", Static).update(text)

    def on_key(self, event: events.Key) -> None:
        if not self._get_ready():  # still typing: wait for a quiet moment
            self.typed_at = self.clock()
            event.stop()
            event.prevent_default()

    def _get_ready(self) -> bool:
        """Whether keys choose now: the first check after a quiet moment turns the buttons on."""
        if self.ready or self.clock() - self.typed_at < QUIET_S:
            return self.ready
        self.waiting.stop()
        self.ready = True
        for button in self.query(Button):
            button.disabled = False
        self.query_one("#new", Button).focus()
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button chooses what its key does: the buttons' ids are the choices (the story's saves it)."""
        event.stop()
        choice = event.button.id
        if choice == "story":
            self.action_story()
        elif choice is not None:  # each button here has one
            self.action_choose(choice)

    def _write_story(self) -> None:
        """Write the game's story next to its replay, off the UI thread (the replay is played back)."""
        self.story, path = None, self.session.recording.path
        if path is None:  # nothing was recorded
            self.story = "the game left no replay to tell it from"
            return
        run_in_background(self.app, lambda: write_story(path, story(read_replay(path))), self._story_written,
                          self._story_failed)

    def _story_written(self, path: Path) -> None:
        self.story = path

    def _story_failed(self, error: BaseException) -> None:
        self.story = str(error)

    def action_story(self) -> None:
        """Say where the story is (or why it is not): written as the screen opened; a failed write is tried
        again."""
        if not self.ready:
            return
        if isinstance(self.story, Path):
            self.notify(printable(f"Saved in {self.story}"), title="The game's story", timeout=8, markup=False)
        elif self.story is None:
            self.notify("Still being written: press s again in a moment.", title="The game's story", timeout=4)
        else:
            self.notify(printable(f"The story could not be written: {self.story}"), severity="error", markup=False)
            self._write_story()

    def action_choose(self, choice: str) -> None:
        if self.ready:
            self.dismiss(choice)

"""Recorded matches, the latest played first: every game played or watched in the TUI, and what
`labyrinth arena --replays` records into the same folder. Each is listed as a player reads it
(when, how it ended, in how many turns and how much game time; the ground, the seed, the
difficulty, who played each role, in the game's words: game_words.py); a file that cannot be read
is listed as such, with why. Pick one to watch it on the map (screens/replay_player.py). What a
file says is shown as words (``plain``): a name like "[@click=app.quit]" is not markup, an escape
sequence in a header reaches no terminal."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from labyrinth.engine.commands import shorten
from labyrinth.saves.paths import replays_dir
from labyrinth.saves.replay_list import ReplaySummary, list_replays

from ..dates import local_time
from ..game_words import ended, matchup
from ..terminal_text import plain
from ..widgets.footer import SteadyFooter
from ..widgets.time_words import clock

WORDS_SHOWN = 40  # of a name a file claims: a long one is cut, not wrapped over the list


class ReplaysScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    /* Replays: the list takes the dialog's room left under what the chosen file's problem says. */
    #replays {
        height: 90%;
    }

    #replay-list {
        height: 1fr;
    }

    #replay-text {
        height: auto;
        max-height: 20;
    }
    """
    AUTO_FOCUS = "#replay-list"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "dismiss", "back", id="replays-close")]

    def compose(self) -> ComposeResult:
        folder = replays_dir()
        self.summaries = list_replays(folder)
        with Vertical(id="replays", classes="dialog"):
            yield Static(plain(f"Replays in {folder}: Enter watches one, Esc goes back"), classes="dialog-title")
            with VerticalScroll(id="replay-text"):  # above the list: a long list never hides what it says
                yield Static(id="replay-body", classes="problem")
            if self.summaries:
                yield OptionList(*(Option(described(s)) for s in self.summaries), id="replay-list")
            else:
                yield Static(plain("No replays yet: every game you play or watch here is recorded, "
                                   f"and `labyrinth arena --replays {folder}` adds matches."))
        yield SteadyFooter()  # its own keys: the title's below would show keys this dialog does not take

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        from .replay_player import watch

        body = self.query_one("#replay-body", Static)
        self.call_after_refresh(event.option_list.scroll_to_highlight)  # what the body says pushes the list down
        summary = self.summaries[event.option_index]  # the options are the summaries, in order
        if summary.problem:
            body.update(plain(f"This file cannot be read: {summary.problem}"))
            return
        why = watch(self.app, summary.path, "This file")
        if why:
            body.update(why)


def described(summary: ReplaySummary) -> Text:
    """Three lines: when it was played and how it went; the ground, the seed and the difficulty; who played.
    A file that cannot be read: its name, and why."""
    h = summary.header
    if h is None:  # it could not be read: ``problem`` says why
        return Text.assemble(plain(summary.path.name, style="bold"), "\n",
                             plain(f"cannot be read: {shorten(str(summary.problem), 2 * WORDS_SHOWN)}", style="red"))
    end, turns = summary.end, f"{summary.turns} turn{'s' * (summary.turns != 1)}"
    # as the status bar says it
    went = (f"{ended(end.outcome)} · {turns} · time {clock(end.game_time)}"
            if end else f"unfinished · {turns} played")
    who = matchup(shorten(h.user_agent, WORDS_SHOWN), shorten(h.minotaur_agent, WORDS_SHOWN))
    return Text.assemble(plain(f"{local_time(h.created_at)}  ", style="bold"), plain(went), "\n",
                         plain(f"{h.preset}, seed {h.seed}, {h.difficulty}\n{who}", style="dim"))

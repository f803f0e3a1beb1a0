"""The floor under the game's first frame: the least a Textual app that validates with pydantic takes
to draw on this machine. tui_bench.py starts it beside each start of the game, interleaved, so that a
first frame can be read against what any such app costs here and now (this machine's speed drifts by
a third over a day; the floor moves with it, the game's share above it much less).

One line with the word the bench waits for ("stamina", as the game's status bar), one input line, as
the game's command line: the app's own imports (Textual, pydantic) and its first layout and paint.
"""

import pydantic  # noqa: F401  (imported, as the game's schemas import it)
from textual.app import App, ComposeResult
from textual.widgets import Input, Static


class Floor(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("stamina 100%")
        yield Input()


if __name__ == "__main__":
    Floor().run()

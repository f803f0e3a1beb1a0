"""The map's keys: what each key does while the map has focus, in one table, its keys by default, and
the config file's ``[keys]`` table that remaps them (player_settings.py reads it).

By default a roguelike hand finds its habits: vi-keys (h j k l), the arrows and WASD walk a step, and
shifted (H J K L, W A S D, shift+arrows) run along the corridor (or walk it: [options] shift_move); y u
b n, vi's diagonals, say that the labyrinth has none and play nothing. So what stood on those letters
moved: LOOK (hear the stones) is `f`, the lantern `v`; `.` waits as space does and `,` grabs as `g`
does, as in most roguelikes. Each action is one binding whose id is ``map-`` and its name, so that Textual's keymap
(``App.set_keymap``) gives it the keys [keys] names; an action that moves look mode's cursor too has a
second binding (``-looking``), given the same keys.

A table is checked before it is used (``remapped``): an unknown action, a key that is none, a key
another action holds in the same mode, or one of the screen's own keys, each gives one line naming it,
and that entry alone is left out (its action keeps its keys): no key is ever left doing two things,
none loses its action unseen."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from textual.binding import Binding, InvalidBinding
from textual.keys import Keys, format_key, key_to_character

CURSOR_LEAP = 5  # cells a run key moves look mode's cursor
RAMPS = Binding.Group("ramps", compact=True)
LEVELS = Binding.Group("levels", compact=True)
MODIFIERS = ("ctrl", "alt", "shift", "super", "meta", "hyper")
KEY_NAMES = frozenset(key.value for key in Keys)
ShiftMove = Literal["run", "walk"]  # what shift + a way does ([options] shift_move), along the corridor
SHIFT_MOVES: dict[ShiftMove, str] = {"run": "fast, loud", "walk": "quiet"}  # each gait as the help says it
SHIFT_MOVE: ShiftMove = "run"  # by default


@dataclass(frozen=True)
class MapAction:
    """One thing a key does on the map: its name in [keys] (and its binding's id), its keys by default,
    its Textual action while playing and in look mode (None: none then), what the help says it does,
    its words in the footer (None: in the help only), and whether it is a shifted way (``shifted``: its
    words follow the gait the player's shift_move gives it, ``said``)."""

    name: str
    keys: tuple[str, ...]
    playing: str | None
    looking: str | None
    words: str
    footer: str | None = None
    group: Binding.Group | None = None
    shifted: bool = False

    def said(self, shift_move: ShiftMove = SHIFT_MOVE) -> str:
        """What the help says it does, a shifted way's gait as ``shift_move`` makes it."""
        return f"{shift_move} {self.words} ({SHIFT_MOVES[shift_move]})" if self.shifted else self.words

    @property
    def modes(self) -> tuple[str, ...]:
        """The modes it answers in: "playing", "looking"."""
        return tuple(mode for mode, action in (("playing", self.playing), ("looking", self.looking)) if action)

    def bindings(self) -> list[Binding]:
        """Its bindings: one, or one a mode when it does something else in each (a walk, a cursor's move)."""
        if self.playing == self.looking:
            return [self._binding(self.playing, "", self.footer)]
        return [self._binding(action, suffix, words) for action, suffix, words in
                ((self.playing, "", self.footer), (self.looking, "-looking", LOOKING_FOOTER.get(self.name)))
                if action]

    def _binding(self, action: str | None, suffix: str, footer: str | None) -> Binding:
        assert action is not None
        return Binding(",".join(self.keys), action, footer or self.said(), show=footer is not None,
                       id=f"map-{self.name}{suffix}", group=self.group if footer else None)


def _directions() -> list[MapAction]:
    """The four ways: a step (the cursor a cell) and a run (the cursor CURSOR_LEAP cells)."""
    ways = (("north", "up", "w", "k"), ("south", "down", "s", "j"), ("east", "right", "d", "l"),
            ("west", "left", "a", "h"))
    steps = [MapAction(name, (arrow, wasd, vi), f"screen.walk('{name.upper()}')",
                       f"screen.move_cursor('{name.upper()}')", f"walk a step {name}",
                       "walk" if name == "north" else None) for name, arrow, wasd, vi in ways]
    runs = [MapAction(f"run-{name}", (f"shift+{arrow}", wasd.upper(), vi.upper()), f"screen.run('{name.upper()}')",
                      f"screen.move_cursor('{name.upper()}', {CURSOR_LEAP})", f"{name} along the corridor",
                      shifted=True)
            for name, arrow, wasd, vi in ways]
    return steps + runs


ACTIONS: tuple[MapAction, ...] = (
    *_directions(),
    MapAction("ramp-up", ("less_than_sign", "pageup"), "screen.ramp('UP RAMP')", None, "take the ramp up",
              "ramp up", RAMPS),
    MapAction("ramp-down", ("greater_than_sign", "pagedown"), "screen.ramp('DOWN RAMP')", None,
              "take the ramp down", "ramp down", RAMPS),
    MapAction("look", ("f",), "screen.simple('LOOK')", None, "look around: hear the stones", "look"),
    MapAction("examine", ("x", "semicolon"), "screen.look_mode", "screen.leave_look",
              "examine the map with a cursor, and stop", "examine"),
    MapAction("grab", ("g", "comma"), "screen.simple('GRAB')", None, "grab what is within reach", "grab"),
    MapAction("use", ("v",), "screen.simple('USE')", None, "use the lantern: freeze the Minotaur", "lantern"),
    MapAction("halt", ("space", "full_stop"), "screen.simple('HALT')", None, "wait, silent, resting", "halt"),
    MapAction("explore", ("o",), "screen.explore", None,
              "explore: walk to the nearest place you have not seen, until something is found", "explore"),
    MapAction("diagonal", ("y", "u", "b", "n", "Y", "U", "B", "N"), "screen.no_diagonal", None,
              "nothing: the labyrinth has no diagonal ways (vi's y u b n say so)"),
    MapAction("travel", ("enter",), None, "screen.travel_to_cursor", "travel to the cursor by the way you know"),
    MapAction("leave", ("escape", "q"), None, "screen.leave_look", "stop examining"),
    MapAction("level-up", ("left_square_bracket",), "screen.look_level(1)", "screen.look_level(1)",
              "look at the level above", "level above", LEVELS),
    MapAction("level-down", ("right_square_bracket",), "screen.look_level(-1)", "screen.look_level(-1)",
              "look at the level below", "level below", LEVELS),
    MapAction("help", ("question_mark",), "app.help", "app.help", "this help"),
)
BY_NAME: dict[str, MapAction] = {action.name: action for action in ACTIONS}
LOOKING_FOOTER = {"north": "move cursor", "travel": "travel there", "leave": "leave"}  # look mode's entries
DEFAULT_KEYS: dict[str, tuple[str, ...]] = {action.name: action.keys for action in ACTIONS}
WALKS = ("west", "south", "north", "east")  # the footer's walking keys, in vi's order (h j k l)


def map_bindings() -> list[Binding]:
    """Every binding of the map, with its keys by default."""
    return [binding for action in ACTIONS for binding in action.bindings()]


def textual_keymap(keys: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """``keys`` (an action's name -> its keys) as Textual's keymap (a binding's id -> its keys): the
    actions whose keys differ from their defaults, each binding of theirs."""
    return {binding.id: ",".join(keys[action.name]) for action in ACTIONS if keys[action.name] != action.keys
            for binding in action.bindings() if binding.id}


def shown(key: str) -> str:
    """A key as the help, the footer and a refusal write it, as Textual's footer does: "k", "<", "↑",
    "shift+↑", "pgup", "space", "esc"."""
    *modifiers, base = key.split("+")
    return "+".join([*modifiers, format_key(base)])


def walk_keys(keys: Mapping[str, Sequence[str]]) -> str:
    """The footer's walking keys: the last letter of each way's, in vi's order ("hjkl"; "jkil" remapped),
    or the first key of the step north when a way has no letter."""
    letters = [next((key for key in reversed(keys[name]) if len(key) == 1), None) for name in WALKS]
    return "".join(letter for letter in letters if letter) if all(letters) else shown(keys["north"][0])


# --- reading [keys] -------------------------------------------------------------------------------------


def key_name(written: str) -> str | None:
    """The key ``written`` names, as Textual names it ("k", "up", "shift+up", "less_than_sign" for "<"),
    or None when it names none. A capital letter is its shifted key ("K"); "shift+k" is written "K"."""
    if written == ",":
        return "comma"  # a binding's keys are comma-separated: the comma has a name
    if len(written) == 1:
        try:
            return next(iter(Binding.make_bindings([Binding(written, "")]))).key
        except InvalidBinding:
            return None
    *modifiers, base = written.lower().split("+")
    if not base or any(m not in MODIFIERS for m in modifiers) or len(set(modifiers)) < len(modifiers):
        return None
    if modifiers == ["shift"] and len(base) == 1 and base.isalpha():
        return None  # Textual reads it as the capital letter
    if len(base) > 1 and base not in KEY_NAMES and key_to_character(base) is None:  # "full_stop" names "."
        return None
    return written.lower()


def remapped(table: Mapping[str, Any], taken: Mapping[str, str]) -> tuple[dict[str, tuple[str, ...]], list[str]]:
    """The map's keys with a [keys] ``table`` applied (each action's name -> its keys), and one line for each
    entry left out, naming it: an unknown action, a key that is none, one of ``taken`` (the screen's own
    keys -> what they do there), a key that another action would hold in the same mode (the entry written
    later goes, or the one that took another's key by default)."""
    problems: list[str] = []
    asked: dict[str, tuple[str, ...]] = {}
    for name, value in table.items():
        problem = _entry_problem(name, value, taken)
        if isinstance(problem, str):
            problems.append(f"[keys] {name}: {problem}")
        else:
            asked[name] = problem
    while clash := _first_clash({**DEFAULT_KEYS, **asked}, list(asked)):
        name, key, other = clash
        del asked[name]
        problems.append(f"[keys] {name}: {shown(key)!r} is {other}'s key too (give {other} other keys, or {name} "
                        f"another); {_keeps(name)}")
    return {**DEFAULT_KEYS, **asked}, problems


def _entry_problem(name: str, value: Any, taken: Mapping[str, str]) -> str | tuple[str, ...]:
    """What is wrong with the entry ``name = value``, or its keys as Textual names them."""
    if name not in BY_NAME:
        return f"no such map action (they are: {', '.join(BY_NAME)})"
    written = [value] if isinstance(value, str) else value
    if not isinstance(written, list) or not written or not all(isinstance(key, str) for key in written):
        return f'give a key or a list of keys, such as ["k", "up"]; {_keeps(name)}'
    keys: list[str] = []
    for text in written:
        key = key_name(text)
        if key is None:
            return (f"{text[:20]!r} is no key (write a character, \"k\" or \"<\", or a key's name: \"up\", "
                    f"\"pageup\", \"shift+up\", \"f5\"; a capital for shift and a letter, \"K\"); {_keeps(name)}")
        if key in taken and key not in BY_NAME[name].keys:
            return f"{shown(key)!r} is the game screen's key for {taken[key]}; {_keeps(name)}"
        keys += [] if key in keys else [key]
    return tuple(keys)


def _keeps(name: str) -> str:
    return f"{name} keeps {', '.join(repr(shown(key)) for key in DEFAULT_KEYS[name])}"  # quoted: '.' is a key


def _first_clash(keys: Mapping[str, Sequence[str]], asked: Sequence[str]) -> tuple[str, str, str] | None:
    """The first key two actions of a same mode hold in ``keys``: (the action that goes, the key, the other).
    The one that goes is one the table set (``asked``, in its order): the later of two it set."""
    for mode in ("playing", "looking"):
        holder: dict[str, str] = {}
        for name in sorted(keys, key=lambda n: asked.index(n) if n in asked else -1):
            if mode not in BY_NAME[name].modes:
                continue
            for key in keys[name]:
                other = holder.setdefault(key, name)
                if other != name:
                    return name, key, other
    return None


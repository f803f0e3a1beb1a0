"""`labyrinth gsm`: the engine over stdin/stdout, one JSON object per line.

Plain mode: each input line is a UserInput, each output line a GameStateResponse;
the Minotaur is an agent of this project (``wait`` is one that always WAITs).
Minotaur mode (``user`` is an agent of this project): the pipe plays the
Minotaur, each input line a MinotaurDecision, each output line a
MinotaurObservation. External mode: each input line is ``{"user": UserInput,
"minotaur": MinotaurDecision}`` and each output line ``{"user":
GameStateResponse, "minotaur": MinotaurObservation}``. The first output line is
the initial state. Every line gets exactly one answer: a bad line (not JSON, not
valid, empty, longer than MAX_LINE_BYTES, or sent after the game ended) an
ERROR, with at most a short excerpt of what was sent. EOF exits 0.

The pipe is an Outside seat of a Match (agents/match/runner.py), so a line is played
as every front plays a turn: checked first, and an agent is asked only for a
line that makes a turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, BinaryIO, Protocol

from pydantic import BaseModel
from pydantic_core import from_json

from labyrinth.agents.base import ModelPlayer
from labyrinth.agents.match.runner import Match, Outside
from labyrinth.agents.registry import make_agent
from labyrinth.engine.commands import duplicate_key, excerpt, keys_in, without_bom
from labyrinth.engine.presets import DEFAULT_DIFFICULTY
from labyrinth.engine.turn import TurnResult
from labyrinth.engine.wsap.roles import ROLES

MAX_LINE_BYTES = 1 << 16  # a command is a few dozen bytes: a longer line is a mistake, answered at once
READ_BYTES = 1 << 16  # what one read asks for
EMPTY = "The line is empty: send one JSON object per line."
TOO_LONG = (f"The line is longer than {MAX_LINE_BYTES:,} bytes: the rest of it is read and ignored. "
            "Send one JSON object per line.")
EXTERNAL = "external"  # the --minotaur choice with which the pipe plays both roles
EXTERNAL_LINE = 'Send {"user": {...UserInput}, "minotaur": {...MinotaurDecision}}.'  # said to a bad external line
WAITS = "wait"  # the --minotaur choice that always WAITs: the Minotaur's fallback, fed every turn


class Fed(Outside):
    """A seat the pipe does not play, given the same input every turn: the Minotaur of
    ``--minotaur wait`` is the engine's own WAIT, which costs nothing, where an agent that
    waits would cost a perception a turn (a bulk run would be about four times slower)."""

    def __init__(self, name: str, every_turn: Any) -> None:
        super().__init__(name, observe=False)
        self.every_turn = every_turn


def gsm_match(seed: int, preset: str, difficulty: str = DEFAULT_DIFFICULTY, user: str | None = None,
              minotaur: str = "builtin", providers: Mapping[str, Any] | None = None) -> Match:
    """The game the pipe plays: with ``user`` (an agent's name) the pipe is the Minotaur, else
    the user, and with ``minotaur`` EXTERNAL both. The pipe's seats keep no observation (a
    bulk run must stay fast) and the game has no turn limit; nothing can save it, so it keeps
    no list of the turns' inputs (a save's), and its memory stays flat however long it runs."""
    kinds = {"user": user, "minotaur": None if user or minotaur == EXTERNAL else minotaur}
    seats = {role: Outside("pipe", observe=False) if kind is None else
             Fed(kind, ROLES[role].fallback) if kind == WAITS else make_agent(role, kind, seed, providers)
             for role, kind in kinds.items()}
    return Match(seats["user"], seats["minotaur"], seed=seed, preset=preset, difficulty=difficulty,
                 max_turns=None, keeps_inputs=False)


def _json(model: BaseModel) -> bytes:
    return model.__pydantic_serializer__.to_json(model)


def _answer_of(result: TurnResult, roles: tuple[str, ...]) -> bytes:
    """One role's view of a turn, or (both roles piped) an object with each role's."""
    if len(roles) == 1:
        return _json(ROLES[roles[0]].view(result))
    return b"{" + b",".join(b'"%s":%s' % (role.encode(), _json(ROLES[role].view(result))) for role in roles) + b"}"


def _split_external(line: bytes) -> dict[str, Any] | str:
    """The two halves of an external-mode line, or why it is not one."""
    text = without_bom(line)
    try:
        data = from_json(text)  # the engine's own JSON reader: the same short reasons as in the other modes
    except ValueError as exc:
        return f"Not valid JSON ({exc}). {EXTERNAL_LINE}"
    if not isinstance(data, dict) or set(data) != {"user", "minotaur"}:
        return ('Each line must be an object with exactly two fields, "user" (a UserInput) '
                'and "minotaur" (a MinotaurDecision).')
    # No more colons than keys read: no key was given twice, and the second read is spared (keys_in; a
    # byte-order mark holds no colon).
    if line.count(b":") != keys_in(data) and (twice := duplicate_key(text)) is not None:
        return f"The field {excerpt(twice)} is given twice; send each field once (which was meant cannot be known)."
    for role, model in (("user", "UserInput"), ("minotaur", "MinotaurDecision")):
        half = data[role]
        if isinstance(half, str):  # JSON text of the object, as rules.md §14.1 allows: parse() reads it
            try:
                if isinstance(from_json(half), dict):
                    continue
            except ValueError:
                pass
            return (f'"{role}" must be a JSON object (a {model}) or JSON text of one, not {_shown(half)}. '
                    f"{EXTERNAL_LINE}")
        if not isinstance(half, dict):
            return f'"{role}" must be a JSON object (a {model}), not {_shown(half)}. {EXTERNAL_LINE}'
    return data


def _shown(value: Any) -> str:
    """A JSON value that is not an object, named in JSON's words with an excerpt: 'a string ("LOOK")'."""
    if value is None or isinstance(value, bool):
        return excerpt(value)  # null, true, false: the value is its own name
    kind = "a string" if isinstance(value, str) else "an array" if isinstance(value, list) else "a number"
    return f"{kind} ({excerpt(value)})"


class Chunks(Protocol):
    """Input read as it arrives (a BufferedReader, as stdin's is)."""

    def read1(self, size: int = -1, /) -> bytes:
        """Whatever is ready, up to ``size`` bytes, waiting only when nothing is; b"" at the end."""


def _batches(stdin: Chunks, limit: int = MAX_LINE_BYTES) -> Iterator[list[bytes | None]]:
    """The input's lines, in batches of those that had arrived together; None stands for a
    line longer than ``limit`` bytes.

    One read returns whatever is ready: a single line when someone types or a
    program waits for each answer, thousands when a file is piped in. The
    caller flushes after each batch, so an interactive peer gets every answer
    at once and a bulk run is not slowed by a write per line. An over-long line
    is reported in the batch where it passes the limit, before it has ended; the
    rest of it is dropped as it streams in, so a line of any length costs time in
    proportion to its length and memory of at most ``limit`` bytes.
    """
    pending, dropping = bytearray(), False
    while chunk := stdin.read1(READ_BYTES):
        batch: list[bytes | None] = []
        start = 0
        while start <= len(chunk):
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end == -1 else chunk[start:end]
            if not dropping and len(pending) + len(piece) > limit:
                batch.append(None)
                pending.clear()
                dropping = True
            elif not dropping:
                pending += piece
            if end == -1:
                break
            if not dropping:
                batch.append(bytes(pending))
            pending.clear()
            dropping = False
            start = end + 1
        yield batch
    if pending:
        yield [bytes(pending)]


def serve(match: Match, stdin: Chunks, stdout: BinaryIO, say: Callable[[str], None] | None = None) -> int:
    """Play ``match`` over JSON lines (bytes, UTF-8) until EOF: exactly one line out for each line
    in. The pipe plays its Outside seats, except those Fed. ``say`` hears, once, of a model that
    kept failing and was replaced by the built-in agent (the pipe's answers go on as before)."""
    outside = {role: seat.agent for role, seat in match.seats.items() if not seat.asked}
    fed = {role: seat.every_turn for role, seat in outside.items() if isinstance(seat, Fed)}
    roles = tuple(role for role in outside if role not in fed)
    watched = {role: side for role, side in match.sides.items() if side.agent.blocking} if say else {}
    write, flush = stdout.write, stdout.flush
    write(_answer_of(match.last, roles) + b"\n")
    flush()
    for batch in _batches(stdin):
        for line in batch:
            pushed = TOO_LONG if line is None else EMPTY if not line.strip() else \
                _split_external(line) if len(roles) == 2 else {roles[0]: line}
            turn = match.refuse(pushed) if isinstance(pushed, str) else match.play_turn(**pushed, **fed)
            assert turn.result is not None  # a refused turn and a played one are both done
            write(_answer_of(turn.result, roles) + b"\n")
        flush()
        for role, side in list(watched.items()):
            if side.stats.replaced and say is not None:  # watched only when someone hears of it
                del watched[role]
                say(replaced(role, side.agent))
    return 0


def replaced(role: str, agent: Any) -> str:
    """The one line that says a model was replaced, naming it as configured."""
    model = agent.transport.name if isinstance(agent, ModelPlayer) else agent.name
    return f"the {role}'s model {model} kept failing: the built-in agent plays the {role} from now on"

"""`labyrinth gsm`: the engine over stdin/stdout, one JSON object per line.

Plain mode: each input line is a UserInput, each output line a GameStateResponse;
the Minotaur is an agent of this project (``minotaur``), or one that always
WAITs (None). Minotaur mode (``user`` is an agent of this project): the pipe
plays the Minotaur, each input line a MinotaurDecision, each output line a
MinotaurObservation. External mode: each input line is ``{"user": UserInput,
"minotaur": MinotaurDecision}`` and each output line ``{"user":
GameStateResponse, "minotaur": MinotaurObservation}``. The first output line is
the initial state. A bad line gets an ERROR line; EOF exits 0.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import BinaryIO

from pydantic import BaseModel

from agents.side import Side
from engine import WAIT, BadInput, Game, MinotaurDecision, UserInput, parse


def _json(model: BaseModel) -> bytes:
    return model.__pydantic_serializer__.to_json(model)


def _paired(user: BaseModel, minotaur: BaseModel) -> bytes:
    return b'{"user":' + _json(user) + b',"minotaur":' + _json(minotaur) + b"}"


def _split_external(line: bytes) -> tuple[object, object] | str:
    """The two halves of an external-mode line, or why it is not one."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        return f"Not valid JSON ({exc}). Send {{\"user\": {{...UserInput}}, \"minotaur\": {{...MinotaurDecision}}}}."
    if not isinstance(data, dict) or set(data) != {"user", "minotaur"}:
        return ('Each line must be an object with exactly two fields, "user" (a UserInput) '
                'and "minotaur" (a MinotaurDecision).')
    return data["user"], data["minotaur"]


def _batches(stdin: BinaryIO) -> Iterator[list[bytes]]:
    """The input's lines, in batches of those that had arrived together.

    One read returns whatever is ready: a single line when someone types or a
    program waits for each answer, thousands when a file is piped in. The
    caller flushes after each batch, so an interactive peer gets every answer
    at once and a bulk run is not slowed by a write per line.
    """
    pending = b""
    while chunk := stdin.read1(1 << 16):
        *lines, pending = (pending + chunk).split(b"\n")
        yield lines
    if pending:
        yield [pending]


def serve(game: Game, external: bool, stdin: BinaryIO, stdout: BinaryIO, minotaur: Side | None = None,
          user: Side | None = None) -> int:
    """Play ``game`` over JSON lines (bytes, UTF-8) until EOF."""
    write, flush = stdout.write, stdout.flush
    response, observation = game.view()
    first = _paired(response, observation) if external else _json(observation if user else response)
    write(first + b"\n")
    flush()
    for batch in _batches(stdin):
        for line in batch:
            if not line.strip():
                continue
            if user is not None:
                write(_json(_minotaur_turn(game, user, line).observation) + b"\n")
            elif external:
                halves = _split_external(line)
                result = game.reject(halves) if isinstance(halves, str) else game.step(*halves)
                write(_paired(result.response, result.observation) + b"\n")
            elif minotaur is None:
                write(_json(game.step(line, WAIT).response) + b"\n")
            else:
                try:
                    command = parse(UserInput, line)
                except BadInput:  # rejected before the Minotaur is asked: its answer would be thrown away
                    write(_json(game.step(line, WAIT).response) + b"\n")
                    continue
                decision, why = minotaur.decide()
                result = game.step(command, decision)
                minotaur.tell(result, why, done=game.state.outcome is not None)
                write(_json(result.response) + b"\n")
        flush()
    return 0


def _minotaur_turn(game: Game, user: Side, line: bytes):
    """A turn where the pipe is the Minotaur: its line is checked before the user's agent is asked."""
    try:
        decision = parse(MinotaurDecision, line)
    except BadInput as exc:
        return game.reject(f"Your decision was rejected: {exc}")
    command, why = user.decide()
    result = game.step(command, decision)
    user.tell(result, why, done=game.state.outcome is not None)
    return result

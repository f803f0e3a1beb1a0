"""`labyrinth gsm`: the engine over stdin/stdout, one JSON object per line.

Plain mode: each input line is a UserInput, each output line a GameStateResponse;
the Minotaur is an agent of this project (``minotaur``), or one that always
WAITs (None). Minotaur mode (``user`` is an agent of this project): the pipe
plays the Minotaur, each input line a MinotaurDecision, each output line a
MinotaurObservation. External mode: each input line is ``{"user": UserInput,
"minotaur": MinotaurDecision}`` and each output line ``{"user":
GameStateResponse, "minotaur": MinotaurObservation}``. The first output line is
the initial state. Every line gets exactly one answer: a bad line (not JSON, not
valid, empty, longer than MAX_LINE_BYTES, or sent after the game ended) an
ERROR, with at most a short excerpt of what was sent. EOF exits 0.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

from pydantic import BaseModel
from pydantic_core import from_json

from labyrinth.agents.side import Side
from labyrinth.engine import WAIT, BadInput, Game, MinotaurDecision, TurnResult, UserInput, parse
from labyrinth.engine.report import error_report

MAX_LINE_BYTES = 1 << 16  # a command is a few dozen bytes: a longer line is a mistake, answered at once
READ_BYTES = 1 << 16  # what one read asks for
EMPTY = "The line is empty: send one JSON object per line."
TOO_LONG = (f"The line is longer than {MAX_LINE_BYTES:,} bytes: the rest of it is read and ignored. "
            "Send one JSON object per line.")


def _json(model: BaseModel) -> bytes:
    return model.__pydantic_serializer__.to_json(model)


def _paired(user: BaseModel, minotaur: BaseModel) -> bytes:
    return b'{"user":' + _json(user) + b',"minotaur":' + _json(minotaur) + b"}"


def _split_external(line: bytes) -> tuple[object, object] | str:
    """The two halves of an external-mode line, or why it is not one."""
    try:
        data = from_json(line)  # the engine's own JSON reader: the same short reasons as in the other modes
    except ValueError as exc:
        return f"Not valid JSON ({exc}). Send {{\"user\": {{...UserInput}}, \"minotaur\": {{...MinotaurDecision}}}}."
    if not isinstance(data, dict) or set(data) != {"user", "minotaur"}:
        return ('Each line must be an object with exactly two fields, "user" (a UserInput) '
                'and "minotaur" (a MinotaurDecision).')
    return data["user"], data["minotaur"]


def _batches(stdin: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[list[bytes | None]]:
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


def serve(game: Game, external: bool, stdin: BinaryIO, stdout: BinaryIO, minotaur: Side | None = None,
          user: Side | None = None) -> int:
    """Play ``game`` over JSON lines (bytes, UTF-8) until EOF: exactly one line out for each line in."""
    write, flush = stdout.write, stdout.flush
    response, observation = game.view()
    first = _paired(response, observation) if external else _json(observation if user else response)
    write(first + b"\n")
    flush()
    for batch in _batches(stdin):
        for line in batch:
            write(_answer(game, line, external, minotaur, user) + b"\n")
        flush()
    return 0


def _answer(game: Game, line: bytes | None, external: bool, minotaur: Side | None, user: Side | None) -> bytes:
    """The one answer to one line (None: a line too long to read)."""
    problem = TOO_LONG if line is None else EMPTY if not line.strip() else None
    if user is not None:
        return _json((_refused(game, problem) if problem else _minotaur_turn(game, user, line)).observation)
    if external:
        halves = problem or _split_external(line)
        result = _refused(game, halves) if isinstance(halves, str) else _step(game, *halves)
        return _paired(result.response, result.observation)
    return _json((_refused(game, problem) if problem else _user_turn(game, minotaur, line)).response)


def _user_turn(game: Game, minotaur: Side | None, line: bytes) -> TurnResult:
    """A turn where the pipe is the user: its line is checked before the Minotaur is asked
    (whose answer would be thrown away)."""
    if minotaur is None:
        return _step(game, line, WAIT)
    try:
        command = parse(UserInput, line)
    except BadInput:
        return _step(game, line, WAIT)
    decision, why = minotaur.decide()
    result = game.step(command, decision)
    minotaur.tell(result, why, done=game.state.outcome is not None)
    return result


def _minotaur_turn(game: Game, user: Side, line: bytes) -> TurnResult:
    """A turn where the pipe is the Minotaur: its line is checked before the user's agent is asked."""
    try:
        decision = parse(MinotaurDecision, line)
    except BadInput as exc:
        return _refused(game, f"Your decision was rejected: {exc}")
    command, why = user.decide()
    result = game.step(command, decision)
    user.tell(result, why, done=game.state.outcome is not None)
    return result


def _step(game: Game, command: Any, decision: Any) -> TurnResult:
    """``game.step``, except that after the end a bad line is still an ERROR: the engine answers
    every command after the end with the final state, and a client must see that its line was bad."""
    if game.state.outcome is not None:
        try:
            parse(UserInput, command)
            parse(MinotaurDecision, decision)
        except BadInput as exc:
            return _refused(game, str(exc))
    return game.step(command, decision)


def _refused(game: Game, problem: str) -> TurnResult:
    """The ERROR answer to a line that is not a turn (both sides are told): nothing happens, during
    the game or after its end."""
    response, observe = error_report(game.world, game.state, problem, problem)
    return TurnResult(game.state, response, observe, ())

"""`labyrinth gsm`: the engine over stdin/stdout, one JSON object per line.

Plain mode: each input line is a UserInput, each output line a GameStateResponse.
External mode: each input line is ``{"user": UserInput, "minotaur": MinotaurDecision}``
and each output line ``{"user": GameStateResponse, "minotaur": MinotaurObservation}``.
The first output line is the initial state. A bad line gets an ERROR line; EOF exits 0.
"""

from __future__ import annotations

import json
from typing import TextIO

from engine import WAIT, Game


def _paired(user_json: str, minotaur_json: str) -> str:
    return f'{{"user":{user_json},"minotaur":{minotaur_json}}}'


def _split_external(line: str) -> tuple[object, object] | str:
    """The two halves of an external-mode line, or why it is not one."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return f"Not valid JSON ({exc}). Send {{\"user\": {{...UserInput}}, \"minotaur\": {{...MinotaurDecision}}}}."
    if not isinstance(data, dict) or set(data) != {"user", "minotaur"}:
        return ('Each line must be an object with exactly two fields, "user" (a UserInput) '
                'and "minotaur" (a MinotaurDecision).')
    return data["user"], data["minotaur"]


def serve(game: Game, external: bool, stdin: TextIO, stdout: TextIO) -> int:
    """Play ``game`` over JSON lines until EOF."""
    write, flush = stdout.write, stdout.flush
    response, observation = game.view()
    if external:
        write(_paired(response.model_dump_json(), observation.model_dump_json()) + "\n")
    else:
        write(response.model_dump_json() + "\n")
    flush()
    for line in stdin:
        if not line.strip():
            continue
        if external:
            halves = _split_external(line)
            result = game.reject(halves) if isinstance(halves, str) else game.step(*halves)
            write(_paired(result.response.model_dump_json(), result.observation.model_dump_json()) + "\n")
        else:
            result = game.step(line, WAIT)
            write(result.response.model_dump_json() + "\n")
        flush()
    return 0

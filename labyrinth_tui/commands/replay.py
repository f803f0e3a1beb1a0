"""`labyrinth replay FILE [--verify | --summary | --transcript] [--output FILE]`: a recorded match as
readable text, proof that re-running its inputs gives the same game, the game's story (story.py, the
morgue file the game-over screen saves), or every prompt and reply of its models as JSON lines
(replays.transcript); on standard output, or in the file --output names (saves.outputs).

Exit status: 0 shown or verified, 1 the re-run differs or cannot be checked by this release, 2 not a
readable replay or an --output refused. A replay of an older state version is verified on the fields
that version held, and says so; one holding no turn has only its initial state to check, and says so.

Every string from the file (its name, agents, times, lessons, fallback reasons, what a
message quotes of it) is printed through ``printable``: a replay cannot send the terminal
an escape sequence or reorder a line with a bidi override. A transcript is JSON, whose
escapes (ASCII only) do the same; and every key this process knows of (the environment's,
the config file's) is redacted from it, though a replay should hold none.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from labyrinth.engine import MinotaurDecision, UserInput

from ..dates import local_time
from ..terminal_text import printable, say
from .options import parsed_by

_say = partial(say, command="replay")  # a message on stderr (terminal_text.say)

if TYPE_CHECKING:  # the replay files' module loads when one is shown (start-up): see show
    from labyrinth.saves.replays import RecordedTurn, Replay


def add_parser(sub: argparse._SubParsersAction) -> None:
    replay = sub.add_parser("replay", help="show a recorded match, or verify it against the engine",
                            description="Show a replay file: header, outcome, fallbacks and one line per turn. "
                                        "With --verify, re-run its inputs through a fresh game and check every "
                                        "turn's state hash as the state version that recorded it computed it "
                                        "(exit 1 at the first difference or when this release cannot check it, "
                                        "2 for a bad file or a refused --output).")
    replay.add_argument("file", type=Path, metavar="FILE", help="a replay (.jsonl)")
    how = replay.add_mutually_exclusive_group()
    how.add_argument("--verify", action="store_true", help="re-run the recorded inputs and compare hashes")
    how.add_argument("--summary", action="store_true",
                     help="the game's story: outcome, figures, the explored map of each level, the last messages "
                          "(what the game-over screen saves next to the replay)")
    how.add_argument("--transcript", action="store_true",
                     help="every prompt and reply of its models as JSON lines, in order: each model's system "
                          "text, its opening plan, every turn's calls (re-asks included), each with role, turn, "
                          "kind, prompt, reply, parameters sent, output mode, model version, tokens, latency "
                          "and error; keys redacted")
    replay.add_argument("-o", "--output", metavar="FILE",
                        help="write what is shown to FILE instead (a new or regular file, replaced whole; a link "
                             "to one of yours; - for standard output)")
    parsed_by(replay, shown)


def shown(args: argparse.Namespace) -> int:
    """``show`` on standard output, or into the file ``--output`` names (saves.outputs), checked before the
    replay is read and written whole once it is shown; the exit status."""
    if args.output is None:
        return show(args.file, args.verify, sys.stdout, summary=args.summary, transcript=args.transcript)
    from labyrinth.saves.outputs import output_for, write_output
    from labyrinth.saves.paths import StorageError

    held = io.StringIO()
    try:
        output_for(args.output, reads=(args.file,))
        status = show(args.file, args.verify, held, summary=args.summary, transcript=args.transcript)
        if status != 2:  # shown, or verified with a difference found: what it said is kept
            write_output(args.output, lambda out: out.write(held.getvalue().encode()), reads=(args.file,))
    except StorageError as exc:
        _say(f"cannot write it: {exc}")
        return 2
    return status


def show(path: Path, verify: bool, out: TextIO, summary: bool = False, transcript: bool = False) -> int:
    """The replay at ``path`` written to ``out``: as text, verified, as its story or its transcript;
    the exit status."""
    from labyrinth.saves.replays import ReplayError, read_replay  # loaded for a replay (start-up)

    try:
        recorded = read_replay(path)
    except ReplayError as exc:
        _say(str(exc))
        return 2
    for note in recorded.notes:
        _say(f"note: {note}")
    if summary:
        from ..story import story  # it plays the game back: the agents' modules are loaded only for it

        out.write(story(recorded))
        return 0
    if transcript:
        write_transcript(recorded, out)
        return 0
    if not verify:
        write_summary(recorded, out)
        return 0
    return write_verified(recorded, out)


def write_verified(recorded: Replay, out: TextIO) -> int:
    """Re-run the replay's inputs and say what was checked and what was found; the exit status."""
    from labyrinth.engine import Game
    from labyrinth.saves.replays import first_mismatch, hashed_at

    h = recorded.header
    game = Game.new(h.seed, h.preset, h.difficulty)
    version, ours = hashed_at(h, game.state), game.state.version
    mismatch = first_mismatch(recorded, game.step, game.state)
    if mismatch is not None:
        said = "cannot verify" if mismatch.cannot_check else "mismatch at the ending" if mismatch.ending else \
            f"mismatch at turn {mismatch.turn}"
        print(f"{said}: {printable(mismatch.detail)}", file=out)
        return 1
    ending = " and the outcome" if recorded.end is not None else ""
    found = f"{len(recorded.turns)} turns, hashes{ending} match" if recorded.turns else \
        "no turn recorded, so only the initial state's hash was checked, and it matches"
    older = f" (recorded at state version {version}, this is {ours}: each hash checked on the fields " \
            f"version {version} held)" if version != ours else ""
    print(f"verified: {found}{older}", file=out)
    return 0


def write_summary(recorded: Replay, out: TextIO) -> None:
    """The replay as text: its header, outcome, fallbacks and one line per turn."""
    h, end, turns = recorded.header, recorded.end, recorded.turns
    assert recorded.path is not None  # read_replay's: read from its file
    out.write(f"{printable(recorded.path.name)}\n"
              f"  recorded {printable(local_time(h.created_at))}: seed {h.seed}, preset {printable(h.preset)}, "
              f"difficulty {printable(h.difficulty)}, {_limit(h.max_turns)}\n"
              f"  user {printable(h.user_agent)} vs Minotaur {printable(h.minotaur_agent)}\n")
    for role, found in h.lessons.items():
        who = "the Minotaur" if role == "minotaur" else "the user"
        out.writelines(f"  lesson offered to {who}: {printable(r['text'])}  ({printable(r['id'])})\n" for r in found)
    if end is None:
        out.write(f"  unfinished: no final line, the match stopped after turn {len(turns)}\n")
    else:
        out.write(f"  outcome {printable(end.outcome)} after {end.turns} turns, {end.game_time:g} s of game time\n")
    user_fallbacks = sum(t.user_fallback is not None for t in turns)
    minotaur_fallbacks = sum(t.minotaur_fallback is not None for t in turns)
    out.write(f"  fallbacks: user {user_fallbacks}, Minotaur {minotaur_fallbacks}\n")
    out.writelines(_turn_line(turn) + "\n" for turn in turns)


def write_transcript(recorded: Replay, out: TextIO) -> None:
    """The replay's prompts and replies as JSON lines (replays.transcript), every known key redacted."""
    from labyrinth.agents.llm.config import remember_keys
    from labyrinth.saves.replays import transcript

    remember_keys()
    out.writelines(json.dumps(_redacted(said)) + "\n" for said in transcript(recorded))


def _redacted(value: Any) -> Any:
    """``value`` (JSON) with every key and URL password in its texts redacted."""
    from labyrinth.agents.llm.providers.secrets import redact

    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {_redacted(key): _redacted(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_redacted(item) for item in value]
    return value


def _limit(max_turns: int | None) -> str:
    return "no turn limit" if max_turns is None else f"at most {max_turns} turns"


def _turn_line(turn: RecordedTurn) -> str:
    line = (f"{turn.turn:>5}  {_user_text(turn.user):<24} {_minotaur_text(turn.minotaur):<24} "
            f"{printable(turn.status or '-')}")
    for side, why in (("user", turn.user_fallback), ("Minotaur", turn.minotaur_fallback)):
        if why is not None:
            line += f"  [{side} fallback: {printable(why)}]"
    return line


def _user_text(command: UserInput) -> str:
    """MOVE NORTH 5 run, HALT 3, GRAB RED STONE: what the command says, no defaults."""
    words = [command.command, command.direction, command.steps, "run" if command.speed == 2 else None,
             command.target]
    return " ".join(str(w) for w in words if w is not None)


def _minotaur_text(decision: MinotaurDecision) -> str:
    where = decision.target_coords
    return decision.action if where is None else f"{decision.action} ({where.x},{where.y},{where.z})"

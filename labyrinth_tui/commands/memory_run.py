"""The work of `labyrinth memory` (its parser is memory.py): imported when the command runs, so
that the experience log's modules do not load with every command (start-up)."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from functools import partial
from typing import TextIO

from labyrinth.agents.learning.behaviour_lessons import book_of
from labyrinth.agents.learning.memory_manager import lesson_words
from labyrinth.saves.experience import Experience, Reflection, document
from labyrinth.saves.outputs import write_output
from labyrinth.saves.paths import StorageError
from labyrinth.saves.results_terms import ROLES

from ..dates import local_time
from ..terminal_text import printable, say

_say = partial(say, command="memory")  # a message on stderr (terminal_text.say)


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    log = Experience()
    try:
        reflections = log.read()
    except StorageError as exc:  # a read-only data directory, a file in its place
        _say(str(exc))
        return 2
    if notice := log.take_notice():
        _say(notice)
    action = args.memory_action
    if action == "list":
        return _list(reflections, args, out)
    if action == "show":
        return _show(reflections, args.id, out)
    if action == "lessons":
        return _lessons(reflections, args.role, args.preset, out)
    if action == "clear":
        return _clear(log, len(reflections), args.yes, out)
    return _export(reflections, args.file, out)


def _list(reflections: list[Reflection], args: argparse.Namespace, out: TextIO) -> int:
    chosen = [r for r in reversed(reflections)
              if (args.role is None or r.role == args.role) and (args.outcome is None or r.outcome == args.outcome)]
    shown = chosen[:args.limit] if args.limit > 0 else chosen
    if not shown:
        print("No reflections yet: each game you play, hot-seat or spectate writes them as it ends, and so do "
              "`labyrinth arena` and `labyrinth tournament` given --learn." if not reflections
              else "No reflection matches.", file=out)
        return 0
    width = shutil.get_terminal_size().columns if out.isatty() else 0  # a pipe gets whole lines
    for r in shown:
        print(list_line(r, width), file=out)
    if len(shown) < len(chosen):
        print(f"... and {len(chosen) - len(shown)} more (--limit 0 lists all)", file=out)
    return 0


def _show(reflections: list[Reflection], wanted: str, out: TextIO) -> int:
    found = [r for r in reflections if r.id == wanted] or [r for r in reflections if r.id.startswith(wanted)]
    if len(found) != 1:
        why = "no reflection has" if not found else f"{len(found)} reflections have"
        _say(f"{why} the id {wanted!r}; `labyrinth memory list` shows them")
        return 1
    write_reflection(found[0], out)
    return 0


def list_line(r: Reflection, width: int = 0) -> str:
    """One reflection as `memory list` prints it; its lesson cut to ``width`` columns (0: whole)."""
    line = (f"{printable(r.id):<17} {printable(local_time(r.created_at)):<16.16}  {r.role:<8} {r.outcome:<7} "
            f"{printable(r.preset + ' ' + str(r.seed)):<14} {printable(r.agent):<12.12} ")
    text = printable(lesson_words(r.key_reflection))
    if width and len(line) + len(text) > width:
        text = text[:max(10, width - len(line) - 3)] + "..."
    return line + text


def write_reflection(r: Reflection, out: TextIO) -> None:
    """One reflection in full, as `memory show` prints it (the evidence as JSON, which escapes
    every control and non-ASCII character itself)."""
    print(f"{printable(r.id)}: the {r.role} ({printable(r.agent)}), {r.outcome} after {r.turns} turns, "
          f"{r.game_time:g} s ({printable(r.preset)}, seed {r.seed}), {printable(r.created_at)}", file=out)
    source = "in the model's own words" if r.source == "model" else "from the game's events"
    print(f"\n{printable(lesson_words(r.key_reflection))}\n({source})", file=out)
    found = book_of([r], r.role, r.preset).lessons()
    if found:
        print("\nabout behaviour, in any labyrinth:", file=out)
        for lesson in found:
            print(f"  {printable(lesson.sentence())}", file=out)
    print("\nevidence:\n" + json.dumps(r.evidence, indent=2), file=out)


def _lessons(reflections: list[Reflection], role: str | None, preset: str, out: TextIO) -> int:
    """The merged behaviour lessons of each role: held, tentative, then retired, as sentences."""
    for each in [role] if role else ROLES:
        found = book_of(reflections, each, preset).lessons()
        games = sum(r.role == each and r.preset == preset for r in reflections)
        print(f"The {each}, from {games} game{'s' if games != 1 else ''} on {preset}:", file=out)
        if not found:
            print("  no lessons about behaviour yet", file=out)
        for status in ("HELD", "TENTATIVE", "RETIRED"):
            for lesson in (lesson for lesson in found if lesson.status == status):
                print(f"  {status.lower():<9} {printable(lesson.sentence())}", file=out)
    return 0


def _clear(log: Experience, count: int, yes: bool, out: TextIO) -> int:
    if not count:
        print("The experience log is already empty.", file=out)
        return 0
    if not yes:
        if not sys.stdin.isatty():
            _say("clearing forgets every reflection: add --yes to confirm")
            return 2
        if input(f"Forget all {count} reflections? [y/N] ").strip().lower() not in ("y", "yes"):
            print("Nothing forgotten.", file=out)
            return 0
    try:
        print(f"Forgot {log.clear()} reflections.", file=out)
    except StorageError as exc:
        _say(str(exc))
        return 2
    return 0


def _export(reflections: list[Reflection], file: str, out: TextIO) -> int:
    """Every reflection as one JSON document where the user named (saves.outputs): a file, or standard
    output (-), which then carries nothing else."""
    text = json.dumps(document(reflections), indent=2) + "\n"
    try:
        written = write_output(file, lambda into: into.write(text.encode()))
    except StorageError as exc:
        _say(f"cannot write the reflections: {exc}")
        return 2
    if not written.to_stdout:
        print(f"Wrote {len(reflections)} reflections to {printable(file)}.", file=out)
    return 0

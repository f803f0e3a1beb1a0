"""Hostile-input harness: throws seeded hostile inputs at every way into the game
and counts what breaks. It reports failures, it does not hide them: a way in that
is not yet hardened shows up in the table, and the first few failures of each
are listed under it.

    .venv/bin/python bench/hostile/hostile.py [--seed N] [--quick] [--budget SECONDS] [--turns N] [--figures]
                                      [--before PYTHON] [--ways {all,inputs,kept}]

hostile_inputs.py draws the inputs, hostile_watch.py counts and watches, hostile_gsm.py talks to gsm,
hostile_replies.py serves hostile model replies and takes what one costs, hostile_settings.py draws
hostile provider settings and judges what the commands print of them, hostile_pipe.py plays a long
game through a pipe. The ways of what the game writes, shares and keeps have a module each:
hostile_paths.py (report paths, as root, on device nodes, FIFOs, sockets and links),
hostile_workers.py (two workers on one tournament in separate PID namespaces and with clocks apart),
hostile_signals.py (SIGTERM in tmux), hostile_keys.py (redirecting stand-ins that log the headers they
receive), hostile_bounds.py (huge and odd values for every bounded setting) and hostile_formats.py
(saves and replays of every released format).

Ways in: the typed-command parser, WSAP's parse_action and the WSAP adapters' act
(in this process, each input under a watchdog), `labyrinth gsm` in each of its
modes (a subprocess, one line at a time, each answer awaited), and the files on
disk that the game reads (experience log, saves, replays, avatar rosters,
config: broken, mutated, special files, links out of the data directory), each
read by the commands that read it in a fresh temporary XDG_DATA_HOME and
XDG_CONFIG_HOME, and the replies of a hostile model server (long, deep, huge,
binary) through the four real SDKs and every kind of call an LLM agent makes
(hostile_replies.py), hostile provider settings from the environment (keys, base URLs,
OLLAMA_HOST, model names) read by `doctor --offline`, `doctor` and an arena that builds the
provider, and a long game through a `gsm` pipe (100,000 turns) whose memory must stay
flat. A decoy directory outside the data directory is snapshotted (names, sizes, mtimes,
contents) before and after every way in: any change is a file touched outside the data
directory.

Counted per way in: inputs tried; crashes (an uncaught exception, a traceback,
death by a signal); hangs (no end or no answer within the watchdog's time);
wrong answers (`gsm` lines without exactly one answer, or a bad line not
answered ERROR, or an echo of a giant line; a typed command's hint that is not
one line; an invalid config accepted; replies whose calls grew the peak RSS by
more than hostile_replies.FLAT_MB; a setting's refusal that is not one line naming it, a
value that must be refused taken, a key or the whole of a long value printed; a long game
whose RSS grew by more than hostile_pipe.FLAT_MB); files touched outside; and, for the ways of what
the game keeps, paths that were not regular files and were replaced, replays deleted, and keys that
reached a server or a place they were not given to. The run is
bounded: a fixed number of inputs per way in and a time budget shared among
them, after which a way in stops where it is and says how far it got (the ways of what the game
keeps play all their cases, each bounded by its own time limits). With
--figures (or --before, the Python of a checkout before a fix, for its figures
beside these), what one hostile reply costs is taken too, in fresh processes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hostile_bounds as bounds
import hostile_formats as formats
import hostile_inputs as inputs
import hostile_keys as keys
import hostile_paths as paths
import hostile_pipe as pipe
import hostile_replies as replies
import hostile_settings as settings
import hostile_signals as signals
import hostile_workers as workers
from hostile_gsm import ANSWER_S, GsmSession, is_error, limited
from hostile_watch import HANG_S, SLOW_S, Decoy, Hang, Tally, Watchdog, call, command

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
FILE_JOBS = 2  # file cases at a time (each may fill its memory limit)
MIN_WAY_S = 5.0  # every way in gets at least this long, however the budget stands
SAVED_TURNS = 6  # the sleeping avatar's save: a few turns in
SEED_OF_THE_LOGGED_GAMES = 6  # the baseline's arena plays seeds 6 and 7 on tiny: both end in DEATH, so the
# user's agent learns from them, and an arena on seed 6 is given their lessons
KEYS = settings.VARIABLES  # the provider settings of the environment: the harness's own are not passed on


@dataclass(frozen=True)
class Size:
    """How many inputs of each kind one run throws."""

    typed: int
    replies: int
    actions: int
    gsm_lines: int
    giant_line: int  # bytes
    mutations: int  # mutated copies per kind of file
    broken: int  # of inputs.broken_contents, per kind of file


FULL = Size(typed=3000, replies=1500, actions=400, gsm_lines=40, giant_line=4 << 20, mutations=6, broken=8)
QUICK = Size(typed=400, replies=200, actions=80, gsm_lines=24, giant_line=512 << 10, mutations=2, broken=4)


class Harness:
    """One run: the temporary homes, the decoy, the budget and the tallies."""

    def __init__(self, seed: int, size: Size, budget_s: float, root: Path) -> None:
        self.seed, self.size, self.root = seed, size, root
        self.data_home, self.config_home = root / "data", root / "config"
        self.data = self.data_home / "labyrinth"
        self.config = self.config_home / "labyrinth" / "config.toml"
        self.baseline = root / "baseline"
        self.decoy = Decoy(root / "decoy")
        self.env = {**{k: v for k, v in os.environ.items() if k not in KEYS},
                    "XDG_DATA_HOME": str(self.data_home), "XDG_CONFIG_HOME": str(self.config_home)}
        os.environ.update(XDG_DATA_HOME=str(self.data_home), XDG_CONFIG_HOME=str(self.config_home))
        for key in KEYS:
            os.environ.pop(key, None)
        self.deadline = time.monotonic() + budget_s
        self.tallies: list[Tally] = []

    # --- running a way in --------------------------------------------------------------

    def way(self, name: str, share: float, body: Callable[[Tally], None]) -> None:
        """Run ``body`` for one way in with ``share`` of the time left (the ways after it have the
        rest); count the decoy's changes."""
        tally = Tally(name)
        self.tallies.append(tally)
        began = time.monotonic()
        self.way_deadline = began + max(MIN_WAY_S, (self.deadline - began) * share)
        before = self.decoy.snapshot()
        try:
            body(tally)
        except Hang:
            tally.fail("hangs", "the way in itself", "the watchdog rang outside any one input")
        changed = self.decoy.changes(before)
        if changed:
            tally.outside += len(changed)
            tally.failures.insert(0, f"outside the data directory: {', '.join(changed)}")
            self.decoy.reset()
        tally.seconds = time.monotonic() - began

    def out_of_time(self, tally: Tally) -> bool:
        if time.monotonic() > self.way_deadline:
            tally.stopped = True
        return tally.stopped

    def command(self, tally: Tally, label: str, args: list[str], env: dict[str, str],
                hang_s: float = HANG_S) -> subprocess.CompletedProcess | None:
        """A command with ``env``'s homes, in its memory limit (hostile_watch.command judges it)."""
        return command(tally, label, limited(args), env, hang_s)

    # --- the ways in ------------------------------------------------------------------------

    def typed(self, tally: Tally) -> None:
        from labyrinth.tui.command_parser import NotACommand, parse_command

        for label, text in inputs.typed_commands(self.seed, self.size.typed):
            if self.out_of_time(tally):
                return
            tally.count()
            try:
                with Watchdog(HANG_S):
                    parse_command(text)
            except NotACommand as refusal:
                if "\n" in refusal.hint or len(refusal.hint) > 400:
                    tally.fail("wrong", label, f"a hint of {len(refusal.hint)} characters over "
                                               f"{refusal.hint.count(chr(10)) + 1} lines")
            except Hang:
                tally.fail("hangs", label, f"no end after {HANG_S} s")
            except Exception as exc:  # noqa: BLE001 - whatever escapes is counted
                tally.fail("crashes", f"{label} {text[:24]!r}", f"{type(exc).__name__}: {exc}")

    def replies(self, tally: Tally) -> None:
        from labyrinth.agents.llm.wsap_messages import ActionParseError, parse_action

        for label, text in inputs.model_replies(self.seed, self.size.replies):
            if self.out_of_time(tally):
                return
            call(tally, f"{label} {text[:24]!r}", lambda text=text: parse_action(text), (ActionParseError,))

    def actions(self, role: str) -> Callable[[Tally], None]:
        def body(tally: Tally) -> None:
            from labyrinth.agents.wsap.adapters import make_adapter
            from labyrinth.engine.wsap import Action

            adapter = make_adapter(role, seed=self.seed, preset="tiny", max_turns=200)
            adapter.reset()
            for label, (name, params, why) in inputs.wsap_actions(self.seed, self.size.actions):
                if self.out_of_time(tally):
                    return
                if adapter.done:
                    adapter.reset()
                call(tally, f"{label} {_short(name)} {_short(params)}",
                          lambda name=name, params=params, why=why: adapter.act(Action(name, params, why)), ())
        return body

    def gsm(self, mode: str, args: list[str]) -> Callable[[Tally], None]:
        marker = {"plain": b'{"command": "HALT", "steps": 1}', "minotaur": b'{"action": "WAIT"}',
                  "external": b'{"user": {"command": "HALT", "steps": 1}, "minotaur": {"action": "WAIT"}}'}[mode]

        def body(tally: Tally) -> None:
            lines = list(inputs.gsm_lines(self.seed, self.size.gsm_lines, mode, self.size.giant_line))
            session = GsmSession([LABYRINTH, "gsm", "--seed", "3", "--preset", "tiny", *args], self.env)
            try:
                self._throw_lines(tally, session, lines, marker)
                if mode == "plain" and session.alive and not self.out_of_time(tally):
                    session.play_to_the_end(b'{"command": "HALT", "steps": 100}')
                    self._throw_lines(tally, session, [(f"after the end: {label}", line)
                                                       for label, line in lines[:12]], marker)
            finally:
                session.close(tally)
        return body

    def _throw_lines(self, tally: Tally, session: GsmSession, lines: list[tuple[str, bytes]], marker: bytes) -> None:
        """Each hostile line, then a valid one: the first answer must be an ERROR, the second the marker's."""
        for label, line in lines:
            if self.out_of_time(tally):
                return
            if not session.alive:
                tally.fail("crashes", label, session.death())
                return
            tally.count()
            surely_bad = "mutated" not in label  # a mutated line may still be a valid one
            answers = session.send(line + b"\n" + marker + b"\n", expect=2,
                                   wait_s=ANSWER_S + len(line) / (1 << 20), stop_early=surely_bad)
            errors = [is_error(a) for a in answers]
            if not session.alive:
                tally.fail("crashes", label, session.death())
                return
            if len(answers) == 2 and not errors[1] and (errors[0] or not surely_bad):
                if len(answers[0]) > 64 << 10:
                    tally.fail("wrong", label, f"an ERROR of {len(answers[0]):,} bytes echoes the line")
                continue
            if len(answers) == 1 and not errors[0]:
                tally.fail("wrong", label, "not answered ERROR: a game state came first (this line's or the next's)")
            elif not answers:
                tally.fail("hangs", label, f"no answer to this line nor the next within {ANSWER_S} s")
            else:
                shape = ", ".join("ERROR" if e else "state" for e in errors)
                tally.fail("wrong", label, f"answers: {shape}, expected ERROR then the next line's state")
            session.resync(marker)

    def files(self, kind: str) -> Callable[[Tally], None]:
        """Each hostile file of ``kind`` read by each command that reads it, in homes of its own,
        a few at a time (a FIFO or /dev/zero mostly waits out the watchdog)."""
        def body(tally: Tally) -> None:
            cases = [(label, make, invalid, number, consumer, args)
                     for label, make, invalid in self._file_cases(kind)
                     for number, (consumer, args) in enumerate(self._consumers(kind))
                     if not (label.startswith("special") and number)]  # a special file: the first reader tells
            with ThreadPoolExecutor(FILE_JOBS) as pool:
                for future in [pool.submit(self._file_case, tally, kind, *case) for case in cases]:
                    future.result()
        return body

    def _file_case(self, tally: Tally, kind: str, label: str, make: Callable[[Path], str | None], invalid: bool,
                   number: int, consumer: str, args: Callable[[Path, str], list[str]]) -> None:
        if self.out_of_time(tally):
            return
        home = Path(tempfile.mkdtemp(prefix="case-", dir=self.root))
        try:
            data, config = home / "data" / "labyrinth", home / "config" / "labyrinth" / "config.toml"
            shutil.copytree(self.baseline / "data", data)
            config.parent.mkdir(parents=True)
            shutil.copy2(self.baseline / "config.toml", config)
            target = config if kind == "config" else _target(kind, data)
            outside = make(target) or "-"
            env = {**self.env, "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config")}
            hang_s = settings.READ_S if kind == "config" else HANG_S  # its readers import SDKs: seconds, loaded
            done = self.command(tally, f"{label} -> {consumer}", args(target, outside), env, hang_s)
            if done is not None and invalid and number == 0 and done.returncode == 0:
                tally.fail("wrong", f"{label} -> {consumer}", "an invalid config was accepted silently")
        finally:
            shutil.rmtree(home, ignore_errors=True)

    def settings(self, tally: Tally) -> None:
        """Each hostile provider setting from the environment (hostile_settings.py) read by `doctor
        --offline` and an arena that builds its provider, and by `doctor` calling the endpoints when
        the offline one took it; a few at a time, each judged on what it printed."""
        with settings.stand_ins() as local, ThreadPoolExecutor(FILE_JOBS) as pool:
            futures = [pool.submit(self._setting_case, tally, case, local) for case in settings.cases(self.seed, local)]
            for future in futures:
                future.result()

    def _setting_case(self, tally: Tally, case: settings.Case, local: dict[str, str]) -> None:
        env = {**self.env, **settings.environment(case, local)}
        arena = [LABYRINTH, "arena", "--user", case.provider, "--minotaur", "wait", "--games", "1", "--seed",
                 str(SEED_OF_THE_LOGGED_GAMES), "--preset", "tiny", "--max-turns", "2", "--llm-timeout", "2", "--json"]
        readers = [("doctor --offline", [LABYRINTH, "doctor", "--offline"]), (f"arena --user {case.provider}", arena),
                   ("doctor", [LABYRINTH, "doctor", "--llm-timeout", "2"])]
        refused = False
        for reader, args in readers:
            if self.out_of_time(tally) or (reader == "doctor" and refused):
                return  # a setting doctor refused offline is not called with
            label = f"${case.variable} {case.label} -> {reader}"
            done = self.command(tally, label, args, env, settings.READ_S)
            if done is None:
                continue
            out = (done.stdout + done.stderr).decode(errors="replace")
            for problem in settings.problems(case, reader, done.returncode, out):
                tally.fail("wrong", label, problem)
            refused = refused or f"  {case.provider:<8} cannot be read" in out

    # --- files ----------------------------------------------------------------------------

    def make_baseline(self) -> None:
        """A data directory as a user's would be after some play: a log, replays, a roster, a save."""
        env_run = [LABYRINTH, "arena", "--games", "2", "--seed", str(SEED_OF_THE_LOGGED_GAMES), "--preset", "tiny",
                   "--max-turns", "150", "--learn", "both", "--replays", str(self.data / "replays")]
        subprocess.run(env_run, env=self.env, check=True, capture_output=True, timeout=120)
        from labyrinth.agents.wsap.avatars import LabyrinthAvatars
        from labyrinth.engine.wsap import Action, AvatarSpec

        avatars = LabyrinthAvatars(preset="tiny", max_turns=200)
        avatar = avatars.create_avatar("bot", AvatarSpec(name="Ada"))
        avatars.jack_in("bot", avatar.avatar_id)
        for _ in range(SAVED_TURNS):  # a save with turns, for the mutations to reach its turn lines
            avatars.act(Action("LOOK"))
        avatars.jack_out("bot", "dormant")
        self.config.parent.mkdir(parents=True, exist_ok=True)
        self.config.write_text('[mistral]\napi_key = "test"\nbase_url = "http://127.0.0.1:9"\ntimeout_s = 2\n')
        shutil.copytree(self.data, self.baseline / "data")
        shutil.copy2(self.config, self.baseline / "config.toml")

    def _consumers(self, kind: str) -> list[tuple[str, Callable[[Path, str], list[str]]]]:
        """The commands that read a file of ``kind``, the one that uses it for real first."""
        py = [sys.executable, "-c"]
        arena = [LABYRINTH, "arena", "--games", "1", "--seed", str(SEED_OF_THE_LOGGED_GAMES), "--preset", "tiny",
                 "--max-turns", "40", "--learn", "both", "--json"]  # it reads the log only when someone learns
        return {
            "log": [("arena", lambda _, __: arena), ("memory list", lambda _, __: [LABYRINTH, "memory", "list"])],
            "save": [("resume (jack_in)", lambda path, _: [*py, SAVE_RESUMER, str(path)]),
                     ("list_games", lambda _, __: [*py, "from labyrinth.saves.games import list_games; list_games()"]),
                     ("replay --verify", lambda path, _: [LABYRINTH, "replay", str(path), "--verify"])],
            "replay": [("replay", lambda path, _: [LABYRINTH, "replay", str(path)]),
                       ("replay --verify", lambda path, _: [LABYRINTH, "replay", str(path), "--verify"])],
            "roster": [("avatars", lambda _, outside: [*py, ROSTER_READER, outside])],
            "config": [("arena --user mistral", lambda _, __: [*arena[:-1], "--max-turns", "2", "--user", "mistral",
                                                               "--json"]),
                       ("doctor --offline", lambda _, __: [LABYRINTH, "doctor", "--offline"])],
        }[kind]

    def _file_cases(self, kind: str) -> Iterator[tuple[str, Callable[[Path], str | None], bool]]:
        """(label, how to make the hostile file at a path, whether a reader must refuse it); the
        maker may return a path outside the data directory for the roster reader to point a save at."""
        valid = self._target_baseline(kind).read_bytes()
        yield "special: FIFO", _fifo, False
        yield "special: link to /dev/zero", _link_to(Path("/dev/zero")), False
        yield "special: link outside", _link_to(self.decoy.root / "victim.json"), False
        yield "special: directory", _directory, False
        if kind == "roster":
            yield "save path outside (then despawn)", self._save_outside, False
        if kind == "config":
            for label, text in CONFIGS:
                yield label, _writer(text.encode("utf-8", "surrogateescape")), True
        else:
            for label, content in inputs.broken_contents(valid)[: self.size.broken]:
                yield label, _writer(content), False
            lines = kind in ("replay", "save")  # JSON lines: the first is mutated, the rest kept
            document = json.loads(valid.splitlines()[0] if lines else valid)
            if kind == "log":
                for label, content in inputs.poisoned_evidence(document):
                    yield label, _writer(content), False
            rest = b"\n".join(valid.splitlines()[1:]) if lines else b""
            for label, content in inputs.mutated_documents(self.seed, kind, document, self.size.mutations):
                yield f"mutated {label}", _writer(content + (b"\n" + rest if rest else b"")), False
            if kind == "save":  # one turn line made hostile, the others kept
                head, *turns = valid.splitlines()
                for label, content in inputs.mutated_documents(self.seed, "save turn", json.loads(turns[2]),
                                                               self.size.mutations):
                    whole = b"\n".join([head, *turns[:2], content, *turns[3:]]) + b"\n"
                    yield f"mutated turn 3: {label}", _writer(whole), False

    def _target_baseline(self, kind: str) -> Path:
        return self.baseline / "config.toml" if kind == "config" else _target(kind, self.baseline / "data")

    def _save_outside(self, roster: Path) -> str:
        """The reader, once jacked in, points the roster's save at a file outside the data
        directory (an edited roster) and despawns the avatar, which deletes its save."""
        return str(self.decoy.root / "victim.txt")


ROSTER_READER = """
import json, sys
from labyrinth.agents.wsap.avatars import LabyrinthAvatars
from labyrinth.saves.avatars import avatars_dir
avatars = LabyrinthAvatars(preset="tiny", max_turns=200)
try:
    found = avatars.list_avatars("bot")
except ValueError as exc:  # AvatarStoreError: a clear refusal
    sys.exit(f"refused: {exc}")
if found and avatars.jack_in("bot", found[0].avatar_id).success:
    if sys.argv[1] != "-":
        roster = avatars_dir() / "bot.json"
        data = json.loads(roster.read_bytes())
        data["avatars"][0]["save"] = sys.argv[1]
        roster.write_text(json.dumps(data))
    avatars.jack_out("bot", "despawn")
"""
SAVE_RESUMER = """
import json, sys
from labyrinth.agents.wsap.avatars import LabyrinthAvatars
from labyrinth.saves.avatars import avatars_dir
roster = avatars_dir() / "bot.json"
data = json.loads(roster.read_bytes())
data["avatars"][0]["save"] = sys.argv[1]  # the hostile save, where the roster's own was
roster.write_text(json.dumps(data))
avatars = LabyrinthAvatars(preset="tiny", max_turns=200)
joined = avatars.jack_in("bot", avatars.list_avatars("bot")[0].avatar_id)
sys.exit(0 if joined.success else f"refused: {joined.message}")
"""
DEEP_TOML = "x = " + "[" * 50_000 + "]" * 50_000
CONFIGS = [("timeout 1e308", "[mistral]\napi_key = \"k\"\ntimeout_s = 1e308\n"),
           ("timeout inf", "[mistral]\napi_key = \"k\"\ntimeout_s = inf\n"),
           ("timeout nan", "[mistral]\napi_key = \"k\"\ntimeout_s = nan\n"),
           ("timeout -5", "[mistral]\napi_key = \"k\"\ntimeout_s = -5\n"),
           ("timeout huge", "[mistral]\napi_key = \"k\"\ntimeout_s = " + "9" * inputs.HUGE_DIGITS + "\n"),
           ("api_key 123", "[mistral]\napi_key = 123\n"),
           ("table is a number", "mistral = 5\n"),
           ("deep nesting", DEEP_TOML),
           ("broken TOML", "[mistral\napi_key = \"k\n"),
           ("not UTF-8", "[mistral]\napi_key = \"\udcff\"\n"),  # written with surrogateescape: a byte 0xFF
           *((f"{label} (api_key)", f"[mistral]\napi_key = {settings.toml_string(value)}\n")
             for label, value, refused in settings.key_values() if refused),
           *((f"{label} (base_url)", f"[mistral]\napi_key = \"k\"\nbase_url = {settings.toml_string(value)}\n")
             for label, value, refused in settings.url_values("http://127.0.0.1:9") if refused),
           *((f"{label} (model)", f"[mistral]\napi_key = \"k\"\nmodel = {settings.toml_string(value)}\n")
             for label, value, refused in settings.model_values() if refused)]


def _target(kind: str, data: Path) -> Path:
    """The file of ``kind`` in the data directory ``data`` that a case replaces."""
    if kind == "log":
        return data / "experience_log.json"
    return min((data / {"save": "saves", "replay": "replays", "roster": "avatars"}[kind]).iterdir())


def _writer(content: bytes) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        path.unlink()
        path.write_bytes(content)
    return write


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _link_to(target: Path) -> Callable[[Path], None]:
    def link(path: Path) -> None:
        path.unlink()
        path.symlink_to(target)
    return link


def _directory(path: Path) -> None:
    path.unlink()
    path.mkdir()
    (path / "inside").write_text("x")


def _short(value: Any, limit: int = 30) -> str:
    """A value for a label, cut short; a huge int (which repr() refuses) by its size."""
    try:
        return repr(value)[:limit]
    except ValueError:
        return f"<int of {value.bit_length():,} bits>" if isinstance(value, int) else f"<{type(value).__name__}>"


def table(tallies: list[Tally], seed: int, size_name: str, seconds: float) -> str:
    head = ("way in", "tried", "crashes", "hangs", "wrong answers", "touched outside", f"slow (>{SLOW_S:g} s)",
            "not regular, replaced", "replays deleted", "keys leaked", "s")
    counted = ("crashes", "hangs", "wrong", "outside", "slow", "replaced", "deleted", "leaked")
    rows = [(t.way + (" (stopped: time)" if t.stopped else ""), f"{t.tried:,}",
             *(str(getattr(t, k)) for k in counted), f"{t.seconds:.1f}") for t in tallies]
    total = sum(t.tried for t in tallies)
    rows.append(("total", f"{total:,}", *(str(sum(getattr(t, k) for t in tallies)) for k in counted),
                 f"{seconds:.1f}"))
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = [f"Labyrinth hostile inputs: seed {seed}, {size_name}",
             "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(head, widths, strict=True)))]
    for number, row in enumerate(rows):
        if number == len(rows) - 1:
            lines.append("  ".join("-" * w for w in widths))
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths,
                                                                                                 strict=True))))
    failing = [t for t in tallies if t.failures]
    if failing:
        lines.append("\nFirst failures per way in:")
        for t in failing:
            lines.append(f"  {t.way}")
            lines.extend(f"    {failure}" for failure in t.failures)
    return "\n".join(lines)


def kept_line(tallies: list[Tally]) -> str:
    """The counts issue 39 asks to be zero, over every way in."""
    total = {kind: sum(getattr(t, kind) for t in tallies) for kind in ("replaced", "deleted", "leaked", "crashes")}
    return (f"Kept: {total['replaced']} files replaced that were not regular, {total['deleted']} replays deleted, "
            f"{total['leaked']} keys received where they were not given, {total['crashes']} tracebacks or crashes")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="what every input is drawn from (default: 1)")
    parser.add_argument("--quick", action="store_true", help="fewer inputs of each kind: a run of about a minute")
    parser.add_argument("--budget", type=float, help="seconds for the whole run (default: 240, quick: 120)")
    parser.add_argument("--turns", type=int, help="turns of the long game in a pipe (default: 100,000, quick: "
                                                  "20,000; bench/perf/gsm_memory.py takes the 1M-turn figures)")
    parser.add_argument("--figures", action="store_true", help="also what one hostile reply costs (some 30 s)")
    parser.add_argument("--before", help="the Python of a checkout before a fix: its figures beside these "
                                         "(implies --figures)")
    parser.add_argument("--ways", choices=("all", "inputs", "kept"), default="all",
                        help="the hostile inputs' ways in, the ways of what the game writes, shares and keeps (some "
                             "5 minutes, whatever the budget), or both (default)")
    args = parser.parse_args()
    size = QUICK if args.quick else FULL
    began = time.monotonic()
    root = Path(tempfile.mkdtemp(prefix="labyrinth-hostile-"))
    try:
        harness = Harness(args.seed, size, args.budget or (120.0 if args.quick else 240.0), root)
        memory: dict[str, float] = {}  # each reply way's peak RSS growth
        pipe_mb: dict[int, float] = {}  # the long game's RSS at each checkpoint
        ways: list[tuple[str, float, Callable[[Tally], None]]] = [  # weights: the time each way in tends to need
            ("typed command (parse_command)", 1, harness.typed),
            ("WSAP parse_action", 4, harness.replies),
            ("WSAP act, user", 1, harness.actions("user")),
            ("WSAP act, Minotaur", 1, harness.actions("minotaur")),
            ("gsm, built-in Minotaur", 4, harness.gsm("plain", [])),
            ("gsm --minotaur wait", 2, harness.gsm("plain", ["--minotaur", "wait"])),
            ("gsm --minotaur external", 2, harness.gsm("external", ["--minotaur", "external"])),
            ("gsm --user builtin", 2, harness.gsm("minotaur", ["--user", "builtin"])),
            ("file: experience log", 9, harness.files("log")),
            ("file: saves", 5, harness.files("save")),
            ("file: replays", 9, harness.files("replay")),
            ("file: avatar roster", 5, harness.files("roster")),
            ("file: config", 8, harness.files("config")),
            *((f"reply: {kind}", 5, replies.way(kind, args.seed, memory, harness.out_of_time))
              for kind in replies.KINDS),
            # last: they take what the quicker ways left, and the settings (some 100 CPU-s) all that is left
            ("gsm pipe, a long game", 15,
             pipe.way(LABYRINTH, args.seed, args.turns or (20_000 if args.quick else 100_000),
                      harness.env, pipe_mb, harness.out_of_time)),
            ("settings: environment", 30, harness.settings),
        ]
        kept: list[tuple[str, Callable[[Tally], object]]] = [
            ("kept: report paths", lambda tally: paths.section(tally, args.seed)),
            ("kept: two workers, PID namespaces and clocks apart", lambda tally: workers.section(tally, args.seed)),
            ("kept: SIGTERM in tmux", lambda tally: signals.section(tally, args.seed)),
            ("kept: keys, redirects and endpoints", lambda tally: keys.section(tally, args.seed)),
            ("kept: bounded settings", lambda tally: bounds.section(tally, args.seed)),
            ("kept: old formats", lambda tally: formats.section(tally, args.seed)),
        ]
        if args.ways != "kept":
            harness.make_baseline()
            for number, (name, weight, body) in enumerate(ways):
                harness.way(name, weight / sum(w for _, w, _ in ways[number:]), body)
        if args.ways != "inputs":
            for name, section in kept:
                harness.way(name, 1.0, section)
        run = f"{'quick' if args.quick else 'full'} run"
        run += "" if args.ways == "all" else f" of the {args.ways} ways only"
        print(table(harness.tallies, args.seed, run, time.monotonic() - began))
        print("\n" + kept_line(harness.tallies))
        if args.ways != "kept":
            print("Replies' peak RSS growth: " + ", ".join(f"{kind} +{mb:.0f} MB" for kind, mb in memory.items()))
            print("The long game's RSS: " + (", ".join(f"{mb:.1f} MB at {turns:,} turns"
                                                       for turns, mb in pipe_mb.items())
                                             or "not measured (stopped before the first checkpoint)"))
        if args.figures or args.before:
            print("\n" + replies.figures_table(args.before))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

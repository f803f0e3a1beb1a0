"""Two workers in separate PID namespaces and under faketime: shared tournaments as containers on one
host run them, and what they leave.

    .venv/bin/python bench/hostile/hostile_workers.py [--seed N ...]

Each case is one tournament of rule agents (builtin, random, wait: no network) on one results.db in a
fresh XDG_DATA_HOME, its contestants, games, first seed, ground, turn limit and concurrency drawn from
the seed, run by real `labyrinth tournament --json` processes started together: two workers each in a
PID namespace of its own (`unshare -pf --mount-proc`, after a drawn number of spacer commands so their
PIDs differ, as in tests/agents/compete/test_shared_workers.py, whose prefix this uses), one worker whose clock
`faketime` sets 300 s ahead and one 300 s behind, a namespaced worker with a clock-shifted one, three at
once (a namespace, a shifted clock and one more of any kind: two namespaces may then give equal PIDs).
In the last case a worker in a namespace or under faketime, playing two or three matches at once (its
process pool's queued matches claimed too), is killed (SIGKILL to its whole process group) once a
drawn number of replays were begun and one is half written; another then finishes the tournament alone
with a short lease (SHORT_LEASE_S, set as results_db.LEASE_S in its process as
tests/agents/compete/test_tournament.py sets it: the product has no other hook, and a short lease beside a live
worker would take its claims, as the live worker renews them only every 20 s).

The replays folder is polled every WATCH_S while the workers run, keeping every file ever seen (with
its inode). What the product may remove (saves/results_db.py, agents/compete/tournament.py, README's
"Shared work"): a worker's own attempt after another took its claim over (it stalled past the lease),
and an abandoned attempt's file (a worker stopped by Ctrl-C or a quota). Neither can happen here: no
worker is stopped gently, none stalls for the 120 s lease, and a killed worker abandons nothing (its
partial replay is to be left where it is). So every file seen that is gone (or replaced) at the end
breaks the contract. A case is judged:

- crashes: a traceback, or a worker dead by a signal (other than the one killed);
- hangs: a worker with no end within LIMIT_S;
- deleted: each row's replay that is not there, and each file seen that is gone or replaced;
- wrong: a match played twice while its owner lived (the workers' `played` adding up to more than the
  rows, a key twice, more replay files than rows apart from the killed worker's partial ones), rows
  that are not every key once, `played` adding up to fewer than the rows, a row naming a replay that is
  not its finished game, a worker that did not end with exit 0 and every match played, a finisher that
  played other than what the killed worker had not kept, a killed worker's claim taken over before the
  lease.

``section`` counts the cases into a hostile_watch.Tally, for bench/hostile/hostile.py; run alone, this prints
each case and the totals. Without unshare (as root) or faketime, the cases that need it are said and
not counted.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, TextIO

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the root, for tests.agents.compete.test_shared_workers

from hostile_watch import Tally, run_alone  # bench/hostile/ is on sys.path, as this file runs as a script

from labyrinth.saves.replays import ReplayError, read_replay
from labyrinth.saves.results_db import RESULTS_FILE, MatchRow, ResultsDB, ResultsUnusable
from tests.agents.compete.test_shared_workers import in_namespace, unshared

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
USERS, MINOTAURS, PRESETS = ("builtin", "random"), ("builtin", "wait"), ("tiny", "small")
LEAST_MATCHES = 12  # a tournament smaller than this is over before two workers have met
LIMIT_S = 40.0  # a worker that has not ended by then never would (each takes a few seconds, loaded)
WATCH_S = 0.05  # how often the replays folder is looked at
KILL_POLL_S = 0.01  # how often the killer looks for a match half written
SHORT_LEASE_S = 4.0  # the finisher's lease: longer than its start, so a takeover without one shows
FINISHER = ("import sys; from labyrinth.saves import results_db; results_db.LEASE_S = float(sys.argv[1]); "
            "from labyrinth.tui.cli import main; sys.exit(main(sys.argv[2:]))")


@dataclass(frozen=True)
class Worker:
    """How one worker is started: in a PID namespace of its own after ``spacers`` commands (None: the
    host's), with its clock set ``shift`` seconds off by faketime."""

    spacers: int | None = None
    shift: int = 0

    @property
    def label(self) -> str:
        parts = [f"own PID namespace ({self.spacers} spacers)" if self.spacers is not None else "",
                 f"clock {self.shift:+d} s" if self.shift else ""]
        return " and ".join(part for part in parts if part) or "plain"

    def prefix(self) -> list[str]:
        return [*(in_namespace(self.spacers) if self.spacers is not None else []),
                *(["faketime", "-f", f"{self.shift:+d}s"] if self.shift else [])]

    def needs(self) -> set[str]:
        return ({"unshare"} if self.spacers is not None else set()) | ({"faketime"} if self.shift else set())


@dataclass(frozen=True)
class Rules:
    """The tournament every worker of a case runs."""

    users: tuple[str, ...]
    minotaurs: tuple[str, ...]
    games: int
    first_seed: int
    preset: str
    max_turns: int
    concurrency: int

    @property
    def size(self) -> int:
        return len(self.users) * len(self.minotaurs) * self.games

    def args(self) -> list[str]:
        return ["tournament", "--users", ",".join(self.users), "--minotaurs", ",".join(self.minotaurs),
                "--games", str(self.games), "--seed", str(self.first_seed), "--preset", self.preset,
                "--max-turns", str(self.max_turns), "--concurrency", str(self.concurrency), "--no-memory", "--json"]

    @property
    def label(self) -> str:
        return (f"{'+'.join(self.users)} vs {'+'.join(self.minotaurs)}, {self.games} games from seed "
                f"{self.first_seed}, {self.preset}, {self.max_turns} turns, concurrency {self.concurrency}")


@dataclass(frozen=True)
class Case:
    what: str
    workers: tuple[Worker, ...]
    rules: Rules
    kill_after: int = 0  # >0: the first worker is killed once this many replays were begun, the second then finishes

    @property
    def label(self) -> str:
        return f"{self.what}: {', '.join(w.label for w in self.workers)}"

    def needs(self) -> set[str]:
        return set().union(*(worker.needs() for worker in self.workers))


def cases(seed: int) -> list[Case]:
    """The cases of one seed: namespaces, clocks ahead and behind, a mix, three at once, a kill."""
    draw = random.Random(f"hostile-workers:{seed}")

    def rules() -> Rules:
        users = tuple(draw.sample(USERS, draw.randint(1, len(USERS))))
        minotaurs = tuple(draw.sample(MINOTAURS, draw.randint(1, len(MINOTAURS))))
        least = -(-LEAST_MATCHES // (len(users) * len(minotaurs)))
        return Rules(users, minotaurs, draw.randint(least, least + 4), draw.randint(1, 10_000), draw.choice(PRESETS),
                     draw.randint(60, 200), draw.randint(1, 2))

    def namespaced() -> Worker:
        return Worker(spacers=draw.randint(0, 4))

    def shifted() -> Worker:
        return Worker(shift=draw.choice((300, -300)))

    apart = draw.sample(range(5), 2)  # two namespaces whose workers' PIDs differ
    return [Case("two in PID namespaces", (Worker(apart[0]), Worker(apart[1])), rules()),
            Case("one clock ahead", (Worker(), Worker(shift=300)), rules()),
            Case("one clock behind", (Worker(), Worker(shift=-300)), rules()),
            Case("a namespace and a clock", (namespaced(), shifted()), rules()),
            Case("three at once", (namespaced(), shifted(), draw.choice((Worker(), namespaced(), shifted()))), rules()),
            Case("one killed -9, another finishes", (draw.choice((namespaced(), shifted())),
                                                     draw.choice((Worker(), namespaced(), shifted()))),
                 killed := replace(rules(), concurrency=draw.randint(2, 3)), draw.randint(2, killed.size // 3))]


class Watch(threading.Thread):
    """Every file seen in ``folder`` while it runs: its inode and when it was first seen."""

    def __init__(self, folder: Path) -> None:
        super().__init__(daemon=True)
        self.folder, self.over = folder, threading.Event()
        self.seen: dict[str, tuple[int, float]] = {}

    def run(self) -> None:
        while not self.over.wait(WATCH_S):
            self.look()

    def look(self) -> None:
        for name, inode in files(self.folder).items():
            self.seen.setdefault(name, (inode, time.monotonic()))

    def stop(self) -> None:
        self.over.set()
        self.join()
        self.look()


def files(folder: Path) -> dict[str, int]:
    """The files of ``folder`` and their inodes (none when it is not there yet)."""
    try:
        with os.scandir(folder) as entries:
            return {entry.name: entry.inode() for entry in entries}
    except FileNotFoundError:
        return {}


@dataclass
class Started:
    """A worker process, its output going to files."""

    worker: Worker
    process: subprocess.Popen
    out: TextIO
    err: TextIO
    began: float = field(default_factory=time.monotonic)

    def said(self) -> tuple[str, str]:
        """What it wrote to its standard output and error, once it has ended."""
        told = []
        for stream in (self.out, self.err):
            stream.seek(0)
            told.append(stream.read())
            stream.close()
        return told[0], told[1]


KINDS = ("crashes", "hangs", "wrong", "deleted")  # the faults a case counts (hostile_watch.FAILURE_NAMES)


@dataclass
class Outcome:
    """What a case left and what is wrong with it, by kind (hostile_watch.FAILURE_NAMES)."""

    case: Case
    played: list[int | None] = field(default_factory=list)  # each worker's `played` (None: killed, or unsaid)
    rows: int = 0
    replays: int = 0  # replay files at the end
    partial: int = 0  # the killed worker's partial replays, left
    taken_over: int = 0  # the killed worker's claims the finisher took over
    seconds: float = 0.0
    problems: dict[str, list[str]] = field(default_factory=lambda: {kind: [] for kind in KINDS})


def start(worker: Worker, command: list[str], env: dict[str, str], home: Path, name: str) -> Started:
    # open for the worker's life: Started.said closes them
    out, err = (open(home / f"{name}.{kind}", "w+", encoding="utf-8") for kind in ("out", "err"))  # noqa: SIM115
    process = subprocess.Popen([*worker.prefix(), *command], stdout=out, stderr=err, env=env, start_new_session=True)
    return Started(worker, process, out, err)


def kill(started: Started) -> None:
    """SIGKILL to the worker and every process it started (its process group: namespace, pool)."""
    try:
        os.killpg(started.process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    started.process.wait()


def ended(started: Started, deadline: float, outcome: Outcome, name: str) -> dict[str, Any] | None:
    """Wait for the worker until ``deadline``; its JSON once it ended well, its faults counted."""
    try:
        started.process.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        outcome.problems["hangs"].append(f"{name} had not ended after {LIMIT_S:g} s")
        kill(started)
        started.said()
        return None
    out, err = started.said()
    code = started.process.returncode
    if "Traceback (most recent call last)" in err or code < 0 or code > 128:
        last = err.strip().splitlines()[-1] if err.strip() else ""
        outcome.problems["crashes"].append(f"{name} ended with status {code}: {last}")
        return None
    try:
        said = json.loads(out)
    except ValueError:
        said = None
    if code != 0 or not isinstance(said, dict) or said.get("complete") is not True:
        outcome.problems["wrong"].append(f"{name}: status {code}, not every match played: "
                                         f"{(err.strip().splitlines() or [''])[-1]}")
        return said if isinstance(said, dict) else None
    return said


def half_written(folder: Path) -> bool:
    """Whether a replay in ``folder`` is a match still being played (no final line yet)."""
    for name in files(folder):
        try:
            if read_replay(folder / name).end is None:
                return True
        except ReplayError:
            return True  # created, its header not yet written
    return False


def claims(database: Path) -> dict[str, str | None]:
    """The live claims of the database (match id: the replay its attempt writes)."""
    with sqlite3.connect(database) as db:
        return dict(db.execute("SELECT match, replay FROM claims WHERE NOT abandoned").fetchall())


def rows_of(database: Path) -> list[MatchRow]:
    if not database.exists():
        return []
    with ResultsDB(database, read_only=True) as db:
        return db.matches()


def run_case(case: Case) -> Outcome:
    """Run the case's workers on one fresh data directory and judge what they left."""
    home = Path(tempfile.mkdtemp(prefix="labyrinth-workers-"))
    env = {**os.environ, "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config")}
    data = home / "data" / "labyrinth"
    database, folder = data / RESULTS_FILE, data / "replays" / "tournament"
    outcome, watch = Outcome(case), Watch(folder)
    began = time.monotonic()
    watch.start()
    try:
        command = [LABYRINTH, *case.rules.args()]
        killing = None
        if case.kill_after:
            killing = killed_then_finished(case, command, env, home, folder, database, outcome)
            said = [None, killing.finisher]
        else:
            workers = [start(worker, command, env, home, f"w{n}") for n, worker in enumerate(case.workers)]
            deadline = time.monotonic() + LIMIT_S
            said = [ended(w, deadline, outcome, f"worker {n + 1} ({w.worker.label})") for n, w in enumerate(workers)]
        watch.stop()
        judge(outcome, rows_of(database), said, folder, watch, killing)
    except (OSError, sqlite3.Error, ResultsUnusable) as error:
        outcome.problems["wrong"].append(f"{type(error).__name__}: {error}")
    finally:
        watch.over.set()
        shutil.rmtree(home, ignore_errors=True)
    outcome.seconds = time.monotonic() - began
    return outcome


@dataclass(frozen=True)
class Kill:
    """What a killed worker left, and the worker that finished after it."""

    left: set[str]  # the files of the replays folder just after the kill
    claims: set[str]  # the matches it held (MatchKey.id) without a row
    finisher: dict[str, Any] | None  # the finisher's JSON (None: it failed)
    finisher_began: float  # when the finisher was started (time.monotonic)


def killed_then_finished(case: Case, command: list[str], env: dict[str, str], home: Path, folder: Path,
                         database: Path, outcome: Outcome) -> Kill:
    """The first worker, killed once ``case.kill_after`` replays were begun and one is half written; then the
    second, alone, with a short lease."""
    victim = start(case.workers[0], command, env, home, "killed")
    deadline = time.monotonic() + LIMIT_S
    while victim.process.poll() is None and time.monotonic() < deadline:
        if len(files(folder)) >= case.kill_after and half_written(folder):
            break
        time.sleep(KILL_POLL_S)
    if victim.process.poll() is None:
        kill(victim)
        victim.said()
    else:
        ended(victim, deadline, outcome, "the worker to be killed (it ended first)")
    left = set(files(folder))
    kept = {row.key.id for row in rows_of(database)}
    held = set(claims(database)) - kept if database.exists() else set()
    finisher = start(case.workers[1], [sys.executable, "-c", FINISHER, str(SHORT_LEASE_S), *command[1:]], env, home,
                     "finisher")
    said = ended(finisher, time.monotonic() + LIMIT_S, outcome, f"the finisher ({case.workers[1].label})")
    if said is not None and said.get("played") != case.rules.size - len(kept):
        outcome.problems["wrong"].append(f"the finisher played {said.get('played')}, not the "
                                         f"{case.rules.size - len(kept)} the killed worker had not kept")
    return Kill(left, held, said, finisher.began)


def judge(outcome: Outcome, rows: list[MatchRow], said: list[dict[str, Any] | None], folder: Path, watch: Watch,
          killing: Kill | None) -> None:
    """Count what is wrong with what the workers left: ``rows``, their JSON (``said``), the files of ``folder``
    (``watch``: every one seen), and what a killed worker left (``killing``)."""
    rules, problems = outcome.case.rules, outcome.problems
    now = files(folder)
    outcome.rows, outcome.replays = len(rows), len(now)
    outcome.played = [s.get("played") if s else None for s in said]
    played = [p for p in outcome.played if isinstance(p, int)]
    expected = {(user, minotaur, seed) for user in rules.users for minotaur in rules.minotaurs
                for seed in range(rules.first_seed, rules.first_seed + rules.games)}
    keys = [(row.user, row.minotaur, row.seed) for row in rows]
    if len(keys) != len(set(keys)) or set(keys) != expected:
        problems["wrong"].append(f"{len(keys)} rows of {len(set(keys))} keys, not the {len(expected)} keys once")
    if len(played) == len(said) and sum(played) != len(rows):
        problems["wrong"].append(f"the workers played {'+'.join(map(str, outcome.played))}, for {len(rows)} rows")
    named = {Path(row.replay).name for row in rows if row.replay}
    gone = {name for name, (inode, _) in watch.seen.items() if now.get(name) != inode}
    for name in sorted(gone | {name for name in named if name not in now}):
        problems["deleted"].append(f"{name} {'(a row names it) ' if name in named else ''}is gone"
                                   f"{'' if name in watch.seen else ', never seen'}")
    for row in rows:
        if not row.replay:
            problems["wrong"].append(f"{row.user} vs {row.minotaur} seed {row.seed}: the row names no replay")
        elif Path(row.replay).name in now and (why := not_its_game(row)):
            problems["wrong"].append(f"{Path(row.replay).name}: {why}")
    partial = (killing.left if killing else set()) - named
    outcome.partial = len(partial & set(now))
    extra = set(now) - named - partial
    if extra:
        problems["wrong"].append(f"{len(extra)} replay files beyond the rows' (a match played twice): "
                                 f"{', '.join(sorted(extra)[:3])}")
    if killing:
        taken_over(outcome, rows, watch, killing)


def taken_over(outcome: Outcome, rows: list[MatchRow], watch: Watch, killing: Kill) -> None:
    """Count the killed worker's claims the finisher took over, and those it took within the lease: the
    finisher's replay of such a match (the one its row names) first seen less than the lease after it started."""
    by_match = {row.key.id: row for row in rows}
    for match in killing.claims:
        finished = by_match.get(match)
        name = Path(finished.replay).name if finished and finished.replay else ""
        if name in watch.seen:
            outcome.taken_over += 1
            if (after := watch.seen[name][1] - killing.finisher_began) < SHORT_LEASE_S:
                outcome.problems["wrong"].append(f"a killed worker's claim taken over {after:.2f} s after the "
                                                 f"finisher started, within its {SHORT_LEASE_S:g} s lease")


def not_its_game(row: MatchRow) -> str | None:
    """Why ``row``'s replay is not the finished game the row keeps; None when it is."""
    try:
        replay = read_replay(Path(row.replay or ""))
    except ReplayError as error:
        return str(error)
    if replay.end is None:
        return "the row names a replay without its end (a partial attempt)"
    header = replay.header
    if (header.user_agent, header.minotaur_agent, header.seed, replay.end.outcome, replay.end.turns) != \
            (row.user, row.minotaur, row.seed, row.outcome, row.turns):
        return "the row names the replay of another game"
    return None


@cache
def have() -> dict[str, bool]:
    """What this machine has of what the cases need."""
    return {"unshare": unshared(), "faketime": bool(shutil.which("faketime"))}


def missing(case: Case) -> set[str]:
    """What the case needs that this machine has not."""
    return {need for need in case.needs() if not have()[need]}


def section(tally: Tally, seed: int, say: Callable[[str], None] = lambda _: None) -> None:
    """The cases of ``seed`` counted into ``tally`` (one tried each, each fault counted by its kind); ``say``
    hears a line per case."""
    for case in cases(seed):
        if lacking := missing(case):
            said = f"{case.label}: not run, needs {' and '.join(sorted(lacking))}"
            say(said)
            tally.failures.append(said)  # shown under the table, though not counted
            continue
        tally.count()
        outcome = run_case(case)
        for kind, found in outcome.problems.items():
            for detail in found:
                tally.fail(kind, case.label, detail)
        faults = "; ".join(f"{len(found)} {kind} ({found[0]}{', ...' if len(found) > 1 else ''})"
                           for kind, found in outcome.problems.items() if found)
        killed = (f", {outcome.partial} partial replays left, {outcome.taken_over} claims taken over"
                  if case.kill_after else "")
        say(f"{case.label} ({case.rules.label}): played "
            f"{'+'.join('-' if p is None else str(p) for p in outcome.played)}, {outcome.rows} rows, "
            f"{outcome.replays} replay files{killed}, {outcome.seconds:.1f} s: {faults or 'ok'}")


def main() -> int:
    def lines(tally: Tally, seed: int) -> list[str]:
        said: list[str] = []
        section(tally, seed, said.append)
        return said

    return run_alone(__doc__, "two workers in PID namespaces and under faketime", lines)


if __name__ == "__main__":
    sys.exit(main())

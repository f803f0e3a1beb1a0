"""The arena: its summary, its determinism over processes, the Wilson interval
and the `labyrinth arena` command line."""

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from labyrinth.agents.compete.arena import ArenaSettings, run_arena
from labyrinth.agents.compete.intervals import wilson_interval
from labyrinth.engine.schemas import OUTCOMES
from tests.command_line import labyrinth
from tests.fronts import assert_own_play

pytestmark = pytest.mark.slow

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
JSON_KEYS = {"games", "escaped", "death", "timeout", "escape_rate", "mean_turns", "mean_game_time",
             "fallbacks", "errors", "invalid", "provider_errors", "exceptions", "timeouts", "late_turns", "calls",
             "plan_calls", "lesson_calls", "answered", "answer_s", "tokens_in", "tokens_out", "reasoning_tokens",
             "quota_waits", "quota_wait_s", "pace_waits", "pace_wait_s", "mean_latency_s", "replaced", "reflections",
             "wall_s", "results", "planned", "played", "complete", "stopped", "void", "health"}
# the clock's, not the game's: they differ from run to run
TIMED = {"wall_s", "mean_latency_s", "answer_s", "quota_wait_s", "pace_wait_s"}
SMALL = {"preset": "small", "max_turns": 150}


def _figures(summary) -> list[tuple]:
    """What a match decided, without the wall-clock timings."""
    return [(r.seed, r.outcome, r.turns, r.game_time, r.user.decisions, r.user.fallbacks, r.user.errors,
             r.minotaur.decisions, r.minotaur.fallbacks) for r in summary.results]


@pytest.mark.parametrize(("successes", "trials", "low", "high"), [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", method 3.
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (5, 10, 0.2366, 0.7634),
])
def test_wilson_interval_matches_published_values(successes, trials, low, high):
    assert wilson_interval(successes, trials) == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_mirrors_and_stays_in_bounds():
    low, high = wilson_interval(3, 17)
    assert wilson_interval(14, 17) == pytest.approx((1 - high, 1 - low))
    assert wilson_interval(20, 20)[1] == 1.0 and wilson_interval(20, 20)[0] > 0.8
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_builtin_summary_adds_up():
    heard = []
    summary = run_arena(ArenaSettings(**SMALL), range(1, 5), on_result=heard.append)
    assert [r.seed for r in summary.results] == [1, 2, 3, 4] and heard == list(summary.results)
    assert sum(summary.count(o) for o in OUTCOMES) == summary.games == 4
    assert summary.escape_rate == summary.count("ESCAPED") / 4
    low, high = summary.escape_interval
    assert low <= summary.escape_rate <= high
    assert summary.mean_turns == sum(r.turns for r in summary.results) / 4
    assert summary.mean_game_time == sum(r.game_time for r in summary.results) / 4
    for r in summary.results:
        assert r.user_agent == r.minotaur_agent == "builtin" and r.preset == "small"
        assert r.outcome in OUTCOMES and 0 < r.turns <= 150
        assert r.turns == 150 if r.outcome == "TIMEOUT" else r.turns <= 150
    # The built-in agents always answer with a valid action.
    assert summary.per_side("fallbacks") == {"user": 0, "minotaur": 0}
    data = summary.to_dict()
    assert set(data) == JSON_KEYS and data["games"] == 4 and data["fallbacks"] == summary.per_side("fallbacks")
    assert data["escaped"] + data["death"] + data["timeout"] == 4


def test_naive_agents_play_through_the_arena():
    summary = run_arena(ArenaSettings("random", "wait", **SMALL), range(1, 5))
    assert [r.seed for r in summary.results] == [1, 2, 3, 4]
    for r in summary.results:
        assert (r.user_agent, r.minotaur_agent) == ("random", "wait")
        assert r.user.decisions == r.minotaur.decisions == r.turns
        # Both played their own turns (a decide that raised counts as a decision too). The random walker
        # answers valid actions only (an open direction, 1 to 12 steps; a GRAB of what is in reach): the
        # game may refuse one (an ERROR: its play, counted in errors); only three in a row would give the
        # turn to the fallback, which these seeds never have.
        assert_own_play(r.user, r.minotaur)


def test_recorder_factory_gets_each_seed_and_sees_each_match():
    class Recorder:
        def __init__(self, seed):
            self.seed, self.turns, self.result = seed, 0, None

        def start(self, match):
            assert match.seed == self.seed

        def turn(self, record):
            self.turns += 1

        def finish(self, result):
            self.result = result

        def close(self):
            self.closed = True

    made = []
    summary = run_arena(ArenaSettings(preset="small", max_turns=20), [4, 9],
                        recorder_factory=lambda seed: made.append(Recorder(seed)) or made[-1])
    assert [r.seed for r in made] == [4, 9]
    assert [(r.turns, r.result) for r in made] == [(m.turns, m) for m in summary.results]
    assert all(r.closed for r in made)


def test_jobs_change_the_time_not_the_results():
    settings = ArenaSettings(preset="small", max_turns=120)
    one = run_arena(settings, range(11, 16), jobs=1)
    heard = []
    two = run_arena(settings, range(11, 16), jobs=2, on_result=heard.append)
    assert _figures(one) == _figures(two)
    assert sorted(r.seed for r in heard) == list(range(11, 16))


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([LABYRINTH, "arena", *args], capture_output=True, text=True, timeout=120, check=False)


def test_cli_json_is_one_object_with_the_documented_keys_and_the_in_process_results():
    done = _cli("--games", "3", "--seed", "5", "--preset", "small", "--max-turns", "150", "--jobs", "2", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)  # the whole of stdout: one JSON object, nothing else
    assert set(data) == JSON_KEYS
    assert all(set(r) == {"seed", "outcome", "turns", "game_time"} for r in data["results"])
    assert set(data["fallbacks"]) == set(data["errors"]) == {"user", "minotaur"}
    # Another interpreter (another hash seed), two processes: the same matches as here.
    here = run_arena(ArenaSettings(**SMALL), range(5, 8)).to_dict()  # nobody learns unless asked
    assert data["results"] == here["results"]
    assert {k: data[k] for k in JSON_KEYS - TIMED} == {k: here[k] for k in JSON_KEYS - TIMED}


def test_cli_table_through_a_pipe_has_no_progress_bar():
    done = _cli("--games", "2", "--preset", "small", "--user", "random", "--minotaur", "wait", "--max-turns", "40")
    assert done.returncode == 0, done.stderr
    assert "random user vs wait Minotaur" in done.stdout and "escape rate" in done.stdout
    assert done.stderr == ""  # where the progress bar would have gone


def test_cli_on_a_terminal_draws_progress_then_the_table():
    leader, follower = pty.openpty()
    args = [LABYRINTH, "arena", "--games", "3", "--preset", "small", "--max-turns", "40"]
    env = {**os.environ, "TERM": "xterm"}
    with subprocess.Popen(args, stdin=follower, stdout=follower, stderr=follower, env=env) as proc:
        os.close(follower)
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 1 << 16)
            except OSError:  # the terminal closed: the command is done
                break
            if not chunk:
                break
            seen += chunk
    os.close(leader)
    assert proc.returncode == 0, seen.decode(errors="replace")
    text = seen.decode(errors="replace")
    assert "arena" in text and "3/3" in text  # the progress bar, with its count
    assert "matches per second" in text


@pytest.mark.parametrize("args", [["--games", "0"], ["--jobs", "-1"], ["--games", "two"], ["--user", "nobody"],
                                  ["--minotaur", "builtin2"], ["--preset", "huge"], ["--seed", "x"]])
def test_cli_rejects_bad_arguments(args):
    done = labyrinth("arena", *args)  # the parser, in this process: the command runs as a process above
    assert done.returncode == 2 and "usage: labyrinth arena" in done.stderr and done.stdout == ""


def test_cli_replays_one_file_per_match_from_every_process(tmp_path):
    from labyrinth.saves.replays import first_mismatch, read_replay

    done = _cli("--games", "3", "--seed", "2", "--preset", "small", "--max-turns", "60", "--jobs", "2",
                "--replays", str(tmp_path), "--json")
    assert done.returncode == 0, done.stderr
    results = {r["seed"]: r for r in json.loads(done.stdout)["results"]}
    replays = [read_replay(path) for path in sorted(tmp_path.glob("*.jsonl"))]
    assert sorted(r.header.seed for r in replays) == [2, 3, 4]
    for replay in replays:
        recorded = results[replay.header.seed]
        assert (replay.end.outcome, replay.end.turns) == (recorded["outcome"], recorded["turns"])
        assert first_mismatch(replay) is None


def test_a_run_in_this_process_shows_each_matchs_agents_and_the_progress_line_their_quota_waits():
    from labyrinth.agents.llm.providers.pacing import Waiting
    from labyrinth.agents.match.schedule import Progress
    from labyrinth.tui.commands.arena_run import _waits_column
    from tests.stubs import FakeClock, ModelStandIn

    clock = FakeClock()
    playing = Progress()
    waiting = Waiting("gemini is rate-limited", clock.now + 47.3, clock)
    playing.in_flight[1] = {"user": ModelStandIn(), "minotaur": ModelStandIn(waiting=waiting)}
    column = _waits_column(playing)
    assert column.render(None).plain == "gemini is rate-limited: waiting 47 s (1 waiting)"
    clock.sleep(10)
    assert column.render(None).plain == "gemini is rate-limited: waiting 37 s (1 waiting)"
    playing.in_flight[1]["minotaur"].waiting = None
    assert column.render(None).plain == ""

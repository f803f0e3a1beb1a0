"""The command line with model agents, against stub servers: `doctor`, the arena's
token and latency figures, `gsm` with a model on either side, and clear refusals
when a provider has no key. No key is ever printed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import labyrinth.agents
from labyrinth.agents.compete.health import EXIT_INCOMPLETE
from labyrinth.engine import MinotaurObservation
from tests.stubs import Model, Stub

pytestmark = pytest.mark.slow

LABYRINTH = str(Path(sys.executable).with_name("labyrinth"))
KEY = "sk-cli-do-not-print"


def run(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([LABYRINTH, *args], input=stdin, capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})}, check=False)


@pytest.fixture
def stubs():
    servers = {p: Stub(Model(p, {3: "garbage"})) for p in ("gemini", "mistral", "ollama", "openai")}
    yield servers
    for server in servers.values():
        server.close()


def environment(stubs) -> dict[str, str]:
    return {"GEMINI_API_KEY": KEY, "GOOGLE_GEMINI_BASE_URL": stubs["gemini"].url, "MISTRAL_API_KEY": KEY,
            "MISTRAL_BASE_URL": stubs["mistral"].url, "OLLAMA_HOST": stubs["ollama"].url,
            "OPENAI_BASE_URL": stubs["openai"].url + "/v1"}  # a server of one's own: no key


def test_doctor_checks_each_endpoint_and_never_prints_a_key(stubs):
    done = run("doctor", "--mistral-model", "test-mistral-model", env=environment(stubs))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "key from GEMINI_API_KEY" in out and "key from MISTRAL_API_KEY" in out and KEY not in out + done.stderr
    assert "check ok: models/gemini-2.5-flash answers" in out
    assert "check ok: 2 models; test-mistral-model available" in out
    assert "check ok: 1 models; qwen3:8b present" in out
    assert f"openai   model gpt-4o-mini, endpoint {stubs['openai'].url}/v1, no key" in out
    assert "check ok: 2 models; gpt-4o-mini available" in out
    # Ours, under our namespace: the sources themselves (a strict editable install's links resolved).
    assert f"labyrinth.agents  0.1.0    {Path(labyrinth.agents.__file__).resolve().parent}" in out
    assert "config file" in out and "replays" in out
    paths = [r["path"] for s in stubs.values() for r in s.requests]
    assert sorted(paths) == ["/api/tags", "/v1/models", "/v1/models", "/v1beta/models/gemini-2.5-flash"]  # cheap only
    assert out.rstrip().endswith("No problems found.")


def test_doctor_counts_a_mistral_model_of_a_kind_the_sdk_does_not_know():
    """The SDK keeps a listed model of a new kind as its raw JSON, without ``id``: its id is read from
    that JSON (reading ``.id`` raised AttributeError and the check failed)."""
    from mistralai.client.models import BaseModelCard, UnknownModelListData

    from labyrinth.agents.llm.providers.mistral import model_id

    known = BaseModelCard(id="mistral-small-latest", capabilities={"completion_chat": True})
    assert model_id(known) == "mistral-small-latest"
    assert model_id(UnknownModelListData(raw={"id": "next-kind-model", "type": "agent"})) == "next-kind-model"
    assert model_id(UnknownModelListData(raw=["no", "id"])) is None


def test_doctor_says_what_is_missing_and_what_fails():
    """A provider not configured is a choice; an endpoint that fails its check is a problem: exit 1."""
    done = run("doctor", "--ollama-url", "http://127.0.0.1:9", "--llm-timeout", "2")
    assert done.returncode == 1, done.stderr
    assert done.stdout.rstrip().endswith("Problems: 1 (ollama)")
    assert "gemini   not configured: set GEMINI_API_KEY or GOOGLE_API_KEY" in done.stdout
    assert "check FAILED: ollama is not reachable at http://127.0.0.1:9" in done.stdout
    assert "check" not in done.stdout.split("mistral", 1)[1].split("ollama", 1)[0]  # no key: not called


def test_doctor_on_a_fresh_machine_finds_no_problem_whether_or_not_ollama_runs_at_its_default_address():
    """Ollama needs no key, so doctor checks it at its default address on every machine: one that does not
    run it is not broken (a failed check counts where the user set the provider up)."""
    done = run("doctor", "--llm-timeout", "2")
    assert done.returncode == 0, done.stdout
    assert done.stdout.rstrip().endswith("No problems found.")
    (check,) = [line for line in done.stdout.split("  ollama ", 1)[1].splitlines()[1:2]]
    assert "check ok" in check or check.endswith("(its defaults, not set up here: not counted as a problem)")


@pytest.mark.parametrize("host", [":::", "h:99999", "http://[zz]", "ⓐ.example"])
def test_an_ollama_host_its_client_cannot_read_is_one_line_of_doctor_and_never_a_traceback(host):
    """Importing the ollama SDK builds a client from $OLLAMA_HOST: a bad one raised out of the import
    (in doctor's list of packages, and when a flag gave another endpoint)."""
    done = run("doctor", "--offline", env={"OLLAMA_HOST": host})
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if "OLLAMA_HOST" in line]
    assert line.startswith("  ollama   cannot be read: the ollama endpoint from $OLLAMA_HOST (")
    assert "site-packages/ollama" in done.stdout  # the package is listed all the same
    overridden = run("gsm", "--seed", "3", "--preset", "tiny", "--user", "ollama", "--ollama-url", "http://127.0.0.1:9",
                     env={"OLLAMA_HOST": host})
    assert overridden.returncode == 0 and "Traceback" not in overridden.stderr, overridden.stderr


def test_arena_reports_tokens_fallbacks_and_latency_per_role(stubs, tmp_path):
    done = run("arena", "--games", "2", "--preset", "tiny", "--max-turns", "6", "--user", "mistral",
               "--minotaur", "gemini", "--json", "--replays", str(tmp_path), env=environment(stubs))
    # each stub's third answer is garbage: 1 fallback in a 6-turn match is more than 10%, so that match is void
    assert done.returncode == EXIT_INCOMPLETE and "seed 1: void: 1 of the user's 6 turns" in done.stderr
    data = json.loads(done.stdout)
    assert data["played"] == 2 and data["games"] == 1 and [v["seed"] for v in data["void"]] == [1]
    for role in ("user", "minotaur"):
        assert data["tokens_in"][role] > 0 and data["tokens_out"][role] > 0
        assert data["mean_latency_s"][role] > 0 and data["replaced"][role] == 0
    assert data["invalid"] == {"user": 1, "minotaur": 1}  # each stub's third request is garbage
    replays = list(tmp_path.glob("*.jsonl"))
    assert len(replays) == 2 and not [p for p in replays if KEY in p.read_text()]
    turn = json.loads(replays[0].read_text().splitlines()[1])
    assert set(turn["exchanges"]) == {"user", "minotaur"}
    (exchange,) = turn["exchanges"]["user"]  # the one call of the turn (a refused user's re-asks would follow)
    assert {"prompt", "reply", "tokens_in", "tokens_out", "latency_s"} <= set(exchange)
    table = run("arena", "--games", "1", "--preset", "tiny", "--max-turns", "4", "--minotaur", "ollama",
                env=environment(stubs))
    assert "tokens in: user / Minotaur" in table.stdout and "mean decision time" in table.stdout


def test_gsm_lets_a_program_play_the_minotaur_against_a_model_user(stubs):
    lines = ['{"action": "WAIT"}', "not json", '{"action": "CHASE"}']
    done = run("gsm", "--seed", "3", "--preset", "tiny", "--user", "ollama", env=environment(stubs),
               stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    out = [MinotaurObservation.model_validate_json(line) for line in done.stdout.splitlines()]
    assert len(out) == 4 and out[0].turn == 0
    assert out[2].status == "ERROR" and "rejected" in out[2].message
    assert out[-1].turn == 2  # two real turns; the bad line cost nothing
    user = run("gsm", "--seed", "3", "--preset", "tiny", "--minotaur", "gemini", env=environment(stubs),
               stdin='{"command": "LOOK"}\n')
    assert user.returncode == 0 and len(user.stdout.splitlines()) == 2


@pytest.mark.parametrize("args", [["arena", "--user", "mistral"], ["gsm", "--minotaur", "gemini"],
                                  ["gsm", "--user", "gemini"]])
def test_a_model_without_a_key_is_refused_with_what_to_set(args):
    done = run(*args, "--preset", "tiny", stdin="")
    assert done.returncode == 2 and "is not configured: set" in done.stderr and "API_KEY" in done.stderr


def test_gsm_takes_one_pipe_side_only():
    done = run("gsm", "--user", "builtin", "--minotaur", "wait")
    assert done.returncode == 2 and "not both" in done.stderr


def test_gsm_says_once_on_stderr_when_its_model_is_replaced():
    garbage = Stub(Model("ollama", {n: "garbage" for n in range(1, 40)}))
    try:
        done = run("gsm", "--seed", "3", "--preset", "tiny", "--user", "ollama", env={"OLLAMA_HOST": garbage.url},
                   stdin='{"action": "WAIT"}\n' * 8)
    finally:
        garbage.close()
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 9  # the pipe's answers go on as before
    said = [line for line in done.stderr.splitlines() if "kept failing" in line]
    assert said == [("labyrinth gsm: the user's model ollama/qwen3:8b kept failing: the built-in agent plays the "
                     "user from now on")]


def test_doctor_lists_an_sdk_once_however_many_providers_speak_through_it():
    """An OpenAI-compatible preset is a row of its own with the openai SDK: doctor finds the SDK once."""
    from dataclasses import replace

    from labyrinth.saves.providers import PROVIDERS
    from labyrinth.tui.commands.doctor_run import packages

    rows = [*PROVIDERS.values(), replace(PROVIDERS["openai"], name="openrouter")]
    found = packages(rows)
    assert len(found) == len(set(found)) and found.count(("openai", PROVIDERS["openai"].distribution)) == 1
    assert set(found) == set(packages(PROVIDERS.values()))


def test_doctor_says_which_optional_extras_are_installed_and_what_goes_without_each(monkeypatch):
    """The [rl] and [fast] extras: their versions when installed; when one is not, what goes without it."""
    import io
    from importlib import metadata

    from labyrinth.tui import cli
    from labyrinth.tui.commands import doctor_run

    args = cli.parser_for(["doctor"]).parse_args(["doctor", "--offline"])
    out = io.StringIO()
    doctor_run.run(args, out)
    extras = out.getvalue().split("Optional extras:\n", 1)[1]
    assert f"[fast]   numba {metadata.version('numba')}" in extras  # the test command installs [fast]
    assert f"[rl]     gymnasium {metadata.version('gymnasium')}, pettingzoo" in extras
    real = metadata.version

    def without_numba(name: str) -> str:
        if name == "numba":
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(doctor_run.metadata, "version", without_numba)
    out = io.StringIO()
    doctor_run.run(args, out)
    assert ("[fast]   not installed (numba): the RL kernel (agents/rl/kernel) runs as plain Python: the same "
            "answers, far slower; pip install -e '.[fast]'") in out.getvalue()


def test_doctor_checks_the_config_files_keys_and_options_as_the_game_reads_them(tmp_path, monkeypatch):
    """A [keys] or [options] entry the game would leave out is named under the config file, one line each."""
    import io

    from labyrinth.tui import cli
    from labyrinth.tui.commands import doctor_run

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    config = tmp_path / "labyrinth" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[keys]\njump = "z"\n\n[options]\ntheme = "bogus"\nmap_margin = 3\n')
    out = io.StringIO()
    assert doctor_run.run(cli.parser_for(["doctor"]).parse_args(["doctor", "--offline"]), out) == 1
    assert out.getvalue().rstrip().endswith("Problems: 1 (the config file)")
    files = out.getvalue().split("Files:\n", 1)[1].split("  data directory", 1)[0].splitlines()
    assert files[0].endswith("config.toml (present)")
    assert [line.strip().split(":")[0] for line in files[1:]] == ["[keys] jump", "[options] theme"]
    config.write_text("[options]\nmap_margin = 3\n")
    out = io.StringIO()
    assert doctor_run.run(cli.parser_for(["doctor"]).parse_args(["doctor", "--offline"]), out) == 0
    assert out.getvalue().split("Files:\n", 1)[1].splitlines()[1].startswith("  data directory")


def test_doctor_exits_1_on_a_broken_config_file_or_a_data_path_that_is_not_a_directory(tmp_path, monkeypatch):
    """What the game cannot read or cannot write into is a problem a script sees by the exit status."""
    import io

    from labyrinth.tui import cli
    from labyrinth.tui.commands import doctor_run

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    args = cli.parser_for(["doctor"]).parse_args(["doctor", "--offline"])
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "MISTRAL_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    assert doctor_run.run(args, io.StringIO()) == 0  # nothing created yet: no problem
    config = tmp_path / "config" / "labyrinth" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[options\n")
    out = io.StringIO()
    assert doctor_run.run(args, out) == 1
    assert "(BROKEN: " in out.getvalue() and out.getvalue().rstrip().endswith("Problems: 1 (the config file)")
    config.unlink()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "labyrinth").write_text("not a directory")
    out = io.StringIO()
    assert doctor_run.run(args, out) == 1
    assert "(NOT A DIRECTORY: the game cannot keep its files there)" in out.getvalue()
    assert out.getvalue().rstrip().endswith("Problems: 1 (data directory)")

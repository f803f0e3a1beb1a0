"""A fifth provider is one row: an OpenAI-compatible preset (a gateway with an endpoint, key variable and
default model of its own) added to saves.providers' table plays through the openai SDK, is named by its
row, reads its own variables, sends only its own key, and is one more provider in doctor, with no code of
its own anywhere else. The row is added for the test's length only."""

from __future__ import annotations

from dataclasses import replace

import pytest

from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent, parse_contestant
from labyrinth.saves.providers import PROVIDERS
from labyrinth.tui.commands.doctor_run import packages
from tests.stubs import Model, Stub

ROW = replace(PROVIDERS["openai"], name="gateway", model="house/model-1", url="https://gateway.invalid/api/v1",
              key_variables=("GATEWAY_API_KEY",), url_variable="GATEWAY_BASE_URL", needs_key="always",
              sdk_variables=())


@pytest.fixture
def gateway(monkeypatch):
    """The row in the table, and a stand-in of its API at the endpoint its variable names."""
    monkeypatch.setitem(PROVIDERS, ROW.name, ROW)  # type: ignore[index]  # the table is a dict behind Mapping
    server = Stub(Model(ROW.name))
    monkeypatch.setenv("GATEWAY_BASE_URL", server.url + "/api/v1")
    monkeypatch.setenv("GATEWAY_API_KEY", "gw-key-5")
    monkeypatch.setenv("OPENAI_API_KEY", "openai-key-never-sent")
    yield server
    server.close()


def test_a_provider_row_of_an_sdk_already_here_plays_a_match_named_by_its_row(gateway):
    user = make_agent("user", "gateway", 3)
    assert user.name == "gateway/house/model-1" == parse_contestant("user", "gateway").resolved()
    match = Match(user, make_agent("minotaur", "builtin", 3), seed=3, preset="tiny", max_turns=4)
    match.play()
    chats = [r for r in gateway.requests if r["path"].endswith("/chat/completions")]
    assert chats and all(r["path"].startswith("/api/v1/") for r in chats)  # its endpoint, through the openai SDK
    sent = {v for r in gateway.requests for k, v in r["headers"].items() if k.lower() == "authorization"}
    assert sent == {"Bearer gw-key-5"}  # its own key, on every request
    assert {r["body"]["model"] for r in chats} == {"house/model-1"}
    assert match.stats["user"].answered == len(chats) and match.stats["user"].fallbacks == 0


def test_doctor_finds_the_sdk_once_and_the_names_take_the_row(gateway):
    assert packages(PROVIDERS.values()).count(("openai", "openai")) == 1
    assert parse_contestant("minotaur", "gateway/other-model").resolved() == "gateway/other-model"


CLI_WITH_THE_ROW = """
import sys
from dataclasses import replace
from labyrinth.saves import providers
row = replace(providers.PROVIDERS["openai"], name="gateway", model="house/model-1",
              url="https://gateway.invalid/api/v1", key_variables=("GATEWAY_API_KEY",),
              url_variable="GATEWAY_BASE_URL", needs_key="always", sdk_variables=())
providers.PROVIDERS["gateway"] = row  # as if written in the table: before any other module reads it
from labyrinth.tui.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow
def test_the_row_alone_gives_the_command_line_the_config_file_and_doctor_their_gateway(tmp_path, gateway):
    """The same row, in the table before anything reads it (as in the source): `--gateway-model`, a
    [gateway] table in the config file and doctor's line come from it, and an arena plays through it."""
    import os
    import subprocess
    import sys

    config = tmp_path / "config" / "labyrinth" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[gateway]\ntimeout_s = 20\n')
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}

    def labyrinth(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", CLI_WITH_THE_ROW, *args], capture_output=True, text=True,
                              env=env, timeout=120, check=False)

    doctor = labyrinth("doctor", "--offline")
    assert doctor.returncode == 0, doctor.stderr
    assert "gateway  model house/model-1, endpoint " in doctor.stdout and "key from GATEWAY_API_KEY" in doctor.stdout
    gateway_line = next(line for line in doctor.stdout.splitlines() if line.startswith("  gateway "))
    assert gateway_line.endswith("timeout 20 s")  # its own config table's
    listed = doctor.stdout.split("Packages:")[1]
    assert [line.split()[0] for line in listed.splitlines() if line.strip()].count("openai") == 1  # the SDK once
    played = labyrinth("arena", "--user", "gateway", "--gateway-model", "house/model-2", "--minotaur", "wait",
                       "--games", "1", "--preset", "tiny", "--max-turns", "3", "--no-memory")
    assert played.returncode == 0, played.stderr
    assert {r["body"]["model"] for r in gateway.requests if r["body"]} == {"house/model-2"}

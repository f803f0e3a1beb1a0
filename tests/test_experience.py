"""The experience log: round trips, the cap, a corrupt file kept aside, and two
processes writing at once without losing a reflection."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import saves.experience
from saves.experience import Experience, Reflection, log_path


def reflection(n: int, role: str = "user", outcome: str = "DEATH", **changes) -> Reflection:
    fields = {"id": f"g{n}-{role}", "game_id": f"g{n}", "created_at": "2026-11-21T10:00:00Z", "role": role,
              "agent": "builtin", "outcome": outcome, "key_reflection": f"STRATEGIC REVISION: lesson {n}.",
              "seed": n, "preset": "standard", "turns": 10 + n, "game_time": 60.5, "evidence": {"n": n}}
    return Reflection.model_validate({**fields, **changes})


def test_reflections_round_trip_in_the_user_data_directory(tmp_path):
    log = Experience()
    assert log.path == tmp_path / "data" / "labyrinth" / "experience_log.json" == log_path()
    assert log.read() == []
    log.add([reflection(1), reflection(1, "minotaur", "DEATH")])
    log.add([reflection(2)])
    again = Experience().read()
    assert [r.id for r in again] == ["g1-user", "g1-minotaur", "g2-user"] and again[0] == reflection(1)
    data = json.loads(log.path.read_text())
    assert data["version"] == 1 and set(data["reflections"][0]) >= {
        "id", "game_id", "created_at", "role", "agent", "outcome", "key_reflection", "seed", "preset", "turns",
        "game_time", "evidence"}
    assert log.clear() == 3 and Experience().read() == []


def test_the_log_keeps_only_the_newest(monkeypatch):
    monkeypatch.setattr(saves.experience, "CAP", 5)
    log = Experience()
    log.add([reflection(n) for n in range(4)])
    log.add([reflection(n) for n in range(4, 8)])
    assert [r.seed for r in log.read()] == [3, 4, 5, 6, 7]


@pytest.mark.parametrize("content", [b"{not json", b'{"version": 1, "reflections": [{"id": "x"}]}',
                                     b'{"version": 9, "reflections": []}', b"\xff\xfe\x00"])
def test_a_log_that_cannot_be_read_is_kept_aside_and_a_fresh_one_starts(content):
    log = Experience()
    log.path.parent.mkdir(parents=True)
    log.path.write_bytes(content)
    assert log.read() == []
    notice = log.take_notice()
    assert notice and "could not be read" in notice and "a fresh log was started" in notice
    assert log.take_notice() is None  # told once
    kept = list(log.path.parent.glob("experience_log.corrupt-*.json"))
    assert len(kept) == 1 and kept[0].read_bytes() == content and kept[0].name in notice
    log.add([reflection(1)])
    assert [r.id for r in Experience().read()] == ["g1-user"] and log.take_notice() is None


WRITER = """
import sys
from saves.experience import Experience, Reflection
who = sys.argv[1]
log = Experience()
for n in range(60):
    log.add([Reflection(id=f"{who}-{n}", game_id=f"{who}-{n}", created_at="2026-11-21T10:00:00Z", role="user",
                        agent="builtin", outcome="DEATH", key_reflection="x", seed=n, preset="tiny", turns=1,
                        game_time=1.0)])
"""


def test_two_processes_writing_at_once_lose_nothing():
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, who]) for who in ("a", "b")]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    ids = {r.id for r in Experience().read()}
    assert len(ids) == 120 and {f"a-{n}" for n in range(60)} <= ids and {f"b-{n}" for n in range(60)} <= ids


def test_a_late_reflection_takes_the_place_of_the_one_with_its_id():
    log = Experience()
    log.add([reflection(1), reflection(1, "minotaur"), reflection(2)])
    log.replace([reflection(1, "minotaur", key_reflection="In my own words.", source="model")])
    kept = log.read()
    assert [r.id for r in kept] == ["g1-user", "g1-minotaur", "g2-user"]
    assert kept[1].key_reflection == "In my own words." and kept[1].source == "model"


def test_a_lesson_is_one_line_of_words_whatever_a_model_wrote():
    r = reflection(1, key_reflection="Line one.\n\tIgnore \x1b[31mred\x1b[0m\x00.", agent="gemini/\x1b]0;x\x07m")
    assert r.key_reflection == "Line one. Ignore [31mred [0m ." and r.agent == "gemini/ ]0;x m"

"""The experience log: round trips, the cap, a corrupt file kept aside, and two
processes writing at once without losing a reflection."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labyrinth.saves import experience as experience_module
from labyrinth.saves.experience import Experience, Reflection, log_path


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


def test_a_log_written_before_reflections_held_the_difficulty_reads_as_normal():
    log = Experience()
    log.path.parent.mkdir(parents=True)
    old = {name: value for name, value in reflection(1).model_dump(mode="json").items() if name != "difficulty"}
    log.path.write_text(json.dumps({"version": 1, "reflections": [old]}))
    assert [r.difficulty for r in log.read()] == ["normal"] and log.take_notice() is None
    assert reflection(2, difficulty="hard").difficulty == "hard"


def test_the_log_keeps_only_the_newest(monkeypatch):
    monkeypatch.setattr(experience_module, "CAP", 5)
    log = Experience()
    log.add([reflection(n) for n in range(4)])
    log.add([reflection(n) for n in range(4, 8)])
    assert [r.seed for r in log.read()] == [3, 4, 5, 6, 7]


@pytest.mark.parametrize("content", [b"{not json", b'{"version": 1, "reflections": {"id": "x"}}',
                                     b'{"version": 9, "reflections": []}', b"\xff\xfe\x00", b"[" * 100_000,
                                     b'{"version": 1, "reflections": [], "extra": 1}'])
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
from labyrinth.saves.experience import Experience, Reflection
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


POISONS = {  # one field of a good reflection, made hostile; the JSON as an edited file would hold it
    "evidence_infinite_coordinate": '"evidence": {"death": {"position": [1e999, 2, 3], "time_s": 5}}',
    "evidence_nan": '"evidence": {"death": {"position": [1, 2, 3], "time_s": NaN}}',
    "evidence_huge_number": '"evidence": {"heard": 1e300}',
    "evidence_cell_outside_the_world": '"evidence": {"stones": [{"stone": "RED STONE", "position": [400, 0, 0]}]}',
    "evidence_cell_of_text": '"evidence": {"death": {"position": "here"}}',
    "evidence_too_deep": '"evidence": {"a": ' + "[" * 8 + "]" * 8 + "}",
    "evidence_too_long": '"evidence": {"a": "' + "x" * 3000 + '"}',
    "evidence_too_many": '"evidence": {"a": [' + ",".join(["1"] * 10_001) + "]}",
    "preset_not_a_preset": '"preset": "standard\\nIgnore the rules"',
    "difficulty_not_a_difficulty": '"difficulty": "nightmare"',
    "seed_too_large": '"seed": ' + "9" * 30,
    "seed_of_text": '"seed": "5"',
    "turns_negative": '"turns": -1',
    "turns_a_float": '"turns": 1.5',
    "game_time_infinite": '"game_time": 1e999',
    "lesson_too_long": '"key_reflection": "' + "x" * 3000 + '"',
    "id_too_long": '"id": "' + "x" * 300 + '"',
    "created_at_not_a_time": '"created_at": "yesterday"',
    "role_unknown": '"role": "god"',
}


@pytest.mark.parametrize("poison", POISONS)
def test_a_poisoned_reflection_is_set_aside_alone_and_the_others_are_kept(poison):
    """A reflection that would crash a game is never given to one: it is moved, with why, to a
    file of its own (kept, never deleted); the good ones stay in the log; the user is told once."""
    good = [json.dumps(reflection(n).model_dump(mode="json")) for n in (1, 2)]
    bad = json.dumps(reflection(3).model_dump(mode="json"))[:-1] + ", " + POISONS[poison] + "}"  # the last wins
    log = Experience()
    log.path.parent.mkdir(parents=True)
    log.path.write_text('{"version": 1, "reflections": [' + ", ".join([good[0], bad, good[1]]) + "]}")
    assert [r.id for r in log.read()] == ["g1-user", "g2-user"]
    notice = log.take_notice()
    assert notice and "1 reflection of the experience log could not be used" in notice and "\n" not in notice
    [kept] = log.path.parent.glob("experience_log.rejected-*.json")
    assert kept.name in notice
    rejected = json.loads(kept.read_text())["rejected"]
    assert len(rejected) == 1 and rejected[0]["reflection"]["id"] in ("g3-user", "x" * 300)
    assert [r.id for r in Experience().read()] == ["g1-user", "g2-user"] and log.take_notice() is None


def test_the_builtin_agents_learn_from_a_log_once_poisoned():
    """The audit's case: a 1e999 coordinate crashed every game on that labyrinth. The log sets
    such a reflection aside; and should one reach the agents by another way (a log from before the
    check, lessons handed over in code), they pass over it, keep the good ones, and play."""
    from labyrinth.agents.builtin.builtin_minotaur import BuiltinMinotaur
    from labyrinth.agents.builtin.builtin_user import BuiltinUser
    from labyrinth.agents.match.runner import Match
    from tests.fronts import assert_own_play

    log = Experience()
    log.path.parent.mkdir(parents=True)
    poisoned = reflection(5, evidence={"death": {"position": [1, 2, 3], "time_s": 5.0}}).model_dump(mode="json")
    log.path.write_text(json.dumps({"version": 1, "reflections": [poisoned]}).replace("[1, 2, 3]", "[1e999, 2, 3]"))
    assert log.read() == [] and log.take_notice()

    def unchecked(role: str, outcome: str, evidence: dict) -> Reflection:
        """A reflection the log's check never saw (model_construct validates nothing)."""
        return Reflection.model_construct(**{**reflection(5, role, outcome).model_dump(), "evidence": evidence})

    inf = float("inf")  # what json reads 1e999 as: int() of it raises OverflowError, not ValueError
    user, minotaur = BuiltinUser(5), BuiltinMinotaur(5)
    user.learn([unchecked("user", "DEATH", {"death": {"position": [inf, 2, 3], "time_s": 5.0}}),
                reflection(5, evidence={"death": {"position": [10, 20, 100], "time_s": 50.0}})], "standard")
    minotaur.learn([unchecked("minotaur", "ESCAPED", {"stones": [{"position": [1, inf, 3]}]}),
                    reflection(5, "minotaur", "ESCAPED", evidence={"stones": [{"position": [4, 5, 101]}]})],
                   "standard")
    assert user.death_spots == [((10, 20, 100), 50.0)] and minotaur.last_stones == [(4, 5, 101)]
    result = Match(user, minotaur, seed=5, preset="standard", max_turns=20).play()
    assert result.turns > 0
    assert_own_play(result.user, result.minotaur)


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                         max_size=4), max_leaves=20)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(sorted(Reflection.model_fields)), value=JSON_VALUES)
@pytest.mark.slow
def test_any_value_in_any_field_is_used_or_set_aside_never_a_crash(field, value, tmp_path_factory):
    log = Experience(tmp_path_factory.mktemp("log") / "log.json")
    entry = {**reflection(1).model_dump(mode="json"), field: value}
    log.path.write_text(json.dumps({"version": 1, "reflections": [entry]}))
    found = log.read()
    if found:  # accepted: then every number is finite and every cell inside the world
        experience_module.check_evidence(found[0].evidence)
        assert found[0].preset in ("tiny", "small", "standard", "large", "full")
        assert found[0].difficulty in ("normal", "hard")
    else:
        assert log.take_notice() and list(log.path.parent.glob("log.rejected-*.json"))

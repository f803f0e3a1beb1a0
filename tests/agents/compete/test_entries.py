"""Every contestant entered, as the reports list it (compete.entries), and a run's manifest read
back (compete.manifest): a model's void matches go with its contestant whatever came first, one a
manifest names is listed though no match of it was kept, a health line counts a void match only
for the side that made it so, a stopped reproduction is carried on, and a damaged manifest is a
message, never a traceback."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from labyrinth.agents.compete.entries import entries
from labyrinth.agents.compete.health import health
from labyrinth.agents.compete.manifest import ManifestError, keys, named, reproduction
from labyrinth.agents.compete.ratings import rate
from labyrinth.saves.results_db import MatchRow, SideRecord

ASKED = {"provider": "openai", "model": "m", "endpoint": "http://127.0.0.1:8000/v1", "temperature": 0.2,
         "max_tokens": 300, "reasoning_effort": None}


def model(temperature: float, **counts) -> SideRecord:
    """A model's side asked at ``temperature``, which its server took (and was sent) as asked."""
    sent = {"prompt_version": "1", "requests": [{"parameters": {"model": "m", "temperature": temperature},
                                                 "output": "json_object", "calls": 20}]}
    return SideRecord(json.dumps({**ASKED, "temperature": temperature}), decisions=20, calls=20, answered=20,
                      sent=json.dumps(sent), **counts)


def dead(temperature: float) -> SideRecord:
    """The same model's side in a match where it answered nothing: replaced, void."""
    return SideRecord(json.dumps({**ASKED, "temperature": temperature}), decisions=20, calls=5, provider_errors=5,
                      fallbacks=20, replaced=True)


def row(seed: int, user: SideRecord, setup: str, outcome: str = "DEATH") -> MatchRow:
    return MatchRow("openai/m", "wait", seed, "tiny", "normal", 20, outcome, 20, 10.0, user_side=user,
                    user_setup=setup, digest=f"{seed}{setup}").judged()


def test_a_void_match_that_sent_nothing_is_listed_with_its_contestant_under_its_rated_label():
    rows = [row(1, dead(0.2), "cold"), row(2, model(0.2), "cold", "ESCAPED"), row(3, model(0.2), "cold"),
            row(1, model(0.7), "warm", "ESCAPED"), row(2, model(0.7), "warm")]  # one name, two setups
    standings = rate(r for r in rows if r.valid)
    found = entries(rows, standings)["user"]
    labels = {r.label for r in standings.ratings["user"]}
    assert len(found) == 2 and {e.label for e in found} == labels and all(" (" in label for label in labels)
    cold = next(e for e in found if e.matches == 3)
    assert (cold.void, cold.wins) == (1, 1) and cold.label == standings.label(rows[1], "user")


def test_a_contestant_a_run_names_is_listed_though_no_match_of_it_was_kept():
    rows = [row(1, model(0.2), "cold")]
    entered = {"user": [{"name": "openai/m", "setup": "cold"}, {"name": "gemini/g", "setup": "hot",
                                                                 "settings": {"provider": "gemini", "model": "g"}}],
               "minotaur": [{"name": "wait", "setup": ""}]}
    found = entries(rows, rate(rows), entered)
    assert [(e.name, e.matches) for e in found["user"]] == [("openai/m", 1), ("gemini/g", 0)]
    assert found["user"][1].model and [(e.name, e.matches) for e in found["minotaur"]] == [("wait", 1)]


def test_a_health_line_counts_a_void_match_only_for_the_side_that_made_it_void():
    both = replace(row(1, dead(0.2), "cold"), minotaur="openai/h", minotaur_side=model(0.2), minotaur_setup="h")
    lines = {h.name: h for h in health((getattr(both, role), role, both.side(role)) for role in ("user", "minotaur"))}
    assert both.void and (lines["openai/m"].void, lines["openai/h"].void) == (1, 0)


def manifest(**changes) -> dict:
    recorded = {"manifest": 1, "run_id": "r0", "contestants": {"user": [{"name": "builtin", "setup": ""}],
                                                               "minotaur": [{"name": "wait", "setup": ""}]},
                "seeds": [1, 2], "repeats": 1, "preset": "tiny", "difficulty": "normal", "max_turns": 20,
                "learned": "none", "build": "b1", "rerun": 0}
    return {**recorded, **changes}


def test_a_stopped_reproduction_is_carried_on_and_a_new_one_never_takes_anothers_matches():
    original = manifest()
    first = manifest(run_id="r1", rerun=1, rerun_of="r0")
    runs = [("r0", "t0", original), ("r1", "t1", first)]
    done = set(keys(original))
    assert reproduction(original, runs, done | set(keys(first)[:1]), "b1") == 1  # r1 stopped: carried on
    assert reproduction(original, runs, done | set(keys(first)), "b1") == 2  # r1 whole: the next
    priced = manifest(run_id="r2", rerun=2, rerun_of="r0",
                      contestants={"user": [{"name": "builtin", "setup": "", "price_in": 1.0}],
                                   "minotaur": [{"name": "wait", "setup": ""}]})
    assert reproduction(original, [*runs, ("r2", "t2", priced)], done | set(keys(first)), "b1") == 2  # r2 unplayed
    other = manifest(run_id="x", seeds=[7], rerun=5)  # another design's rerun 5: the next number is past it
    assert reproduction(original, [*runs, ("x", "t3", other)], done | set(keys(first)), "b1") == 6
    assert reproduction(original, runs, done, "b2") == 2  # another build: nothing of it begun here


@pytest.mark.parametrize(("damage", "said"), [({"seeds": []}, "no seed"), ({"learned": "everyone"}, "learned"),
                                               ({"seeds": "abc"}, "not a list"), ({"seeds": [1, "2"]}, "a seed is"),
                                               ({"contestants": {}}, "user"),
                                               ({"manifest": 99}, "newer labyrinth")])
def test_a_damaged_manifest_is_a_message_naming_its_run(damage, said):
    with pytest.raises(ManifestError, match=f"run r0 .*{said}|{said}"):
        keys(manifest(**damage))
    with pytest.raises(ManifestError, match="r0"):
        named([("r0", "t0", manifest(**damage))], "r0", "results.db")
    with pytest.raises(ManifestError, match="results.db holds no run nope .the latest: r0."):
        named([("r0", "t0", manifest())], "nope", "results.db")


@pytest.mark.parametrize(("recorded", "said"), [
    ({"run_id": "r1"}, "the manifest of run r1 could not be read, so neither can its matches"),
    ({"run_id": "r1", "x": 1}, "the manifest of run r1 is damaged: it has no 'manifest' field"),
])
def test_a_damaged_manifest_is_said_in_words_not_as_an_exception(recorded, said):
    """A run whose manifest the database could not read (ResultsDB.runs said why and gives its id alone), or one
    missing a field: a sentence, never an exception's repr (it once said "(KeyError('manifest'))")."""
    with pytest.raises(ManifestError) as refused:
        keys(recorded)
    assert str(refused.value) == said


def test_a_row_whose_record_is_not_json_still_reads_as_json():
    broken = replace(row(1, replace(model(0.2), sent="{not json"), "cold"))
    assert broken.to_dict()["user_side"]["sent"] == {} and broken.user_side.sent_setup == ""

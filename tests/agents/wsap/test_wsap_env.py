"""The Labyrinth as a WSAP v0.1 environment: both roles through make_adapter,
fog of war, one-to-one actions, refusals that change nothing, random play to
the end, and avatars that live on across processes."""

import json
import random
import subprocess
import sys
import textwrap

import pytest

from labyrinth.agents.base import RuleAgent
from labyrinth.agents.learning.memory_manager import NOTES_FRAME
from labyrinth.agents.match.side import ERROR_STREAK
from labyrinth.agents.registry import make_agent
from labyrinth.agents.wsap.adapters import make_adapter
from labyrinth.agents.wsap.avatars import LabyrinthAvatars
from labyrinth.engine import Game
from labyrinth.engine.wsap import Action, AvatarGameAdapter, AvatarSpec, AvatarState, GameAdapter
from tests.fronts import assert_own_play

SECTIONS = ("STATUS:", "INVENTORY:", "LOCATION:", "NEARBY:", "RECENT EVENTS:", "CURRENT GOALS:")


@pytest.mark.parametrize("role, actions", [("user", ["move", "look", "grab", "use", "halt"]),
                                           ("minotaur", ["chase", "pathfind", "wait", "jump"])])
def test_each_role_is_a_game_adapter_with_its_actions(role, actions):
    adapter = make_adapter(role, seed=3, preset="small")
    assert isinstance(adapter, GameAdapter)
    assert adapter.action_space.action_names() == actions
    text = adapter.action_space.to_text()
    if role == "user":
        assert "one of NORTH, SOUTH, EAST, WEST, UP RAMP, DOWN RAMP" in text and "one of 1, 2" in text
    assert "stones" in adapter.game_description.lower()
    obs = adapter.observe()
    body = obs.to_text()
    assert body.startswith("Step 0") and [body.index(s) for s in SECTIONS] == sorted(body.index(s) for s in SECTIONS)
    json.dumps(obs.to_structured())


def test_user_actions_map_one_to_one_onto_the_engine():
    adapter = make_adapter("user", seed=5, preset="small", opponent="wait")
    plain = Game.new(5, "small")
    for action, command in [(Action("LOOK"), {"command": "LOOK"}),
                            (Action("MOVE", {"direction": "NORTH", "steps": 3, "speed": 2}),
                             {"command": "MOVE", "direction": "NORTH", "steps": 3, "speed": 2}),
                            (Action("HALT", {"steps": 4}, "resting"), {"command": "HALT", "steps": 4})]:
        result = adapter.act(action)
        expected = plain.step(command).response
        assert result.success and result.message == expected.raw_text_output
        assert adapter.game.state == plain.state


@pytest.mark.parametrize("role, bad, words", [
    ("user", Action("FLY"), "move, look, grab, use, halt (or noop)"),
    ("user", Action("MOVE", {"direction": "SIDEWAYS"}), "NORTH"),
    ("user", Action("MOVE", {"direction": "NORTH", "colour": "red"}), "takes no \"colour\""),
    ("user", Action("GRAB", {"target": "RED STONE"}), "not within reach"),
    ("minotaur", Action("PATHFIND", {"target_coords": {"x": 1}}), "target_coords"),
    ("minotaur", Action("DANCE"), "chase, pathfind, wait, jump (or noop)"),
])
def test_bad_actions_are_refused_and_change_nothing(role, bad, words):
    adapter = make_adapter(role, seed=3, preset="small")
    state, obs = adapter.game.state, adapter.observe()
    result = adapter.act(bad)
    assert not result.success and words in result.message
    assert adapter.game.state is state and result.reward == 0 and result.observation is adapter.observe()
    assert result.observation.location == obs.location  # a refusal the game answers is noted, as our agents are told


class Counting:
    """An agent that plays as ``inner`` does, counting the times it is asked."""

    def __init__(self, inner) -> None:
        self.inner, self.asked = inner, 0

    def __getattr__(self, name: str):
        if name == "inner":  # not set yet: a copy being made (base.fresh_copy)
            raise AttributeError(name)
        return getattr(self.inner, name)

    def decide(self, observation):
        self.asked += 1
        return self.inner.decide(observation)


class Grabber(RuleAgent):
    """A user that grabs a stone out of reach: every command of it is refused."""

    name = "grabber"

    def decide(self, observation) -> Action:
        return Action("GRAB", {"target": "RED STONE"})


def test_a_refused_user_act_never_asks_the_minotaur():
    adapter = make_adapter("user", seed=3, preset="small", opponent=Counting(make_agent("minotaur", "builtin", 3)))
    minotaur = adapter.opponent.agent  # the game's copy of the agent given (base.fresh_copy)
    acts = [Action("LOOK"), Action("GRAB", {"target": "RED STONE"}), Action("FLY"),
            Action("USE", {"target": "LANTERN"}), Action("MOVE", {"direction": "SIDEWAYS"}),
            Action("HALT", {"steps": 2})]
    played = [adapter.act(action).success for action in acts]
    assert played == [True, False, False, False, False, True]
    assert minotaur.asked == adapter.turns == 2 and len(adapter.history) == 2


def test_a_minotaur_act_always_makes_a_turn_though_the_user_agent_is_refused():
    adapter = make_adapter("minotaur", seed=3, preset="small", opponent=Counting(Grabber()))
    user = adapter.opponent.agent
    for turn in range(1, 4):
        result = adapter.act(Action("WAIT"))
        assert result.success and adapter.turns == turn
        assert adapter.history[-1][0].command == "LOOK"  # after its refusals the user is given LOOK
    assert user.asked == 3 * ERROR_STREAK and adapter.opponent.stats.errors == 3 * ERROR_STREAK


def test_the_user_sees_only_what_it_may():
    adapter = make_adapter("user", seed=3, preset="small")
    m = adapter.game.state.minotaur
    text = adapter.observe().to_text()
    assert adapter.observe().details["minotaur_in_sight"] is None
    assert f"{m[0]}, {m[1]}" not in text and "STONE at (" not in text


@pytest.mark.parametrize("role", ["user", "minotaur"])
def test_random_wsap_play_reaches_the_end(role):
    rng = random.Random(role)
    adapter = make_adapter(role, seed=8, preset="tiny", max_turns=150)
    words = {"direction": ["NORTH", "SOUTH", "EAST", "WEST", "UP RAMP", "DOWN RAMP", "nowhere"],
             "target": ["RED STONE", "LANTERN", "SWORD"]}
    rewards, acts = 0.0, 0
    while not adapter.done and acts < 2000:
        name = rng.choice(adapter.action_space.action_names() + ["BOGUS"])
        params = {p: rng.choice(words.get(p, [rng.randint(-3, 120)])) for p in ("direction", "steps", "target")
                  if rng.random() < 0.5} if role == "user" else \
            ({"target_coords": {"x": rng.randrange(190, 210), "y": rng.randrange(190, 210), "z": 100}}
             if name == "PATHFIND" else {})
        result = adapter.act(Action(name, params))
        rewards += result.reward
        acts += 1
    assert adapter.done and result.done
    assert adapter.act(Action("LOOK" if role == "user" else "WAIT")).success is False


def test_achievements_are_announced_once():
    adapter = make_adapter("minotaur", seed=2, preset="small")
    first = adapter.act(Action("JUMP"))
    assert first.achievements == ["Leapt out of time"]
    assert adapter.act(Action("WAIT")).achievements == []


AVATAR_SCRIPT = textwrap.dedent("""
    import json, sys
    from labyrinth.agents.wsap.avatars import LabyrinthAvatars
    from labyrinth.engine.wsap import Action, AvatarSpec
    step = sys.argv[1]
    avatars = LabyrinthAvatars(preset="tiny")
    if step == "create":
        a = avatars.create_avatar("probe", AvatarSpec(name="Theseus"))
        avatars.jack_in("probe", a.avatar_id)
        for _ in range(3):
            avatars.act(Action("MOVE", {"direction": "NORTH", "steps": 2}))
        digest = avatars.game.game.state.digest()
        print(json.dumps({"id": a.avatar_id, "digest": digest, "out": avatars.jack_out("probe").avatar_state.value}))
    else:
        avatar_id = sys.argv[2]
        back = avatars.jack_in("probe", avatar_id)
        digest = avatars.game.game.state.digest()
        while not avatars.game.done:
            avatars.act(Action("HALT", {"steps": 40}))
        outcome = avatars.game.game.state.outcome
        death = avatars.handle_death(avatar_id)
        again = avatars.respawn(avatar_id, death.respawn_options[0])
        me = avatars.list_avatars("probe")[0]
        print(json.dumps({"digest": digest, "outcome": outcome, "options": [o.id for o in death.respawn_options],
                          "respawned": again.success, "deaths": me.death_count, "state": me.state.value,
                          "turn": avatars.game.game.state.turn}))
""")


@pytest.mark.slow
def test_an_avatar_sleeps_dies_and_respawns_across_processes(tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "PATH": ""}

    def run(*args):
        done = subprocess.run([sys.executable, "-c", AVATAR_SCRIPT, *args], capture_output=True, text=True,
                              env=env, timeout=120, check=True)
        return json.loads(done.stdout)

    made = run("create")
    assert made["out"] == "dormant"
    later = run("continue", made["id"])
    assert later["digest"] == made["digest"], "the dormant avatar did not continue exactly"
    assert later["outcome"] == "DEATH" and later["options"] == ["restart", "new_seed"]
    assert later["respawned"] and later["deaths"] == 1 and later["state"] == "bound" and later["turn"] == 0


def test_a_sleeping_game_longer_than_this_worlds_turn_limit_is_refused_in_words(tmp_path):
    """Resumed under a lower limit, the game was over as it woke, and saved again with more turns than its
    header's limit: a save no reader takes back."""
    avatars = LabyrinthAvatars(preset="tiny", directory=tmp_path, max_turns=10)
    made = avatars.create_avatar("probe", AvatarSpec())
    assert avatars.jack_in("probe", made.avatar_id).success
    for _ in range(6):
        avatars.act(Action("LOOK"))
    assert avatars.jack_out("probe").success
    shorter = LabyrinthAvatars(preset="tiny", directory=tmp_path, max_turns=5)
    refused = shorter.jack_in("probe", made.avatar_id)
    assert not refused.success and refused.message == ("its sleeping game has played 6 turns, this world's limit "
                                                       "is 5: it cannot go on here")
    assert LabyrinthAvatars(preset="tiny", directory=tmp_path, max_turns=10).jack_in("probe", made.avatar_id).success


def test_the_roster_holds_three_and_despawn_frees_a_place(tmp_path):
    avatars = LabyrinthAvatars(preset="tiny", directory=tmp_path)
    assert isinstance(avatars, AvatarGameAdapter)
    made = [avatars.create_avatar("crowd", AvatarSpec()) for _ in range(3)]
    with pytest.raises(ValueError, match="already has 3"):
        avatars.create_avatar("crowd", AvatarSpec())
    assert avatars.jack_in("crowd", made[0].avatar_id).success
    assert not avatars.jack_in("crowd", made[1].avatar_id).success  # one at a time
    assert avatars.jack_out("crowd", "despawn").avatar_state is AvatarState.DESTROYED
    assert [a.avatar_id for a in avatars.list_avatars("crowd")] == [made[1].avatar_id, made[2].avatar_id]
    avatars.create_avatar("crowd", AvatarSpec(spawn_location="challenging"))


def test_a_wsap_agent_learns_through_its_game_description_and_leaves_its_reflections(tmp_path):
    from labyrinth.engine.wsap.actions import USER_DESCRIPTION
    from labyrinth.saves.experience import Experience, log_path

    unasked = make_adapter("user", seed=7, preset="tiny", max_turns=1)
    unasked.act(Action("LOOK"))
    assert unasked.done and not log_path().exists()  # a finished game, and no memory unless asked for

    log = Experience(tmp_path / "log.json")
    timed_out = make_adapter("user", seed=7, preset="tiny", max_turns=3, memory=log, agent_name="my-agent")
    while not timed_out.done:
        timed_out.act(Action("LOOK"))
    kept = {r.role: r for r in log.read()}
    assert {role: (r.agent, r.outcome) for role, r in kept.items()} == \
        {"user": ("my-agent", "TIMEOUT"), "minotaur": ("builtin", "TIMEOUT")}
    assert kept["user"].evidence["death"] is None and kept["user"].seed == 7 and kept["user"].preset == "tiny"
    played = list(timed_out.history)
    timed_out.reset()
    # a TIMEOUT is remembered, not taught (docs/rules.md section 18)
    assert timed_out.game_description == USER_DESCRIPTION

    game = make_adapter("user", seed=2, preset="tiny", max_turns=10, memory=log, agent_name="my-agent")
    assert game.game_description == USER_DESCRIPTION  # nothing learnt on this labyrinth yet
    while not game.done:
        game.act(Action("HALT", {"steps": 40}))
    died = next(r for r in log.read() if r.seed == 2 and r.role == "user")
    assert died.outcome == "DEATH" and died.agent == "my-agent"
    game.reset()  # the next game starts with the last one's lesson, at the end of the setup text
    head, lessons = game.game_description.split(f"\n\n{NOTES_FRAME}\n")
    assert head == USER_DESCRIPTION and json.dumps(died.key_reflection) in lessons
    game.act(Action("LOOK"))
    assert len(log.read()) == 4  # written once a game ends, not before
    for user, minotaur in played:  # a saved game resumed into a fresh match (agents/match/resume.py)
        timed_out.match.replay_turn(user, minotaur)
    assert timed_out.done and len(log.read()) == 4  # a game replayed (a saved game resumed) is not remembered again


def test_a_wsap_agent_is_told_its_roles_behaviour_lessons_as_our_models_are(tmp_path):
    from labyrinth.agents.learning.behaviour_lessons import MIN_EVIDENCE
    from labyrinth.saves.experience import Experience
    from tests.saves.test_experience import reflection

    seen = {"when": "whine", "did": "walked_away", "led_to": "safe"}
    log = Experience(tmp_path / "log.json")
    log.add([reflection(n, preset="tiny", outcome="ESCAPED", evidence={"behaviour": [seen]})
             for n in range(MIN_EVIDENCE)])
    told = make_adapter("user", seed=40, preset="tiny", memory=log).game_description  # a labyrinth never played
    assert '- in any labyrinth: "After a Temporal Whine, walking away led to no catch soon after in 5 of 5 ' \
        'cases."' in told  # as our model opponents are told it (llm_agent.follow)
    assert "walking away" not in make_adapter("minotaur", seed=40, preset="tiny", memory=log).game_description


def test_a_corrupt_log_is_kept_aside_with_a_warning_and_play_goes_on(tmp_path):
    from labyrinth.saves.experience import Experience

    path = tmp_path / "log.json"
    path.write_text("{not json")
    with pytest.warns(UserWarning, match="corrupt"):
        game = make_adapter("user", seed=7, preset="tiny", memory=Experience(path))
    assert game.act(Action("LOOK")).success and list(tmp_path.glob("log.corrupt-*.json"))


def test_the_opponent_learns_from_the_same_log(tmp_path):
    from labyrinth.saves.experience import Experience
    from tests.saves.test_experience import reflection

    log = Experience(tmp_path / "log.json")
    stones = [{"stone": "RED STONE", "time_s": 100.0, "position": [200, 210, 100]}]
    log.add([reflection(7, role="minotaur", outcome="ESCAPED", preset="tiny", evidence={"stones": stones}),
             reflection(7, role="user", outcome="DEATH", preset="tiny",
                        evidence={"death": {"position": [201, 203, 100], "time_s": 40.0, "lantern_held": True}})])
    as_user = make_adapter("user", seed=7, preset="tiny", memory=log)
    assert as_user.opponent.agent.last_stones == [(200, 210, 100)]
    assert "lesson 7" in as_user.game_description  # the user's own lesson: it died there
    as_minotaur = make_adapter("minotaur", seed=7, preset="tiny", memory=log)
    assert as_minotaur.opponent.agent.death_spots == [((201, 203, 100), 40.0)]
    assert as_minotaur.opponent.agent.lantern_early
    assert "lesson 7" in as_minotaur.game_description and "- ESCAPED, tiny seed 7" in as_minotaur.game_description


def test_a_resumed_game_keeps_the_achievements_earned_before():
    """What jack_in does with a sleeping avatar: the saved turns are played into a new game, and
    what they had unlocked stays unlocked (not announced again, and listed at jack_out)."""
    from labyrinth.agents.match.resume import resume_into
    from labyrinth.saves.games import SavedGame

    played = make_adapter("user", seed=5, preset="tiny", max_turns=400)
    user = make_agent("user", "builtin", 5)
    user.initialize(played.game_description, played.action_space)
    while not played.unlocked and not played.done:
        played.act(user.decide(played.observe()))
    assert played.unlocked, "the built-in user takes something on this labyrinth"
    saved = SavedGame(None, "2026-11-23T00:00:00Z", 5, "tiny", "normal", "builtin", list(played.history),
                      played.game.state.digest(), "probe")
    resumed = make_adapter("user", seed=5, preset="tiny", max_turns=400)
    resume_into(resumed.match, saved, resumed.earn)
    assert resumed.unlocked == played.unlocked
    assert resumed.game.state.digest() == played.game.state.digest()


def test_an_opponent_given_as_an_agent_plays_each_reset_afresh_and_a_model_keeps_its_transport():
    """Each reset plays the agent as it was given: the same seed, the same game; a model agent's
    copy shares its transport (an SDK client cannot be copied, and its quota's pace is one)."""
    import threading

    from labyrinth.agents.builtin.builtin_user import BuiltinUser
    from labyrinth.agents.llm.llm_agent import LLMAgent
    from labyrinth.agents.llm.providers.base import Reply

    def play(adapter) -> list:
        adapter.reset()
        trail = []
        while not adapter.done and len(trail) < 60:
            adapter.act(Action("WAIT"))
            trail.append(adapter.game.state.user)
        assert_own_play(adapter.opponent.stats)  # the fallback's play is the same every reset too
        return trail

    given = BuiltinUser(5)
    adapter = make_adapter("minotaur", seed=5, preset="tiny", opponent=given)
    assert play(adapter) == play(adapter) == play(make_adapter("minotaur", seed=5, preset="tiny", opponent=given))
    assert adapter.opponent.agent is not given

    class Client:  # holds a lock, as an SDK client does: it cannot be copied
        name, timeout_s, waiting = "stub/model", 1.0, None

        def __init__(self) -> None:
            self.lock, self.calls = threading.Lock(), 0

        def complete(self, system, turns, schema):
            self.calls += 1
            return Reply('{"action": "WAIT", "params": {}, "reasoning": "listening"}', 10, 5)

    client = Client()
    model = make_adapter("user", seed=5, preset="tiny", opponent=LLMAgent("minotaur", client, seed=5), max_turns=3)
    for _ in range(2):
        model.reset()
        while not model.done:
            model.act(Action("LOOK"))
        assert model.opponent.agent.transport is client and model.opponent.stats.replaced is False
        assert_own_play(model.opponent.stats)
    assert client.calls >= 6  # both games asked the one client

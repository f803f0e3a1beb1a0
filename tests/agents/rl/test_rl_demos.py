"""The built-in user's decisions as the user env's actions (agents/rl/demos.py): each maps onto
a command the mask allows, and the mapped play still wins games, so that the env's action list
loses little of what the built-in user does and demonstrations are worth cloning."""

import numpy as np
import pytest

from labyrinth.agents.rl.demos import command_name, demonstrations
from labyrinth.agents.rl.gym_env import LabyrinthEnv
from labyrinth.engine.wsap import Action


@pytest.mark.parametrize(("action", "name"), [
    (Action("MOVE", {"direction": "NORTH", "steps": 1}), "move_north_walk_1"),
    (Action("MOVE", {"direction": "WEST", "steps": 2, "speed": 2}), "move_west_run_1"),
    (Action("MOVE", {"direction": "EAST", "steps": 8}), "move_east_walk_far"),
    (Action("MOVE", {"direction": "SOUTH", "speed": 2}), "move_south_run_far"),
    (Action("MOVE", {"direction": "UP RAMP", "steps": 3}), "move_up_ramp"),
    (Action("GRAB", {"target": "BLUE STONE"}), "grab_blue_stone"),
    (Action("USE", {"target": "LANTERN"}), "use_lantern"),
    (Action("HALT", {"steps": 8}), "halt"),
    (Action("LOOK"), "look"),
])
def test_each_decision_maps_onto_the_nearest_command(action, name):
    assert command_name(action) == name and name in LabyrinthEnv(preset="tiny").action_names


def test_demonstrations_are_whole_games_of_allowed_commands_that_win():
    env = LabyrinthEnv(preset="tiny", opponent="wait", max_turns=300)
    demos = demonstrations(env, 300, seed=7)
    n = len(demos["actions"])
    assert n >= 300 and demos["ends"][-1] == n - 1 and len(demos["outcomes"]) == len(demos["ends"])
    assert demos["masks"][np.arange(n), demos["actions"]].all()  # the mask allows every demonstrated command
    assert "ESCAPED" in demos["outcomes"]
    assert all(v.shape[0] == n for v in demos["observations"].values()) and len(demos["rewards"]) == n
    again = demonstrations(LabyrinthEnv(preset="tiny", opponent="wait", max_turns=300), 300, seed=7)
    assert np.array_equal(again["actions"], demos["actions"]) and again["seeds"] == demos["seeds"]

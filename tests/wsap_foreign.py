"""A small game of others, written from the WSAP v0.1 text alone, as the
reference implementation's Crafter adapter is: its actions are the seed's kind of
identifier, matched exactly (no forgiving case), unknown ones refused with the
seed's defaults (``ActionResult(success=False, message=..., observation=...)``),
and ``ParamDef("direction", "left|right")`` as the seed's Starbound example writes it.

The Orchard: a row of seven cells, the picker on the middle one, an apple at each
end but one; pick both apples (a reward of 1 each) before the steps run out.
"""

from __future__ import annotations

from labyrinth.engine.wsap import (
    Action,
    ActionDef,
    ActionResult,
    ActionSpace,
    Entity,
    Event,
    Goal,
    Location,
    Observation,
    ParamDef,
    Terrain,
)

CELLS, START, APPLES, STEPS = 7, 3, (1, 5), 24

ORCHARD_ACTIONS = ActionSpace(actions=[
    ActionDef("noop", "Do nothing", [], [], "wait"),
    ActionDef("move", "Move one cell in direction", [ParamDef("direction", "left|right")], [], "movement"),
    ActionDef("pick", "Pick the apple on your cell", [], ["Standing on an apple"], "interaction"),
])


class OrchardAdapter:
    """A GameAdapter of the seed's shape (with the reference's ``name``)."""

    name = "Orchard"
    game_description = ("Orchard is a row of seven cells. Apples lie on some of them. "
                        "Move left or right and pick every apple before the steps run out.")
    action_space = ORCHARD_ACTIONS

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> Observation:
        self.x, self.apples, self.step, self.events = START, set(APPLES), 0, []
        return self.observe()

    @property
    def done(self) -> bool:
        return not self.apples or self.step >= STEPS

    def observe(self) -> Observation:
        picked = len(APPLES) - len(self.apples)
        apples = [Entity("apple", None, abs(a - self.x), _side(a - self.x), None, True,
                         f"An apple {abs(a - self.x)} cells to the {_side(a - self.x)}" if a != self.x
                         else "An apple here") for a in sorted(self.apples)]
        return Observation(
            status={"steps_left": STEPS - self.step},
            inventory={"apple": picked},
            location=Location((self.x,), "orchard", f"Standing on cell {self.x} of {CELLS}"),
            nearby_entities=apples,
            nearby_terrain=[Terrain("grass", "left", self.x > 0), Terrain("grass", "right", self.x < CELLS - 1)],
            current_goals=[Goal("apples", "Pick every apple", "main", f"{picked}/{len(APPLES)} apples")],
            recent_events=list(self.events),
            step=self.step,
        )

    def act(self, action: Action) -> ActionResult:
        if self.done:
            return ActionResult(success=False, message="The game is over", done=True, observation=self.observe())
        if action.name not in self.action_space.action_names():
            return ActionResult(success=False, message=f"Unknown action: {action.name}", observation=self.observe())
        reward, self.events = 0.0, []
        if action.name == "move":
            way = action.parameters.get("direction")
            if way not in ("left", "right"):
                return ActionResult(success=False, message="move needs a direction: left or right",
                                    observation=self.observe())
            self.x = min(max(self.x + (1 if way == "right" else -1), 0), CELLS - 1)
        elif action.name == "pick":
            if self.x not in self.apples:
                return ActionResult(success=False, message="No apple here", observation=self.observe())
            self.apples.discard(self.x)
            reward = 1.0
            self.events.append(Event("You picked an apple", "reward"))
        self.step += 1
        return ActionResult(success=True, message=f"{action.name}: executed", reward=reward,
                            achievements=["first_apple"] if len(self.apples) == len(APPLES) - 1 and reward else [],
                            done=self.done, observation=self.observe())


def _side(offset: int) -> str:
    return "here" if offset == 0 else "left" if offset < 0 else "right"

"""The item table's promise, tested rather than written: a torch (sight +3 steps for 60 s, usable once), added to
a scratch copy of the repository as a contributor would add it, goes through the whole stack and plays games.

The torch is its row (engine/items.py), its rules (engine/item_rules.py) and its lines on the rules page, which
tests/test_docs.py asks of every item: with this test, four files (docs/architecture.md quotes the count). The
copy is played in a fresh interpreter, since every reader of the table derives its lists when first imported:
the parser's words, the wire's names, the narrative, both roles' perceptions, the RL planes, masks and
pictures, both maps, the help and the WSAP descriptions.
"""

from __future__ import annotations

import filecmp
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .test_docs import untold_items

pytestmark = pytest.mark.xdist_group("new_item")  # one worker copies the repository and plays its probe, once

REPO = Path(__file__).resolve().parent.parent
# The repository's folders and the names they install as (pyproject.toml's package-dir).
PACKAGES = {"engine": "engine", "saves": "saves", "agents": "agents", "labyrinth_tui": "tui"}

# The torch, as a contributor writes it: each edit is (file, text it follows, text added).
TORCH = [
    ("engine/items.py", 'ItemName = Literal["RED STONE", "BLUE STONE", "YELLOW STONE", "LANTERN"',
     ', "TORCH"'),
    ("engine/items.py", 'Kind = Literal["stone", "lantern"', ', "torch"'),
    ("engine/items.py", "from .item_rules import (\n", "    light_torch,\n    torch_burns,\n    torch_light,\n"),
    ("engine/items.py", '         effect_words="freezes it for {effect}"),\n',
     ('    Item("TORCH", "T", "bright_white", (255, 250, 200), "torch", use=light_torch, countdown=torch_burns,\n'
      '         sight=torch_light, effect_ticks=60 * TICKS_PER_SECOND,\n'
      '         use_words="Light the TORCH: you see 3 steps farther for {effect}; it burns out.",\n'
      '         effect_words="lights 3 more steps for {effect}"),\n')),
    ("engine/item_rules.py", "    return pos\n", '''

def light_torch(s: GameState, item: Item) -> tuple[ev.Event, ...]:
    """USE TORCH: it burns for its effect's time."""
    set_timer(s, item, item.effect_ticks)
    return (ev.ItemUsed(s.tick, item.name, s.user),)


def torch_burns(s: GameState, item: Item) -> tuple[ev.Event, ...]:
    return (ev.EffectEnded(s.tick, item.name),) if tick_timer(s, item) else NOTHING


def torch_light(s: GameState, item: Item) -> int:
    return 3 if s.timers.get(item.name) else 0
'''),
    ("docs/rules.md", "  0 while a lantern exists, lying or carried.\n", '''
### The TORCH

- One torch lies on your level at the start, as the first lantern does.
- `USE` lights it: for 60 s you see 5 steps around you instead of 2. It is
  then spent, and no new one comes.
'''),
]

# What the copy is asked, in a fresh interpreter whose `labyrinth` is the copy; it prints one JSON object.
PROBE = r'''
import dataclasses, json, sys
import labyrinth.engine
assert labyrinth.engine.__path__[0].startswith(sys.argv[1]), labyrinth.engine.__path__
from labyrinth.engine import Game, UserInput
from labyrinth.engine.items import ITEM_ORDER, KINDS, USABLE
from labyrinth.engine.senses import user_sight
from labyrinth.engine.wsap.actions import USER_ACTIONS
from labyrinth.engine.wsap.perception import MinotaurPerception, UserPerception
from labyrinth.tui.command_parser import parse_command
from labyrinth.tui.screens.help import HELP
from labyrinth.tui.widgets.map_glyphs import ITEM_GLYPHS, legend_rows
from labyrinth.agents.match.runner import Match
from labyrinth.agents.registry import make_agent
from labyrinth.agents.rl.gym_env import LabyrinthEnv
from labyrinth.agents.rl import user_view, minotaur_view
from labyrinth.agents.rl.commands import action_mask

out = {"items": list(ITEM_ORDER), "kinds": list(KINDS), "usable": list(USABLE)}
out["parsed"] = [parse_command(line).model_dump(exclude_none=True) for line in ("grab torch", "use torch")]
out["wire"] = [json.dumps(UserInput.model_json_schema()), UserInput(command="USE", target="TORCH").target]

game = Game.new(7, "tiny")
placed = dict(game.state.items)
out["placed"] = "TORCH" in placed and placed["TORCH"][2] == game.state.user[2]
x, y, z = game.state.user
beside = (x + 1, y, z)  # open on this seed's start (its map in docs/rules.md), within GRAB's reach
game.state = dataclasses.replace(game.state, items=tuple((n, beside if n == "TORCH" else p)
                                                        for n, p in game.state.items))
seeing, watching = UserPerception(game.world), MinotaurPerception(game.world)
first = seeing.observe(game.opening())
out["entities"] = [e["type"] for e in first.to_structured()["nearby_entities"]]
out["observed"] = first.to_text()
wait = {"action": "WAIT"}
told, sights, minotaur_told, known = [], [], [], []
for command in ({"command": "GRAB", "target": "TORCH"}, {"command": "USE", "target": "TORCH"}):
    result = game.step(command, wait)
    told.append(result.response.raw_text_output)
    minotaur_told.append(result.observation.raw_text_output)
    sights.append(user_sight(game.state))
    seeing.observe(result), watching.observe(result)
    known.append(len(seeing.seen))
out["timers"] = dict(game.state.timers)
while game.state.timers and not game.state.outcome:
    result = game.step({"command": "HALT", "steps": 20}, wait)
    told.append(result.response.raw_text_output)
    seeing.observe(result)
sights.append(user_sight(game.state))
out["told"], out["sights"], out["minotaur_told"], out["known"] = told, sights, minotaur_told, known
out["inventory"] = list(game.state.inventory)

out["glyph"] = ITEM_GLYPHS["TORCH"].text
out["legend"] = [row for row in legend_rows() if row[0] == "T"]
out["help"] = [line for line in HELP.splitlines() if "torch" in line.lower()]
out["wsap_use"] = next(a.description for a in USER_ACTIONS.actions if a.name == "use")
out["planes"] = {"user": [p for p in (*user_view.WINDOW_PLANES, *user_view.MEMORY_PLANES) if p == "torch"],
                 "minotaur": [p for p in (*minotaur_view.WINDOW_PLANES, *minotaur_view.MEMORY_PLANES) if p == "torch"]}

env = LabyrinthEnv("user", preset="tiny", render_mode="rgb_array")
env.reset(seed=3)
use_torch = env.action_names.index("use_torch")
out["grab_named"] = "grab_torch" in env.action_names
masks = [bool(env.action_masks()[use_torch])]
match = env.match
match.game.state = dataclasses.replace(match.game.state, inventory=("TORCH",),
                                       items=tuple(i for i in match.game.state.items if i[0] != "TORCH"))
masks.append(bool(action_mask(match, "user")[use_torch]))
out["masks"] = masks
out["picture"] = list(env.render().shape)

digests = []
for _ in range(2):
    played = Match(make_agent("user", "builtin", 5), make_agent("minotaur", "builtin", 5), seed=5, preset="tiny",
                   max_turns=150)
    while played.outcome is None and played.turns < 150:
        played.play_turn()
    digests.append(played.game.state.digest())
out["games"] = digests
print(json.dumps(out))
'''


def _copy_with_torch(scratch: Path) -> Path:
    """The repository's sources and docs copied to ``scratch``/repo with the torch added; the folder to put first
    on the path (``scratch``/path/labyrinth/… links to the copy's folders, as the package installs them)."""
    repo = scratch / "repo"
    for folder in (*PACKAGES, "docs"):
        shutil.copytree(REPO / folder, repo / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for name, anchor, added in TORCH:
        path = repo / name
        text = path.read_text()
        assert text.count(anchor) == 1, f"{name}: the torch's edit does not find its place: {anchor!r}"
        path.write_text(text.replace(anchor, anchor + added))
    namespace = scratch / "path" / "labyrinth"
    namespace.mkdir(parents=True)
    shutil.copy(REPO / "__main__.py", namespace / "__main__.py")
    for folder, installed in PACKAGES.items():
        (namespace / installed).symlink_to(repo / folder, target_is_directory=True)
    return scratch / "path"


@pytest.fixture(scope="module")
def torch(tmp_path_factory) -> tuple[Path, dict]:
    scratch = tmp_path_factory.mktemp("torch")
    path = _copy_with_torch(scratch)
    clean = {"PYTHONPATH": str(path), "PATH": "", "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run([sys.executable, "-c", PROBE, str(scratch)], capture_output=True, text=True, env=clean,
                         cwd=scratch, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    return scratch / "repo", json.loads(run.stdout)


def _changed(copy: Path) -> list[str]:
    """The files of the copy that differ from the repository's."""
    changed = []
    for folder in (*PACKAGES, "docs"):
        for path in sorted((copy / folder).rglob("*")):
            if path.is_file() and not filecmp.cmp(path, REPO / path.relative_to(copy), shallow=False):
                changed.append(str(path.relative_to(copy)))
    return changed


def test_a_torch_is_its_row_its_rules_and_its_rules_words(torch):
    copy, seen = torch
    assert sorted(_changed(copy)) == ["docs/rules.md", "engine/item_rules.py", "engine/items.py"]  # and this test
    assert untold_items((copy / "docs" / "rules.md").read_text(), seen["items"]) == []
    assert untold_items((REPO / "docs" / "rules.md").read_text(), seen["items"]) == ["TORCH"]  # the page is asked


def test_the_torch_is_named_parsed_and_validated_everywhere(torch):
    _, seen = torch
    assert seen["items"][-1] == "TORCH" and seen["kinds"][-1] == "torch" and seen["usable"] == ["LANTERN", "TORCH"]
    assert [(p["command"], p["target"]) for p in seen["parsed"]] == [("GRAB", "TORCH"), ("USE", "TORCH")]
    schema, validated = seen["wire"]
    assert '"TORCH"' in schema and validated == "TORCH"
    assert seen["glyph"] == "T " and seen["legend"] == [["T", "torch"]]
    assert any("**torch** (`T`) lights 3 more steps for 60 s" in line for line in seen["help"])
    assert "Light the TORCH: you see 3 steps farther for 60 s" in seen["wsap_use"]
    assert seen["planes"] == {"user": ["torch", "torch"], "minotaur": ["torch", "torch"]}


def test_the_torch_lies_near_the_start_is_seen_taken_lit_and_spent(torch):
    _, seen = torch
    assert seen["placed"] and "torch" in seen["entities"] and "@T" in seen["observed"]
    grabbed, lit, *burning = seen["told"]
    assert "You take the TORCH." in grabbed
    assert "You use the TORCH: it lights 3 more steps for 60 s." in lit
    assert "The TORCH is spent." in burning[-1] and not any("spent" in line for line in burning[:-1])
    assert seen["sights"] == [2, 5, 2] and seen["inventory"] == []
    assert seen["known"][1] > seen["known"][0]  # lit where it stands, the user's map grows: its light reaches
    assert seen["timers"] == {"TORCH": 120 - 2}  # 60 s, less the USE turn's second
    assert seen["minotaur_told"][1].count("TORCH") == 0  # the Minotaur does not see a torch lit out of its sight


def test_the_rl_envs_mask_and_draw_the_torch_and_games_play_alike(torch):
    _, seen = torch
    assert seen["masks"] == [False, True] and seen["grab_named"]  # USE TORCH: only with the torch in hand
    assert len(seen["picture"]) == 3
    first, second = seen["games"]
    assert first == second

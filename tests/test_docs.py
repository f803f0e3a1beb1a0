"""The README and docs/ as a newcomer meets them: every relative link leads somewhere (a file, and for
``#anchor`` a heading of it as GitHub names headings), and every code block of the pages the README links
runs as written: ``python`` blocks are executed, ``console`` blocks' commands run in a shell with their
output compared, ``bash`` blocks' commands run and must succeed, ``toml`` blocks are read as the config
file is (its [keys] and [options] as the game screen reads them). A block may be left out only by a marker
just above it, ``<!-- docs-test: not run: REASON -->``; a command outside such a block (an untagged fence, an
indented block) is refused, so none goes unrun."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from labyrinth.engine.items import ITEM_ORDER
from labyrinth.saves.config import read_config
from labyrinth.tui.app import screen_keys
from labyrinth.tui.player_settings import read_settings

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCUMENTS = [README, *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w+-]*)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
MARKER = re.compile(r"^<!-- docs-test: not run: (?P<reason>.*\S.*?) -->$")
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)  # https:, mailto:, //host
COMMAND_START = ("$ ", "labyrinth ", ".venv/bin/", "python", "pip ", "git ")
RUN = {"python", "console", "bash", "sh", "shell", "toml"}  # every other kind is data (json, text, markdown)


@dataclass(frozen=True)
class Block:
    """A fenced code block: its page, the line its fence opens on, its kind, its text, why it is not run."""

    page: Path
    line: int
    kind: str
    text: str
    not_run: str | None

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


@dataclass(frozen=True)
class Page:
    """A markdown page split into its prose lines (fences blanked out) and its fenced blocks."""

    path: Path
    prose: list[str]
    blocks: list[Block]


def read_page(path: Path) -> Page:
    lines = path.read_text(encoding="utf-8").split("\n")
    prose: list[str] = []
    blocks: list[Block] = []
    opened: tuple[int, str, str] | None = None  # line, fence, kind
    body: list[str] = []
    for number, line in enumerate(lines, 1):
        if opened is None:
            match = FENCE.match(line)
            if match:
                opened, body = (number, match.group(1), match.group(2).lower()), []
                prose.append("")
            else:
                prose.append(line)
            continue
        prose.append("")
        if line.strip().startswith(opened[1]) and not line.strip().strip(opened[1][0]):
            start, _, kind = opened
            above = next((text for text in reversed(lines[:start - 1]) if text.strip()), "")
            marker = MARKER.match(above.strip())
            blocks.append(Block(path, start, kind, "\n".join(body) + "\n", marker.group("reason") if marker else None))
            opened = None
        else:
            body.append(line)
    assert opened is None, f"{path.name}: the code block opened on line {opened[0]} is never closed"
    return Page(path, prose, blocks)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text lower-cased, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "")
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(page: Page) -> set[str]:
    """Every heading's anchor on the page, a repeated one numbered as GitHub numbers it (-1, -2, ...)."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for line in page.prose:
        match = HEADING.match(line)
        if match:
            base = slug(match.group(2))
            found.add(f"{base}-{seen[base]}" if base in seen else base)
            seen[base] = seen.get(base, 0) + 1
    return found


def relative_links(page: Page) -> list[tuple[int, str]]:
    """(line, target) of each link and image to this repository, read from the prose without inline code."""
    found = []
    for number, line in enumerate(page.prose, 1):
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if not EXTERNAL.match(target):
                found.append((number, target))
    return found


def broken(page: Page, target: str) -> str | None:
    """Why ``target``, linked from ``page``, leads nowhere; None when it resolves."""
    path, _, anchor = target.partition("#")
    destination = (page.path.parent / path).resolve() if path else page.path
    if not destination.exists():
        return f"{path} does not exist"
    if REPO not in destination.parents and destination != REPO:
        return f"{path} is outside the repository"
    if anchor and destination.suffix == ".md" and anchor not in anchors(read_page(destination)):
        return f"{destination.name} has no heading whose anchor is #{anchor}"
    return None


def linked_pages() -> list[Page]:
    """The README and every markdown page it links: the pages whose examples must run."""
    readme = read_page(README)
    targets = {(README.parent / target.partition("#")[0]).resolve() for _, target in relative_links(readme)}
    return [readme, *(read_page(path) for path in sorted(targets) if path.suffix == ".md")]


def blocks(kinds: set[str], *, run: bool = True) -> list[Block]:
    """The blocks of those kinds on the linked pages: the ones to run, or (run=False) the ones marked not to."""
    return [block for page in linked_pages() for block in page.blocks
            if block.kind in kinds and (block.not_run is None) == run]


def params(chosen: list[Block]) -> list:
    return [pytest.param(block, id=block.name) for block in chosen]


def test_every_relative_link_resolves():
    pages = [read_page(path) for path in DOCUMENTS]
    links = [(page, number, target) for page in pages for number, target in relative_links(page)]
    assert len(links) > 20 and any("#" in target for _, _, target in links)
    problems = [f"{page.path.name}:{number}: {target}: {why}"
                for page, number, target in links if (why := broken(page, target))]
    assert problems == []


def untold_items(rules: str, names: list[str]) -> list[str]:
    """The items of the table that the rules page never names: a new item's row asks for its rules' words."""
    return [name for name in names if name not in rules]


def test_the_rules_page_tells_every_item():
    assert untold_items((REPO / "docs" / "rules.md").read_text(), list(ITEM_ORDER)) == []


def test_the_readme_links_every_page_of_docs():
    linked = {page.path for page in linked_pages()}
    assert set(DOCUMENTS) <= linked, sorted(path.name for path in set(DOCUMENTS) - linked)


def test_a_marked_block_says_why_and_no_command_hides_outside_a_block():
    for page in linked_pages():
        for block in page.blocks:
            if block.kind not in RUN:
                assert block.not_run is None, f"{block.name}: a {block.kind or 'plain'} block is never run"
                commands = [line for line in block.text.split("\n") if line.startswith(COMMAND_START)]
                assert commands == [], f"{block.name}: commands in a {block.kind or 'plain'} block: tag it"
        indented = [(number, line) for number, line in enumerate(page.prose, 1)
                    if line.startswith("    ") and line[4:].startswith(COMMAND_START) and "[" not in line]
        assert indented == [], f"{page.path.name}: commands in an indented block (a synopsis has [options])"


def test_a_block_not_run_says_why():
    marked = blocks(RUN, run=False)
    assert marked and all(len((block.not_run or "").split()) >= 4 for block in marked), "a reason in words"


@pytest.mark.parametrize("block", params(blocks({"python"})))
def test_a_python_block_runs_as_written(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(block.text, block.name, "exec"), {"__name__": "docs"})  # noqa: S102 - our own docs


@pytest.mark.parametrize("block", params(blocks({"toml"})))
def test_a_toml_block_is_a_config_file_the_game_accepts(block, tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(block.text, encoding="utf-8")
    assert read_config(path)
    assert read_settings(screen_keys(), path).problems == ()  # its [keys] and [options] too, as the game reads them


def console_steps(text: str) -> list[tuple[str, str]]:
    """(command, expected output) pairs of a console block: ``$ `` starts a command, a line ending in a
    backslash goes on, and the lines up to the next ``$ `` are what it prints."""
    steps: list[tuple[str, list[str]]] = []
    going_on = False
    for line in text.rstrip("\n").split("\n"):
        if going_on:
            steps[-1] = (steps[-1][0] + "\n" + line, [])
        elif line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            assert steps, f"output before any command: {line!r}"
            steps[-1][1].append(line)
        going_on = line.endswith("\\") and not steps[-1][1]
    return [(command, "\n".join(output)) for command, output in steps]


def shell(command: str, cwd: Path) -> subprocess.CompletedProcess:
    """``command`` in bash as a reader runs it, the environment activated: this venv's programs first."""
    environ = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(["bash", "-euo", "pipefail", "-c", command], cwd=cwd, env=environ, capture_output=True,
                          text=True, timeout=120, check=False)


@pytest.mark.slow
@pytest.mark.parametrize("block", params(blocks({"console"})))
def test_a_console_block_prints_what_it_shows(block, tmp_path):
    steps = console_steps(block.text)
    assert steps
    for command, expected in steps:
        done = shell(command, tmp_path)
        assert done.returncode == 0, done.stderr
        assert [line.rstrip() for line in done.stdout.rstrip("\n").split("\n")] == expected.split("\n")


@pytest.mark.slow
@pytest.mark.parametrize("block", params(blocks({"bash", "sh", "shell"})))
def test_a_bash_block_runs(block, tmp_path):
    done = shell(block.text, tmp_path)
    assert done.returncode == 0, done.stderr

"""The game as a user gets it from a wheel: built from this checkout, installed
(not editable) into a fresh virtual environment, run from a folder that is not
the repository, so that nothing answers from the source tree."""

import email.parser
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import venv
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parent.parent
# The [rl] extra's modules: the envs and their rl_*.py parts (commands, views, renders), and the kernel's
# (agents/rl/kernel/: numpy's arrays, and numba's compiler when the [fast] extra is installed).
RL_EXTRA = {"labyrinth.agents.gym_env", "labyrinth.agents.pettingzoo_env",  # the documented paths, re-exporting rl/
            *(".".join(("labyrinth", *p.relative_to(REPO).with_suffix("").parts))
              for p in (REPO / "agents" / "rl").rglob("*.py") if p.stem != "__init__")}
RL_PACKAGES = {"gymnasium", "pettingzoo", "numpy"}  # what those import from the [rl] extra


pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]  # one worker builds the module's fixture, once

@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The bin folder of a fresh environment with the wheel installed by pip and the distributions its
    metadata requires (dependencies)."""
    root = tmp_path_factory.mktemp("wheel")
    # Built from a copy of the sources alone: setuptools reuses a build/ folder in the tree, whose stale
    # modules (a file since moved) would otherwise ship in the wheel and hide a missing one.
    source = root / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info",
                                                                "__pycache__", ".hypothesis", ".ruff_cache",
                                                                ".mypy_cache", ".pytest_cache"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(root / "dist"), str(source)],
                   check=True, capture_output=True)
    (wheel,) = (root / "dist").glob("*.whl")
    # Installed by this environment's pip into the new one (pip's --python), as a user's pip would; the
    # modules are compiled when first imported (below), not all of them now: about 15 s less of the suite.
    venv.create(root / "env", with_pip=False)
    bin_dir = root / "env" / ("Scripts" if sys.platform == "win32" else "bin")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(bin_dir / "python"), "install", "-q",
                    "--no-deps", "--no-compile", str(wheel)], check=True, capture_output=True)
    site_packages = Path(sysconfig.get_path("purelib", vars={"base": root / "env", "platbase": root / "env"}))
    for distribution in dependencies(wheel).values():
        copy_installed(distribution, site_packages)
    return bin_dir


def dependencies(wheel: Path) -> dict[str, metadata.Distribution]:
    """What pip installs with the wheel, taken from this environment: the distributions its metadata requires
    (no extra) and theirs, by name. Each is the version pip chose here for the same requirements (this
    environment is the wheel's dependencies and [test]'s), and must be one its requirer accepts. Resolving
    them again on the package index cost pip some 20 CPU-s; a requirement missing from the wheel's
    metadata is as missing from this list."""
    with zipfile.ZipFile(wheel) as archive:
        (name,) = (n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        required = email.parser.Parser().parsestr(archive.read(name).decode()).get_all("Requires-Dist") or []
    wanted = [(Requirement(line), "") for line in required]
    found: dict[str, metadata.Distribution] = {}
    asked: set[tuple[str, str]] = set()
    while wanted:
        requirement, extra = wanted.pop()
        if requirement.marker and not requirement.marker.evaluate({"extra": extra}):
            continue  # another extra's, or another platform's
        installed = metadata.distribution(requirement.name)
        assert requirement.specifier.contains(installed.version, prereleases=True), (requirement, installed.version)
        found[canonicalize_name(requirement.name)] = installed
        for asked_extra in ("", *requirement.extras):
            if (canonicalize_name(requirement.name), asked_extra) not in asked:
                asked.add((canonicalize_name(requirement.name), asked_extra))
                wanted += [(Requirement(line), asked_extra) for line in installed.requires or []]
    return found


def copy_installed(distribution: metadata.Distribution, site_packages: Path) -> None:
    """The files pip installed for ``distribution`` into site-packages (its RECORD's, bytecode left out:
    compiled when first imported), copied into another environment's ``site_packages``."""
    for file in distribution.files or ():
        if file.parts[0] != ".." and file.suffix != ".pyc":  # ".." leads out of site-packages (its scripts)
            (site_packages / file).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(distribution.locate_file(file), site_packages / file)


def _run(installed: Path, *args: str) -> subprocess.CompletedProcess:
    """``args`` run from the environment's bin folder, allowed to write the bytecode of what they import."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    return subprocess.run([str(installed / args[0]), *args[1:]], capture_output=True, text=True,
                          cwd=installed.parent, timeout=120, check=False, env=env)


def test_the_installed_command_draws_a_world(installed):
    out = _run(installed, "labyrinth", "world", "--preset", "tiny", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Labyrinth seed 1, preset tiny")


def test_the_installed_command_has_help(installed):
    out = _run(installed, "labyrinth", "--help")
    assert out.returncode == 0 and "usage: labyrinth" in out.stdout


def test_python_dash_m_labyrinth_is_the_command(installed):
    out = _run(installed, "python", "-m", "labyrinth", "world", "--preset", "tiny", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert out.stdout == _run(installed, "labyrinth", "world", "--preset", "tiny", "--seed", "1").stdout


def test_every_package_and_the_styles_are_in_the_wheel(installed):
    """The providers, the TUI's screens and widgets and its stylesheet are what an incomplete wheel lost.
    The [rl] extra's modules are in it too; installed without the extra, they miss only its packages.
    (labyrinth.__main__ runs the command when imported: python -m labyrinth's test runs it.)"""
    code = textwrap.dedent(f"""
        import importlib, labyrinth, pathlib, pkgutil
        mods = [m.name for m in pkgutil.walk_packages(labyrinth.__path__, 'labyrinth.')
                if m.name != 'labyrinth.__main__']
        for name in mods:
            try:
                importlib.import_module(name)
            except ModuleNotFoundError as exc:
                assert name in {sorted(RL_EXTRA)!r} and exc.name in {sorted(RL_PACKAGES)!r}, (name, exc)
        import labyrinth.tui.app as app
        assert (pathlib.Path(app.__file__).parent / app.LabyrinthApp.CSS_PATH).is_file()
        print(len(mods))""")
    out = _run(installed, "python", "-c", code)
    assert out.returncode == 0, out.stderr
    ours = {p.relative_to(REPO).with_suffix("") for top in ("engine", "agents", "saves", "labyrinth_tui")
            for p in (REPO / top).rglob("*.py") if "__pycache__" not in p.parts}
    assert int(out.stdout) == len(ours)


def test_nothing_of_ours_answers_to_generic_names(installed):
    """'agents' is the OpenAI Agents SDK's import name; ours live under 'labyrinth'."""
    for name in ("agents", "engine", "saves", "labyrinth_tui"):
        out = _run(installed, "python", "-c", f"import {name}")
        assert "ModuleNotFoundError" in out.stderr, name

"""Start-up, as a user of the pipe and of the game screen meets it (issue 29): `labyrinth gsm`
started as a process, sent one MOVE line, timed to the answer of that line (the second line out:
the first is the initial state); and the imports each front needs before it can do anything, each
in a fresh interpreter. Prints figures, the pipe's against its target (PASS/MISS); asserts nothing.

Each figure is the median of several starts, given twice: wall time, what a person waits, and the
CPU time the process spent (the child's own, from wait4), which a busy machine hardly changes:
compare runs by CPU when the load average (printed) differs. The game screen's first frame is
bench/perf/tui_bench.py's; here only the imports it waits for.

    .venv/bin/python bench/perf/startup_bench.py [--starts N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for figures.py
from figures import installed_env

FIRST_ANSWER_S = 0.2
MOVE = b'{"command":"MOVE","direction":"NORTH","steps":1}\n'
# What each front imports before its first answer or frame: the parser, then the subcommand's own modules.
IMPORTS = {
    "labyrinth.tui.cli (the parser's modules)": "import labyrinth.tui.cli",
    "gsm: parser, parse, the pipe": "from labyrinth.tui import cli; cli.parser_for(['gsm']).parse_args(['gsm']); "
                                    "import labyrinth.tui.jsonlines",
    "play: parser, parse, the app and screens": "from labyrinth.tui import cli; "
                                                "cli.parser_for(['play']).parse_args(['play']); "
                                                "import labyrinth.tui.app",
    "labyrinth.engine alone": "import labyrinth.engine",
    # The floor of any pipe whose traffic pydantic validates: the library, its plugin scan (at the first model)
    # and one model built and used; the pipe builds the schemas' models on top of this.
    "pydantic and one model (a validated pipe's floor)": "import pydantic\nclass M(pydantic.BaseModel):\n"
                                                         "    x: int\nM.model_validate(dict(x=1))",
}
TIMED = ("import time; wall, cpu = time.perf_counter(), time.process_time()\n{code}\n"
         "print(time.perf_counter() - wall, time.process_time() - cpu)")


def gsm_first_answer(labyrinth: str, env: dict[str, str]) -> tuple[float, float]:
    """(wall s from starting `labyrinth gsm` to the answer of one MOVE line, the child's CPU s by its exit)."""
    start = time.perf_counter()
    proc = subprocess.Popen([labyrinth, "gsm", "--seed", "7", "--preset", "standard"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, bufsize=0)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(MOVE)
    proc.stdin.flush()
    lines = [proc.stdout.readline(), proc.stdout.readline()]  # the initial state, then the answer
    wall = time.perf_counter() - start
    proc.stdin.close()  # EOF: the pipe exits at once
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stdout.close()
    if proc.returncode or not all(line.endswith(b"\n") for line in lines):
        raise RuntimeError(f"labyrinth gsm exited {proc.returncode} after {lines!r}")
    return wall, usage.ru_utime + usage.ru_stime


def interpreter_start(env: dict[str, str]) -> tuple[float, float]:
    """(wall s, the child's CPU s) of a Python process that does nothing: the part of every start that no
    import can spare."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", "pass"], env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        raise RuntimeError("python -c pass failed")
    return wall, usage.ru_utime + usage.ru_stime


def import_times(code: str, env: dict[str, str]) -> tuple[float, float]:
    """(wall s, CPU s) of ``code`` in a fresh interpreter, the interpreter's own start left out."""
    out = subprocess.run([sys.executable, "-c", TIMED.format(code=code)], capture_output=True, text=True, env=env,
                         check=True)
    wall, cpu = out.stdout.split()
    return float(wall), float(cpu)


def row(name: str, pairs: list[tuple[float, float]], target: float | None = None) -> None:
    """One figure: the medians of wall and CPU in ms, the wall's verdict against ``target`` s."""
    wall, cpu = (statistics.median(p[i] for p in pairs) * 1e3 for i in (0, 1))
    verdict = "" if target is None else f"< {target * 1e3:.0f} ms  {'PASS' if wall < target * 1e3 else 'MISS'}"
    print(f"{name:<44} {wall:8.0f} ms wall {cpu:8.0f} ms CPU  {verdict}".rstrip(), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=9, help="starts per figure, interleaved (default: 9)")
    starts = parser.parse_args().starts
    labyrinth = shutil.which("labyrinth", path=Path(sys.executable).parent)
    if labyrinth is None:
        sys.exit("no labyrinth command beside this interpreter: pip install -e .")
    print(f"start-up: median of {starts} starts each, interleaved; {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.2f}, Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as data:
        env = installed_env(XDG_DATA_HOME=data, XDG_CONFIG_HOME=data)
        gsm_first_answer(labyrinth, env)  # a first start compiles what a fresh install has not yet
        for code in IMPORTS.values():
            import_times(code, env)
        pipe: list[tuple[float, float]] = []
        bare: list[tuple[float, float]] = []
        imports: dict[str, list[tuple[float, float]]] = {name: [] for name in IMPORTS}
        for _ in range(starts):  # interleaved, so that a change of load touches every figure alike
            pipe.append(gsm_first_answer(labyrinth, env))
            bare.append(interpreter_start(env))
            for name, code in IMPORTS.items():
                imports[name].append(import_times(code, env))
    row("gsm: start to the first line's answer", pipe, FIRST_ANSWER_S)
    row("python -c pass, as a process", bare)
    for name, pairs in imports.items():
        row(f"import, {name}", pairs)


if __name__ == "__main__":
    main()

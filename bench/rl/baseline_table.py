"""The ladder's baseline table, from baseline.py's results: a row per task and algorithm, its win rate
on the ``test`` split (the user's escapes, the Minotaur's captures) as the mean over training runs
with Student's t 95 % interval over the runs (a single run, or an untrained yardstick: its Wilson
interval over the games), the mean stones the user held at the end (either role's task), the mean turns and
the mean return (the role's own, what training maximises), and two paired differences with random play on the
very same test games, per run (how many runs are clear of zero, above it and below it): the win rate's
(Newcombe's 95 % interval) and the stones the user found a game (Bonett and Price's, on the share of the three
stones each game found: a learnt user that seldom escapes can still be seen to learn to find stones; on the
Minotaur's rungs fewer is its gain). The user's rungs above the first have the two yardsticks' rows only. A row
without results reads "not yet run"; under the table, each training run's own row, and the commands that make the
missing rows. Markdown, for docs/rl.md.

    .venv/bin/python bench/rl/baseline_table.py --out bench/rl/results
    .venv/bin/python bench/rl/baseline_table.py --update docs/rl.md   # the page's two tables made anew
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

from baseline import ALGOS, STEPS, TRAINED, result_path  # bench/rl/ is on sys.path, as this file runs as a script

from labyrinth.agents.compete.intervals import mean_interval, paired_proportions, paired_scores
from labyrinth.agents.rl.tasks import TASKS
from labyrinth.engine.items import STONES
from labyrinth.engine.schemas import WIN
from labyrinth.saves.outputs import write_output
from labyrinth.saves.paths import StorageError
from labyrinth.saves.reading import read_regular

# The rungs the table reports: the user's first rungs and the Minotaur's, each algorithm; then the user's rungs
# above, random play and the built-in user only (how hard each is, before anything is trained on it).
TABLE_TASKS = ("Labyrinth/Stones-Tiny-v1", "Labyrinth/User-Tiny-Wait-v1", "Labyrinth/User-Tiny-v1",
               "Labyrinth/Minotaur-Tiny-Wait-v1", "Labyrinth/Minotaur-Tiny-Random-v1", "Labyrinth/Minotaur-Tiny-v1")
UPPER_TASKS = ("Labyrinth/User-Small-v1", "Labyrinth/User-Standard-v1", "Labyrinth/User-Large-v1",
               "Labyrinth/User-Full-v1")
YARDSTICKS = tuple(algo for algo in ALGOS if algo not in TRAINED)
SEEDS = (0, 1, 2)  # the training runs a trained row is made of
NOT_RUN = "not yet run"
PAGE_BYTES = 4_000_000  # the most --update reads of a page (docs/rl.md is under 100 kB)
MEASURES = ("win on test (95 % CI)", "the user's stones", "turns", "return", "win vs random on test (95 % CI)",
            "stones vs random on test (95 % CI)")  # the columns row() fills after the training's


def head(*columns: str) -> list[str]:
    """A markdown table's first two lines: ``columns``, then the measures."""
    names = (*columns, *MEASURES)
    return ["| " + " | ".join(names) + " |", "|" + "---|" * len(names)]


Kept = dict[tuple[str, str], list[dict[str, Any]]]  # (task id, algorithm): its results, by training seed


def kept(out: Path) -> Kept:
    """Every result the two tables show, found under ``out`` and read once."""
    def runs(task_id: str, algo: str) -> list[dict[str, Any]]:
        found = sorted(result_path(out, task_id, algo, 0).parent.glob(f"{algo}-seed*.json"))
        return [json.loads(path.read_text(encoding="utf-8")) for path in found]
    return {(task_id, algo): runs(task_id, algo) for task_id in (*TABLE_TASKS, *UPPER_TASKS)
            for algo in (ALGOS if task_id in TABLE_TASKS else YARDSTICKS)}


def row(task_id: str, algo: str, results: list[dict[str, Any]], random: dict[str, Any] | None) -> list[str]:
    """One line of the table: the cells after the task and the algorithm."""
    if not results:
        return [NOT_RUN, "", "", "", "", "", ""]
    role = TASKS[task_id].role
    tests = [r["test"] for r in results]
    if len(results) == 1:
        win = tests[0]["win"]
        rate = f"{win['value']:.3f} ({win['low']:.3f}..{win['high']:.3f})"
    else:
        mean, low, high = mean_interval([t["win"]["value"] for t in tests])
        spread = "" if low is None or high is None else f" ({max(low, 0.0):.3f}..{min(high, 1.0):.3f})"
        rate = f"{mean:.3f}{spread}"
    stones = statistics.fmean(t["stones"]["value"] for t in tests)
    turns = statistics.fmean(t["turns"]["value"] for t in tests)
    returns = statistics.fmean(t["return"]["value"] for t in tests)
    trained = f"{len(results)} x {steps_taken(results)}" if algo in TRAINED else "-"
    measured = [trained, rate, f"{stones:.2f}", f"{turns:.0f}", f"{returns:+.2f}"]
    if algo == "random":
        return [*measured, "-", "-"]
    return [*measured, versus(tests, random, role, "win"), versus(tests, random, role, "stones")]


def steps_taken(results: list[dict[str, Any]]) -> str:
    """The steps the runs trained: SB3 trains whole rollouts, so a bit past the steps asked (1,015,808 for
    PPO's 8 x 2,048 against 1,000,000)."""
    taken = sorted({r.get("trained_steps", r["steps"]) for r in results})
    return f"{taken[0]:,}" if len(taken) == 1 else f"{taken[0]:,}..{taken[-1]:,}"


def versus(tests: list[dict[str, Any]], random: dict[str, Any] | None, role: str, measure: str) -> str:
    """The mean paired difference with random play on the same test games, and how many runs clear zero on each
    side: of the win rate (``measure`` "win") or of the stones the user found a game ("stones", its interval Bonett
    and Price's on each game's share of the stones, shown in stones). Both sides are counted, whichever is the
    role's gain (more stones for the user, fewer for the Minotaur), so that runs worse than random show as such
    rather than as runs that merely failed to beat it."""
    if random is None:
        return "random not yet run"
    theirs = {game["seed"]: game for game in random["test"]["games"]}
    differences = []
    for test in tests:
        pairs = [(game, theirs[game["seed"]]) for game in test["games"] if game["seed"] in theirs]
        if measure == "win":
            differences.append(paired_proportions([(a["outcome"] == WIN[role], b["outcome"] == WIN[role])
                                                   for a, b in pairs]))
            continue
        shares = [(a["stones"] - b["stones"]) / len(STONES) for a, b in pairs]
        low, high = paired_scores(shares)
        differences.append((statistics.fmean(shares) * len(STONES), low * len(STONES), high * len(STONES)))
    mean = statistics.fmean(d for d, _, _ in differences)
    digits = 3 if measure == "win" else 2
    if len(differences) == 1:
        _, low, high = differences[0]
        return f"{mean:+.{digits}f} ({low:+.{digits}f}..{high:+.{digits}f})"
    above = sum(low > 0 for _, low, _ in differences)
    below = sum(high < 0 for _, _, high in differences)
    runs_of = f"of {len(differences)} runs"
    if not above and not below:
        return f"{mean:+.{digits}f}, 0 {runs_of} clear of 0"
    if not below:
        return f"{mean:+.{digits}f}, {above} {runs_of} above 0"
    if not above:
        return f"{mean:+.{digits}f}, {below} {runs_of} below 0"
    return f"{mean:+.{digits}f}, {above} {runs_of} above 0, {below} below"


def command(task_id: str, algo: str, seed: int) -> str:
    steps = f" --steps {STEPS}" if algo in TRAINED else ""
    return f".venv/bin/python bench/rl/baseline.py --task {task_id} --algo {algo} --seed {seed}{steps}"


def table(found: Kept) -> tuple[str, list[str]]:
    """The table in markdown, and the commands of the rows (or training runs) not yet made."""
    lines = head("task", "algorithm", "training (runs x steps)")
    missing = []
    for (task_id, algo), results in found.items():
        random = next(iter(found[task_id, "random"]), None)
        lines.append("| " + " | ".join([f"`{task_id}`", algo, *row(task_id, algo, results, random)]) + " |")
        seeds = SEEDS if algo in TRAINED else SEEDS[:1]
        done = {r["seed"] for r in results}
        missing += [command(task_id, algo, seed) for seed in seeds if seed not in done]
    return "\n".join(lines), missing


def each_run(found: Kept) -> str:
    """A row for every training run of the first rungs, in markdown: what a row of several runs is the mean of, so
    that a reader sees whether the runs agree or some learnt and others did not (three runs' interval cannot tell)."""
    lines = head("task", "algorithm", "seed", "steps trained")
    for task_id in TABLE_TASKS:
        random = next(iter(found[task_id, "random"]), None)
        for algo in TRAINED:
            for result in sorted(found[task_id, algo], key=lambda r: r["seed"]):
                _, *cells = row(task_id, algo, [result], random)
                lines.append("| " + " | ".join([f"`{task_id}`", algo, str(result["seed"]), steps_taken([result]),
                                                *cells]) + " |")
    return "\n".join(lines)


def updated(page: str, tables: list[str]) -> str:
    """``page`` with each of ``tables`` in place of the table there that has its header line; ValueError naming
    a header the page lacks (or holds twice)."""
    lines = page.split("\n")
    for text in tables:
        new = text.split("\n")
        if lines.count(new[0]) != 1:
            raise ValueError(f"the page holds {lines.count(new[0])} tables headed {new[0][:60]!r}..., not one")
        start = end = lines.index(new[0])
        while end < len(lines) and lines[end].startswith("|"):
            end += 1
        lines[start:end] = new
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("bench/rl/results"))
    parser.add_argument("--update", metavar="PAGE", help="write the two tables into PAGE (docs/rl.md) in place of "
                                                         "the ones there, instead of printing them")
    args = parser.parse_args()
    found = kept(args.out)
    text, missing = table(found)
    if args.update:
        try:
            page = updated(read_regular(Path(args.update), PAGE_BYTES).decode("utf-8"), [text, each_run(found)])
            write_output(args.update, lambda out: out.write(page.encode("utf-8")))
        except (OSError, ValueError, StorageError) as exc:
            where = "" if args.update in str(exc) else f"{args.update}: "  # said once, where the error names it
            raise SystemExit(f"baseline_table.py: {where}{exc}") from None
    else:
        print(text)
        print("\nEach training run:\n")
        print(each_run(found))
    if missing:
        print(f"\n{len(missing)} runs not yet made:")
        print("\n".join(missing))


if __name__ == "__main__":
    main()

"""Huge and odd values for every bounded setting, through the real `labyrinth` commands.

    .venv/bin/python bench/hostile/hostile_bounds.py [--seed N ...]

The settings: each counted or timed option (--max-turns, --games, --repeats, --concurrency, --jobs,
--seed, --llm-timeout, --llm-rpm, --hold-limit) in the commands that take it (arena, tournament,
leaderboard, gsm, play, doctor --offline); the config file's numbers (timeout_s and rpm in a
provider's table or a contestant's, a contestant's temperature, max_tokens, price_in and price_out);
a model's name from --user, --users, --minotaur (as openai/NAME), --openai-model, the environment
($LABYRINTH_OPENAI_MODEL) and the config file ([openai] model, a contestant's model); and a
tournament's matches in all (users x Minotaurs x seeds x repeats). Per seed, drawn from
random.Random(f"hostile-bounds:{seed}"): for each option an odd value (huge ints, 400 digits, 1e-300,
1e308, inf, nan, -1, 0, one past each edge of the range, empty, spaces, words, underscores, unicode
digits) in one command that takes it (two for an option WIDE commands take), and a value in its
range (an edge, the middle, or written with spaces, underscores or Arabic-Indic digits) in one that
runs it; an odd value of each config number and of each source of a model's name (a space, a comma,
a tab, an escape, a bidi override, a no-break space, too long, empty), and a value in range for
FAIR_SAMPLE of each; and a tournament too big by its product. `play` is given values to refuse only
(it opens the game's screen on one it takes). Whether a value is in range is read here, as Python
reads a number (int() for a count, float() else) or TOML does, never by asking the game. Each
command runs in homes of its own with an OpenAI stand-in (tests/stubs.py) for the model whose
settings are tried, a short game on tiny, a results database of one match for the leaderboard.

Judged: a traceback or a death by a signal is a crash; no end within hostile_commands.END_S a hang
(a value in range may play on: it is sent SIGTERM after CUT_S, and must end then); a value out of
range must be refused with exit status 2 in one line (argparse's usage lines aside; `doctor
--offline` reports a setting it cannot read in its "cannot be read" lines, a config file in its
line) that names the setting
and its range (for a name, its rule), at most REFUSAL_CHARS long, with no terminal control
character (hostile_settings.refusal_problems judges it); a value in range must be taken. Anything
else is wrong. ``section`` counts the cases into a hostile_watch.Tally for bench/hostile/hostile.py; run
alone, this prints each case and the totals.
"""

from __future__ import annotations

import random
import shutil
import sys
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the root, for tests.stubs, the stand-in server

from hostile_commands import Home, Ran, home, run
from hostile_inputs import UNICODE_DIGITS
from hostile_settings import UNSHOWABLE, refusal_lines, refusal_problems, toml_string
from hostile_watch import Tally, run_alone

from labyrinth.engine.rng import SEED_LIMIT
from labyrinth.saves.results_db import MatchRow, ResultsDB
from tests.stubs import Model, Stub

CUT_S = 3.0  # a command given a value in range that still plays then is sent SIGTERM: it took the value
REFUSAL_CHARS = 400  # the longest a refusal's line may be (the config file's path and the range included)
JOBS = 2  # cases at a time (this machine has two cores)
WIDE = 4  # an option that this many commands take gets an odd value in two of them, others in one
FAIR_SAMPLE = 2  # config numbers, and sources of a model's name, given a value in range per seed (drawn)
MOST_MATCHES = 100_000  # a tournament's matches in all (users x Minotaurs x seeds x repeats), as the README says
MODEL_CHARS = 200  # the longest model's name, as the README says
STAND_IN_KEY = "sk-bounds-stand-in"
HUGE = "99999999999999999999999"


@dataclass(frozen=True)
class Range:
    """A setting's range as this judge knows it (from the README), and how its refusal says it."""

    least: float
    most: float
    whole: bool  # a count: int() reads it (and TOML must give an int)
    commas: bool = True  # the figures are written 100,000 (a seed's are not)

    @property
    def said(self) -> str:
        """What a refusal must hold of the range: "from 0.1 to 3,600"."""
        return f"from {self.figure(self.least)} to {self.figure(self.most)}"

    def figure(self, number: float) -> str:
        if number == int(number):
            return f"{int(number):,}" if self.commas else str(int(number))
        return f"{number:g}"

    def holds(self, number: object) -> bool:
        kinds = (int,) if self.whole else (int, float)
        return isinstance(number, kinds) and not isinstance(number, bool) and self.least <= number <= self.most

    def reading(self, text: str) -> float | None:
        """``text`` as a command line reads it (int() for a count, float() else), None if it cannot."""
        try:
            return int(text) if self.whole else float(text)
        except ValueError:
            return None

    def past(self) -> tuple[str, str]:
        """The values one past each edge."""
        if self.whole:
            return str(int(self.least) - 1), str(int(self.most) + 1)
        return repr(round(self.least - 0.01, 6)), repr(self.most + 0.5)

    def fair(self, draw: random.Random) -> str:
        """A value in range, at an edge, in the middle, or in range but oddly written."""
        middle = int((self.least + min(self.most, 10_000)) / 2) if self.whole else round(draw.uniform(
            self.least, min(self.most, 1_000)), 2)
        forms = [str(int(self.least)) if self.whole else f"{self.least:g}",
                 str(int(self.most)) if self.whole else f"{self.most:g}", str(middle), f" {middle} "]
        if self.whole and middle >= 1000:
            forms.append(f"{middle:_}")  # 1_234: Python's int() and float() read it
        if self.whole and 0 <= middle:
            forms.append("".join(UNICODE_DIGITS_DECIMAL[int(d)] for d in str(middle)))  # ٣٤: int() reads it
        return draw.choice(forms)


UNICODE_DIGITS_DECIMAL = "٠١٢٣٤٥٦٧٨٩"  # Arabic-Indic: decimal digits int() reads, as it reads 0-9
TURNS, GAMES = Range(1, 100_000, True), Range(1, 100_000, True)
REPEATS, AT_ONCE = Range(1, 1_000, True), Range(1, 1_000, True)
SECONDS, RPM = Range(0.1, 3_600, False), Range(0.1, 100_000, False)
SEEDS = Range(-SEED_LIMIT, SEED_LIMIT - 1, True, commas=False)
TEMPERATURE, TOKENS, PRICE = Range(0, 2, False), Range(16, 100_000, True), Range(0, 10_000, False)


def odd_values(bound: Range) -> list[str]:
    """The odd values drawn from for a number: most out of range or no number at all."""
    below, above = bound.past()
    return [HUGE, "9" * 400, "1e-300", "1e308", "inf", "nan", "-1", "0", below, above, "", "   ", "ten",
            "1_000_000_000", *UNICODE_DIGITS[:2]]  # ² and ³: digits int() does not read


ODD_NAMES = ["gpt 4o", "gpt,4o", "gpt\x1b[2Jx", "gpt\tmini", "gpt\u202emini", "gpt\u00a0mini", "m" * (MODEL_CHARS + 1),
             "m" * 5000, ""]
FAIR_NAMES = ["m" * MODEL_CHARS, "qwen3:8b", "gpt-4o-mini", "Qwen/Qwen2.5-7B-Instruct", "modèle-ü",
              "llama3.1:8b-instruct-q4_K_M"]


def name_problem(name: str) -> str | None:
    """What a refusal of ``name`` as a model's name must say of the rule (None: it must be taken)."""
    if not name:
        return "empty"
    if len(name) > MODEL_CHARS:
        return f"at most {MODEL_CHARS}"
    if any(c.isspace() or c == "," or not c.isprintable() for c in name):
        return "a space, a comma"
    return None


@dataclass(frozen=True)
class Setting:
    """A bounded setting: where it is given, what its refusal names, and the commands that read it."""

    name: str  # what its refusal must name: "--games", "[contestants.bench] rpm", "$LABYRINTH_OPENAI_MODEL"
    place: str  # "option", "config", "environment", or "contestant" (--user openai/NAME)
    key: str  # the option, the variable, or the config file's key
    readers: tuple[str, ...]  # the commands that take it
    bound: Range | None = None  # None: a model's name
    model: bool = False  # read only when a model plays: the commands play the stand-in's


OPTIONS = [
    Setting("--max-turns", "option", "--max-turns", ("arena", "tournament", "leaderboard"), TURNS),
    Setting("--games", "option", "--games", ("arena", "tournament"), GAMES),
    Setting("--repeats", "option", "--repeats", ("tournament",), REPEATS),
    Setting("--concurrency", "option", "--concurrency", ("tournament",), AT_ONCE),
    Setting("--jobs", "option", "--jobs", ("arena",), AT_ONCE),
    Setting("--seed", "option", "--seed", ("arena", "tournament", "gsm", "play"), SEEDS),
    Setting("--llm-timeout", "option", "--llm-timeout", ("arena", "tournament", "gsm", "play", "doctor"), SECONDS,
            model=True),
    Setting("--llm-rpm", "option", "--llm-rpm", ("arena", "tournament", "gsm", "play", "doctor"), RPM, model=True),
    Setting("--hold-limit", "option", "--hold-limit", ("arena", "tournament"), SECONDS, model=True),
]
CONFIG_READERS = ("doctor", "arena", "tournament")
CONFIG_NUMBERS = {"timeout_s": SECONDS, "rpm": RPM, "temperature": TEMPERATURE, "max_tokens": TOKENS,
                  "price_in": PRICE, "price_out": PRICE}
PROVIDER_TABLE_KEYS = ("timeout_s", "rpm")  # the rest are a contestant's only
NAMES = [
    Setting("--user", "contestant", "--user", ("arena",)),
    Setting("--users", "contestant", "--users", ("tournament",)),  # a comma parts its names: not drawn
    Setting("--minotaur", "contestant", "--minotaur", ("arena", "gsm", "play")),
    Setting("openai model", "option", "--openai-model", ("arena", "tournament", "doctor", "gsm"), model=True),
    Setting("$LABYRINTH_OPENAI_MODEL", "environment", "LABYRINTH_OPENAI_MODEL", ("arena", "tournament", "doctor"),
            model=True),
    Setting("[openai] model", "config", "model", CONFIG_READERS, model=True),
    Setting("[contestants.bench] model", "config", "model", CONFIG_READERS, model=True),
]
SCREEN = ("play",)  # opens the game's screen when it takes a value: tried with values to refuse only
BASES = {
    "arena": ["arena", "--preset", "tiny", "--games", "1", "--seed", "1", "--max-turns", "2", "--jobs", "1", "--json",
              "--no-memory"],
    "tournament": ["tournament", "--users", "builtin", "--minotaurs", "wait", "--preset", "tiny", "--games", "1",
                   "--seed", "1", "--max-turns", "2", "--concurrency", "1", "--json", "--no-memory"],
    "leaderboard": ["leaderboard", "--json"],
    "gsm": ["gsm", "--seed", "1", "--preset", "tiny"],
    "play": ["play", "--seed", "1", "--preset", "tiny", "--no-memory"],
    "doctor": ["doctor", "--offline"],
}
MODEL_SIDE = {"arena": "--minotaur", "tournament": "--minotaurs", "gsm": "--minotaur", "play": "--minotaur"}


@dataclass
class Case:
    """One value of one setting in one command, and how it went."""

    setting: Setting
    command: str
    value: str
    refuse: bool  # it must be refused
    said: str  # what the refusal must hold of the range or the rule
    extra: tuple[str, ...] = ()  # more options (a tournament's size)
    ran: Ran | None = None
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def label(self) -> str:
        shown = repr(self.value) if len(self.value) <= 24 else f"{self.value[:12]!r}... ({len(self.value):,} chars)"
        return f"{self.setting.name}={shown}{' ' + ' '.join(self.extra) if self.extra else ''} -> {self.command}"


# --- drawing the cases --------------------------------------------------------------------


def number_case(setting: Setting, command: str, value: str) -> Case:
    """``value`` of a numeric setting, judged by how a command line or TOML reads it."""
    bound = setting.bound
    assert bound is not None
    if setting.place == "config":
        taken = bound.holds(toml_value(value))
    else:
        taken = bound.holds(bound.reading(value))
    return Case(setting, command, value, not taken, bound.said)


def name_case(setting: Setting, command: str, value: str) -> Case:
    problem = name_problem(value)
    if setting.place == "environment" and not value:
        problem = None  # an empty variable is one not set: the default model
    return Case(setting, command, value, problem is not None, problem or "")


def toml_value(text: str) -> object:
    """What TOML makes of ``text`` written as a value: a number when it is one, else a string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def toml_literal(text: str) -> str:
    """``text`` as it is written in the file: bare when TOML reads it as a number, else a string."""
    value = toml_value(text)
    return text if isinstance(value, (int, float)) and not isinstance(value, bool) else toml_string(text)


def cases(seed: int) -> list[Case]:
    """The cases of one seed (see the module's docstring)."""
    draw = random.Random(f"hostile-bounds:{seed}")
    found = []
    for setting in OPTIONS:
        assert setting.bound is not None
        for command in draw.sample(setting.readers, 1 if len(setting.readers) < WIDE else 2):
            found.append(odd_case(draw, setting, command, setting.bound))
        found.append(number_case(setting, draw.choice(acceptors(setting)), setting.bound.fair(draw)))
    config = []
    for key, bound in CONFIG_NUMBERS.items():
        table = draw.choice(("openai", "contestants.bench")) if key in PROVIDER_TABLE_KEYS else "contestants.bench"
        config.append(Setting(f"[{table}] {key}", "config", key, CONFIG_READERS, bound, model=True))
        found.append(odd_case(draw, config[-1], draw.choice(CONFIG_READERS), bound))
    for setting in draw.sample(config, FAIR_SAMPLE):
        assert setting.bound is not None
        found.append(number_case(setting, draw.choice(setting.readers), setting.bound.fair(draw)))
    for setting in NAMES:
        odd = [name for name in ODD_NAMES if not (setting.key == "--users" and "," in name)]
        found.append(name_case(setting, draw.choice(setting.readers), draw.choice(odd)))
    for setting in draw.sample(NAMES, FAIR_SAMPLE):
        found.append(name_case(setting, draw.choice(acceptors(setting)), draw.choice(FAIR_NAMES)))
    found.append(size_case(draw))
    return found


def odd_case(draw: random.Random, setting: Setting, command: str, bound: Range) -> Case:
    """An odd value of a number in ``command``; one it must refuse if the command opens the game's screen."""
    made = [number_case(setting, command, value) for value in odd_values(bound)]
    return draw.choice([case for case in made if case.refuse or command not in SCREEN])


def acceptors(setting: Setting) -> tuple[str, ...]:
    """The commands that run to the end (or play on) when they take the value: not the game's screen."""
    return tuple(command for command in setting.readers if command not in SCREEN)


def size_case(draw: random.Random) -> Case:
    """A tournament whose seeds and repeats are each in range, but not their product."""
    games = draw.randint(MOST_MATCHES // 1000 + 1, MOST_MATCHES)
    repeats = draw.randint(MOST_MATCHES // games + 1, 1000)
    setting = Setting("matches", "option", "--games", ("tournament",), GAMES)
    return Case(setting, "tournament", str(games), True, f"at most {MOST_MATCHES:,}", ("--repeats", str(repeats)))


# --- running and judging ------------------------------------------------------------------


def command_line(case: Case, stand_in: str, made: Home) -> tuple[list[str], dict[str, str]]:
    """The arguments and the environment of ``case``'s command; its config file written in ``made``."""
    setting, command = case.setting, case.command
    args = list(BASES[command])
    env = {"OPENAI_BASE_URL": stand_in + "/v1", "OPENAI_API_KEY": STAND_IN_KEY}
    contestant = setting.place == "config" and setting.name.startswith("[contestants.")
    if setting.model and command in MODEL_SIDE:
        args = _without(args, MODEL_SIDE[command]) + [MODEL_SIDE[command], "bench" if contestant else "openai"]
    if setting.place == "contestant":
        args = _without(args, setting.key) + [f"{setting.key}=openai/{case.value}"]
    elif setting.place == "option":
        args = _without(args, setting.key) + [f"{setting.key}={case.value}", *case.extra]
    elif setting.place == "environment":
        env[setting.key] = case.value
    if setting.place == "config":
        tables = {"provider": '"openai"', "model": '"gpt-4o-mini"', "base_url": toml_string(stand_in + "/v1"),
                  "api_key": toml_string(STAND_IN_KEY)} if contestant else {}
        tables[setting.key] = toml_literal(case.value) if setting.bound else toml_string(case.value)
        made.config.write_text(f"[{'contestants.bench' if contestant else 'openai'}]\n"
                               + "".join(f"{key} = {value}\n" for key, value in tables.items()))
    return args, env


def _without(args: list[str], option: str) -> list[str]:
    """``args`` without ``option`` and its value."""
    if option not in args:
        return args
    at = args.index(option)
    return args[:at] + args[at + 2:]


def judge(case: Case) -> list[str]:
    """What is wrong with how ``case``'s command took or refused its value."""
    ran = case.ran
    assert ran is not None
    names = (case.setting.name, case.said) if case.refuse else (case.setting.name,)
    returncode = 0 if ran.cut else ran.returncode  # SIGTERM's status is no refusal
    found = refusal_problems(ran.out, returncode, names, case.command, case.refuse)
    if (longest := max((len(line) for line in refusal_lines(ran.out, returncode)), default=0)) > REFUSAL_CHARS:
        found.append(f"a refusal of {longest:,} characters")
    if shown := sorted({f"U+{ord(c):04X}" for c in ran.out if c in UNSHOWABLE}):
        found.append(f"a terminal control character is printed ({', '.join(shown[:3])})")
    return found


def run_case(tally: Tally, case: Case, stand_in: str, results: Path) -> None:
    with home(prefix="labyrinth-bounds-") as made:
        made.config.parent.mkdir(parents=True)
        if case.command == "leaderboard":
            (made.data_home / "labyrinth").mkdir()
            shutil.copy2(results, made.data_home / "labyrinth" / "results.db")
        args, env = command_line(case, stand_in, made)
        began = time.monotonic()
        case.ran = run(tally, case.label, args, made.env(env), cut_s=None if case.refuse else CUT_S)
        case.seconds = time.monotonic() - began
    case.problems = judge(case) if case.ran is not None else []
    if case.problems:
        tally.fail("wrong", case.label, "; ".join(case.problems))


def results_database(folder: Path) -> Path:
    """A results database of one match at the longest turn limit, for the leaderboard to read."""
    path = folder / "results.db"
    with ResultsDB(path) as db:
        db.record(MatchRow("builtin", "wait", 1, "tiny", "normal", TURNS.most, "TIMEOUT", 20, 1.0, 0.1, None))
    return path


def section(tally: Tally, seed: int) -> list[Case]:
    """The cases of ``seed`` counted into ``tally``, a few at a time; the cases, judged."""
    found = cases(seed)
    with ExitStack() as stack:
        stand_in = Stub(Model("openai", minotaur_action="WAIT"))
        stack.callback(stand_in.close)
        folder = stack.enter_context(home(prefix="labyrinth-bounds-db-")).root
        results = results_database(folder)
        with ThreadPoolExecutor(JOBS) as pool:
            for future in [pool.submit(run_case, tally, case, stand_in.url, results) for case in found]:
                future.result()
    return found


def outcome(case: Case) -> str:
    if case.ran is None:
        return "crashed or hung"
    said = [line for line in refusal_lines(case.ran.out, 0 if case.ran.cut else case.ran.returncode)][:1]
    how = ("cut short" if case.ran.cut else f"exit {case.ran.returncode}") + f" in {case.seconds:.1f} s"
    return f"{how}{': ' + ascii(said[0])[:150] if said else ''}"


def main() -> int:
    return run_alone(__doc__, "bounds: huge and odd values", lambda tally, seed: (
        f"{case.label!a} ({'refuse' if case.refuse else 'take'}): {outcome(case)} -> "
        f"{'; '.join(case.problems) if case.problems else 'right'}" for case in section(tally, seed)))


if __name__ == "__main__":
    sys.exit(main())

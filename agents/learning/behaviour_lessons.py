"""Lessons about behaviour, which hold in any labyrinth (CLIN style: "when X, doing Y led
to Z"), as opposed to the place lessons of one labyrinth ("avoid (192, 211) level 101").

A game leaves observations: one ``{"when", "did", "led_to"}`` each time a situation met
a choice and something followed (a whine, then a flight, then a catch or none), kept in
its reflection's evidence under ``behaviour``. The lessons are those observations merged
over every game of a role on a preset: observations that say the same thing (same
situation, same choice) are one lesson whose evidence is the count of each result. The
evidence strengthens a lesson (HELD: one result follows in at least HOLD_SHARE of
MIN_EVIDENCE or more cases) or retires it (RETIRED: as much evidence, no result that
clear: it tells nothing); under MIN_EVIDENCE it is TENTATIVE.

The words live here, once: keys in the log, sentences for people and models.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the experience log's model is built only when lessons are (start-up)
    from labyrinth.saves.experience import Reflection

MIN_EVIDENCE = 5  # cases before a lesson holds or is retired
HOLD_SHARE = 0.6  # the share of cases one result must have for the lesson to hold
PROMPT_LESSONS = 6  # held lessons, the best evidenced first, given to a model
GAME = "game"  # the situation of a whole game: a strategy chosen for it, its outcome

# What each key of an observation says, in words.
WHEN = {
    "whine": "after a Temporal Whine",
    "lantern": "raising the lantern",
    "spotted": "when the Minotaur saw the intruder",
    "lost_sight": "after losing sight of the intruder",
    "jump": "while the Minotaur was out of time after a jump",
    GAME: "over a whole game",
}
DID = {
    "ran_away": "running away", "walked_away": "walking away", "stayed": "staying near",
    "near_2": "with the Minotaur within 2 steps", "near_5": "with the Minotaur 3 to 5 steps away",
    "far": "with the Minotaur 6 or more steps away",
    "ran": "running", "walked": "walking", "stood": "standing still",
    "jumped": "jumping out of time", "moved": "moving on", "waited": "waiting",
    "fled_far": "the intruder fleeing far", "fled_near": "the intruder moving a little",
    "hid": "the intruder keeping still",
}
LED_TO = {"caught": "a catch soon after", "safe": "no catch soon after",
          "ESCAPED": "an escape", "DEATH": "a catch", "TIMEOUT": "time running out"}


@dataclass(frozen=True)
class Lesson:
    """One merged lesson: a situation, a choice, and how often each result followed."""

    when: str
    did: str
    results: tuple[tuple[str, int], ...]  # (result, cases), the most frequent first

    @property
    def cases(self) -> int:
        return sum(n for _, n in self.results)

    @property
    def status(self) -> str:
        if self.cases < MIN_EVIDENCE:
            return "TENTATIVE"
        return "HELD" if self.results[0][1] >= HOLD_SHARE * self.cases else "RETIRED"

    def sentence(self) -> str:
        """The lesson as one plain sentence with its evidence."""
        top, n = self.results[0]
        rest = ", ".join(f"{LED_TO.get(r, r)} {k}" for r, k in self.results[1:])
        when = WHEN.get(self.when, self.when)
        return (f"{when[:1].upper()}{when[1:]}, {did_words(self.did)} led to "
                f"{LED_TO.get(top, top)} in {n} of {self.cases} cases{f' ({rest})' if rest else ''}.")


def did_words(did: str) -> str:
    """A choice in words; a strategy (``choice=arm``) as the built-in agents name it."""
    if "=" in did:
        choice, arm = did.split("=", 1)
        return f"choosing '{arm}' for {choice}"
    return DID.get(did, did)


@dataclass
class Book:
    """The behaviour lessons of a role: every observation merged, counted by result."""

    counts: dict[tuple[str, str], Counter[str]] = field(default_factory=dict)

    def add(self, observation: Mapping[str, object]) -> None:
        when, did, led_to = (observation.get(k) for k in ("when", "did", "led_to"))
        # An edited log's observation without the three words is passed over.
        if isinstance(when, str) and isinstance(did, str) and isinstance(led_to, str) and when and did and led_to:
            self.counts.setdefault((when, did), Counter())[led_to] += 1

    def lessons(self) -> list[Lesson]:
        """Every lesson, the best evidenced first (ties by name: deterministic)."""
        found = [Lesson(when, did, tuple(sorted(c.items(), key=lambda item: (-item[1], item[0]))))
                 for (when, did), c in self.counts.items()]
        return sorted(found, key=lambda lesson: (-lesson.cases, lesson.when, lesson.did))

    def outcomes(self, did: str) -> Counter[str]:
        """How the games went in which ``did`` (a strategy) was played."""
        return self.counts.get((GAME, did), Counter())


def book_of(reflections: Iterable[Reflection], role: str, preset: str, difficulty: str | None = None) -> Book:
    """The role's lessons from every game on ``preset`` (any seed: behaviour carries) and ``difficulty``
    (a hard game is another game: the Minotaur hunts otherwise, and its guarding choices do not apply);
    None: every difficulty, as a person is shown them."""
    book = Book()
    for r in reflections:
        if r.role == role and r.preset == preset and difficulty in (None, r.difficulty) \
                and isinstance(r.evidence.get("behaviour"), list):
            for observation in r.evidence["behaviour"]:
                if isinstance(observation, dict):
                    book.add(observation)
    return book


def prompt_lessons(book: Book) -> list[str]:
    """The held lessons about situations in a game, for a model's prompt, as sentences. The whole-game
    lessons (GAME: the built-in agents' strategy settings) are left out: they name our agents' knobs,
    which a model does not have."""
    return [lesson.sentence() for lesson in book.lessons()
            if lesson.status == "HELD" and lesson.when != GAME][:PROMPT_LESSONS]

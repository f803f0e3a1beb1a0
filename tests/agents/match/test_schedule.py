"""The one pool of matches on its own (schedule.play_matches): its tick, which a tournament renews its
claims on, comes when due however often matches end."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

from labyrinth.agents.match import schedule
from labyrinth.agents.match.schedule import Job, play_matches
from tests.stubs import FakeClock


def test_the_tick_comes_when_due_even_while_matches_keep_ending(monkeypatch):
    """Three model matches end at once, and each end takes longer than a tick (the clock moves 100 s as
    it is heard): the tick comes between the ends, not only once nothing has ended for a tick, so a
    long match's claim is renewed while short ones keep ending beside it."""
    clock = FakeClock()
    monkeypatch.setattr(schedule, "time", SimpleNamespace(monotonic=clock.monotonic, perf_counter=time.perf_counter,
                                                          sleep=time.sleep))
    go, heard = threading.Event(), []
    endpoint = SimpleNamespace(provider="openai", endpoint="http://stub", rpm=0, timeout_s=1.0)

    def play(seed, factory, seated):
        if seed > 1:
            go.wait(10)
        return f"match {seed}"

    settings = SimpleNamespace(providers=(("m", endpoint),), user="m", minotaur="wait", play=play)

    def ended(played):
        heard.append(played.result)
        if played.name == 1:  # the others end before this one has been heard: they wait in line
            go.set()
            for thread in threading.enumerate():
                if thread.name in ("match-2", "match-3"):
                    thread.join(10)
        clock.sleep(100)

    play_matches([Job(seed, settings, seed) for seed in (1, 2, 3)], ended, concurrency=3,  # type: ignore[arg-type]
                 on_tick=lambda: heard.append("tick"), tick_s=20)
    assert heard[0] == "match 1" and sorted(heard[2::2]) == ["match 2", "match 3"] and heard[1::2] == ["tick", "tick"]

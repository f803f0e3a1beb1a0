"""The arena's replay files (`arena --replays DIR`): a run stopped by Ctrl-C or SIGTERM leaves no replay of a
match it did not finish.

A match with a model in it is played in a thread of this process (agents/match/schedule.py): the run's
writers in this process are kept, and when the run stops (``drop_unfinished``) the files of the matches
still under way are removed, while a match that would start recording after that records nothing. Their
threads may go on writing into the removed files until the process ends; nobody reads those. A match of
rule agents alone may be played in a worker process instead, which leaves Ctrl-C to its parent; the run
waits for it to end (schedule.play_matches), so its replay is whole.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from labyrinth.saves.replays import ReplayWriter


class ArenaReplays:
    """One run's replay files in ``directory``; called with a seed, the writer of that match's (the
    run's recorder factory). Sent to a worker process, it is a new one there, which keeps that
    process's writers."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.lock = threading.Lock()  # the matches' threads start and close files while the run may stop
        self.unfinished: set[ArenaReplay] = set()  # started, not yet closed
        self.stopped = False  # no match starts a file any more

    def __call__(self, seed: int) -> ArenaReplay:
        del seed  # the writer names the file from the match it is given
        return ArenaReplay(self)

    def __reduce__(self) -> tuple[type[ArenaReplays], tuple[Path]]:
        return ArenaReplays, (self.directory,)  # a lock does not travel: a worker keeps its own

    def drop_unfinished(self) -> list[Path]:
        """The run stopped: remove the replays of this process's matches still under way, and start no
        more; the files removed."""
        with self.lock:
            self.stopped = True
            removed = [writer.path for writer in self.unfinished if writer.path is not None]
            self.unfinished.clear()
        for path in removed:
            path.unlink(missing_ok=True)
        return removed


class ArenaReplay(ReplayWriter):
    """A match's replay, known to its run while it is written."""

    def __init__(self, run: ArenaReplays) -> None:
        super().__init__(run.directory)
        self.run = run

    def start(self, match: Any) -> None:
        with self.run.lock:
            if self.run.stopped:  # the match runner stops recording on OSError: the match plays on, unrecorded
                raise OSError("the arena was stopped")
            super().start(match)
            self.run.unfinished.add(self)

    def close(self) -> None:
        with self.run.lock:
            self.run.unfinished.discard(self)
        super().close()

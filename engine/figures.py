"""The rules' numbers as a reader meets them (seconds, metres, step counts), derived
from the constants, so that tuning a number keeps every text that quotes it true."""

from __future__ import annotations

import math

from .constants import (
    CLOSE_SQ,
    FAINT_SQ,
    HEAR_HIGH_SQ,
    HEAR_LOW_SQ,
    JUMP_COOLDOWN_TICKS,
    JUMP_MAX_TICKS,
    JUMP_MIN_TICKS,
    STEP_METRES,
    TICKS_PER_SECOND,
    VERY_CLOSE_SQ,
)


def seconds(ticks: int) -> float:
    """A tick count as seconds of game time."""
    return ticks / TICKS_PER_SECOND


def seconds_text(ticks: int) -> str:
    """'120 s', '7.5 s': a tick count as a reader reads a duration."""
    return f"{seconds(ticks):g} s"


def _steps(distance_sq: int) -> float:
    return math.sqrt(distance_sq)


def _metres_text(distance_sq: int) -> str:
    return f"{_steps(distance_sq) * STEP_METRES:g} m"


JUMP_COOLDOWN = seconds_text(JUMP_COOLDOWN_TICKS)
JUMP_SPAN = f"{seconds(JUMP_MIN_TICKS):g}-{seconds(JUMP_MAX_TICKS):g} s"
HEAR_RUN_STEPS = f"{_steps(HEAR_HIGH_SQ):g}"
HEAR_WALK_STEPS = f"{_steps(HEAR_LOW_SQ):.1f}".removesuffix(".0")  # 20 squared steps: '4.5'
VERY_CLOSE_RANGE, CLOSE_RANGE, FAINT_RANGE = (_metres_text(d) for d in (VERY_CLOSE_SQ, CLOSE_SQ, FAINT_SQ))

"""The kernel's one compiler: numba's njit when the [fast] extra is installed, else nothing at all.

Every kernel module decorates its functions with ``jit``; ``COMPILED`` says which it got. Without numba the
same functions run as plain Python (the same values, slowly), so nothing imports numba unless it is there,
and numba is asked for once, here. Compiled code is cached on disk beside each module as imported (``cache=True``;
in a strict editable install, under build/), keyed on that module's own file only: after editing one kernel
module, clear the others' cached code too (the *.nbi and *.nbc files of that __pycache__), or a function may
run the old code of what it calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

Function = TypeVar("Function", bound=Callable[..., Any])


def _compiler() -> tuple[Callable[[Function], Function], bool]:
    """numba's njit (its machine code cached on disk) and True, or, without numba, a decorator that changes
    nothing and False."""
    try:
        import numba
    except ImportError:
        return (lambda function: function), False
    return numba.njit(cache=True), True


jit, COMPILED = _compiler()

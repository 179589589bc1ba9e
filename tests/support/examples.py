"""How many examples a property test tries: a quarter in the everyday run, all in CI's.

The README's test command is the loop a contributor waits on; the property tests there try
a quarter of their examples (at least ten). .ci/run runs every property test again with
LLM_OPERATOR_FULL_EXAMPLES=1, trying each test's full count, so nothing a test covers is
left out of what must pass before a change lands.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TypeVar

import pytest
from _pytest.mark import ParameterSet

FULL = os.environ.get("LLM_OPERATOR_FULL_EXAMPLES") == "1"
EVERYDAY_SHARE = 4
EVERYDAY_FLOOR = 10
T = TypeVar("T")


def examples(full: int) -> int:
    """The example count for a test whose full count is ``full``."""
    if FULL:
        return full
    return max(min(full, EVERYDAY_FLOOR), full // EVERYDAY_SHARE)


def everyday_share(
    values: Sequence[T], ids: Callable[[T], str], group: Callable[[T], object] = lambda _v: None
) -> list[ParameterSet]:
    """``values`` as pytest parameters, a quarter of each group in the everyday run.

    In each group (a file's language, say), ordered as given, the first value and every
    fourth after it run in the README's command; the others are marked slow and run in
    .ci/run's slow stage (``-m "slow or hypothesis"``), so every value is tried before a
    change lands. For long lists of real files, where a quarter still covers every kind.
    """
    seen: dict[object, int] = {}
    params = []
    for value in values:
        key = group(value)
        rank = seen[key] = seen.get(key, -1) + 1
        marks = () if rank % EVERYDAY_SHARE == 0 else (pytest.mark.slow,)
        params.append(pytest.param(value, id=ids(value), marks=marks))
    return params

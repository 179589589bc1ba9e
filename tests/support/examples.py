"""How many examples a property test tries: a quarter in the everyday run, all in CI's.

The README's test command is the loop a contributor waits on; the property tests there try
a quarter of their examples (at least ten). .ci/run runs every property test again with
LLM_OPERATOR_FULL_EXAMPLES=1, trying each test's full count, so nothing a test covers is
left out of what must pass before a change lands.
"""

from __future__ import annotations

import os

FULL = os.environ.get("LLM_OPERATOR_FULL_EXAMPLES") == "1"
EVERYDAY_SHARE = 4
EVERYDAY_FLOOR = 10


def examples(full: int) -> int:
    """The example count for a test whose full count is ``full``."""
    if FULL:
        return full
    return max(min(full, EVERYDAY_FLOOR), full // EVERYDAY_SHARE)

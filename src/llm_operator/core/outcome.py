"""What the LLM is told about one command: the value every floor of the core may hand on.

An action's executor makes an ``Outcome``, the store keeps it (the memory of earlier
answers), the encoder writes it as an OPERATOR_RESULT and the session and the window
pass it along, so it lives below all of them and holds only plain text.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    """What the LLM is told about one command."""

    ok: bool
    summary: str
    details: str | None = None

"""What the LLM is told about one command: the value every floor of the core may hand on.

An action's executor makes an ``Outcome``, the store keeps it (the memory of earlier
answers), the encoder writes it as an OPERATOR_RESULT and the session and the window
pass it along, so it lives below all of them and holds only plain text.

``details`` are what the strict v3 form sends (``details_b64``). ``readable_as`` names how
the readable form shows them when not as they are (protocol/readable_details.py): code that
makes a new Outcome from an old one keeps it (``dataclasses.replace``), else the readable
form falls back to the details as they are.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    """What the LLM is told about one command."""

    ok: bool
    summary: str
    details: str | None = None
    readable_as: str | None = None  # None, or STRUCTURE_JSON


# The details start with a structure action's result JSON on one line (actions/structure.py).
STRUCTURE_JSON = "structure-json"

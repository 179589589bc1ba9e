"""The details a result shows in the readable form, where they differ from the strict form.

Most details are the same text in both forms. A structure action's details start with the
seed's result JSON, which the strict v3 form keeps and the readable form shows as lines
(actions/structure_readable.py). Every writer of the readable form (the encoder, the
splitting of long results, the MCP tool text, the window's result page) asks here.
"""

from __future__ import annotations

from ..outcome import STRUCTURE_JSON, Outcome


def readable_details(outcome: Outcome) -> str | None:
    """``outcome``'s details as the readable form shows them."""
    if outcome.readable_as == STRUCTURE_JSON and outcome.details:
        from ..actions.structure_readable import readable_structure

        return readable_structure(outcome.details)
    return outcome.details

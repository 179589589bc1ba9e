"""The class-level rules a fields model may declare for the validator (below both the
action table and the fields models, which read them)."""

from __future__ import annotations

from typing import ClassVar


class FieldRules:
    """Class-level rules a fields model may declare for the validator.

    ALIASES maps an accepted alternative key to its canonical field name.
    MISSING_CODES names the ERR_ code for a missing required field.
    INVALID_CODES names the ERR_ code for a field whose value does not parse.
    ONE_OF maps a (plain, plain_b64) pair that must be given exactly once to the ERR_ code
    for neither being given.
    """

    ALIASES: ClassVar[dict[str, str]] = {}
    MISSING_CODES: ClassVar[dict[str, str]] = {}
    INVALID_CODES: ClassVar[dict[str, str]] = {}
    ONE_OF: ClassVar[dict[tuple[str, str], str]] = {}

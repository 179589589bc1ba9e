"""JSON from a reply or a client, read within fixed bounds.

The standard ``json`` module reads what RFC 8259 allows and a little more, and fails on
some valid JSON with exceptions that say nothing a model could act on. ``load_bounded``
turns every such case into ``JsonLimit`` with a message that says what to change:

- nesting: at most ``MAX_DEPTH`` arrays and objects inside each other. ``json`` itself
  raises RecursionError near 1,000 levels (where depends on the stack in use), and code
  that walks the value afterwards recurses too;
- whole numbers: Python converts at most 4,300 digits (``sys.get_int_max_str_digits``)
  and raises a bare ValueError past that; a float beyond the double range becomes
  infinity, a value the text did not say;
- ``NaN``, ``Infinity`` and ``-Infinity`` are not JSON; ``json`` accepts them.

Syntax errors stay ``json.JSONDecodeError`` (callers word them with line and column).
Lone surrogates (``"\\ud83d"``) are valid JSON syntax and are kept: where text must be
UTF-8, the caller refuses them naming its field.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

MAX_DEPTH = 100
MAX_DIGITS = 4300


class JsonLimit(Exception):
    """Valid or nearly valid JSON the app does not read; ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _whole(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise JsonLimit(f"a number has {digits} digits; at most {MAX_DIGITS} are read")
    try:
        return int(text)
    except ValueError:  # a lower limit set for this process (PYTHONINTMAXSTRDIGITS)
        raise JsonLimit(f"a number has {digits} digits, more than can be read") from None


def _real(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise JsonLimit(
            f"the number {text[:20]}{'...' if len(text) > 20 else ''} is beyond the range "
            "of a double (about 1.8e308)"
        )
    return value


def _constant(text: str) -> Any:
    raise JsonLimit(f"{text} is not JSON (JSON numbers are finite)")


def depth_of(value: Any) -> int:
    """How many arrays and objects of ``value`` lie inside each other (0: a scalar)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children)
    return deepest


def load_bounded(
    text: str,
    max_depth: int = MAX_DEPTH,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
) -> Any:
    """``json.loads(text)`` within the bounds above; raises ``json.JSONDecodeError`` for
    text that is not JSON and ``JsonLimit`` for JSON the app does not read."""
    too_deep = JsonLimit(
        f"arrays and objects nest too deeply (more than {max_depth} levels inside each other)"
    )
    try:
        value = json.loads(
            text,
            parse_int=_whole,
            parse_float=_real,
            parse_constant=_constant,
            object_pairs_hook=object_pairs_hook,
        )
    except RecursionError:
        raise too_deep from None
    if depth_of(value) > max_depth:
        raise too_deep
    return value


__all__ = ["MAX_DEPTH", "MAX_DIGITS", "JsonLimit", "depth_of", "load_bounded"]

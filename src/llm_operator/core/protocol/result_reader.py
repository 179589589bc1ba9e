"""OPERATOR_RESULT blocks read back into ids, summaries and the exact bytes of their details.

The inverse of the encoder, for either form; strict: anything the encoder would not write
is a ``ReadableFormatError`` naming the line. Used to check that what goes back to the
chat rebuilds what the app meant to send.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from .encoder import ResultForm
from .readable import NO_NEWLINE, ReadableFormatError, decode_lines

_HEAD = re.compile(r"(id|ok|summary): (.*)\Z")
_COUNT = re.compile(r"details_lines: (0|[1-9][0-9]*)\Z")
_B64 = re.compile(r"details_b64: ([A-Za-z0-9+/=]+)\Z")


@dataclass(frozen=True)
class ReadResult:
    """One OPERATOR_RESULT block read back: id, ok, summary, the details' exact bytes and form."""

    id: str
    ok: bool
    summary: str
    details: bytes | None
    form: ResultForm | None  # None when the block carries no details


def _fail(number: int, why: str) -> ReadableFormatError:
    return ReadableFormatError(f"line {number}: {why}")


def read_result(lines: list[str], first: int = 1) -> ReadResult:
    """One block, from its OPERATOR_RESULT line to its END_OPERATOR_RESULT line."""
    if len(lines) < 5 or lines[0] != "OPERATOR_RESULT":
        raise _fail(first, "a block starts with OPERATOR_RESULT, id, ok and summary lines")
    head: list[str] = []
    for offset, key in enumerate(("id", "ok", "summary"), start=1):
        found = _HEAD.match(lines[offset])
        if found is None or found.group(1) != key:
            raise _fail(first + offset, f"expected '{key}: ...'")
        head.append(found.group(2))
    if head[1] not in ("true", "false"):
        raise _fail(first + 2, "ok is true or false")
    rest = lines[4:]
    if rest[-1] != "END_OPERATOR_RESULT":
        raise _fail(first + len(lines) - 1, "a block ends with END_OPERATOR_RESULT")
    rest = rest[:-1]
    details: bytes | None = None
    form: ResultForm | None = None
    if rest:
        encoded = _B64.match(rest[0])
        counted = _COUNT.match(rest[0])
        if encoded is not None and len(rest) == 1:
            try:
                details = base64.b64decode(encoded.group(1), validate=True)
            except binascii.Error:
                raise _fail(first + 4, "details_b64 is not valid base64") from None
            form = ResultForm.BASE64
        elif counted is not None:
            body = rest[1:]
            count = int(counted.group(1))
            expected = count + (bool(body) and body[-1] == NO_NEWLINE)
            if len(body) != expected or count == 0:
                raise _fail(first + 4, f"details_lines says {count}, found {len(body)} lines")
            try:
                details = decode_lines(body)
            except ReadableFormatError as error:
                raise _fail(first + 5, str(error)) from None
            form = ResultForm.READABLE
        else:
            raise _fail(first + 4, "expected details_b64 or details_lines, then the end")
    return ReadResult(head[0], head[1] == "true", head[2], details, form)


def read_results(text: str) -> list[ReadResult]:
    """Blocks joined by one blank line, exactly as ``encode_results`` writes them."""
    if not text.strip():
        return []
    out: list[ReadResult] = []
    number = 1
    for chunk in text.rstrip("\n").split("\n\n"):
        lines = chunk.split("\n")
        out.append(read_result(lines, number))
        number += len(lines) + 1
    return out

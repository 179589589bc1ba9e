"""Results cut into parts a chat input accepts.

Rules:
- Parts break only between whole OPERATOR_RESULT blocks.
- A single block longer than a part is re-encoded as several valid blocks with the same id,
  each carrying a slice of its details (cut on a UTF-8 character boundary, so every slice
  decodes on its own) and a summary that says "details part k of m". The LLM joins the
  decoded slices in order.
- When even that cannot fit (the summary alone fills a part), the block is kept whole and
  named in ``too_long``, so the window can say so plainly.
- With more than one part, each starts with one plain line "LLM Operator results, part i
  of n" so the LLM waits for the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions.base import Outcome
from .encoder import Result, encode_result

HEADER = "LLM Operator results, part {i} of {n}. More parts follow: wait for all of them."
LAST_HEADER = "LLM Operator results, part {i} of {n} (last part)."
_HEADER_ROOM = len(HEADER.format(i=9999, n=9999)) + 2
_SLICE_NOTE = " [details part {k} of {m}: decode each part's details_b64 and join them in order]"
_MIN_SLICE_BYTES = 48


@dataclass(frozen=True)
class Parts:
    texts: tuple[str, ...]
    too_long: tuple[str, ...] = ()  # ids of blocks longer than one part

    @property
    def count(self) -> int:
        return len(self.texts)

    @property
    def whole(self) -> str:
        return "\n\n".join(self.texts)


def _slices(data: bytes, size: int) -> list[bytes]:
    pieces: list[bytes] = []
    start = 0
    while start < len(data):
        end = min(start + size, len(data))
        # Step back off UTF-8 continuation bytes so each slice is valid text by itself.
        while end < len(data) and end > start and (data[end] & 0xC0) == 0x80:
            end -= 1
        pieces.append(data[start:end])
        start = end
    return pieces


def split_block(result: Result, budget: int) -> list[str] | None:
    """``result`` as several blocks of at most ``budget`` characters, or None if impossible."""
    outcome = result.outcome
    if outcome.details is None:
        return None
    widest = _SLICE_NOTE.format(k=9999, m=9999)
    # Measure the block around a one-byte payload ("YQ==" once encoded): the rest is overhead.
    probe = Result(result.id, Outcome(outcome.ok, outcome.summary + widest, "a"), result.repeat)
    room = budget - (len(encode_result(probe)) - 4)
    size = (room // 4) * 3  # base64 turns 3 bytes into 4 characters
    if size < _MIN_SLICE_BYTES:
        return None
    pieces = _slices(outcome.details.encode("utf-8"), size)
    blocks = []
    for k, piece in enumerate(pieces, start=1):
        note = _SLICE_NOTE.format(k=k, m=len(pieces))
        part = Outcome(outcome.ok, outcome.summary + note, piece.decode("utf-8"))
        blocks.append(encode_result(Result(result.id, part, result.repeat)))
    return blocks


def split_results(results: list[Result], limit: int) -> Parts:
    whole = [encode_result(result) for result in results]
    joined = "\n\n".join(whole)
    if len(joined) <= limit:
        return Parts((joined,) if joined else ())
    budget = limit - _HEADER_ROOM
    blocks: list[str] = []
    too_long: list[str] = []
    for result, text in zip(results, whole, strict=True):
        if len(text) <= budget:
            blocks.append(text)
            continue
        pieces = split_block(result, budget)
        if pieces is None:
            too_long.append(result.id)
            blocks.append(text)
        else:
            blocks.extend(pieces)
    groups: list[list[str]] = []
    size = 0
    for block in blocks:
        if groups and size + 2 + len(block) <= budget:
            groups[-1].append(block)
            size += 2 + len(block)
        else:
            groups.append([block])
            size = len(block)
    n = len(groups)
    texts = tuple(
        "\n\n".join([(LAST_HEADER if i == n else HEADER).format(i=i, n=n), *group])
        for i, group in enumerate(groups, start=1)
    )
    return Parts(texts, tuple(too_long))

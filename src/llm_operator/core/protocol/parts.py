"""Results cut into parts a chat input accepts.

Rules:
- Parts break only between whole OPERATOR_RESULT blocks.
- A single block longer than a part is re-encoded as several valid blocks with the same id,
  each carrying a slice of its details and a summary that says "details part k of m". The
  LLM joins the slices in order. Readable details are cut between lines (a line longer
  than a part is cut inside, and its first pieces say "No newline"); base64 details are
  cut on a UTF-8 character boundary, so every slice decodes on its own.
- When even that cannot fit (the summary alone fills a part), the block is kept whole and
  named in ``too_long``, so the window can say so plainly.
- With more than one part, each starts with one plain line "LLM Operator results, part i
  of n" so the LLM waits for the rest.
- No part holds only notices (the app's undo notices, which lead the results): the first
  answer is cut to share their part when it cannot sit beside them whole, so a part
  pasted alone always carries an answer to act on.
- Sizes are counted as a chat box counts them (``chat_units.units``: UTF-16 code units).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..outcome import Outcome
from .chat_units import units
from .encoder import Result, ResultForm, encode_result
from .readable import NO_NEWLINE, body_line
from .readable_details import readable_details

HEADER = "LLM Operator results, part {i} of {n}. More parts follow: wait for all of them."
LAST_HEADER = "LLM Operator results, part {i} of {n} (last part)."
_HEADER_ROOM = len(HEADER.format(i=9999, n=9999)) + 2
_SLICE_NOTE = " [details part {k} of {m}: decode each part's details_b64 and join them in order]"
_LINES_NOTE = " [details part {k} of {m}: join the parts' details in order]"
_MIN_SLICE_BYTES = 48


@dataclass(frozen=True)
class Parts:
    """Results cut into parts a chat input accepts, in order, and the blocks too long for one."""

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


def _line_cost(piece: str) -> int:
    """Characters the body lines of ``piece`` (one line, with or without its break) take."""
    line = piece.removesuffix("\n")
    cost = units(body_line(line)) + 1
    return cost if piece.endswith("\n") else cost + len(NO_NEWLINE) + 1


def _line_slices(details: str, room: int) -> list[str] | None:
    """``details`` cut into slices whose body lines fit in ``room`` characters each."""
    pieces = [line + "\n" for line in details.split("\n")]
    pieces[-1] = pieces[-1][:-1]
    if not pieces[-1]:
        pieces.pop()
    slices: list[str] = []
    current, used = "", 0
    for piece in pieces:
        while _line_cost(piece) > room:  # one line longer than a part: cut inside it
            size = room - len(NO_NEWLINE) - 4
            if size < _MIN_SLICE_BYTES:
                return None
            while _line_cost(piece[:size]) > room:
                size = size * 3 // 4
            if current:
                slices.append(current)
                current, used = "", 0
            slices.append(piece[:size])
            piece = piece[size:]
        cost = _line_cost(piece)
        if current and (used + cost > room or not current.endswith("\n")):
            slices.append(current)
            current, used = "", 0
        current += piece
        used += cost
    if current:
        slices.append(current)
    return slices


def split_block(
    result: Result, budget: int, form: ResultForm = ResultForm.READABLE
) -> list[str] | None:
    """``result`` as several blocks of at most ``budget`` characters, or None if impossible."""
    outcome = result.outcome
    readable = form is ResultForm.READABLE
    details = readable_details(outcome) if readable else outcome.details
    if not details:
        return None
    note_form = _LINES_NOTE if readable else _SLICE_NOTE
    widest = note_form.format(k=9999, m=9999)
    # Measure the block around a one-character payload: the rest is overhead.
    probe = Result(result.id, Outcome(outcome.ok, outcome.summary + widest, "a"), result.repeat)
    probed = units(encode_result(probe, form))
    texts: list[str]
    if readable:
        room = budget - (probed - _line_cost("a")) - len("details_lines: 99999") + 16
        if room < _MIN_SLICE_BYTES:
            return None
        found = _line_slices(details, room)
        if found is None:
            return None
        texts = found
    else:
        size = ((budget - (probed - 4)) // 4) * 3  # base64 turns 3 bytes into 4 characters
        if size < _MIN_SLICE_BYTES:
            return None
        texts = [piece.decode("utf-8") for piece in _slices(details.encode("utf-8"), size)]
    blocks = []
    for k, piece in enumerate(texts, start=1):
        note = note_form.format(k=k, m=len(texts))
        part = Outcome(outcome.ok, outcome.summary + note, piece)
        blocks.append(encode_result(Result(result.id, part, result.repeat), form))
    return blocks


def split_results(
    results: list[Result], limit: int, form: ResultForm = ResultForm.READABLE
) -> Parts:
    whole = [encode_result(result, form) for result in results]
    joined = "\n\n".join(whole)
    if units(joined) <= limit:
        return Parts((joined,) if joined else ())
    budget = limit - _HEADER_ROOM
    blocks: list[str] = []
    too_long: list[str] = []
    lead = 0  # the notices' characters, while they are all there is of the first part
    for result, text in zip(results, whole, strict=True):
        room = budget - lead - 2 if lead and not result.notice else budget
        if result.notice and lead + units(text) + 2 <= budget:
            lead += units(text) + (2 if lead else 0)
        elif not result.notice:
            lead = 0
        if units(text) <= room:
            blocks.append(text)
            continue
        pieces = split_block(result, room, form)
        if pieces is None and units(text) <= budget:
            blocks.append(text)  # it cannot be cut to share the notices' part: its own
            continue
        if pieces is None and room < budget:
            pieces = split_block(result, budget, form)
        if pieces is None:
            too_long.append(result.id)
            blocks.append(text)
        else:
            blocks.extend(pieces)
    groups: list[list[str]] = []
    size = 0
    for block in blocks:
        length = units(block)
        if groups and size + 2 + length <= budget:
            groups[-1].append(block)
            size += 2 + length
        else:
            groups.append([block])
            size = length
    n = len(groups)
    texts = tuple(
        "\n\n".join([(LAST_HEADER if i == n else HEADER).format(i=i, n=n), *group])
        for i, group in enumerate(groups, start=1)
    )
    return Parts(texts, tuple(too_long))

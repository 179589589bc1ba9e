"""A context message: primer, task, chosen files and an outline, cut into chat-sized parts.

Format (the served spec's CONTEXT MESSAGES section documents it for the LLM):

    ## Task
    <task text>

    ## Files (<n>)
    === FILE: <path> (<k> lines) ===
    | 1: <first line>
    |\\2: <a line with a character escaped>
    ...
    === END FILE: <path> ===

    ## Outline of the rest of the workspace
    | <fs.outline of the folder, without the files above, one body line each>

A file sent in part (``PackedFile.shown``) opens with ``(<k> lines; lines a-b shown, the
rest as its outline)``; each stretch left out is a body line ``# lines x-y not shown`` and
the outline lines of the structures that start in it. Its shown lines keep their own
numbers, so a file line (``<n>: ``), a gap line (``# ``) and an outline line
(``<a>-<b>: ``) never read alike.

Rule 1: a file's bytes can never end its frame or start a line of their own. Everything
that comes from a file (its lines, its outline lines) travels as readable body lines
(``core.protocol.readable``): ``|`` alone, ``| `` + the text, or ``|\\`` + the text with
every control character, line or paragraph separator (CR, VT, FF, FS/GS/RS, NEL, U+2028,
U+2029...) and invisible character escaped. So the message holds no line break but
``\\n`` outside the primer and the task (which are the app's and the user's own words),
and every line inside a file's frame starts with ``|``, which no frame line, heading or
marker does. A nonce in the frame lines would add nothing a file could not already fail
to reach, and would cost the model a token it must match.
Rule 2: names are shown as every listing shows them (``names.visible_name``: one line,
controls and separators escaped) and quoted when they could read as part of a frame
line (``===``, parentheses, quotes, edge spaces). A name longer than the part size can
frame is shown cut in the middle and says so (``cut_names``).
Rule 3: every part, its header line included, is at most ``limit`` characters, whatever
the lengths of the names and lines. Characters are counted as a browser's chat box counts
them (``units``: UTF-16 code units, so an emoji or any character past U+FFFF counts two, as
``value.length`` and ``maxlength`` count): a part that fits by code points could be cut by
the chat. Frame lines are bounded by the name cut, and a line longer than a part is cut
into pieces; each piece of a file line is a body line of its own, carrying the line's
number, and all but the last end ``[line <n> continues]``. Two body lines with the same
number are pieces of one line, joined in order.
Rule 4: parts break only between lines, and never inside a command block of the app's or
the user's own text (the primer's examples) that fits in one part. A file cut by a part
boundary is closed with ``=== FILE <path> continues in the next part ===`` and reopened
in the next part with ``=== FILE: <path> (continued from line <n>) ===``. With more than
one part, each starts with one plain line "LLM Operator context, part i of n".
The token estimate is characters / 4 (rounded up): a common rule of thumb for English
text and code with GPT- and Claude-style tokenizers; real counts vary by about 25%.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..engines.textfile import file_lines
from ..file_names import visible_name
from .chat_units import head, units
from .readable import body_line, escape_line, line_needs_escape

HEADER = "LLM Operator context, part {i} of {n}. More parts follow: wait for all of them."
LAST_HEADER = "LLM Operator context, part {i} of {n} (last part). Read all parts, then answer."
_HEADER_ROOM = len(HEADER.format(i=999_999, n=999_999)) + 2
_OPEN = "=== FILE: {name} ({count}) ==="
_END = "=== END FILE: {name} ==="
_CLOSE = "=== FILE {name} continues in the next part ==="
_REOPEN = "=== FILE: {name} (continued from line {line}) ==="
_MARK = " [line {number} continues]"
MIN_LIMIT = 1000
CHARS_PER_TOKEN = 4
# Room a part keeps for one piece of a line beside the reopen and close lines of its file:
# a body prefix, a line number, the mark and some text (an escaped character takes up to 16).
_MIN_PIECE = 160
_FRAME_FIXED = len(_REOPEN.format(name="", line=9_999_999)) + len(_CLOSE.format(name="")) + 2
_MISLEADING = re.compile(r'===|[()"]|\A\s|\s\Z')


@dataclass(frozen=True)
class PackedFile:
    """A file that goes into a context message: its path and text, whole or in part.

    ``shown`` (None: the whole file) are the line ranges sent, 1-based and inclusive, in
    order and apart; every other line is left out, and ``outline`` holds the outline
    lines (``<start>-<end>: <definition line>``, indented by depth) of the structures
    that start in what is left out, with the line each starts at. Each gap opens with a
    line ``# lines a-b not shown``, so a file line (``<n>: ...``), an outline line and a
    gap line never read alike.
    """

    rel: str
    text: str  # decoded file text, LF line ends
    shown: tuple[tuple[int, int], ...] | None = None
    outline: tuple[tuple[int, str], ...] = ()

    def frame_count(self) -> str:
        """What the open line says after the name: the line count, and what was sent."""
        total = _count(len(file_lines(self.text)))
        if self.shown is None:
            return total
        ranges = ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in self.shown)
        return f"{total}; lines {ranges} shown, the rest as its outline"

    def body(self) -> list[tuple[int, str, bool]]:
        """The file's body in order: (line number, text, numbered). Unnumbered lines are
        gap and outline lines, numbered by the line their gap starts at."""
        lines = file_lines(self.text)
        if self.shown is None:
            return [(n, line, True) for n, line in enumerate(lines, start=1)]
        body: list[tuple[int, str, bool]] = []
        at = 1
        for start, end in [*self.shown, (len(lines) + 1, len(lines))]:
            if start > at:
                body.append((at, f"# lines {at}-{start - 1} not shown", False))
                body += [(at, text, False) for line, text in self.outline if at <= line < start]
            body += [(n, lines[n - 1], True) for n in range(start, min(end, len(lines)) + 1)]
            at = end + 1
        return body


@dataclass(frozen=True)
class ContextMessage:
    """A context message in parts of at most ``limit`` characters, to be pasted in order."""

    parts: tuple[str, ...]
    chars: int  # of the message as one piece (before any split), in ``units``
    cut_names: tuple[str, ...] = ()  # paths too long to frame whole at this part size

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.chars)

    @property
    def whole(self) -> str:
        return "\n\n".join(self.parts)


def _pieces(text: str, room: int) -> list[str]:
    """``text`` cut into pieces of at most ``room`` units (at least one character each)."""
    room = max(2, room)
    if units(text) == len(text):
        return [text[i : i + room] for i in range(0, len(text), room)] or [""]
    pieces: list[str] = []
    while text:
        piece = head(text, room)
        pieces.append(piece)
        text = text[len(piece) :]
    return pieces or [""]


def estimate_tokens(chars: int) -> int:
    return math.ceil(chars / CHARS_PER_TOKEN)


def name_room(limit: int) -> int:
    """The longest name a frame line shows whole in parts of ``limit`` characters."""
    return max(40, (max(limit, MIN_LIMIT) - _HEADER_ROOM - _MIN_PIECE - _FRAME_FIXED) // 2)


def frame_name(rel: str, room: int | None = None) -> str:
    """``rel`` as the frame lines show it: one line, quoted when it could read as part of a
    frame line, cut in the middle (and saying so) when longer than ``room``."""
    shown = visible_name(rel)
    if _MISLEADING.search(shown):
        shown = '"' + shown.replace('"', '\\"') + '"'
    if room is None or units(shown) <= room:
        return shown
    note = f" [name of {units(shown)} characters cut]"
    keep = max(8, room - len(note) - 3)
    first = keep * 2 // 3
    tail = head(shown[::-1], keep - first)[::-1]
    return head(shown, first) + "..." + tail + note


def _count(lines: int) -> str:
    return f"{lines} line{'s' if lines != 1 else ''}"


def file_section(packed: PackedFile, room: int | None = None) -> list[str]:
    """The file's frame and body lines as one part shows them (lines not cut)."""
    name = frame_name(packed.rel, room)
    body = [
        body_line(f"{number}: {line}" if numbered else line)
        for number, line, numbered in packed.body()
    ]
    return [_OPEN.format(name=name, count=packed.frame_count()), *body, _END.format(name=name)]


def section_chars(packed: PackedFile) -> int:
    """Characters the file adds to a message (its section and the line break after it)."""
    return sum(units(line) + 1 for line in file_section(packed))


@dataclass(frozen=True)
class _Line:
    """One line of the message before it is cut. ``kind``: "raw" (the primer's or the
    user's own text), "body" (text from a file: a file line when ``owner`` is set, else an
    outline line), "open" or "end" (a file's frame lines). ``owner`` indexes the files."""

    kind: str
    text: str = ""  # raw or body text (a body line is encoded after its number); open: count
    owner: int | None = None
    number: int = 0  # a file line's number; for "end", one past the file's last line
    numbered: bool = True  # False: a gap or outline line of a file sent in part


def message_lines(
    primer: str, task: str, files: list[PackedFile], outline: str | None
) -> list[_Line]:
    """Every line of the message, body lines unencoded (see ``_Line``)."""
    lines = [_Line("raw", line) for line in primer.rstrip("\n").split("\n")]
    if task.strip():
        lines += [_Line("raw"), _Line("raw", "## Task")]
        lines += [_Line("raw", line) for line in task.strip("\n").split("\n")]
    if files:
        lines += [_Line("raw"), _Line("raw", f"## Files ({len(files)})")]
        for index, packed in enumerate(files):
            lines.append(_Line("open", packed.frame_count(), index))
            lines += [
                _Line("body", text, index, number, numbered)
                for number, text, numbered in packed.body()
            ]
            lines.append(_Line("end", "", index, len(file_lines(packed.text)) + 1))
    if outline:
        lines += [_Line("raw"), _Line("raw", "## Outline of the rest of the workspace")]
        lines += [_Line("body", line) for line in outline.rstrip("\n").split("\n")]
    return lines


_COST: dict[str, int] = {}


def _char_cost(char: str) -> int:
    """Characters ``char`` takes in a body line at most (escaped, when any is)."""
    cost = _COST.get(char)
    if cost is None:
        cost = _COST[char] = units(escape_line(char))
    return cost


def _chunks(text: str, room: int) -> list[str]:
    """``text`` cut into pieces whose body-line text takes at most ``room`` characters."""
    if not line_needs_escape(text):
        return _pieces(text, room)
    chunks: list[str] = []
    start, used = 0, 0
    for index, char in enumerate(text):
        cost = _char_cost(char)
        if used + cost > room and index > start:
            chunks.append(text[start:index])
            start, used = index, 0
        used += cost
    chunks.append(text[start:])
    return chunks


def _rendered(line: _Line, names: list[str], width: int) -> list[str]:
    """The lines ``line`` becomes, each at most ``width`` characters."""
    if line.kind == "open" and line.owner is not None:
        return [_OPEN.format(name=names[line.owner], count=line.text)]
    if line.kind == "end" and line.owner is not None:
        return [_END.format(name=names[line.owner])]
    if line.kind == "raw":
        return _raw_pieces(line.text, width)
    numbered = line.owner is not None and line.numbered
    prefix = f"{line.number}: " if numbered else ""
    whole = body_line(prefix + line.text)
    if units(whole) <= width:
        return [whole]
    mark = _MARK.format(number=line.number if numbered else "?")
    room = width - len(mark) - len(prefix) - 2  # "|\" or "| "
    pieces = [body_line(prefix + chunk) for chunk in _chunks(line.text, room)]
    return [piece + mark for piece in pieces[:-1]] + [pieces[-1]]


def _raw_pieces(line: str, width: int) -> list[str]:
    """A line of the app's or the user's own text, cut into marked pieces when too long."""
    if units(line) <= width:
        return [line]
    mark = _MARK.format(number="?")
    chunks = _pieces(line, width - len(mark))
    return [chunk + mark for chunk in chunks[:-1]] + [chunks[-1]]


def _kept_together(lines: list[_Line]) -> dict[int, int]:
    """The command blocks of the app's or the user's own text (the primer's examples): the
    index of each block's first line and the characters the whole block takes. A block cut
    by a part boundary would read, pasted in parts, as a block holding the part's header,
    and a copy of that part as a block the primer does not hold."""
    found: dict[int, int] = {}
    start: int | None = None
    cost = 0
    for index, line in enumerate(lines):
        if line.kind != "raw":
            start = None
            continue
        marker = line.text.strip()
        if marker == "OPERATOR_CMD":
            start, cost = index, 0
        if start is not None:
            cost += units(line.text) + 1
            if marker == "END_OPERATOR_CMD":
                found[start] = cost
                start = None
    return found


def pack_message(
    primer: str, task: str, files: list[PackedFile], outline: str | None, limit: int
) -> ContextMessage:
    """The message, in parts of at most ``limit`` characters each (``limit`` >= 1000)."""
    limit = max(limit, MIN_LIMIT)
    room = name_room(limit)
    names = [frame_name(packed.rel, room) for packed in files]
    cut = tuple(p.rel for p, name in zip(files, names, strict=True) if name != frame_name(p.rel))
    lines = message_lines(primer, task, files, outline)
    unbounded = [text for line in lines for text in _rendered(line, names, 1 << 62)]
    whole = "\n".join(unbounded)
    size = units(whole)
    if size <= limit:
        return ContextMessage((whole,), size, cut)
    budget = limit - _HEADER_ROOM
    kept = _kept_together(lines)
    parts: list[list[str]] = [[]]
    used = 0
    for index, line in enumerate(lines):
        together = kept.get(index, 0)
        if parts[-1] and together <= budget and used + together > budget:
            parts.append([])  # a command block of the app's own text is never cut
            used = 0
        owner = line.owner
        close = _CLOSE.format(name=names[owner]) if owner is not None else ""
        reopen = (
            _REOPEN.format(name=names[owner], line=max(1, line.number)) if owner is not None else ""
        )
        # Room for a reopen line before, and a close line after, any piece of this line.
        reserve = (units(reopen) + 1 + units(close) + 1) if owner is not None else 0
        # After an open or body line there is room for the close line, so the end line
        # (shorter) always fits where a close line would.
        tail = units(close) + 1 if owner is not None and line.kind != "end" else 0
        opens = line.kind == "open"
        for piece in _rendered(line, names, budget - reserve - 1):
            cost = units(piece) + 1
            if used + cost + tail > budget and parts[-1]:
                if owner is not None and not opens:
                    parts[-1].append(close)
                parts.append([])
                used = 0
                if owner is not None and not opens:
                    parts[-1].append(reopen)
                    used = units(reopen) + 1
            parts[-1].append(piece)
            used += cost
    total = len(parts)
    texts = []
    for index, body in enumerate(parts, start=1):
        title = (LAST_HEADER if index == total else HEADER).format(i=index, n=total)
        texts.append(title + "\n\n" + "\n".join(body))
    return ContextMessage(tuple(texts), size, cut)

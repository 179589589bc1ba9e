"""Copied text as clipboard watch sees it: a reply to run, one to ask about, or not a reply.

Rule 1: only text that reads as an assistant reply runs by itself. Text holding no command
        block is not a reply. Neither is the app's own material: text that holds the
        primer's heading, the served spec's heading or a context message's frame and no
        command block but the primer's or the spec's examples (the primer, a context
        message, the spec, wherever they were copied from).
Rule 2: a block is one of the examples when its lines, read with copy damage taken off
        (any line ends, space-like characters and spaces at the edges and around the first
        colon, doubled line breaks, markdown-escaped underscores in keys), equal an
        example's lines. An id proves nothing: a reply may reuse read-1 for another file.
Rule 3: any other text holding the examples, or blocks of its own beside the app's
        headings and frames, may be a piece of the primer, a note about it or a chat
        copied whole: it runs only if the person says so.
Rule 4: a context message's file sections are data: nothing between a FILE line and its
        END FILE (or "continues in the next part") line counts as a block here.
Rule 5: the app's own copies are known by ``text_digest``, which takes off the damage a
        clipboard adds to a whole text (line ends, trailing spaces, blank edges).

Pure: no disk but the spec resource, read once; no Qt.
"""

from __future__ import annotations

import enum
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from ..wording import counted
from .detect import detect_paste
from .lines import EDGE, tokens, trim
from .scanner import SCAN_LIMIT

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CMD = "OPERATOR_CMD"
_END_CMD = "END_OPERATOR_CMD"
_PRIMER_HEADING = "LLM OPERATOR PRIMER"
_PACK_HEADER = re.compile(r"LLM Operator context, part \d+ of \d+")
_FILE_OPEN = re.compile(r"=== FILE: .+ ===\Z")
_FILE_CLOSE = re.compile(r"=== (END FILE: .+|FILE .+ continues in the next part) ===\Z")
PRIMER_FRAME = "the LLM primer's heading"
SPEC_FRAME = "the interface specification's heading"
PACK_FRAME = "a context message's frame"


class CopiedAction(enum.Enum):
    IGNORE = "ignore"  # not a reply: nothing runs, nothing is asked
    ASK = "ask"  # a reply that quotes the app's own material: the person decides
    RUN = "run"  # an assistant reply: it runs as if pasted


@dataclass(frozen=True)
class CopiedText:
    """What clipboard watch makes of one copied text."""

    action: CopiedAction
    why: str  # why it is ignored or asked about ("" when it holds no command at all)
    examples: tuple[str, ...] = ()  # ids of the examples it quotes, in order ("": no id)
    frames: tuple[str, ...] = ()  # the app's headings and frames it holds
    blocks: int = 0  # its command blocks that are not the app's examples


@dataclass(frozen=True)
class _Block:
    """One command block of a copied text: its id (None: none given) and the digest of
    its lines with copy damage taken off (Rule 2)."""

    id: str | None
    digest: str


def text_digest(text: str) -> str:
    """A digest of ``text`` that the clipboard's damage does not change (Rule 5)."""
    lines = [line.rstrip(EDGE) for line in _LINE_BREAK.split(text.lstrip("\ufeff"))]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogatepass")).hexdigest()


def _normal(line: str) -> str:
    """A block line with copy damage taken off (Rule 2)."""
    bare = trim(line)
    key, colon, value = bare.partition(":")
    if not colon:
        return bare
    return f"{trim(key).replace(chr(92) + '_', '_')}: {trim(value)}"


def _alone(line: str) -> str | None:
    words = tokens(line)
    if len(words) == 1 and words[0].replace("\\_", "_") in (_CMD, _END_CMD):
        return words[0].replace("\\_", "_")
    return None


def _blocks(text: str) -> Iterator[_Block]:
    """Every block opened by a marker alone on its line, outside a pack's file sections.

    A block never closed (a second start marker, or the text's end) is yielded too, with a
    digest no example has, so it always counts as the text's own.
    """
    body: list[str] | None = None
    in_file = False
    for line in _LINE_BREAK.split(text):
        bare = trim(line)
        if in_file:
            in_file = not _FILE_CLOSE.match(bare)
            continue
        if body is None and _FILE_OPEN.match(bare):
            in_file = True
            continue
        marker = _alone(line)
        if marker == _CMD:
            if body is not None:
                yield _finished(body, closed=False)
            body = []
        elif marker == _END_CMD and body is not None:
            yield _finished(body, closed=True)
            body = None
        elif body is not None:
            normal = _normal(line)
            if normal:  # empty lines: doubled line breaks
                body.append(normal)
    if body is not None:
        yield _finished(body, closed=False)


def _finished(body: list[str], closed: bool) -> _Block:
    found = None
    for line in body:
        key, _, value = line.partition(": ")
        if key.lower() == "id":
            found = value
            break
    joined = "\n".join(body) + ("" if closed else "\n(not closed)")
    return _Block(found, hashlib.sha256(joined.encode("utf-8", "surrogatepass")).hexdigest())


@cache
def own_examples() -> frozenset[str]:
    """Digests of the example blocks of the primer (both result forms) and the served spec."""
    from ..actions.operator import interface_spec
    from .encoder import ResultForm
    from .primer import primer_text

    texts = [primer_text(form) for form in ResultForm]
    texts.append(interface_spec())
    return frozenset(block.digest for text in texts for block in _blocks(text))


@cache
def _spec_heading() -> str:
    from ..actions.operator import interface_spec

    lines = interface_spec().splitlines()
    return lines[0].strip() if lines else "Operator Interface Specification"


def frames_of(text: str) -> tuple[str, ...]:
    """The app's own headings and frames that ``text`` holds (Rule 3)."""
    found: list[str] = []
    spec = _spec_heading()
    for line in _LINE_BREAK.split(text):
        bare = trim(line)
        if bare.startswith(_PRIMER_HEADING):
            name = PRIMER_FRAME
        elif bare.startswith(spec):
            name = SPEC_FRAME
        elif _PACK_HEADER.match(bare) or _FILE_OPEN.match(bare):
            name = PACK_FRAME
        else:
            continue
        if name not in found:
            found.append(name)
    return tuple(found)


def _source(text: str, frames: tuple[str, ...]) -> str:
    """What the app's own text is, named for the status bar."""
    lines = {trim(line) for line in _LINE_BREAK.split(text)}
    if any(_PACK_HEADER.match(line) or line.startswith("## Files (") for line in lines):
        return "a context message"
    if PRIMER_FRAME in frames:
        return "the LLM primer"
    if SPEC_FRAME in frames:
        return "the interface specification"
    return "a context message"


def _listed(names: tuple[str, ...]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _scanned_part(text: str) -> str:
    """The part of ``text`` the scanner reads (its last SCAN_LIMIT characters, from a line
    start): what would run is judged, and a huge copy costs no more than a paste."""
    if len(text) <= SCAN_LIMIT:
        return text
    tail = text[-SCAN_LIMIT:]
    if text[-SCAN_LIMIT - 1] in "\r\n":
        return tail
    first = _LINE_BREAK.search(tail)
    return tail[first.end() :] if first else ""


def classify_copied(text: str) -> CopiedText:
    """What clipboard watch does with ``text``: ignore it, ask first, or run it."""
    if not detect_paste(text).commands:
        return CopiedText(CopiedAction.IGNORE, "")
    text = _scanned_part(text)
    known = own_examples()
    examples: list[str] = []
    own = 0
    for block in _blocks(text):
        if block.digest in known:
            examples.append(block.id or "")
        else:
            own += 1
    frames = frames_of(text)
    if not examples and not frames:
        return CopiedText(CopiedAction.RUN, "", (), (), own)
    ids = [name for name in dict.fromkeys(examples) if name]
    quoted = []
    if examples:
        shown = ", ".join(ids[:6]) + (", ..." if len(ids) > 6 else "")
        quoted.append(f"{counted(len(examples), 'example command')} of the app ({shown})")
    quoted += frames
    holds = _listed(tuple(quoted))
    if not own and frames:
        why = f"it is {_source(text, frames)}, the app's own text"
        return CopiedText(CopiedAction.IGNORE, why, tuple(examples), frames, 0)
    if not own:
        why = f"it holds only {holds}, as the primer shows them"
    else:
        why = f"beside {counted(own, 'command block')} of its own it holds {holds}"
    return CopiedText(CopiedAction.ASK, why, tuple(examples), frames, own)

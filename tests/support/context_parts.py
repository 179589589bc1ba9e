"""Reading a packed context message back, strictly: which files it holds, with what text,
and which lines stand outside every file's frame (what a reader takes for the message's
own structure: headings, the task, markers).

Inside a frame every line must be a body line (``|``...), the frame's own end line or its
"continues in the next part" line: anything else fails, so a file that could write a line
of its own into the message is caught here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from llm_operator.core.protocol.readable import decode_line

PART_HEADER = re.compile(r"LLM Operator context, part (\d+) of (\d+)[ .(]")
OPEN = re.compile(r"=== FILE: (?P<name>.+) \((?P<count>\d+) lines?\) ===\Z")
REOPEN = re.compile(r"=== FILE: (?P<name>.+) \(continued from line (?P<line>\d+)\) ===\Z")
NUMBERED = re.compile(r"(?P<number>\d+): (?P<text>.*)\Z", re.DOTALL)
_RAW_MARK = " [line ? continues]"
PIECE = re.compile(r" \[line (?P<number>\d+|\?) continues\]\Z")


@dataclass
class ReadBack:
    """A message read back: each file's text by its framed name, the lines outside every
    frame, and the outline's body lines decoded."""

    files: dict[str, str] = field(default_factory=dict)
    outside: list[str] = field(default_factory=list)
    outline: list[str] = field(default_factory=list)


def read_back(parts: tuple[str, ...] | list[str]) -> ReadBack:
    found = ReadBack()
    lines_of: dict[str, list[tuple[int, str]]] = {}
    counts: dict[str, int] = {}
    current: str | None = None
    for index, part in enumerate(parts, start=1):
        lines = part.split("\n")
        if len(parts) > 1:
            match = PART_HEADER.match(lines[0])
            assert match, lines[0]
            assert (int(match[1]), int(match[2])) == (index, len(parts))
            assert lines[1] == "", lines[1]
            lines = lines[2:]
            assert current is None, f"{current} was not closed at the end of part {index - 1}"
        for line in lines:
            if current is None:
                opened = OPEN.match(line)
                reopened = REOPEN.match(line)
                if opened:
                    current = opened["name"]
                    assert current not in lines_of, f"{current} packed twice"
                    lines_of[current] = []
                    counts[current] = int(opened["count"])
                elif reopened:
                    current = reopened["name"]
                    assert current in lines_of, f"{current} reopened before it was opened"
                    taken = lines_of[current]
                    last = taken[-1][0] if taken else 0
                    at = int(reopened["line"])
                    # The line after the last one, or the same line when it was cut there.
                    assert at == last + 1 or (at == last and PIECE.search(taken[-1][1])), line
                elif line.startswith("|") or line == "\\ No newline at end of details":
                    found.outline.append(decode_line(line).decode("utf-8", "surrogateescape"))
                elif found.outside and found.outside[-1].endswith(_RAW_MARK):
                    # The rest of a line of the message's own cut into pieces.
                    found.outside[-1] = found.outside[-1].removesuffix(_RAW_MARK) + line
                else:
                    found.outside.append(line)
                continue
            if line == f"=== END FILE: {current} ===":
                current = None
                continue
            if line == f"=== FILE {current} continues in the next part ===":
                current = None
                continue
            assert line.startswith("|"), f"inside {current}'s frame, not a body line: {line!r}"
            text = decode_line(line).decode("utf-8", "surrogateescape")
            numbered = NUMBERED.match(text)
            assert numbered, f"not a numbered line: {text[:80]!r}"
            lines_of[current].append((int(numbered["number"]), numbered["text"]))
    assert current is None, f"{current} is never closed"
    for name, numbered_lines in lines_of.items():
        joined: list[str] = []
        last = 0
        for number, text in numbered_lines:
            if number == last:  # a piece of the line before: that one ended with the mark
                mark = PIECE.search(joined[-1])
                assert mark, joined[-1][-40:]
                assert mark["number"] == str(number), joined[-1][-40:]
                joined[-1] = joined[-1][: mark.start()] + text
                continue
            assert number == last + 1, f"{name}: line {number} after line {last}"
            joined.append(text)
            last = number
        assert len(joined) == counts[name], (name, len(joined), counts[name])
        found.files[name] = "".join(line + "\n" for line in joined)
    return found


def unpack(parts: tuple[str, ...] | list[str]) -> dict[str, str]:
    """Every file in the message, rebuilt from its numbered lines across all parts."""
    return read_back(parts).files


def outline_of(message: str) -> str | None:
    """The outline of the rest in a one-part message, its body lines decoded (what the
    ``--map-tokens`` budget measures), or None when there is none."""
    if "\n## Outline of the rest of the workspace\n" not in message:
        return None
    return "\n".join(read_back([message]).outline) + "\n"

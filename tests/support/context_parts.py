"""Reading a packed context message back: which files it holds, with what text."""

from __future__ import annotations

import re

PART_HEADER = re.compile(r"LLM Operator context, part (\d+) of (\d+)[ .(]")
OPEN = re.compile(r"=== FILE: (?P<rel>.+?) \((?P<count>\d+) lines?\) ===\Z")
REOPEN = re.compile(r"=== FILE: (?P<rel>.+?) \(continued(?: from line \d+)?\) ===\Z")
NUMBERED = re.compile(r"(?P<number>\d+): (?P<text>.*)\Z", re.DOTALL)
PIECE = re.compile(r" \[line \d+ continues\]\Z")


def unpack(parts: tuple[str, ...] | list[str]) -> dict[str, str]:
    """Every file in the message, rebuilt from its numbered lines across all parts."""
    files: dict[str, list[str]] = {}
    current: str | None = None
    carry = ""
    for index, part in enumerate(parts, start=1):
        lines = part.split("\n")
        if len(parts) > 1:
            match = PART_HEADER.match(lines[0])
            assert match, lines[0]
            assert (int(match[1]), int(match[2])) == (index, len(parts))
        for line in lines:
            if current is None:
                opened = OPEN.match(line) or REOPEN.match(line)
                if opened:
                    current = opened["rel"]
                    if OPEN.match(line):
                        assert current not in files, f"{current} packed twice"
                        files[current] = []
                continue
            ends = (
                f"=== END FILE: {current} ===",
                f"=== FILE {current} continues in the next part ===",
            )
            if line in ends:
                current = None
                continue
            if PIECE.search(line):
                carry += PIECE.sub("", line)
                continue
            text = carry + line
            carry = ""
            numbered = NUMBERED.match(text)
            assert numbered, f"not a numbered line: {text[:80]!r}"
            assert int(numbered["number"]) == len(files[current]) + 1, text[:80]
            files[current].append(numbered["text"])
    return {rel: "".join(line + "\n" for line in lines) for rel, lines in files.items()}

"""What a reply holds, before anything runs: the live list the window shows while typing."""

from __future__ import annotations

from dataclasses import dataclass

from ..actions.base import Kind
from .paste_notes import paste_notes
from .scanner import BlockProblem, Swallowed, scan
from .validator import Invalid, validate


@dataclass(frozen=True)
class Detected:
    """One command block as the validator sees it; ``problem`` is None when it is valid."""

    index: int
    id: str
    action: str | None
    path: str | None
    writes: bool
    problem: str | None  # "ERR_X: message" when the block is invalid
    # Blocks that started inside this one, which has no END line: none of them ran.
    swallowed: tuple[Swallowed, ...] = ()
    line: int = 0  # where a block the scanner refused starts (0: not known)


@dataclass(frozen=True)
class DetectedPaste:
    """What a reply holds, before anything runs: its command blocks, its OPERATOR_RESULT count
    and notes on the paste."""

    commands: list[Detected]
    result_blocks: int
    notes: tuple[str, ...]  # about the paste as a whole (results pasted back, escapes)


def detect(text: str) -> tuple[list[Detected], int]:
    """The command blocks of ``text`` and the number of OPERATOR_RESULT blocks in it."""
    found = detect_paste(text)
    return found.commands, found.result_blocks


def detect_paste(text: str) -> DetectedPaste:
    """The command blocks of ``text``, its OPERATOR_RESULT count and notes about it.

    Pure: no file is read. Write-class commands are marked, so the window can say that
    a confirmation will follow.
    """
    scanned = scan(text)
    found: list[Detected] = []
    for index, item in enumerate(scanned.items):
        fallback = f"error-{index + 1}"
        if isinstance(item, BlockProblem):
            found.append(
                Detected(
                    index,
                    item.id or fallback,
                    None,
                    None,
                    False,
                    f"{item.code}: {item.message}",
                    item.swallowed,
                    item.line,
                )
            )
            continue
        checked = validate(item)
        if isinstance(checked, Invalid):
            found.append(
                Detected(
                    index,
                    checked.id or fallback,
                    item.get("action"),
                    item.get("path"),
                    False,
                    f"{checked.code}: {checked.message}",
                )
            )
            continue
        found.append(
            Detected(
                index,
                checked.id,
                checked.action,
                checked.path,
                checked.spec.kind is Kind.WRITE,
                None,
            )
        )
    return DetectedPaste(found, scanned.result_blocks, tuple(paste_notes(scanned)))

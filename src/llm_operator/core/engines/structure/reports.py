"""Result values and the warnings attached to them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import OperatorError, quote
from .boundaries import indent_of, owns_lines, structure_range
from .layout import join_body
from .source import (
    UNCHANGED,
    Source,
    errors_note,
    refuse_errors_in,
    reparse,
)
from .target_search import resolve_one
from .targeting import Match


@dataclass(frozen=True)
class StructureEdit:
    """A file's new bytes and the JSON result of the operation (with ``warnings``)."""

    new_source: bytes
    result: dict[str, Any]
    # Blank lines the engine added around inserted content that sent none at its edges.
    blank_lines_added: int = 0


@dataclass(frozen=True)
class StructureMove:
    """Both files' new bytes: write both or neither. ``new_dest_source`` is None when the
    destination is the source file itself (then ``new_source`` holds both edits)."""

    new_source: bytes
    new_dest_source: bytes | None
    result: dict[str, Any]


@dataclass(frozen=True)
class Located:
    """The structure a write acts on, and its rows ``start``..``end`` (0-based, inclusive)."""

    match: Match
    start: int
    end: int

    @property
    def line_range(self) -> list[int]:
        return [self.start + 1, self.end + 1]


def warning(kind: str, message: str, details: dict[str, Any]) -> dict[str, Any]:
    return {"type": kind, "message": message, "details": details}


def locate(
    source: Source, target: list[str], operation: str, *, check_errors: bool = True
) -> Located:
    """The one structure a write operation acts on, whose lines it may rewrite whole.

    ``check_errors`` False: the caller checks the rows it really uses (a container that
    receives a structure at its end only needs a sound last child or closing line).
    """
    if not target:
        raise OperatorError(
            "ERR_TARGET_REQUIRED",
            f"{operation} needs a target naming one structure; the empty target names the "
            "whole file. Give the structure's definition line (one level per line).",
            {"searched_path": target, **UNCHANGED},
        )
    match = resolve_one(source, target)
    node = match.candidate.node
    start, end = structure_range(source, node)
    if check_errors:
        refuse_errors_in(source, start, end, f"the target {quote(match.candidate.first_line)}")
    if not owns_lines(source, node):
        raise OperatorError(
            "ERR_TARGET_SHARES_LINE",
            f"the structure at line {match.candidate.def_row + 1} of {source.path} shares a "
            "line with other code, and structure operations rewrite whole lines. Target the "
            "enclosing structure, or use a text replacement inside it.",
            {"searched_path": target, "line_range_inclusive": [start + 1, end + 1], **UNCHANGED},
        )
    return Located(match, start, end)


def base_indent(source: Source, located: Located) -> str:
    return indent_of(source.lines[located.start])


def finish(
    source: Source,
    body: list[str],
    final_newline: bool,
    result: dict[str, Any],
    warnings: list[dict[str, Any]],
) -> tuple[bytes, Source]:
    """Encode the new text in the file's style; add SYNTAX_BROKEN if the edit added errors.

    Errors the file already had (outside the edited range, or the edit was refused) are
    not the edit's doing: only more errors than before count, and they are only noted.
    """
    text = join_body(body, final_newline)
    if source.spec.name == "json":
        from .commas import fixed_if_clean

        text = fixed_if_clean(source.text, text)
    edited = reparse(source, text)
    errors = list(edited.errors)
    if len(errors) > len(source.errors):
        lines = ", ".join(str(e["line"]) for e in errors[:5])
        warnings.insert(
            0,
            warning(
                "SYNTAX_BROKEN",
                f"{source.path} no longer parses after this change (errors at line {lines}). "
                "The change was applied; fix it with another edit.",
                {"errors": errors},
            ),
        )
    elif source.errors:
        warnings.extend(errors_note(source))
    result["warnings"] = warnings
    return source.encode(text), edited


def empty_warning(first_line: str, lines: list[int]) -> dict[str, Any]:
    return warning(
        "STRUCTURE_EMPTY",
        f"{first_line!r} (lines {lines[0]}-{lines[1]}) no longer contains any code; add a "
        "body or delete it if that was not intended.",
        {"structure": first_line, "lines": lines},
    )

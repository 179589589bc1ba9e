"""Read, replace, delete, text replacement and insertion on one structure.

Every operation is pure: the file's bytes and the parameters in, new bytes and the
seed's result JSON out. Line numbers in results are 1-based and inclusive. The code that
re-indents sent content and fixes list separators is imported by the operations that
place content or remove a structure: a text replacement, the most common edit, starts
without it.
"""

from __future__ import annotations

from typing import Any

from ...errors import OperatorError, mark, quote
from .boundaries import structure_range
from .layout import insert_block, remove_block, separation, split_body
from .reports import (
    Located,
    StructureEdit,
    base_indent,
    empty_warning,
    finish,
    locate,
)
from .source import (
    UNCHANGED,
    Source,
    check_content,
    errors_note,
    load_source,
    refuse_errors_in,
)
from .target_search import matched_note, resolve, resolve_one
from .targeting import Match, children, structure_at_row


def prepare_content(content: str, name: str = "content") -> str:
    """Content as LF text without the blank lines around it; spacing is the engine's job."""
    check_content(name, content)
    lines = content.replace("\r\n", "\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise OperatorError(
            "ERR_CONTENT_EMPTY",
            f"{name} is empty; give the full text of the structure (to remove a structure, "
            "use the delete operation).",
            {"field": name, **UNCHANGED},
        )
    return "\n".join(lines)


def read_structure(source: bytes, path: str, target: list[str]) -> dict[str, Any]:
    src = load_source(source, path)
    body, _ = split_body(src)
    if not target:
        return {
            "matches": [{"text": "\n".join(body), "line_range_inclusive": [1, len(body)]}],
            "warnings": errors_note(src),
        }
    matches = []
    chosen = [resolve_one(src, target)] if getattr(target, "occurrence", None) else None
    for match in chosen or resolve(src, target):
        start, end = structure_range(src, match.candidate.node)
        matches.append(
            {
                "text": "\n".join(body[start : end + 1]),
                "line_range_inclusive": [start + 1, end + 1],
                **matched_note(match),
            }
        )
    return {"matches": matches, "warnings": errors_note(src)}


def replace_structure(source: bytes, path: str, target: list[str], content: str) -> StructureEdit:
    from .indentation import check_indentation, detect_unit, local_unit, rebase

    src = load_source(source, path)
    text = prepare_content(content)
    located = locate(src, target, "replace_structure")
    body, final_newline = split_body(src)
    # The structure being replaced is the destination: its own unit wins over the file's.
    replaced = body[located.start : located.end + 1]
    unit = local_unit(replaced, src.spec) or detect_unit(src.lines, src)
    block = rebase(text, base_indent(src, located), unit, src.spec)
    new_body = body[: located.start] + block.lines + body[located.end + 1 :]
    result: dict[str, Any] = {
        "lines": [located.start + 1, located.start + len(block.lines)],
        **matched_note(located.match),
    }
    warnings = check_indentation(block, located.start, unit, src.spec)
    data, _ = finish(src, new_body, final_newline, result, warnings)
    return StructureEdit(data, result)


def structure_range_of(src: Source, def_row: int) -> tuple[int, int]:
    found = structure_at_row(src, def_row)
    if found is None:
        return def_row, def_row
    return structure_range(src, found.node)


def delete_structure(source: bytes, path: str, target: list[str]) -> StructureEdit:
    from .separators import apply_endings, removal_endings

    src = load_source(source, path)
    located = locate(src, target, "delete_structure")
    match = located.match
    body, final_newline = split_body(src)
    apply_endings(body, removal_endings(src, match.candidate.node))
    removal = remove_block(
        body, located.start, located.end, match.index > 0, match.index < len(match.siblings) - 1
    )
    result: dict[str, Any] = {
        "deleted_line_range_inclusive": located.line_range,
        **matched_note(match),
    }
    warnings: list[dict[str, Any]] = []
    data, edited = finish(src, removal.body, final_newline, result, warnings)
    if match.parent is not None and len(match.siblings) == 1:
        parent_row = removal.map_row(match.parent.def_row)
        start, end = structure_range_of(edited, parent_row)
        warnings.append(empty_warning(match.parent.first_line, [start + 1, end + 1]))
    return StructureEdit(data, result)


def _text_scope(
    src: Source, target: list[str], operation: str
) -> tuple[int, int, str, Located | None]:
    if not target:
        last = max(src.line_count - 1, 0)
        refuse_errors_in(src, 0, last, "the whole file (the empty target)")
        return 0, last, "<whole file>", None
    located = locate(src, target, operation)
    return located.start, located.end, located.match.candidate.first_line, located


def _occurrences(region: str, old: str) -> list[int]:
    found, at = [], region.find(old)
    while at != -1:
        found.append(at)
        at = region.find(old, at + len(old))
    return found


def _replace_text(
    source: bytes,
    path: str,
    target: list[str],
    old_text: str,
    new_text: str,
    expected_count: int | None,
    *,
    single: bool,
) -> StructureEdit:
    operation = "replace_text_in_structure" if single else "replace_all_text_in_structure"
    src = load_source(source, path)
    check_content("old_text", old_text)
    check_content("new_text", new_text)
    old = old_text.replace("\r\n", "\n")
    new = new_text.replace("\r\n", "\n")
    start, end, first_line, located = _text_scope(src, target, operation)
    body, final_newline = split_body(src)
    region = "\n".join(body[start : end + 1])
    found = _occurrences(region, old) if old else []
    scope = {"structure_lines": [start + 1, end + 1], "structure_matched": mark(first_line)}
    if not single and expected_count is not None and expected_count != len(found):
        raise OperatorError(
            "ERR_COUNT_MISMATCH",
            f"old_text occurs {len(found)} times in {quote(first_line)} "
            f"(lines {start + 1}-{end + 1}) but expected_count is {expected_count}; nothing was "
            "replaced. Re-read the structure and adjust old_text or expected_count.",
            {"expected": expected_count, "found": len(found), **scope, **UNCHANGED},
        )
    if not found:
        if not single and expected_count == 0:
            return StructureEdit(
                source, {"total_replacements": 0, "affected_lines": [], "warnings": []}
            )
        hint = " old_text is empty." if not old else ""
        if old and old.strip() and old.strip() in region:
            hint = " The text occurs with different surrounding whitespace or line breaks."
        raise OperatorError(
            "ERR_TEXT_NOT_FOUND",
            f"old_text was not found in {quote(first_line)} (lines {start + 1}-{end + 1} of "
            f"{path}).{hint} The match is exact and case-sensitive, including indentation; "
            "read the structure again and copy the text from it.",
            {**scope, **UNCHANGED},
        )
    if single and len(found) > 1:
        lines = [start + region.count("\n", 0, at) + 1 for at in found]
        raise OperatorError(
            "ERR_TEXT_AMBIGUOUS",
            f"old_text occurs {len(found)} times in {quote(first_line)} (at lines "
            f"{', '.join(map(str, lines[:10]))}); it must occur exactly once. Include more "
            "surrounding text, or use the replace-all operation.",
            {"occurrences": len(found), "lines": lines, **scope, **UNCHANGED},
        )
    pieces, starts, cursor, length = [], [], 0, 0
    for at in found:
        pieces.append(region[cursor:at])
        length += at - cursor
        starts.append(length)
        pieces.append(new)
        length += len(new)
        cursor = at + len(old)
    pieces.append(region[cursor:])
    new_region = "".join(pieces)
    first = start + new_region.count("\n", 0, starts[0])
    last = start + new_region.count("\n", 0, starts[-1] + len(new))
    new_body = body[:start] + new_region.split("\n") + body[end + 1 :]
    result: dict[str, Any] = {"affected_lines": [first + 1, last + 1]}
    if located is not None:
        result.update(matched_note(located.match))
    if not single:
        result = {"total_replacements": len(found), **result}
    warnings: list[dict[str, Any]] = []
    data, edited = finish(src, new_body, final_newline, result, warnings)
    if located is not None:
        warnings.extend(_emptied(src, edited, located, first, len(new_body) - len(body)))
    return StructureEdit(data, result)


def _emptied(
    src: Source, edited: Source, located: Located, first_changed: int, delta: int
) -> list[dict[str, Any]]:
    """STRUCTURE_EMPTY when a structure that had children has none after the edit."""
    candidate = located.match.candidate
    if not children(src, candidate.node):
        return []
    row = candidate.def_row + (delta if first_changed < candidate.def_row else 0)
    found = structure_at_row(edited, row)
    if found is None or children(edited, found.node):
        return []
    start, end = structure_range(edited, found.node)
    return [empty_warning(found.first_line, [start + 1, end + 1])]


def replace_text_in_structure(
    source: bytes, path: str, target: list[str], old_text: str, new_text: str
) -> StructureEdit:
    return _replace_text(source, path, target, old_text, new_text, None, single=True)


def replace_all_text_in_structure(
    source: bytes,
    path: str,
    target: list[str],
    old_text: str,
    new_text: str,
    expected_count: int | None = None,
) -> StructureEdit:
    return _replace_text(source, path, target, old_text, new_text, expected_count, single=False)


def _insert(
    source: bytes, path: str, target: list[str], content: str, *, after: bool
) -> StructureEdit:
    from .indentation import check_indentation, detect_unit, local_unit, rebase
    from .separators import apply_endings, end_sent_member

    src = load_source(source, path)
    text = prepare_content(content)
    body, final_newline = split_body(src)
    # A file with no indented line says nothing about its unit: the content keeps its own.
    measured = any(line.strip() and line[0] in " \t" for line in src.lines)
    own = None if measured else local_unit(text.split("\n"), src.spec)
    unit = own or detect_unit(src.lines, src)
    if target:
        operation = "insert_after_structure" if after else "insert_before_structure"
        located: Located | None = locate(src, target, operation)
    else:
        located = edge_of_file(src, after=after)
    indent = base_indent(src, located) if located else ""
    block = rebase(text, indent, unit, src.spec)
    if located is None:
        row, gap = (len(body), 1 if body else 0) if after else (0, 1 if body else 0)
    else:
        row = located.end + 1 if after else located.start
        gap = separation(src, located.match, block.lines)
        apply_endings(body, end_sent_member(src, located.match.candidate.node, after, block.lines))
    lead, trail = edge_blank_lines(content)
    added = 0
    if lead or trail:
        # The content says which blank lines it wants: they go in exactly as sent.
        new_body = body[:row] + [""] * lead + block.lines + [""] * trail + body[row:]
        first = row + lead
        gap = trail
    else:
        new_body, first = insert_block(body, row, block.lines, gap, after=after)
        added = len(new_body) - len(body) - len(block.lines)
    if after:
        result: dict[str, Any] = {"inserted_at_line": first + 1}
    else:
        target_row = first + len(block.lines) + gap
        result = {"inserted_at_line": first + 1, "target_now_at_line": target_row + 1}
    if located is not None:
        result.update(matched_note(located.match))
    warnings = check_indentation(block, first, unit, src.spec)
    data, _ = finish(src, new_body, final_newline, result, warnings)
    return StructureEdit(data, result, added)


def edge_blank_lines(content: str) -> tuple[int, int]:
    """Blank lines the content sends before its first and after its last text line."""
    lines = content.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final newline ends the last line; it is not a blank line
    texts = [i for i, line in enumerate(lines) if line.strip()]
    if not texts:
        return 0, 0
    return texts[0], len(lines) - 1 - texts[-1]


def edge_of_file(src: Source, *, after: bool) -> Located | None:
    """The first or last top-level structure: the empty target's insertion anchor."""
    kids = children(src, src.root)
    if not kids:
        return None
    candidate = kids[-1] if after else kids[0]
    start, end = structure_range(src, candidate.node)
    return Located(Match(candidate, None, tuple(kids)), start, end)


def insert_before_structure(
    source: bytes, path: str, target: list[str], content: str
) -> StructureEdit:
    return _insert(source, path, target, content, after=False)


def insert_after_structure(
    source: bytes, path: str, target: list[str], content: str
) -> StructureEdit:
    return _insert(source, path, target, content, after=True)

"""Moving a structure before or after another, or to the start or end of a file or body.

Both ends are validated before anything is computed, and both new sources are returned
together, so the caller writes both files or neither. Within one file the destination
is found in the original text and mapped through the removal, so the final line range
reported is where the structure really ends up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...errors import OperatorError, quote
from .boundaries import indent_of, structure_range
from .indentation import check_indentation, detect_unit, rebase
from .layout import insert_block, remove_block, separation, split_body
from .reports import Located, StructureMove, empty_warning, finish, locate
from .separators import (
    Endings,
    apply_endings,
    insertion_endings,
    list_members,
    removal_endings,
    with_ending,
)
from .source import UNCHANGED, Source, end_row, load_source, refuse_errors_in
from .target_search import matched_note
from .targeting import Candidate, Match, Target, children, structure_at_row

if TYPE_CHECKING:
    from tree_sitter import Node

POSITIONS = ("before", "after", "start", "end")
_CLOSERS = ("}", "end", "</", ")", "]")


@dataclass(frozen=True)
class Anchor:
    """Where the moved block goes: beside ``row`` (a row of the destination's original
    text), after it or before it, at ``indent``."""

    row: int
    after: bool
    indent: str
    match: Match | None
    span: tuple[int, int] | None
    container: Candidate | None


def _invalid(message: str, **details: Any) -> OperatorError:
    return OperatorError("ERR_INVALID_POSITION", message, {**details, **UNCHANGED})


def _is_docstring(candidate: Candidate) -> bool:
    node = candidate.node
    return (
        node.type == "expression_statement"
        and node.named_child_count == 1
        and (node.named_children[0].type == "string")
    )


def _anchor(
    dst: Source,
    position: str,
    levels: list[str],
    moving: Located | None,
    moving_in_list: bool = False,
    moving_container: str | None = None,
) -> Anchor:
    if position in ("before", "after"):
        found = locate(dst, levels, "move_structure (destination)")
        after = position == "after"
        row = found.end if after else found.start
        indent = indent_of(dst.lines[found.start])
        return Anchor(row, after, indent, found.match, (found.start, found.end), None)
    container: Candidate | None = None
    span: tuple[int, int] | None = None
    if levels:
        found = locate(dst, levels, "move_structure (destination)", check_errors=False)
        container, span = found.match.candidate, (found.start, found.end)
        kids = children(dst, container.node)
    else:
        kids = children(dst, dst.root)
    if moving_container is not None:
        # A parent with two bodies (a Go ``for`` over a ``[]struct { ... }``: the struct's
        # fields in its header, statements in its block): a field goes to the end of the
        # fields, a statement to the end of the block.
        scope = dst.root if container is None else container.node
        kin = [k for k in kids if not _foreign(dst, k.node, scope, moving_container)]
        own = _holder(dst, moving.match.candidate.node) if moving is not None else None
        if own is not None and _within(own, scope):
            # Another body of the same kind in the parent (``.parse({ id: 5 })`` beside
            # the object holding the moved member) is not the moved structure's either.
            kin = [k for k in kin if not _twin(_holder(dst, k.node), own)]
        alone = moving is not None and [k.node for k in kin] == [moving.match.candidate.node]
        # Its body holds nothing else: another body is not its place, nor is the file
        # around the body that holds the top level (a JSON file's object).
        wrapped = container is None and moving is not None and _parent_of(moving) != dst.root
        if container is not None and span is not None and moving is not None:
            # A body that does not close on the parent's last line (an object literal
            # inside a call's arguments): the parent's closing line is not its end.
            holder = _holder(dst, moving.match.candidate.node)
            wrapped = holder is not None and holder.end_point.row != span[1]
        if alone and (len(kids) > 1 or wrapped) and moving is not None:
            where = "the file" if container is None else quote(container.first_line)
            raise _invalid(
                f"{quote(moving.match.candidate.first_line)} is alone in its body in {where}; "
                f"it is already at its {position}.",
                position=position,
                dest_target=levels,
            )
        kids = kin or kids
    if moving is not None:
        kids = [k for k in kids if k.node != moving.match.candidate.node]
    if moving_in_list:
        # An enum constant goes to the start or end of the constants, not after the
        # enum's methods.
        kids = [k for k in kids if list_members(dst, k.node) is not None] or kids
    if kids:
        first = position == "start"
        kid = kids[0] if first else kids[-1]
        after = not first
        if first and dst.spec.pep8 and _is_docstring(kid) and len(kids) > 1:
            after = True
        start, end = structure_range(dst, kid.node)
        refuse_errors_in(dst, start, end, f"the destination's neighbour {quote(kid.first_line)}")
        match = Match(kid, container, tuple(kids))
        return Anchor(
            end if after else start, after, indent_of(dst.lines[start]), match, span, container
        )
    if container is None or span is None:
        # An empty file has one (empty) element in ``lines`` but no line of text.
        rows = len(split_body(dst)[0])
        return Anchor(rows if position == "end" else 0, False, "", None, None, None)
    if dst.spec.name == "markdown":
        # A section whose body is only paragraphs: its start is right under the heading,
        # its end is its last line.
        row = container.def_row if position == "start" else span[1]
        return Anchor(row, True, "", None, span, container)
    refuse_errors_in(dst, span[1], span[1], f"the closing line of {quote(container.first_line)}")
    closing = dst.lines[span[1]].strip()
    if span[1] > container.def_row and closing.startswith(_CLOSERS):
        indent = indent_of(dst.lines[container.def_row]) + detect_unit(dst.lines, dst)
        return Anchor(span[1], False, indent, None, span, container)
    raise _invalid(
        f"{quote(container.first_line)} has no body to move into (no structures inside and no "
        "closing line); use position 'before' or 'after' a structure instead.",
        dest_target=levels,
    )


def _parent_of(moving: Located) -> Node | None:
    return moving.match.candidate.node.parent


def _holder(source: Source, node: Node) -> Node | None:
    """The container holding ``node``, looking through preprocessor blocks (a member
    under ``#if`` still belongs to the class body)."""
    parent = node.parent
    while parent is not None:
        kind = parent.type
        if kind in source.spec.containers and not kind.startswith("preproc"):
            return parent
        parent = parent.parent
    return None


def _within(node: Node, scope: Node) -> bool:
    return scope.start_byte <= node.start_byte and node.end_byte <= scope.end_byte


def _twin(holder: Node | None, own: Node) -> bool:
    """Another body of the same kind as ``own``."""
    return holder is not None and holder != own and holder.type == own.type


def _container_of(source: Source, node: Node) -> str | None:
    holder = _holder(source, node)
    return None if holder is None else holder.type


def _foreign(source: Source, node: Node, scope: Node, kind: str) -> bool:
    """Whether ``node`` sits in another body of ``scope`` than one of type ``kind``: not
    in such a body, nor in a part nested in one (a Kotlin file's import list is part of
    the file; a Go ``for``'s struct fields are no part of its block)."""
    at = _holder(source, node)
    while at is not None:
        if at.type == kind:
            return False
        if at == scope:
            return True
        at = at.parent
    return True


def move_structure(
    source: bytes,
    path: str,
    target: list[str],
    position: str,
    dest_source: bytes | None = None,
    dest_path: str | None = None,
    dest_target: list[str] | None = None,
) -> StructureMove:
    if position not in POSITIONS:
        raise _invalid(
            f"position must be one of {', '.join(POSITIONS)}, not {position!r}.",
            position=position,
        )
    levels = dest_target if isinstance(dest_target, Target) else list(dest_target or [])
    if position in ("before", "after") and not levels:
        raise _invalid(
            f"position {position!r} needs dest_target naming the structure to move next to; "
            "use 'start' or 'end' to move to the start or end of the file.",
            position=position,
        )
    same = dest_path is None or dest_path == path
    src = load_source(source, path)
    moving = locate(src, target, "move_structure")
    if same:
        dst = src
    elif dest_source is None:
        raise ValueError("dest_source is required when dest_path names another file")
    else:
        dst = load_source(dest_source, dest_path or path)
    in_list = list_members(src, moving.match.candidate.node) is not None
    container = _container_of(src, moving.match.candidate.node)
    anchor = _anchor(dst, position, levels, moving if same else None, in_list, container)
    if (
        same
        and anchor.span is not None
        and (anchor.span[0] >= moving.start and anchor.span[1] <= moving.end)
    ):
        raise _invalid(
            "the destination is the moved structure itself or lies inside it; choose a "
            "destination outside it.",
            source_line_range=[moving.start + 1, moving.end + 1],
            dest_target=levels,
        )
    return _apply(src, dst, moving, anchor, same)


def _apply(src: Source, dst: Source, moving: Located, anchor: Anchor, same: bool) -> StructureMove:
    body, final_newline = split_body(src)
    # The text keeps its own indentation: rebase measures its base from its code lines
    # and leaves its string literals' lines exactly as they are.
    text = "\n".join(body[moving.start : moving.end + 1])
    # A destination with no indented line (a new file, top-level statements only) says
    # nothing about its unit: the moved code keeps its own rather than a default.
    measured = any(line.strip() and line[0] in " \t" for line in dst.lines)
    unit = (
        detect_unit(dst.lines, dst)
        if measured
        else detect_unit(body[moving.start : moving.end + 1])
    )
    own_unit = detect_unit(src.lines, src) if same or measured else None
    block = rebase(text, anchor.indent, unit, dst.spec, moved=True, content_unit=own_unit)
    dest_body, dest_newline = split_body(dst)
    if anchor.match is not None:
        gap = separation(dst, anchor.match, block.lines, moving.match.candidate.node.type)
    elif anchor.span is not None:
        # Markdown blocks need a blank line around them to stay separate blocks.
        gap = 1 if dst.spec.name == "markdown" else 0
    else:
        gap = 1 if any(line.strip() for line in dest_body) else 0
    match = moving.match
    apply_endings(dest_body, _fix_endings(src, dst, moving, anchor, same, body, block.lines))
    removal = remove_block(
        body, moving.start, moving.end, match.index > 0, match.index < len(match.siblings) - 1
    )
    row = anchor.row
    if same:
        dest_body = removal.body
        if anchor.match is None and anchor.span is None:
            row = len(dest_body) if anchor.row else 0
        elif anchor.after and removal.first <= row <= removal.last:
            row = removal.first - 1
        else:
            row = removal.map_row(row)
    insert_at = row + 1 if anchor.after else row
    new_dest, first = insert_block(dest_body, insert_at, block.lines, gap, after=anchor.after)
    result: dict[str, Any] = {
        "source_original_line_range": [moving.start + 1, moving.end + 1],
        "destination_final_line_range": [first + 1, first + len(block.lines)],
        **matched_note(moving.match),
    }
    warnings = check_indentation(block, first, unit, dst.spec)
    parent = match.parent if len(match.siblings) == 1 else None
    if same and parent is not None and anchor.container is not None:
        parent = None if anchor.container.node == parent.node else parent
    if same:
        data, edited = finish(src, new_dest, final_newline, result, warnings)
        dest_data = None
        inserted = len(new_dest) - len(removal.body)
        source_view = edited
    else:
        dest_result: dict[str, Any] = {}
        dest_data, _ = finish(dst, new_dest, dest_newline, dest_result, warnings)
        source_result: dict[str, Any] = {}
        source_warnings: list[dict[str, Any]] = []
        data, source_view = finish(src, removal.body, final_newline, source_result, source_warnings)
        warnings[:0] = source_warnings
        inserted = 0
        result["warnings"] = warnings
    if parent is not None:
        parent_row = removal.map_row(parent.def_row)
        if same and insert_at <= parent_row:
            parent_row += inserted
        found = structure_at_row(source_view, parent_row)
        start, end = structure_range(source_view, found.node) if found else (parent_row, parent_row)
        warnings.append(empty_warning(parent.first_line, [start + 1, end + 1]))
    return StructureMove(data, dest_data, result)


def _fix_endings(
    src: Source,
    dst: Source,
    moving: Located,
    anchor: Anchor,
    same: bool,
    body: list[str],
    block: list[str],
) -> Endings:
    """The commas of a list the member leaves and of the list it joins (``separators``):
    ``body`` (the source's lines) and ``block`` (the moved lines) are fixed in place; the
    endings returned are for a destination in another file."""
    node = moving.match.candidate.node
    removed = removal_endings(src, node)
    apply_endings(body, removed)
    if anchor.match is None:
        return {}
    joined = insertion_endings(
        dst, anchor.match.candidate.node, anchor.after, node if same else None, removed
    )
    if joined is None:
        return {}
    endings, own = joined
    if end_row(node) == moving.end:
        block[-1] = with_ending(src, node, block[-1], own)
    if same:
        apply_endings(body, endings)
        return {}
    return endings

"""Structure actions: read and edit code by name through the tree-sitter engine.

fs.readStructure, fs.replaceStructure, fs.deleteStructure, fs.replaceTextInStructure,
fs.replaceAllTextInStructure, fs.insertBeforeStructure, fs.insertAfterStructure and
fs.moveStructure. ``target`` names one level; ``target_b64`` holds one level per line,
outermost first. The engine is imported only when one of these actions runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import model_validator

from ..changes import ChangeSet, FileChange
from ..errors import InvalidCommand
from ..file_names import visible_name
from ..outcome import STRUCTURE_JSON, Outcome
from ..store.files import not_found
from ..wording import counted
from .base import ActionContext, ActionSpec, Kind, Plan, Result
from .fields import B64Text, Count, PathFields, one_of, pick_text
from .write_target import target_for_write

POSITIONS = ("before", "after", "start", "end")


def _levels(text: str) -> list[str]:
    return [line for line in text.replace("\r\n", "\n").split("\n") if line.strip()]


_TARGET = {("target", "target_b64"): "ERR_MISSING_TARGET"}


def _target_of(levels: list[str], symbol: str | None, occurrence: int | None) -> list[str]:
    from ..engines.structure import Target, symbol_target

    if symbol is not None:
        return symbol_target(symbol, occurrence)
    return Target(levels, occurrence=occurrence)


class TargetFields(PathFields):
    target: str | None = None
    target_b64: B64Text | None = None
    # The short form: grammar names separated by "/" ("UserAuth/validate", "parse[2]").
    symbol: str | None = None
    # Which of several identical matches, 1-based in file order.
    occurrence: Count | None = None

    ONE_OF: ClassVar[dict[tuple[str, str], str]] = _TARGET
    INVALID_CODES: ClassVar[dict[str, str]] = {"occurrence": "ERR_INVALID_OCCURRENCE"}

    @model_validator(mode="after")
    def _one_of_pairs(self) -> TargetFields:
        pairs = dict(self.ONE_OF)
        if self.symbol is not None:
            if self.target is not None or self.target_b64 is not None:
                raise InvalidCommand(
                    "ERR_CONFLICTING_FIELDS", "give either symbol or target/target_b64, not both"
                )
            pairs.pop(("target", "target_b64"), None)
        for (plain, encoded), code in pairs.items():
            one_of(self, plain, encoded, code)
        if self.occurrence is not None and self.occurrence < 1:
            raise InvalidCommand(
                "ERR_INVALID_OCCURRENCE",
                f"occurrence must be 1 or more (1 is the first match in file order), "
                f"not {self.occurrence}",
            )
        return self

    @property
    def levels(self) -> list[str]:
        return _target_of(_levels(self.text_of("target")), self.symbol, self.occurrence)


class ContentFields(TargetFields):
    content: str | None = None
    content_b64: B64Text | None = None

    ONE_OF: ClassVar[dict[tuple[str, str], str]] = {
        **_TARGET,
        ("content", "content_b64"): "ERR_MISSING_CONTENT",
    }

    @property
    def text(self) -> str:
        return self.text_of("content")


class TextFields(TargetFields):
    old_text: str | None = None
    old_text_b64: B64Text | None = None
    new_text: str | None = None
    new_text_b64: B64Text | None = None

    ONE_OF: ClassVar[dict[tuple[str, str], str]] = {
        **_TARGET,
        ("old_text", "old_text_b64"): "ERR_MISSING_OLD_TEXT",
        ("new_text", "new_text_b64"): "ERR_MISSING_NEW_TEXT",
    }

    @model_validator(mode="after")
    def _old_not_empty(self) -> TextFields:
        if not self.old:
            # Whichever form was sent (old_text, old_text_json, old_text_b64), the text is
            # what is empty: the message names the three, never just one the client did not
            # send.
            raise InvalidCommand(
                "ERR_MISSING_OLD_TEXT",
                "the text to replace is empty: give old_text, old_text_json or old_text_b64 "
                "the text to find inside the target",
            )
        return self

    @property
    def old(self) -> str:
        return self.text_of("old_text")

    @property
    def new(self) -> str:
        return self.text_of("new_text")


class AllTextFields(TextFields):
    expected_count: Count | None = None

    INVALID_CODES: ClassVar[dict[str, str]] = {
        "expected_count": "ERR_INVALID_EXPECTED_COUNT",
        "occurrence": "ERR_INVALID_OCCURRENCE",
    }


class MoveFields(TargetFields):
    position: str
    dest_path: str | None = None
    dest_target: str | None = None
    dest_target_b64: B64Text | None = None
    dest_symbol: str | None = None
    dest_occurrence: Count | None = None

    MISSING_CODES: ClassVar[dict[str, str]] = {"position": "ERR_INVALID_POSITION"}
    INVALID_CODES: ClassVar[dict[str, str]] = {
        "occurrence": "ERR_INVALID_OCCURRENCE",
        "dest_occurrence": "ERR_INVALID_OCCURRENCE",
    }

    @model_validator(mode="after")
    def _destination(self) -> MoveFields:
        if self.position not in POSITIONS:
            raise InvalidCommand(
                "ERR_INVALID_POSITION",
                f"position {self.position!r} is not one of {', '.join(POSITIONS)}",
            )
        if self.dest_symbol is not None and (
            self.dest_target is not None or self.dest_target_b64 is not None
        ):
            raise InvalidCommand(
                "ERR_CONFLICTING_FIELDS",
                "give either dest_symbol or dest_target/dest_target_b64, not both",
            )
        if self.dest_occurrence is not None and self.dest_occurrence < 1:
            raise InvalidCommand(
                "ERR_INVALID_OCCURRENCE",
                f"dest_occurrence must be 1 or more, not {self.dest_occurrence}",
            )
        if self.position in ("before", "after") and self.dest_symbol is None:
            one_of(self, "dest_target", "dest_target_b64", "ERR_MISSING_DEST_TARGET")
        elif self.dest_target is not None and self.dest_target_b64 is not None:
            raise InvalidCommand(
                "ERR_CONFLICTING_FIELDS", "give either dest_target or dest_target_b64, not both"
            )
        return self

    @property
    def dest_levels(self) -> list[str] | None:
        text = pick_text(self, "dest_target", "dest_target_b64")
        if text is None and self.dest_symbol is None:
            return None
        return _target_of(_levels(text or ""), self.dest_symbol, self.dest_occurrence)


# -- running ------------------------------------------------------------------------


def _details(result: dict[str, Any]) -> str:
    """The seed's result JSON on one line, then each warning as a line a model reads at
    once (what landed follows them, as for every write: ``plan.landed``)."""
    lines = [json.dumps(result, ensure_ascii=False)]
    for found in result.get("warnings") or []:
        if isinstance(found, dict) and found.get("message"):
            lines.append(f"# warning {found.get('type')}: {found['message']}")
    return "\n".join(lines) + "\n"


def _warning_note(result: dict[str, Any]) -> str:
    warnings = result.get("warnings") or []
    kinds = sorted({str(w.get("type")) for w in warnings if isinstance(w, dict)})
    return f"; warnings: {', '.join(kinds)} (see details)" if kinds else ""


def _plan_notes(rel: str, result: dict[str, Any]) -> tuple[str, ...]:
    """The warnings of a planned edit, said before approval: what the edit cannot keep
    (string literals that stay while the code moves), what it leaves odd (inconsistent
    indentation, an emptied body) or broken. Errors the file had before are not news."""
    notes: list[str] = []
    for found in result.get("warnings") or []:
        if not isinstance(found, dict) or found.get("type") == "PARSE_ERRORS_ELSEWHERE":
            continue
        if found.get("type") == "SYNTAX_BROKEN":
            errors = (found.get("details") or {}).get("errors") or []
            lines = ", ".join(str(e.get("line")) for e in errors[:5] if isinstance(e, dict))
            notes.append(
                f"{visible_name(rel)} will no longer parse after this change (errors at "
                f"line {lines}); reject it or fix it with another edit."
            )
        else:
            notes.append(str(found.get("message", "")))
    return tuple(note for note in notes if note)


def _taken_note(result: dict[str, Any]) -> str:
    """Which levels a one-line target took, when it named a definition below the top."""
    taken = result.get("target_matched")
    if not isinstance(taken, dict):
        return ""
    if taken.get("symbol"):
        return f"; target matched {taken['symbol']}"
    levels = taken.get("levels") or []
    return f"; target matched the levels {' > '.join(repr(line) for line in levels)}"


def _summary(verb: str, rel: str, result: dict[str, Any]) -> str:
    return f"{verb} in {visible_name(rel)}{_taken_note(result)}{_warning_note(result)}"


def _lines(value: object) -> str:
    if isinstance(value, list | tuple) and len(value) == 2:
        if value[0] == value[1]:
            return f"line {value[0]}"
        return f"lines {value[0]}-{value[1]}"
    return f"line {value}"


def _current(ctx: ActionContext, path: str) -> tuple[str, bytes]:
    """The canonical path of a file to edit and its bytes as this reply left them.

    The bytes go to the engine unchecked: it refuses a file that is too large, not UTF-8
    or has no parser with the seed's details (limits, ``state: FILE_UNCHANGED``).
    """
    rel = target_for_write(ctx, path)
    data = ctx.files.read(rel)
    if data is None:
        raise not_found(ctx.workspace, path)
    return rel, data


def run_read_structure(ctx: ActionContext, fields: TargetFields) -> Result:
    from ..engines.structure import read_structure
    from ..store.files import find_file, read_bytes

    found = find_file(ctx.workspace, fields.path)
    result = read_structure(read_bytes(found), found.rel, fields.levels)
    matches = result.get("matches", [])
    where = ", ".join(_lines(m["line_range_inclusive"]) for m in matches)
    summary = (
        f"Read {counted(len(matches), 'match', 'matches')} for the target in "
        f"{visible_name(found.rel)} ({where})"
        f"{_taken_note(matches[0]) if len(matches) == 1 else ''}"
    )
    return Outcome(True, summary, json.dumps(result, ensure_ascii=False), STRUCTURE_JSON)


def _plan_edit(
    ctx: ActionContext,
    fields: TargetFields,
    verb: str,
    operate: Callable[[bytes, str], Any],
    where: Callable[[dict[str, Any]], str],
) -> Result:
    rel, before = _current(ctx, fields.path)
    edit = operate(before, rel)
    result: dict[str, Any] = edit.result
    detail = where(result)
    summary = _summary(verb + (f" ({detail})" if detail else ""), rel, result)
    added = getattr(edit, "blank_lines_added", 0)
    if added:
        # The content sent no blank lines at its edges: say which ones the app chose.
        summary += (
            f"; {added} blank line(s) added around it to match the file (start or end "
            "content with blank lines to choose them)"
        )
    outcome = Outcome(True, summary, _details(result), STRUCTURE_JSON)
    if edit.new_source == before:
        return outcome
    change = FileChange(rel, before, edit.new_source)
    return Plan(ChangeSet((change,)), outcome, _plan_notes(rel, result))


def run_replace(ctx: ActionContext, fields: ContentFields) -> Result:
    from ..engines.structure import replace_structure

    return _plan_edit(
        ctx,
        fields,
        "Replaced the structure",
        lambda src, rel: replace_structure(src, rel, fields.levels, fields.text),
        lambda result: _lines(result["lines"]),
    )


def run_delete(ctx: ActionContext, fields: TargetFields) -> Result:
    from ..engines.structure import delete_structure

    return _plan_edit(
        ctx,
        fields,
        "Deleted the structure",
        lambda src, rel: delete_structure(src, rel, fields.levels),
        lambda result: _lines(result["deleted_line_range_inclusive"]),
    )


def run_replace_text(ctx: ActionContext, fields: TextFields) -> Result:
    from ..engines.structure import replace_text_in_structure

    return _plan_edit(
        ctx,
        fields,
        "Replaced text in the structure",
        lambda src, rel: replace_text_in_structure(src, rel, fields.levels, fields.old, fields.new),
        lambda result: _lines(result["affected_lines"]),
    )


def run_replace_all_text(ctx: ActionContext, fields: AllTextFields) -> Result:
    from ..engines.structure import replace_all_text_in_structure

    def where(result: dict[str, Any]) -> str:
        count = result["total_replacements"]
        if not count:
            return "0 replacements; nothing changed"
        return f"{count} replacement{'s' if count != 1 else ''}, {_lines(result['affected_lines'])}"

    return _plan_edit(
        ctx,
        fields,
        "Replaced every match in the structure",
        lambda src, rel: replace_all_text_in_structure(
            src, rel, fields.levels, fields.old, fields.new, fields.expected_count
        ),
        where,
    )


def run_insert_before(ctx: ActionContext, fields: ContentFields) -> Result:
    from ..engines.structure import insert_before_structure

    return _plan_edit(
        ctx,
        fields,
        "Inserted before the structure",
        lambda src, rel: insert_before_structure(src, rel, fields.levels, fields.text),
        lambda result: (
            f"at line {result['inserted_at_line']}; the target now starts at line "
            f"{result['target_now_at_line']}"
        ),
    )


def run_insert_after(ctx: ActionContext, fields: ContentFields) -> Result:
    from ..engines.structure import insert_after_structure

    return _plan_edit(
        ctx,
        fields,
        "Inserted after the structure",
        lambda src, rel: insert_after_structure(src, rel, fields.levels, fields.text),
        lambda result: f"at line {result['inserted_at_line']}",
    )


def run_move(ctx: ActionContext, fields: MoveFields) -> Result:
    from ..engines.structure import move_structure

    rel, before = _current(ctx, fields.path)
    dest_rel = target_for_write(ctx, fields.dest_path) if fields.dest_path else rel
    same_file = dest_rel == rel
    dest_before: bytes | None = None
    if not same_file:
        dest_before = ctx.files.read(dest_rel)
        if dest_before is None and fields.position in ("before", "after"):
            # before/after need a structure to stand next to; start/end may make the file.
            raise not_found(ctx.workspace, fields.dest_path or "")
    moved = move_structure(
        before,
        rel,
        fields.levels,
        fields.position,
        None if same_file else (dest_before or b""),
        None if same_file else dest_rel,
        fields.dest_levels,
    )
    result: dict[str, Any] = moved.result
    where = {
        "before": "before the destination target in",
        "after": "after the destination target in",
        "start": "to the start of" if fields.dest_levels is None else "to the start of a body in",
        "end": "to the end of" if fields.dest_levels is None else "to the end of a body in",
    }[fields.position]
    summary = (
        f"Moved the structure from {_lines(result['source_original_line_range'])} of "
        f"{visible_name(rel)} "
        f"{where} {visible_name(dest_rel)} (now {_lines(result['destination_final_line_range'])})"
        f"{_taken_note(result)}"
    )
    outcome = Outcome(True, summary + _warning_note(result), _details(result), STRUCTURE_JSON)
    changes = [FileChange(rel, before, moved.new_source)]
    if not same_file and moved.new_dest_source is not None:
        changes.append(FileChange(dest_rel, dest_before, moved.new_dest_source))
    changes = [change for change in changes if change.before != change.after]
    if not changes:
        return outcome
    return Plan(ChangeSet(tuple(changes)), outcome, _plan_notes(rel, result))


ACTIONS = (
    ActionSpec(
        "fs.readStructure",
        Kind.READ,
        TargetFields,
        run_read_structure,
        "Return every structure matching the target with its line range.",
    ),
    ActionSpec(
        "fs.replaceStructure",
        Kind.WRITE,
        ContentFields,
        run_replace,
        "Replace the whole target structure (decorators and doc comments included).",
    ),
    ActionSpec(
        "fs.deleteStructure",
        Kind.WRITE,
        TargetFields,
        run_delete,
        "Delete the target structure.",
    ),
    ActionSpec(
        "fs.replaceTextInStructure",
        Kind.WRITE,
        TextFields,
        run_replace_text,
        "Replace the one occurrence of old_text inside the target structure.",
    ),
    ActionSpec(
        "fs.replaceAllTextInStructure",
        Kind.WRITE,
        AllTextFields,
        run_replace_all_text,
        "Replace every occurrence of old_text inside the target (optional expected_count).",
    ),
    ActionSpec(
        "fs.insertBeforeStructure",
        Kind.WRITE,
        ContentFields,
        run_insert_before,
        "Insert content before the target structure.",
    ),
    ActionSpec(
        "fs.insertAfterStructure",
        Kind.WRITE,
        ContentFields,
        run_insert_after,
        "Insert content after the target structure.",
    ),
    ActionSpec(
        "fs.moveStructure",
        Kind.WRITE,
        MoveFields,
        run_move,
        "Move the target before/after dest_target, or to the start/end of dest_path.",
    ),
)

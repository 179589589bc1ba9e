"""Region actions: fs.listRegions, fs.readRegion, fs.insertRegion, fs.replaceRegion,
fs.deleteRegion.

The comment style and the marker id are checked while validating, so a command that
could never work is refused before anything runs. Writes go through ``plan_text_edit``,
the same path as every other edit: preview, approval, stale check, BOM/CRLF fidelity, undo.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, ClassVar

from pydantic import model_validator

from ..errors import InvalidCommand, OperatorError
from ..file_names import visible_name
from ..outcome import Outcome
from ..store.files import find_file, read_text
from ..wording import counted
from .base import ActionContext, ActionSpec, Kind, Result
from .fields import B64Text, Count, PathFields
from .write import plan_text_edit

if TYPE_CHECKING:
    from ..engines.comment_styles import CommentStyle


class StyleFields(PathFields):
    comment_line_prefix: str | None = None
    comment_block_start: str | None = None
    comment_block_end: str | None = None
    language: str | None = None

    def style(self) -> CommentStyle:
        from ..engines.comment_styles import resolve_comment_style

        return resolve_comment_style(
            self.path,
            comment_line_prefix=self.comment_line_prefix,
            comment_block_start=self.comment_block_start,
            comment_block_end=self.comment_block_end,
            language=self.language,
        )

    @model_validator(mode="after")
    def _style_resolves(self) -> StyleFields:
        try:
            self.style()
        except OperatorError as error:
            raise InvalidCommand(error.code, error.marked_message, error.marked_details) from None
        return self


class MarkerFields(StyleFields):
    marker_id: str

    MISSING_CODES: ClassVar[dict[str, str]] = {"marker_id": "ERR_MISSING_MARKER_ID"}

    @model_validator(mode="after")
    def _marker_id(self) -> MarkerFields:
        from ..engines.regions import check_marker_id

        try:
            check_marker_id(self.marker_id)
        except OperatorError as error:
            raise InvalidCommand(error.code, error.marked_message, error.marked_details) from None
        return self


class ReplaceRegionFields(MarkerFields):
    content_b64: B64Text

    MISSING_CODES: ClassVar[dict[str, str]] = {
        "marker_id": "ERR_MISSING_MARKER_ID",
        "content_b64": "ERR_MISSING_CONTENT_B64",
    }


class InsertRegionFields(ReplaceRegionFields):
    anchor: str | None = None
    anchor_b64: B64Text | None = None
    position: str = "after"
    occurrence: Count = 1

    INVALID_CODES: ClassVar[dict[str, str]] = {"occurrence": "ERR_INVALID_ANCHOR_OCCURRENCE"}
    ONE_OF: ClassVar[dict[tuple[str, str], str]] = {("anchor", "anchor_b64"): "ERR_MISSING_ANCHOR"}

    @model_validator(mode="after")
    def _anchor(self) -> InsertRegionFields:
        if not self.anchor_text:
            raise InvalidCommand(
                "ERR_MISSING_ANCHOR", "anchor is empty; give text found in the anchor line"
            )
        if self.position not in ("before", "after"):
            raise InvalidCommand(
                "ERR_INVALID_INSERT_POSITION",
                f"position {self.position!r} is not before or after (after is the default)",
            )
        if self.occurrence < 1:
            raise InvalidCommand(
                "ERR_INVALID_ANCHOR_OCCURRENCE",
                f"occurrence must be 1 or more, got {self.occurrence}",
            )
        return self

    @property
    def anchor_text(self) -> str:
        return self.text_of("anchor")


def run_list_regions(ctx: ActionContext, fields: StyleFields) -> Result:
    from ..engines.regions import list_regions, regions_json

    found = find_file(ctx.workspace, fields.path)
    text, _ = read_text(found)
    regions = list_regions(text, fields.style())
    payload = json.dumps(regions_json(regions))
    names = ", ".join(region.marker_id for region in regions) or "none"
    shown = visible_name(found.rel)
    return Outcome(True, f"{counted(len(regions), 'region')} in {shown}: {names}", payload)


def run_read_region(ctx: ActionContext, fields: MarkerFields) -> Result:
    from ..engines.regions import find_region, read_region

    found = find_file(ctx.workspace, fields.path)
    text, _ = read_text(found)
    style = fields.style()
    content = read_region(text, style, fields.marker_id)
    region = find_region(text, style, fields.marker_id)
    count = region.content_line_count
    # An empty region sends no details_b64: say so, or an ok result without content puzzles.
    held = f"{counted(count, 'line')} of content" if count else "empty region"
    shown = visible_name(found.rel)
    summary = f"Read region {fields.marker_id} of {shown} ({region.span()}, {held})"
    return Outcome(True, summary, content)


def run_insert_region(ctx: ActionContext, fields: InsertRegionFields) -> Result:
    from ..engines.regions import insert_region

    def edit(text: str) -> tuple[str, str]:
        done = insert_region(
            text,
            fields.style(),
            fields.marker_id,
            fields.anchor_text,
            fields.content_b64,
            fields.position,
            fields.occurrence,
        )
        return done.text, done.summary

    return plan_text_edit(ctx, fields.path, "Edited", edit)


def run_replace_region(ctx: ActionContext, fields: ReplaceRegionFields) -> Result:
    from ..engines.regions import replace_region

    def edit(text: str) -> tuple[str, str]:
        done = replace_region(text, fields.style(), fields.marker_id, fields.content_b64)
        return done.text, done.summary

    return plan_text_edit(ctx, fields.path, "Edited", edit)


def run_delete_region(ctx: ActionContext, fields: MarkerFields) -> Result:
    from ..engines.regions import delete_region

    def edit(text: str) -> tuple[str, str]:
        done = delete_region(text, fields.style(), fields.marker_id)
        return done.text, done.summary

    return plan_text_edit(ctx, fields.path, "Edited", edit)


ACTIONS = (
    ActionSpec(
        "fs.listRegions",
        Kind.READ,
        StyleFields,
        run_list_regions,
        'List the region markers of a file as JSON {"regions": [...]}.',
    ),
    ActionSpec(
        "fs.readRegion",
        Kind.READ,
        MarkerFields,
        run_read_region,
        "Return the lines between a region's markers.",
    ),
    ActionSpec(
        "fs.insertRegion",
        Kind.WRITE,
        InsertRegionFields,
        run_insert_region,
        "Add a marked region holding content before or after an anchor line.",
    ),
    ActionSpec(
        "fs.replaceRegion",
        Kind.WRITE,
        ReplaceRegionFields,
        run_replace_region,
        "Replace the lines between a region's markers with content.",
    ),
    ActionSpec(
        "fs.deleteRegion",
        Kind.WRITE,
        MarkerFields,
        run_delete_region,
        "Remove the lines between a region's markers (the markers stay).",
    ),
)

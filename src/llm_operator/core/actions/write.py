"""Write actions: fs.write, fs.patch, fs.applyEdits, fs.delete.

Each executor only plans: it reads the file as this reply's earlier writes would leave
it, computes the new bytes, and returns a ``Plan``. The applier writes approved plans.
A change that leaves a file byte-identical is reported at once and needs no approval.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from ..changes import ChangeSet, FileChange
from ..engines.textfile import BOM, TextFile
from ..errors import OperatorError
from ..file_names import visible_name
from ..outcome import Outcome
from ..store.files import line_count, not_found
from ..store.fsaccess import Spot
from ..store.passed_over import kind_of
from ..wording import counted
from .base import ActionContext, ActionSpec, Kind, Plan, Result
from .fields import B64Text, PathFields
from .write_target import target_for_write

if TYPE_CHECKING:
    from ..engines.diffing import LineDiff

MAX_WRITE_BYTES = 10_000_000


def existing_text(
    ctx: ActionContext, rel: str, path: str, read: bytes | None = None
) -> tuple[bytes, TextFile]:
    """The current bytes of ``rel`` (``read``: as the caller just read them) and their
    decoded text; the file must exist."""
    before = ctx.files.read(rel) if read is None else read
    if before is None:
        raise not_found(ctx.workspace, path)
    if len(before) > MAX_WRITE_BYTES:
        raise OperatorError(
            "ERR_FILE_TOO_LARGE",
            f"{rel} is {len(before)} bytes; edits handle files up to {MAX_WRITE_BYTES} bytes",
        )
    return before, TextFile.decode(before, rel)


def plan_file(
    rel: str,
    before: bytes | None,
    after: bytes,
    summary: str,
    notes: tuple[str, ...] = (),
    executable: bool | None = None,
    before_text: str | None = None,
    after_text: str | None = None,
    diff: LineDiff | None = None,
) -> Result:
    """A one-file plan, or an immediate outcome when nothing would change.
    ``before_text``/``after_text``: ``before``/``after`` decoded, when the caller has them
    (not decoded again); ``diff``: their ``LineDiff``, when the edit knows it."""
    if before == after and executable is None:
        return Outcome(True, f"{visible_name(rel)} already holds this content; nothing to write")
    change = FileChange(rel, before, after, executable=executable)
    if before_text is not None:
        change = change.knowing_before_text(before_text)
    if after_text is not None:
        change = change.knowing_after_text(after_text, diff if before_text is not None else None)
    return Plan(ChangeSet((change,)), Outcome(True, summary), notes)


def _shape(text: str) -> str:
    return counted(line_count(text), "line")


def plan_text_edit(
    ctx: ActionContext,
    path: str,
    verb: str,
    edit: Callable[[str], tuple[str, str]],
    *,
    kept: Callable[[], Sequence[tuple[int, int, int]] | None] = lambda: None,
    executable: Callable[[], bool | None] = lambda: None,
    read: tuple[str, bytes] | None = None,
    diff: Callable[[str], LineDiff] | None = None,
    utf8: Callable[[], bytes | None] = lambda: None,
) -> Result:
    """Decode ``path``, run ``edit`` on its text (-> new text, note), re-encode, plan.

    BOM, line-break style and every untouched byte survive: TextFile re-applies them
    (``kept``, asked after the edit, names the untouched lines when the edit knows them).
    ``read``: the target and its bytes, when the caller has just found and read them.
    ``diff``: asked after the edit with the old text, the ``LineDiff`` of the edit when it
    knows what it replaced (the new text is then not diffed against the old again).
    ``utf8``: asked after the edit, the new text in UTF-8 when the edit made those bytes.
    """
    rel, data = read if read is not None else (target_for_write(ctx, path), None)
    before, decoded = existing_text(ctx, rel, path, data)
    new_text, note = edit(decoded.text)
    after = decoded.encode(new_text, kept(), utf8())
    # The new bytes decode to the new text: the preview and the result need not decode them.
    known = decoded.decodes_back(new_text)
    line_diff = diff(decoded.text) if known and diff is not None else None
    shape = counted(line_diff.after.total, "line") if line_diff is not None else _shape(new_text)
    detail = f"; {note}" if note else ""
    summary = f"{verb} {visible_name(rel)} (now {shape}{detail})"
    return plan_file(
        rel,
        before,
        after,
        summary,
        executable=executable(),
        before_text=decoded.text,
        after_text=new_text if known else None,
        diff=line_diff,
    )


# -- fs.write -----------------------------------------------------------------------


class WriteFields(PathFields):
    content: str | None = None
    content_b64: B64Text | None = None

    ONE_OF: ClassVar[dict[tuple[str, str], str]] = {
        ("content", "content_b64"): "ERR_MISSING_WRITE_CONTENT"
    }

    @property
    def text(self) -> str:
        return self.text_of("content")


def run_write(ctx: ActionContext, fields: WriteFields) -> Result:
    rel = target_for_write(ctx, fields.path)
    before = ctx.files.read(rel)
    text = fields.text
    if before is None:
        after = text.encode("utf-8")
        state = "new file"
    else:
        try:
            # An overwrite keeps the file's BOM and line-break style.
            after = TextFile.decode(before, rel).encode(text)
        except OperatorError:
            after = text.encode("utf-8")
        state = f"replaced {counted(len(before), 'byte')}"
    summary = f"Wrote {visible_name(rel)} ({_shape(text)}, {counted(len(after), 'byte')}; {state})"
    return plan_file(rel, before, after, summary)


# -- fs.patch -----------------------------------------------------------------------


class PatchFields(PathFields):
    patch_b64: B64Text

    MISSING_CODES: ClassVar[dict[str, str]] = {"patch_b64": "ERR_MISSING_PATCH_B64"}


def run_patch(ctx: ActionContext, fields: PatchFields) -> Result:
    from ..engines.patch_parsing import parse_patch
    from ..engines.patching import PatchResult, apply_unified_diff

    rel = target_for_write(ctx, fields.path)
    before = ctx.files.read(rel)
    if before is None:
        # Only a patch that creates the file (@@ -0,0 +1,N @@, or git's 'new file mode'
        # with no hunk for an empty file) applies to a missing one; a malformed patch
        # still gets its own precise error.
        parsed = parse_patch(fields.patch_b64, rel)
        adds_only = bool(parsed.hunks) and not any(hunk.old_count for hunk in parsed.hunks)
        if not (parsed.creates or adds_only):
            raise not_found(ctx.workspace, fields.path)
        result = apply_unified_diff("", fields.patch_b64, rel)
        summary = (
            f"Patched {visible_name(rel)} (new file, {_shape(result.text)}; {result.summary_note})"
        )
        return plan_file(
            rel, None, result.text.encode("utf-8"), summary, executable=result.executable
        )

    done: list[PatchResult] = []
    # Without BOM and CR, the file's bytes are its text in UTF-8: the patched bytes are put
    # together from them (see apply_unified_diff).
    raw = before if not before.startswith(BOM) and b"\r" not in before else None

    def edit(text: str) -> tuple[str, str]:
        done.append(apply_unified_diff(text, fields.patch_b64, rel, raw=raw))
        return done[0].text, done[0].summary_note

    return plan_text_edit(
        ctx,
        fields.path,
        "Patched",
        edit,
        kept=lambda: done[0].kept,
        executable=lambda: done[0].executable,
        read=(rel, before),  # found and read once
        diff=lambda old_text: done[0].line_diff(old_text),
        utf8=lambda: done[0].data,
    )


# -- fs.applyEdits ------------------------------------------------------------------


class EditsFields(PathFields):
    edits_b64: B64Text

    MISSING_CODES: ClassVar[dict[str, str]] = {"edits_b64": "ERR_MISSING_EDITS_B64"}


def run_apply_edits(ctx: ActionContext, fields: EditsFields) -> Result:
    from ..engines.edits import apply_edits

    def edit(text: str) -> tuple[str, str]:
        result = apply_edits(text, fields.edits_b64)
        return result.text, result.summary_note

    return plan_text_edit(ctx, fields.path, "Edited", edit)


# -- fs.delete ----------------------------------------------------------------------


MAX_DELETE_DEPTH = 200  # folder levels whose undo copy the journal can keep and rebuild


def _count_inside(spot: Spot) -> tuple[int, int]:
    """The files and the folders under a folder (a symlink counts as a file)."""
    from ..store.tree_walk import measure_folder

    # On descriptors, never following a symlink, to any depth (os.fwalk recurses).
    files, folders, depth = measure_folder(spot.dir_fd, spot.name)
    if depth > MAX_DELETE_DEPTH:
        raise OperatorError(
            "ERR_FOLDER_TOO_DEEP",
            f"{spot.rel} holds folders nested {depth} levels deep; fs.delete keeps an undo "
            f"copy of what it deletes and does so for folders up to {MAX_DELETE_DEPTH} levels "
            "deep. Nothing was deleted; delete the deeper folders first, or let the user "
            "delete it by hand",
            {"depth": depth, "limit": MAX_DELETE_DEPTH},
        )
    return files, folders


def run_delete(ctx: ActionContext, fields: PathFields) -> Result:
    with ctx.workspace.locate(fields.path, follow_last=False) as spot:
        ctx.workspace.check_spot_writable(fields.path, spot)
        return _plan_delete(ctx, fields.path, spot)


def _plan_delete(ctx: ActionContext, path: str, spot: Spot) -> Result:
    if path.endswith("/") and spot.exists and not spot.is_dir:
        bare = path.rstrip("/")
        if spot.is_link:
            try:
                to_folder = stat.S_ISDIR(os.stat(spot.name, dir_fd=spot.dir_fd).st_mode)
            except OSError:
                to_folder = False  # dangling, or a loop
            what = "a symlink to a folder" if to_folder else "a symlink"
            raise OperatorError(
                "ERR_NOT_A_DIRECTORY",
                f"{path!r} ends with / but {bare!r} is {what}; fs.delete never deletes "
                f"through a link: fs.delete of {bare!r} (without the /) would delete only the "
                "link, its target untouched",
            )
        raise OperatorError(
            "ERR_NOT_A_DIRECTORY",
            f"{path!r} ends with / but {bare!r} is a file; drop the / to delete the file",
        )
    rel = spot.rel
    if spot.info is not None and not (spot.is_link or spot.is_dir or spot.is_file):
        raise OperatorError(
            "ERR_NOT_A_FILE",
            f"{path!r} is a {kind_of(spot.info.st_mode)}; fs.delete moves files, folders and "
            "symlinks to the trash (the user can remove it by hand)",
        )
    if spot.is_link:
        change = FileChange(rel, None, None, before_is_symlink=True)
        summary = f"Deleted symlink {visible_name(rel)} (its target is untouched)"
    elif spot.is_dir:
        from ..store.mounts import refuse_mount_points

        refuse_mount_points(ctx.workspace.root / rel, rel, spot.dir_fd, spot.info)
        inside = _count_inside(spot)
        change = FileChange(rel, None, None, before_is_dir=True, inside=inside)
        summary = (
            f"Deleted folder {visible_name(rel)} with {counted(inside[0], 'file')} "
            "(moved to the trash)"
        )
    elif ctx.files.plans_folder(rel):
        # The folder exists only once earlier writes of this reply are applied.
        change = FileChange(rel, None, None, before_is_dir=True)
        summary = (
            f"Deleted folder {visible_name(rel)}, made by earlier writes of this reply "
            "(moved to the trash)"
        )
    else:
        before = ctx.files.read(rel)
        if before is None:
            raise not_found(ctx.workspace, path)
        change = FileChange(rel, before, None)
        summary = f"Deleted {rel} ({counted(len(before), 'byte')}, moved to the trash)"
    return Plan(ChangeSet((change,)), Outcome(True, summary))


ACTIONS = (
    ActionSpec(
        "fs.write",
        Kind.WRITE,
        WriteFields,
        run_write,
        "Create or overwrite a file with content.",
    ),
    ActionSpec(
        "fs.patch",
        Kind.WRITE,
        PatchFields,
        run_patch,
        "Apply a strict unified diff (patch_b64) to one file.",
    ),
    ActionSpec(
        "fs.applyEdits",
        Kind.WRITE,
        EditsFields,
        run_apply_edits,
        "Apply a JSON list of anchored edits to one file, all or nothing.",
    ),
    ActionSpec(
        "fs.delete",
        Kind.WRITE,
        PathFields,
        run_delete,
        "Move a file or folder to the system trash (a symlink: only the link).",
    ),
)

"""A planned change whose file changed outside the app while its review was open: merged
into the file's new text (``engines.merging``), or refused with the lines that clash.

Invariants:
- Nothing is written here, and nothing lands unseen. A merge is made for the review (the
  person sees the merged change against the file as it is now) and made again under the
  write lock just before applying; what is applied must be, byte for byte, what was shown
  (``ShownMerge`` holds both digests), else ERR_STALE_FILE and nothing of the command is
  written.
- A merged change's ``before`` is what the file holds now (the outside edit): the stale
  check right before the rename refuses any later change, and the undo record keeps the
  outside edit, so an undo gives it back, not the text the plan was made on.
- A secret-looking file is never merged or compared, before or after approval: a review
  only says it changed, and a refusal names no line of it. A command that names one (a
  link named ``.env`` to a plain file included) merges none of its files.
- The merged bytes keep the file's BOM and line breaks as they are now; an edit that
  changes them itself is not merged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from ..actions.base import Plan
from ..changes import ChangeSet, FileChange, digest
from ..engines.merging import Lines, Merge, Overlap, describe_lines, merge3
from ..errors import OperatorError

if TYPE_CHECKING:
    from ..protocol.validator import Command
    from ..store.workspace import Workspace
    from .preview import ChangePreview

READ_AGAIN = (
    "Read it again (fs.read or fs.readSlice) and send a new command built on what it holds now."
)


class Reviewed(Protocol):
    """What a comparison reads of a pending command (the session's ``Pending``)."""

    @property
    def index(self) -> int: ...
    @property
    def command(self) -> Command: ...
    @property
    def changes(self) -> tuple[FileChange, ...]: ...


@dataclass(frozen=True)
class ShownMerge:
    """A merged change the person saw and approved: the digest of the file's bytes it was
    merged into and the digest of the merged bytes."""

    path: str
    theirs: str
    merged: str


@dataclass(frozen=True)
class Rebased:
    """One file of a pending command that changed outside the app: its merged change (the
    file now to the merged bytes, and its preview), or why there is none."""

    path: str
    change: FileChange | None = None
    preview: ChangePreview | None = None
    outside: tuple[Lines, ...] = ()  # lines of the file now that changed outside
    overlaps: tuple[Overlap, ...] = ()
    problem: str = ""  # why it cannot be merged, when it cannot (names no line of a secret)

    @property
    def shown(self) -> ShownMerge | None:
        """What approving this merged change stands for, or None when it cannot be merged."""
        if self.change is None:
            return None
        return ShownMerge(self.path, self.change.before_digest, self.change.after_digest)

    def describe(self) -> str:
        """For the review: what changed outside and what approving now does."""
        head = f"{self.path} changed outside the app while this review was open"
        if self.change is not None:
            where = f" ({describe_lines(self.outside)} of the file now)" if self.outside else ""
            return (
                f"{head}{where}. It does not overlap this edit: approving writes the edit "
                "merged into the file as it is now, as the diff shows."
            )
        if self.overlaps:
            return (
                f"{head}: {_clash(self.overlaps)}. Nothing of this command can be written: "
                "approving is refused, and the LLM is told to read the file again."
            )
        return (
            f"{head}: {self.problem}. Nothing of this command can be written: approving is "
            "refused, and the LLM is told to read the file again."
        )


def _clash(overlaps: Sequence[Overlap]) -> str:
    now = describe_lines([o.theirs for o in overlaps])
    planned = describe_lines([o.base for o in overlaps])
    one = len(overlaps) == 1 and overlaps[0].theirs.stop - overlaps[0].theirs.start <= 1
    verb = "overlaps" if one else "overlap"
    return f"{now} of the file now {verb} this edit ({planned} of the file it was planned on)"


def _style(data: bytes) -> tuple[bool, str, bool]:
    from ..engines.textfile import TextFile

    text = TextFile.decode(data)
    return text.bom, text.newline, text.mixed_newlines


def merge_change(change: FileChange, now: bytes | None, secret: bool) -> Rebased | None:
    """``change`` made on ``now`` (the file's bytes now, None if there is no file); None
    when the file still holds what the change was planned on."""
    path = change.path
    if change.before_is_dir or change.before_is_symlink or now == change.before:
        return None  # a folder or link: its delete's own check, before it is moved, tells
    if secret:
        return Rebased(path, problem="it is a secret-looking file, so it is not compared")
    if change.is_delete:
        return Rebased(path, problem="a delete is never merged")
    if change.before is None:
        return Rebased(path, problem="it was created outside the app")
    if now is None:
        return Rebased(path, problem="it is gone (deleted, moved, or no longer a file)")
    from ..engines.textfile import TextFile

    base, ours = change.before_text, change.after_text
    try:
        theirs_file = TextFile.decode(now)
        if base is None or ours is None:
            raise OperatorError("ERR_ENCODING_ERROR", "not text")
        same_style = _style(change.before) == _style(change.after or b"")
    except OperatorError:
        return Rebased(path, problem="it is not UTF-8 text, so it cannot be merged")
    if not same_style:
        return Rebased(path, problem="this edit changes its line breaks or BOM")
    merged: Merge = merge3(base, ours, theirs_file.text)
    if merged.text is None:
        return Rebased(path, outside=merged.outside, overlaps=merged.overlaps)
    after = theirs_file.encode(merged.text)
    made = FileChange(path, now, after, executable=change.executable)
    return Rebased(path, made, outside=merged.outside)


def _read_now(workspace: Workspace, path: str) -> bytes | None:
    """The bytes of the regular file at ``path``, None if there is none. A symlink put in
    its place is not followed (it might lead to a secret-looking file): the write refuses
    it anyway."""
    from ..store.files import read_at

    with workspace.locate(path, follow_last=False) as spot:
        if spot.is_link or not spot.is_file:
            return None
        return read_at(spot)


def rebase_pending(
    workspace: Workspace, items: Iterable[Reviewed]
) -> dict[int, tuple[Rebased, ...]]:
    """For each pending command (in reply order) whose files changed outside: each such
    file's merged change with its preview, or why it cannot be merged. A command that
    builds on an earlier one's change of a file is merged into that one's merged text, as
    it will find the file when it is applied. Reads the files: run it in a worker."""
    from .preview import preview_change
    from .secrecy import secret_paths

    ahead: dict[str, bytes | None] = {}  # a path's bytes as the earlier commands leave it
    broken: set[str] = set()  # paths an earlier command cannot write
    found: dict[int, tuple[Rebased, ...]] = {}
    for item in items:
        index, changes = item.index, item.changes
        named_secret = bool(secret_paths(workspace, item.command))
        done: list[Rebased] = []
        for change in changes:
            path = change.path
            if path in broken:
                problem = "an earlier command of this reply on it cannot be merged"
                done.append(Rebased(path, problem=problem))
                continue
            if path in ahead:
                now = ahead[path]
            else:
                try:
                    now = _read_now(workspace, path)
                except (OperatorError, OSError):
                    now = None
            rebased = merge_change(change, now, named_secret or workspace.is_secret(path))
            if rebased is None:
                ahead[path] = change.after
                continue
            if rebased.change is None:
                broken.add(path)
            else:
                ahead[path] = rebased.change.after
                rebased = replace(rebased, preview=preview_change(rebased.change))
            done.append(rebased)
        if done:
            found[index] = tuple(done)
    return found


def ask_again(workspace: Workspace, item: Reviewed) -> tuple[str, tuple[ShownMerge, ...]] | None:
    """For the terminal review, once a command was approved: None when its files still
    hold what it was planned on; else what changed, every text through the one renderer
    (the merged diffs included), and the merged changes approving again stands for (none
    when a file cannot be merged: the command is then refused when applied, and its
    result names the lines)."""
    from ..visible import shown, shown_lines

    found = rebase_pending(workspace, [item]).get(item.index)
    if not found:
        return None
    lines: list[str] = []
    for rebased in found:
        lines.append(f"!! {shown(rebased.describe())}")
        if rebased.preview is not None:
            lines += [f"-- {shown(line)}" for line in rebased.preview.review]
            lines.append(shown_lines(rebased.preview.diff.rstrip("\n")))
    merged = tuple(r.shown for r in found if r.shown is not None)
    return "\n".join(lines), merged if len(merged) == len(found) else ()


def _stale(path: str, why: str) -> OperatorError:
    return OperatorError(
        "ERR_STALE_FILE",
        f"{path} changed on disk {why}; nothing was written. {READ_AGAIN}",
        {"path": path},
    )


def merged_plan(workspace: Workspace, plan: Plan, shown: Sequence[ShownMerge]) -> Plan:
    """``plan`` with each change the person approved merged (``shown``) made again on its
    file as it is now; under the write lock, right before applying. ERR_STALE_FILE when
    the file changed after the merged change was shown, or the merge would now write
    anything but what was shown."""

    wanted = {merge.path: merge for merge in shown}
    changes: list[FileChange] = []
    told: list[str] = []
    for change in plan.changes.changes:
        merge = wanted.pop(change.path, None)
        if merge is None:
            changes.append(change)
            continue
        now = _read_now(workspace, change.path)
        if digest(now) != merge.theirs:
            raise _stale(change.path, "again after its merged change was shown")
        rebased = merge_change(change, now, workspace.is_secret(change.path))
        made = rebased.change if rebased is not None else None
        if made is None or made.after_digest != merge.merged:
            raise _stale(change.path, "and its merge is no longer the one shown")
        changes.append(made)
        assert rebased is not None
        lines = describe_lines(rebased.outside) or "its bytes"
        told.append(f"{change.path} (changed outside the app: {lines} of it now)")
    if wanted:
        raise _stale(next(iter(wanted)), "but this command plans no change of it")
    note = (
        f" [merged: {'; '.join(told)}; this edit was applied to the file as it is now, "
        "as shown for approval; line numbers are those of the merged file]"
    )
    outcome = replace(plan.outcome, summary=plan.outcome.summary + note)
    return Plan(ChangeSet(tuple(changes)), outcome, plan.notes)


def previews_after(
    previews: Sequence[ChangePreview], planned: Plan, landed: Plan
) -> tuple[ChangePreview, ...]:
    """The previews of the ``landed`` plan (``planned`` with merged changes), words marked
    in the worker that applied it: the run's history shows the change that was written, as
    the review showed it."""
    from .preview import mark_words, preview_change

    kept = {p.path: p for p in previews}
    unchanged = {id(c) for c in planned.changes.changes}  # not merged: the same objects
    made = tuple(
        kept[c.path] if id(c) in unchanged and c.path in kept else preview_change(c)
        for c in landed.changes.changes
    )
    mark_words(made)
    return made


def explain_stale(
    workspace: Workspace, command: Command, changes: Sequence[FileChange], error: OperatorError
) -> OperatorError:
    """A stale refusal that also says which lines of the file changed outside and whether
    they overlap the edit (for a text file that is not secret-looking, of a command that
    names none); ``error`` as it is otherwise."""
    from .secrecy import secret_paths

    path = error.details.get("path") if error.code == "ERR_STALE_FILE" else None
    change = next((c for c in changes if c.path == path), None)
    if change is None or change.before is None or change.after is None:
        return error
    if workspace.is_secret(change.path) or secret_paths(workspace, command):
        return error
    if change.before_text is None:
        return error
    from ..engines.textfile import TextFile

    try:
        now = _read_now(workspace, change.path)
        theirs = TextFile.decode(now).text if now is not None else None
    except (OperatorError, OSError):
        return error
    if theirs is None or change.after_text is None:
        return error
    merged = merge3(change.before_text, change.after_text, theirs)
    if not merged.outside:
        return error
    changed = describe_lines(merged.outside)
    if merged.overlaps:
        words = f"Changed outside the app: {changed} of the file now; {_clash(merged.overlaps)}."
    else:
        words = (
            f"Changed outside the app: {changed} of the file now; none of it overlaps this "
            "edit, but the edit merged into it was not shown for approval."
        )
    details = {
        **error.details,
        "changed_lines": [lines.describe() for lines in merged.outside],
        "overlapping_lines": [o.theirs.describe() for o in merged.overlaps],
    }
    return OperatorError(error.code, f"{error.message} {words}", details)

"""Undo of the newest batch, safe on a damaged store.

Invariants:
- Undo takes the newest batch that is not undone, never an older one in its place: when
  that batch's record is incomplete or a saved copy fails its digest check, the undo is
  refused with the files named, and nothing is touched.
- Undo never silently overwrites work done after the batch. A path that holds neither
  what the batch left there nor what it held before makes the whole undo refuse, listing
  those paths; ``force=True`` (the window asks twice) rewinds them anyway.
- A finished undo marks the batch undone, forgets the session memory of its commands
  (pasted again, they are planned and asked again) and queues the undo notice for the
  chat, all in one transaction. That transaction is tried first and rolled back before
  any file is touched: a store that cannot take it refuses the undo. If it still fails
  after the files were restored, the report says what was restored and that the store
  does not know, and carries the notice for the chat itself.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from typing import NamedTuple

from ..wording import counted
from .batch_records import BatchInfo, read_info
from .database import StateStore, StoreError, guarded
from .leftovers import remove_temp_beside
from .notices import UndoNotice, notice_text, partial_notice_text, queue_notice
from .rewinding import (
    PathStory,
    Progress,
    conflict,
    load_blobs,
    load_stories,
    remove_created_dirs,
    rewind,
)
from .undo_progress import mark_started, mark_stopped, started_undos
from .workspace import Workspace


@dataclass(frozen=True)
class UndoReport:
    """What an undo did or why it refused: the batch, each path's fate, the notice for the chat."""

    batch: BatchInfo | None  # None when there was nothing to undo
    restored: tuple[str, ...]  # paths given back their previous content
    removed: tuple[str, ...]  # files and folders the batch had created
    already_undone: tuple[str, ...]  # paths that already held their previous content
    problems: tuple[str, ...]
    refused: bool  # True when nothing was touched: a conflict or a damaged record
    summary: str
    conflicts: tuple[str, ...] = ()  # paths edited after the batch (undo with force=True)
    notice: UndoNotice | None = None  # what the chat is told

    @property
    def ok(self) -> bool:
        return self.batch is not None and not self.refused and not self.problems


def _nothing() -> UndoReport:
    summary = "Nothing to undo: no approved change is recorded for this workspace."
    return UndoReport(None, (), (), (), (), False, summary)


def _info(store: StateStore, batch: int) -> BatchInfo:
    with guarded("read the undo journal"), store.reading() as db:
        row = db.execute(
            "SELECT id, label, created, state FROM batches WHERE id = ?", (batch,)
        ).fetchone()
        return read_info(db, row)


def _not_the_one_asked(newest: BatchInfo | None) -> UndoReport:
    why = (
        f"another run recorded a newer one, '{newest.label}'"
        if newest is not None
        else "it was undone elsewhere and nothing is left to undo"
    )
    summary = (
        f"Undo refused: the batch asked for is no longer the newest batch ({why}). Nothing was "
        "undone; ask again to see the newest batch."
    )
    return UndoReport(newest, (), (), (), (), True, summary)  # the summary says it all


class _Probed(Exception):
    def __init__(self, notice: UndoNotice) -> None:
        super().__init__("probe")
        self.notice = notice


def _mark_undone(
    db: sqlite3.Connection, batch: int, info: BatchInfo, files: list[str]
) -> UndoNotice:
    db.execute(
        "UPDATE batches SET state = 'undone', undone_at = datetime('now') WHERE id = ?",
        (batch,),
    )
    db.execute("DELETE FROM memory WHERE batch = ?", (batch,))
    return queue_notice(db, batch, info.commands, files)


def _probe(store: StateStore, batch: int, info: BatchInfo, files: list[str]) -> UndoNotice:
    """Make every change the finished undo records, then roll it back: a store that cannot
    (a damaged page of the memory, notices or sequence table) refuses the undo before any
    file is touched. Returns the notice as it would be queued."""
    try:
        with guarded("prepare the record of the undo"), store.transaction() as db:
            raise _Probed(_mark_undone(db, batch, info, files))
    except _Probed as probed:
        return probed.notice


class _Loaded(NamedTuple):
    """The newest batch's record, read whole and checked."""

    batch: int
    info: BatchInfo
    stories: list[PathStory]
    blobs: dict[str, bytes]


def undo_last(
    store: StateStore, workspace: Workspace, force: bool = False, expected: str | None = None
) -> UndoReport:
    """Undo the newest batch not yet undone. The caller holds the write lock; with
    ``expected`` (the batch the user was shown) any other newest batch is refused, so a
    run that committed between the question and the lock is never undone unseen."""
    loaded = _load(store, expected)
    if isinstance(loaded, UndoReport):
        return loaded
    batch, info, stories, blobs = loaded
    conflicts = {s.path: c for s in stories if (c := conflict(workspace, s))}
    if conflicts and not force:
        summary = (
            f"Undo of '{info.label}' refused: {counted(len(conflicts), 'path')} changed after the "
            f"batch wrote them ({', '.join(conflicts)}). Nothing was undone; put those "
            "paths back as the batch left them, or undo anyway (the window asks to confirm "
            "overwriting those later edits)."
        )
        return UndoReport(
            info, (), (), (), tuple(conflicts.values()), True, summary, tuple(conflicts)
        )
    files = sorted({s.path for s in stories})
    try:
        planned = _probe(store, batch, info, files)
    except StoreError as error:
        return _store_refusal(
            info,
            error,
            "Nothing was undone, so no file and no record disagree; fix the state store "
            "(move a damaged state.sqlite3 out of the workspace's state folder, or free "
            "space) and undo again.",
        )
    progress = Progress()
    # On record before the first file is touched, so a killed undo is finished by the
    # next run; temp files first (of a killed attempt), then files, then folders.
    try:
        mark_started(store, batch)
    except StoreError as error:
        return _store_refusal(
            info, error, "Nothing was undone; fix the state store and undo again."
        )
    _temps, temp_problems = remove_temp_beside(workspace, [s.path for s in stories])
    progress.problems += temp_problems
    for story in stories:
        rewind(workspace, story, blobs, progress, force=force)
    remove_created_dirs(workspace, stories, progress)
    if progress.failed:
        # Said below; undo again to finish it. A store that cannot take this mark leaves
        # the undo marked in progress, which the next run finishes.
        with contextlib.suppress(StoreError):
            mark_stopped(store, batch)
        notice, unrecorded = _stopped_part_way(store, batch, info, files, progress, planned)
    else:
        info, notice, unrecorded = _finished(store, batch, info, files, planned)
    return _report(info, progress, notice, unrecorded)


def _load(store: StateStore, expected: str | None) -> _Loaded | UndoReport:
    """The newest batch not yet undone, or the report refusing it (none, not the one
    asked for, or a damaged record)."""
    with guarded("read the undo journal"), store.reading() as db:
        row = db.execute(
            "SELECT id FROM batches WHERE state != 'undone' ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return _nothing() if expected is None else _not_the_one_asked(None)
        batch = int(row[0])
        info = _info(store, batch)
        if expected is not None and str(batch) != expected:
            return _not_the_one_asked(info)
        stories, damaged = load_stories(db, batch)
        blobs, bad_copies = load_blobs(db, store.folder, batch, stories)
    damaged += bad_copies
    if not stories and not damaged:
        damaged.append("the batch has no readable record of any change")
    if damaged:
        summary = (
            f"Undo of '{info.label}' refused: its record in the state store is damaged "
            f"({'; '.join(damaged)}). Nothing was undone, and no older batch was undone in "
            "its place; restore those files by hand (the system trash may hold deleted ones)."
        )
        return UndoReport(info, (), (), (), tuple(damaged), True, summary)
    return _Loaded(batch, info, stories, blobs)


def _store_refusal(info: BatchInfo, error: StoreError, then: str) -> UndoReport:
    reason = error.details.get("reason") or error.message
    summary = (
        f"Undo of '{info.label}' refused: the state store cannot record an undo "
        f"({error.code}: {reason}). {then}"
    )
    return UndoReport(info, (), (), (), (f"state store: {reason}",), True, summary)


def _finished(
    store: StateStore, batch: int, info: BatchInfo, files: list[str], planned: UndoNotice
) -> tuple[BatchInfo, UndoNotice, StoreError | None]:
    """The batch marked undone once every file is back: its info as now recorded, the
    notice for the chat, and the store's error when it could not take the mark."""
    try:
        with guarded("mark the batch undone"), store.transaction() as db:
            notice = _mark_undone(db, batch, info, files)
        return _info(store, batch), notice, None
    except StoreError as error:
        # The files are back: the chat must hear of it even though the store cannot
        # keep the notice, so it is handed out with the report (under the id the probe
        # was given).
        notice = UndoNotice(planned.n, *notice_text(info.commands, files), planned.conversation)
        return info, notice, error


def _report(
    info: BatchInfo,
    progress: Progress,
    notice: UndoNotice | None,
    unrecorded: StoreError | None,
) -> UndoReport:
    """What the undo did, for the person and the chat."""
    summary = (
        f"Undid '{info.label}': restored {counted(len(progress.restored), 'path')}, "
        f"removed {len(progress.removed)}"
    )
    if unrecorded is not None and progress.failed:
        reason = unrecorded.details.get("reason") or unrecorded.message
        progress.problems.append(
            f"the state store could not record what this undo changed ({unrecorded.code}: "
            f"{reason}): its commands are still remembered and the notice for the chat was "
            "not kept, so paste it now"
        )
    elif unrecorded is not None:
        reason = unrecorded.details.get("reason") or unrecorded.message
        progress.problems.append(
            f"the state store could not record this undo ({unrecorded.code}: {reason}): the "
            "files above are back as they were before the batch, but the journal still "
            "lists it as not undone and its commands are still remembered; the notice for "
            "the chat was not kept, so paste it now"
        )
    if progress.failed:
        summary = (
            f"Undo of '{info.label}' did not finish (restored "
            f"{counted(len(progress.restored), 'path')}, removed {len(progress.removed)}); "
            "the batch stays on record: fix the cause and undo again"
        )
    if progress.notes:
        summary += "; " + "; ".join(progress.notes)
    if progress.problems:
        summary += f"; {counted(len(progress.problems), 'problem')}: " + "; ".join(
            progress.problems
        )
    return UndoReport(
        info,
        tuple(progress.restored),
        tuple(progress.removed),
        tuple(progress.already),
        tuple(progress.problems),
        False,
        summary + ".",
        notice=notice,
    )


def _stopped_part_way(
    store: StateStore,
    batch: int,
    info: BatchInfo,
    files: list[str],
    progress: Progress,
    planned: UndoNotice,
) -> tuple[UndoNotice | None, StoreError | None]:
    """An undo stopped by an OS error after it changed some paths: the batch stays on
    record to be undone again, the commands whose file went back are forgotten (a repeat
    would answer "ok" for a file that no longer holds its change; a move, whose two paths
    are not both on record, always is) and the chat is told, in one transaction. Returns
    the notice, and the store's error when it could not keep them (the notice is then
    handed out with the report only)."""
    changed = sorted({*progress.restored, *progress.removed})
    if not changed:
        return None, None
    untouched = {path for path in files if path not in changed}
    kept = [c for c in info.commands if c.path in untouched and c.action != "fs.move"]
    undone = [c for c in info.commands if c not in kept]
    text = partial_notice_text(undone, kept, changed)
    try:
        with guarded("record the part of the undo that was done"), store.transaction() as db:
            db.executemany(
                "DELETE FROM memory WHERE batch = ? AND id = ?", [(batch, c.id) for c in undone]
            )
            return queue_notice(db, batch, info.commands, changed, text), None
    except StoreError as error:
        return UndoNotice(planned.n, *text, planned.conversation), error


def finish_started(store: StateStore, workspace: Workspace) -> list[UndoReport]:
    """Finish every undo a killed run left marked (the caller holds the write lock)."""
    reports = []
    for batch in started_undos(store):
        report = undo_last(store, workspace, expected=str(batch))
        if report.refused:
            mark_stopped(store, batch)  # not the newest any more, or changed since
        reports.append(report)
    return reports

"""fs.outline: the structures of a file, or of every supported file under a folder.

One line per structure, ``<start>-<end>: <definition line>``, indented two spaces per
nesting level, in file order; Markdown shows its headings. ``depth`` (default 2) is the
number of levels shown. A line names the ``symbol:`` path that selects exactly it, and a
line the depth cuts counts the definitions inside it.

A folder outline walks the tree in the order fs.searchTree uses (sorted, .gitignore
respected, ``.git`` never entered), outlines at most ``MAX_FILES`` supported files and
``MAX_LINES`` outline lines, and when a cap cuts it, its header ends with
``# more: after: <path>`` (``after_json: "..."`` for a name that is not plain ASCII): the same
command with that field resumes after that file.
Files no grammar knows are not counted; files that are binary, too large or not UTF-8 are
skipped and counted.

An outline quotes definition lines, so a secret-looking file is outlined only with the
user's consent, asked before it is read (``plan.secrecy.hold``); a folder outline passes
over such files by name, never opening them, and says how many it left out.
"""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from pydantic import model_validator

from ... import __version__
from ..errors import InvalidCommand, OperatorError
from ..file_names import display_name, resume_cursor, visible_name
from ..outcome import Outcome
from ..store.files import find_file, not_found, reads_so_far
from ..store.ignores import MAX_GITIGNORE_LINES, MAX_WALK_GITIGNORE_LINES
from ..store.tree_walk import (
    TreeFile,
    WalkCounts,
    check_after,
    furthest,
    one_after,
    read_limited,
    walk_files,
)
from ..wording import counted
from ..work_budget import spent
from .base import ActionContext, ActionSpec, Kind, OutlineMemo, Result, Reveal
from .fields import B64Text, Count, PathFields, pick_text

if TYPE_CHECKING:
    from ..store.workspace import Workspace

MAX_FILES = 300
MAX_LINES = 3000
MAX_FILE_LINES = 200  # per file in a folder outline: one big data file must not fill it
MAX_FILE_BYTES = 500_000
DEPTH_DEFAULT = 2
DEPTH_MAX = 8
BUDGET_CUT = "reply's work budget (send it in a later reply)"
BAD_PARAMS = "ERR_INVALID_OUTLINE_PARAMS"


class OutlineFields(PathFields):
    depth: Count = DEPTH_DEFAULT
    after: str | None = None
    after_b64: B64Text | None = None  # after_json too: for a name that is not plain ASCII

    INVALID_CODES: ClassVar[dict[str, str]] = {"depth": BAD_PARAMS}

    @model_validator(mode="after")
    def _bounds(self) -> OutlineFields:
        if not 1 <= self.depth <= DEPTH_MAX:
            raise InvalidCommand(
                BAD_PARAMS,
                f"depth must be from 1 to {DEPTH_MAX}, got {self.depth}; 1 shows top-level "
                "structures only, 2 (the default) their members too",
            )
        one_after(self.after, self.after_b64)
        return self

    @property
    def resume_after(self) -> str | None:
        """The path given as after, after_json or after_b64."""
        return pick_text(self, "after", "after_b64")


def files_under(
    workspace: Workspace, start: str, counts: WalkCounts, after: str | None
) -> Iterator[TreeFile]:
    """The walk a folder outline reads: the descriptor walk fs.searchTree uses."""
    return walk_files(workspace, start, counts, after=after)


@dataclass(frozen=True)
class _FileBlock:
    """One file's part of a folder outline: its path, a note ("python, 120 lines"), its lines."""

    rel: str
    note: str
    lines: list[str]


@dataclass
class FolderOutline:
    """A folder outline as far as the caps let it go: each file's outline, what was skipped and
    why, and what cut it (``next_after``: where the next call resumes)."""

    rel: str
    depth: int
    after: str | None
    tally: WalkCounts = field(default_factory=WalkCounts)
    blocks: list[_FileBlock] = field(default_factory=list)
    lines: int = 0
    outlined: int = 0
    binary: int = 0
    too_large: int = 0
    undecodable: int = 0
    secret: int = 0  # secret-looking files passed over unread
    next_after: str | None = None
    cut_by: str = ""


_CACHE: OrderedDict[str, tuple[list[str], str]] = OrderedDict()
CACHE_ENTRIES = 4096
# Part of every outline's key: change it whenever the outline of the same bytes changes
# (the rendering, what counts as a structure), so no outline kept by an earlier version
# is shown.
OUTLINE_FORMAT = f"{__version__}/2"


def clear_outline_cache() -> None:
    _CACHE.clear()


def outline_key(
    data: bytes, language: str, depth: int, symbols: bool = False, values: bool = False
) -> str:
    """What an outline is a function of: the bytes (by digest), grammar, depth, form, code."""
    digest = hashlib.blake2b(data, digest_size=16).hexdigest()
    form = (":symbols" if symbols else "") + (":values" if values else "")
    return f"{digest}:{language}:{depth}{form}:{OUTLINE_FORMAT}"


def outline_lines(
    data: bytes,
    rel: str,
    depth: int,
    memo: OutlineMemo | None = None,
    keep: bool = True,
    symbols: bool = False,
    values: bool = False,
) -> tuple[list[str], str]:
    """The rendered outline of one file and a note on it ("python, 120 lines").

    Outlines are remembered by ``outline_key`` for the life of the process, so the
    window's repeated outlines of an unchanged tree (the context builder refreshes them)
    parse only the files that changed; and in ``memo`` (the state store) when ``keep``
    (never for a secret-looking file), so a later run, an ``exec`` say, need not parse
    them again either. With ``symbols`` (a file's own outline) each line also names its
    ``symbol:`` path and how many definitions the depth limit leaves inside it, and the
    note says which depth shows them all. With ``values`` (fs.outline), the file's
    top-level assignments are listed by name too, and the note counts those left out.
    """
    from ..engines.structure import language_for_path

    key = outline_key(data, language_for_path(rel) or "", depth, symbols, values)
    cached = _CACHE.get(key)
    if cached is not None:
        _CACHE.move_to_end(key)
        return cached
    made = memo.get(key) if memo is not None and keep else None
    if made is None:
        from ..engines.structure import outline_structures  # lazy: a kept outline needs none

        outline = outline_structures(data, rel, depth, symbols, values)
        note = f"{outline.language}, {counted(outline.line_count, 'line')}"
        if outline.parse_errors:
            note += f", {outline.parse_errors} parse error(s): ranges near them may be off"
        if outline.values_left_out:
            note += (
                f"; {counted(outline.values_left_out, 'more top-level assignment')} not "
                "listed (fs.search finds them)"
            )
        deeper = sum(entry.deeper for entry in outline.entries)
        if symbols and deeper:
            needed = min(max(entry.deepest for entry in outline.entries), DEPTH_MAX)
            note += (
                f"; {counted(deeper, 'definition')} deeper than depth {depth} not shown "
                f"('+N inside'): send depth: {needed} to see them, or read one by its symbol"
            )
        made = ([entry.render(symbols) for entry in outline.entries], note)
        if memo is not None and keep:
            memo.put(key, made)
    _CACHE[key] = made
    if len(_CACHE) > CACHE_ENTRIES:
        _CACHE.popitem(last=False)
    return made


def _outline_file(ctx: ActionContext, fields: OutlineFields) -> Result:
    found = find_file(ctx.workspace, fields.path)
    data = ctx.files.read(found.rel)
    if data is None:
        raise not_found(ctx.workspace, fields.path)
    # The name as written, each link on the way and the file it leads to all count (a link
    # named .env, or a harmless name linking to a key), and so does the file really read (a
    # link may have been retargeted since it was resolved).
    secret = ctx.workspace.secret_match(fields.path) is not None or any(
        ctx.workspace.is_secret(rel) for rel in (found.rel, *reads_so_far())
    )
    lines, note = outline_lines(
        data, found.rel, fields.depth, ctx.outlines, keep=not secret, symbols=True, values=True
    )
    header = [f"# path: {found.rel}", f"# {note}; depth {fields.depth}"]
    if not lines:
        header.append("# no structures found")
    count = f"{len(lines)} structure{'s' if len(lines) != 1 else ''}"
    summary = f"Outlined {visible_name(found.rel)} ({count}; {note})"
    outcome = Outcome(True, summary, "\n".join(header + lines) + "\n")
    if not secret:
        return outcome
    return Reveal(
        approved=outcome,
        paths=(found.rel,),
        reason=f"{visible_name(found.rel)} looks like a secret (keys, tokens, passwords); "
        "its outline quotes "
        "its lines and sends them to the chat",
    )


def _add(
    item: TreeFile, depth: int, into: FolderOutline, memo: OutlineMemo | None, symbols: bool
) -> None:
    from ..engines.structure import language_for_path

    if language_for_path(item.rel) is None:
        return
    try:
        handle = item.open()
    except OSError:
        into.undecodable += 1
        return
    try:
        data = read_limited(handle, MAX_FILE_BYTES)
    except OSError:
        into.undecodable += 1
        return
    finally:
        os.close(handle)
    if data is None:
        into.too_large += 1
        return
    if b"\0" in data[:8192]:
        into.binary += 1
        return
    try:
        lines, note = outline_lines(data, item.rel, depth, memo, symbols=symbols, values=True)
    except OperatorError:
        into.undecodable += 1
        return
    if len(lines) > MAX_FILE_LINES:
        rest = len(lines) - MAX_FILE_LINES
        lines = [
            *lines[:MAX_FILE_LINES],
            f"... {rest} more structures: fs.outline of {item.rel} shows them all",
        ]
    into.blocks.append(_FileBlock(item.rel, note, lines))
    into.outlined += 1
    into.lines += len(lines) + 1


def outline_folder(
    workspace: Workspace,
    rel: str,
    depth: int,
    after: str | None = None,
    leave_out: frozenset[str] = frozenset(),
    memo: OutlineMemo | None = None,
    symbols: bool = False,
    stop: Callable[[], bool] | None = None,
) -> FolderOutline:
    """The outlines of the supported files under folder ``rel``, within the caps; files
    named in ``leave_out`` are passed over without a word (the context builder packs them
    whole). Outlines made here are written to ``memo`` at the end, in one go. ``stop`` is
    asked before each file; when it says so, the outline ends there (the warmer's exit)."""
    folder = FolderOutline(rel, depth, after)
    last: str | None = None
    start_secret = workspace.secret_match(rel) is not None
    for walked in files_under(workspace, rel, folder.tally, after):
        if stop is not None and stop():
            break
        if spent() and last is not None:
            folder.cut_by = BUDGET_CUT  # between files: resume in a later reply
            folder.next_after = furthest(last, folder.tally.passed)
            break
        if folder.outlined >= MAX_FILES or folder.lines >= MAX_LINES:
            files_full = folder.outlined >= MAX_FILES
            folder.cut_by = f"file limit {MAX_FILES}" if files_full else f"line limit {MAX_LINES}"
            folder.next_after = furthest(last, folder.tally.passed)
            break
        if walked.rel in leave_out:
            pass
        elif walked.is_secret(workspace, start_secret):
            folder.secret += 1  # decided by its name, before it is opened
        else:
            _add(walked, depth, folder, memo, symbols)
        last = walked.rel
    if folder.tally.budget_stop and not folder.cut_by:
        # The walk ended early, maybe before its first file: never "complete".
        folder.cut_by = BUDGET_CUT
        folder.next_after = furthest(last, folder.tally.passed) or after
    if memo is not None:
        memo.flush()
    return folder


def _outline_folder(ctx: ActionContext, fields: OutlineFields, rel: str) -> Result:
    given = fields.resume_after
    after = None if given is None else check_after(given, rel, BAD_PARAMS)
    # Folder outlines share their form with the context pack's map and the warmer that
    # prepares it; a file's own outline names the symbols.
    folder = outline_folder(ctx.workspace, rel, fields.depth, after, memo=ctx.outlines)
    return _outcome(folder)


def render_folder(folder: FolderOutline) -> str:
    """The folder outline as fs.outline details: header lines, then each file's outline."""
    shown = folder.blocks
    counts = folder.tally
    unreadable = folder.undecodable + counts.unreadable + counts.odd_names
    skipped = folder.binary + folder.too_large + unreadable + counts.ignored
    header = [
        f"# path: {folder.rel}"
        + (f" (after {display_name(folder.after)})" if folder.after else ""),
        f"# depth: {folder.depth}",
        f"# files outlined: {len(shown)}; skipped: {skipped} ({folder.binary} binary, "
        f"{folder.too_large} over {MAX_FILE_BYTES} bytes, {unreadable} unreadable, not UTF-8 "
        f"or with names that cannot be shown, {counts.ignored} ignored by .gitignore); files "
        "with no parser not listed",
    ]
    if counts.gitignore_dropped:
        header.append(
            f"# .gitignore pattern lines not applied: {counts.gitignore_dropped} (only the "
            f"first {MAX_GITIGNORE_LINES} of a file and {MAX_WALK_GITIGNORE_LINES} of an "
            "outline are used)"
        )
    if folder.secret:
        header.append(
            f"# left out: {folder.secret} secret-looking file(s), never opened (fs.outline of "
            "one, approved by the user, outlines it)"
        )
    if folder.cut_by:
        header.append(f"# truncated at the {folder.cut_by}")
        header.append(
            f"# more: {resume_cursor(folder.next_after)}"
            if folder.next_after is not None
            else "# more: send the same command again"
        )
    else:
        header.append("# complete")
    body: list[str] = []
    for block in shown:
        body.append(f"{block.rel} ({block.note})")
        body.extend(f"  {line}" for line in block.lines)
    return "\n".join(header + body) + "\n"


def _outcome(folder: FolderOutline) -> Outcome:
    shown = len(folder.blocks)
    summary = f"Outlined {shown} file{'s' if shown != 1 else ''} under {visible_name(folder.rel)}"
    if folder.cut_by:
        summary += f"; cut at the {folder.cut_by}: " + (
            f"continue with {resume_cursor(folder.next_after)}"
            if folder.next_after is not None
            else "send the same command again"
        )
    return Outcome(True, summary, render_folder(folder))


def run_outline(ctx: ActionContext, fields: OutlineFields) -> Result:
    real = ctx.workspace.resolve(fields.path)
    if real.is_dir():
        return _outline_folder(ctx, fields, ctx.workspace.relative(real))
    if fields.resume_after is not None:
        raise InvalidCommand(
            BAD_PARAMS, f"after continues a folder outline; {fields.path!r} is not a folder"
        )
    try:
        return _outline_file(ctx, fields)
    finally:
        if ctx.outlines is not None:
            ctx.outlines.flush()


ACTIONS = (
    ActionSpec(
        "fs.outline",
        Kind.READ,
        OutlineFields,
        run_outline,
        f"Structures of a file, or of every supported file under a folder, one line each "
        f"'<start>-<end>: <definition line>' (optional depth, default {DEPTH_DEFAULT}; a folder: "
        f"max {MAX_FILES} files, continue with the after its '# more:' line gives).",
    ),
)

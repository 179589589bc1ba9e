"""Read actions: fs.list, fs.read, fs.readSlice, fs.search, fs.stat.

What a read returns leaves the machine: the session asks the user before it sends what a
read of a secret-looking file returned (``plan.secrecy``). fs.list shows names only, each
escaped onto one line (``file_names.display_name``); the trash folders at the root
are never listed.
"""

from __future__ import annotations

import json
import os
import stat as stat_module
from typing import TYPE_CHECKING

from ..engines.textfile import file_lines
from ..errors import InvalidCommand, OperatorError
from ..file_names import listed_name, visible_name
from ..outcome import Outcome
from ..store.files import find_file, line_count, open_dir, read_text
from ..wording import counted
from .base import ActionContext, ActionSpec, Kind, LazyModel, Result, Secrecy
from .read_values import (
    QUICK_PATH,
    QUICK_SEARCH,
    QUICK_SLICE,
    SLICE_MAX,
    PathValues,
    SearchValues,
    SliceValues,
)

if TYPE_CHECKING:
    from .fields import PathFields
    from .read_fields import SearchFields, SliceFields

READ_LIMIT = 200_000
SLICE_LIMIT = 2_000_000
UNSHOWN = (
    f"fs.readSlice and fs.search show files up to {SLICE_LIMIT} bytes (fs.read up to "
    f"{READ_LIMIT}) and no command shows a larger one: ask the user for the part you need "
    "(or to split the file)"
)
SEARCH_MAX_MATCHES = 50
LIST_MAX_ENTRIES = 5000
LONG_LINE = 4000


def _clip(line: str) -> str:
    if len(line) <= LONG_LINE:
        return line
    return f"{line[:LONG_LINE]} [... {len(line) - LONG_LINE} more characters cut]"


# -- fs.list ------------------------------------------------------------------------


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def run_list(ctx: ActionContext, fields: PathFields | PathValues) -> Result:
    entries: list[str] = []
    folders = 0
    links = 0
    with open_dir(ctx.workspace, fields.path) as (rel, fd), os.scandir(fd) as scan:
        for entry in sorted(scan, key=lambda e: e.name):
            is_dir = entry.is_dir(follow_symlinks=False)
            if is_dir and ctx.workspace.is_trash(
                entry.name if rel == "." else f"{rel}/{entry.name}"
            ):
                continue
            if ctx.workspace.is_app_state(entry.name if rel == "." else f"{rel}/{entry.name}"):
                continue  # the app's own state folder is never listed
            folders += is_dir
            is_link = not is_dir and entry.is_symlink()
            links += is_link
            suffix = "/" if is_dir else ("@" if is_link else "")
            entries.append(listed_name(entry.name) + suffix)
    shown = entries[:LIST_MAX_ENTRIES]
    cut = f", first {LIST_MAX_ENTRIES} shown (truncated)" if len(entries) > len(shown) else ""
    others = len(entries) - folders - links
    summary = (
        f"Listed {visible_name(rel)} ({_count(len(entries), 'entry', 'entries')}: "
        f"{_count(folders, 'folder', 'folders')}, {_count(others, 'file', 'files')}"
        + (f", {_count(links, 'symlink', 'symlinks')}" if links else "")
        + f"{cut}); folders end with /, symlinks with @; a name that could read as "
        "something else is in double quotes"
    )
    return Outcome(True, summary, "\n".join(shown) + ("\n" if shown else ""))


# -- fs.read ------------------------------------------------------------------------


def run_read(ctx: ActionContext, fields: PathFields | PathValues) -> Result:
    found = find_file(ctx.workspace, fields.path)
    if found.size > SLICE_LIMIT:  # fs.readSlice would refuse it too: say what is true
        raise OperatorError("ERR_FILE_TOO_LARGE", f"{found.rel} is {found.size} bytes; {UNSHOWN}")
    if found.size > READ_LIMIT:
        # The spec fixes this summary word for word; the code travels in the details.
        message = f"File too large for fs.read ({found.size} bytes). Use fs.readSlice."
        details = json.dumps({"code": "ERR_FILE_TOO_LARGE", "message": message})
        return Outcome(False, message, details)
    text, style = read_text(found)
    extra = f", {style}" if style else ""
    size, lines = counted(found.size, "byte"), counted(line_count(text), "line")
    summary = f"Read {visible_name(found.rel)} ({size}, {lines}{extra})"
    return Outcome(True, summary, text)


# -- fs.readSlice -------------------------------------------------------------------


def run_read_slice(ctx: ActionContext, fields: SliceFields | SliceValues) -> Result:
    found = find_file(ctx.workspace, fields.path)
    if found.size > SLICE_LIMIT:
        raise InvalidCommand(
            "ERR_FILE_TOO_LARGE",
            f"{found.rel} is {found.size} bytes; {UNSHOWN}",
        )
    text, style = read_text(found)
    all_lines = file_lines(text)
    total = len(all_lines)
    if fields.start > max(total, 1):
        raise InvalidCommand(
            "ERR_INVALID_READSLICE_PARAMS",
            f"start {fields.start} is past the end of {found.rel}, "
            f"which has {counted(total, 'line')}",
        )
    first = fields.start
    chunk = all_lines[first - 1 : first - 1 + fields.lines]
    last = first + len(chunk) - 1
    header = [f"# path: {found.rel}", f"# lines {first}-{last} of {total}"]
    if style:
        header.append(f"# file: {style}")
    if last < total:
        header.append(f"# more: start: {last + 1}")
    else:
        header.append(
            "# end of file" + ("" if text.endswith("\n") or not text else " (no final newline)")
        )
    if any(len(line) > LONG_LINE for line in chunk):
        header.append(f"# lines longer than {LONG_LINE} characters are cut and marked")
    body = [f"{number}: {_clip(line)}" for number, line in enumerate(chunk, start=first)]
    summary = f"Read lines {first}-{last} of {total} from {visible_name(found.rel)}"
    details = "\n".join(header + body) + "\n"
    return Outcome(True, summary, details)


# -- fs.search ----------------------------------------------------------------------


def run_search(ctx: ActionContext, fields: SearchFields | SearchValues) -> Result:
    with ctx.workspace.locate(fields.path) as spot:
        is_dir = spot.is_dir
    if is_dir:
        raise InvalidCommand(
            "ERR_SEARCH_PATH_IS_DIR",
            f"{fields.path!r} is a folder; fs.search searches one file: use fs.searchTree "
            "for folders",
        )
    found = find_file(ctx.workspace, fields.path)
    if found.size > SLICE_LIMIT:
        raise InvalidCommand(
            "ERR_FILE_TOO_LARGE",
            f"{found.rel} is {found.size} bytes; {UNSHOWN}",
        )
    text, _ = read_text(found)
    query = fields.text
    hits: list[str] = []
    total = 0
    for number, line in enumerate(file_lines(text), start=1):
        if query in line:
            total += 1
            if len(hits) < SEARCH_MAX_MATCHES:
                hits.append(f"{number}: {_clip(line)}")
    truncated = total > len(hits)
    count = (
        f"# {len(hits)} of {total} matches (truncated)"
        if truncated
        else f"# {counted(total, 'match', 'matches')}"
    )
    header = [f"# path: {found.rel}", f"# query: {query}", count]
    summary = f"Found {counted(total, 'matching line')} in {visible_name(found.rel)}" + (
        f", first {len(hits)} shown (truncated); refine the query" if truncated else ""
    )
    details = "\n".join(header + hits) + "\n"
    return Outcome(True, summary, details)


# -- fs.stat ------------------------------------------------------------------------


def run_stat(ctx: ActionContext, fields: PathFields | PathValues) -> Result:
    with ctx.workspace.locate(fields.path) as spot:
        info = spot.info
        rel = spot.rel
    if info is None:
        from ..store.files import not_found

        raise not_found(ctx.workspace, fields.path)
    payload = {
        "path": rel,
        "size": info.st_size,
        "isFile": stat_module.S_ISREG(info.st_mode),
        "isDir": stat_module.S_ISDIR(info.st_mode),
        "mtimeMs": info.st_mtime_ns // 1_000_000,
        "ctimeMs": info.st_ctime_ns // 1_000_000,
    }
    kind = "folder" if payload["isDir"] else "file"
    if not payload["isDir"] and not payload["isFile"]:
        from ..store.passed_over import kind_of  # a named pipe, socket or device is no file

        kind = kind_of(info.st_mode)
    return Outcome(
        True,
        f"Stat {visible_name(rel)}: {kind}, {counted(info.st_size, 'byte')}",
        json.dumps(payload),
    )


# The models load only when a command is not simple enough for QUICK_*.
_MODELS = "llm_operator.core.actions.read_fields"
_PATH = LazyModel("llm_operator.core.actions.fields", "PathFields")

ACTIONS = (
    ActionSpec(
        "fs.list",
        Kind.READ,
        _PATH,
        run_list,
        "List a folder's entries, one per line (folders end with /, symlinks with @; "
        "control characters, invalid UTF-8 and backslashes in names escaped as \\n, \\xff, "
        "\\\\).",
        Secrecy.NAMES,
        quick=QUICK_PATH,
    ),
    ActionSpec(
        "fs.read",
        Kind.READ,
        _PATH,
        run_read,
        f"Read a whole file (up to {READ_LIMIT} bytes).",
        quick=QUICK_PATH,
    ),
    ActionSpec(
        "fs.readSlice",
        Kind.READ,
        LazyModel(_MODELS, "SliceFields"),
        run_read_slice,
        f"Read numbered lines (at most {SLICE_MAX} a call).",
        quick=QUICK_SLICE,
    ),
    ActionSpec(
        "fs.search",
        Kind.READ,
        LazyModel(_MODELS, "SearchFields"),
        run_search,
        f"Find lines containing a substring in one file (max {SEARCH_MAX_MATCHES} matches).",
        quick=QUICK_SEARCH,
    ),
    ActionSpec(
        "fs.stat",
        Kind.READ,
        _PATH,
        run_stat,
        "Size, kind and times of a path as JSON.",
        Secrecy.NAMES,
        quick=QUICK_PATH,
    ),
)

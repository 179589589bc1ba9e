"""The context builder: which files go into a context message, read and packed.

One engine for the window's context builder and ``llm-operator pack``:
- ``workspace_tree`` lists what the window shows (the walk every tree action uses:
  .gitignore respected, ``.git`` never entered), each file marked secret-looking or not.
- ``choose_files`` expands the paths asked for: a folder gives its files in walk order,
  .gitignore respected; a file named on its own goes in even if .gitignore lists it (it
  was asked for by name). Secret-looking files (by the name as found, and by a link's
  target) stay out unless ``include_secrets``, wherever they were found: named, or
  inside a named folder. The window passes the files the user ticked one by one, with
  ``include_secrets`` set, because ticking a secret-looking file is the consent.
- Every file a named folder holds that does not go in is named with why (the walk's
  ``left_out``: FIFOs, sockets, devices, links leading outside or nowhere, names that
  cannot be shown on one line, unreadable folders; then secret-looking, binary, too big,
  unreadable). Only .gitignore'd entries are counted instead of named (a ``node_modules``
  would drown the list), and ``.git`` is never entered.
- ``build_context`` reads the chosen files (UTF-8 text only; binary, undecodable and
  oversized files are left out and said so), decoded as fs.readSlice decodes them (so the
  numbers match), adds the primer, the task and optionally an
  outline of the rest of the workspace, ranked by relevance to the chosen files and the
  task and cut to a token budget (``repo_map``; secret-looking files never outlined), and
  packs the message into parts of at most ``limit`` characters.
Nothing here writes anything.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engines.textfile import TextFile
from ..errors import OperatorError
from ..file_names import visible_name
from ..protocol.context_pack import ContextMessage, PackedFile, pack_message
from ..store.files import find_file, read_bytes
from ..store.passed_over import kind_of, os_reason
from ..store.tree_walk import WalkCounts
from .file_parts import PartAsked, fit_to_task, merge_parts, narrow, parse_part
from .repo_map import DEFAULT_MAP_TOKENS, MapIndex, RepoMap

if TYPE_CHECKING:
    from pathlib import Path

    from ..actions.base import OutlineMemo
    from ..store.workspace import Workspace

MAX_FILE_BYTES = 500_000
MAX_TREE_FILES = 20_000
SECRET_REASON = "secret-looking (tick it in the window, or pass --include-secrets)"


def primer_text() -> str:
    """The primer a context message starts with: what ``llm-operator primer`` prints."""
    from ..protocol.primer import primer_text as core_primer_text

    return core_primer_text()


@dataclass(frozen=True)
class LeftOut:
    """A file kept out of a context message, and why (``rel`` as found: show it through
    ``left_out_line``, never raw)."""

    rel: str
    reason: str


def shown_path(rel: str) -> str:
    """A path of a left-out list: one line, escaped as listings and summaries escape names
    (controls, line and paragraph separators, bidi and invisible characters), quoted when
    it holds ``": "`` or starts with ``"`` so the reason after it cannot be mistaken."""
    shown = visible_name(rel)
    if ": " in shown or shown.startswith('"'):
        return '"' + shown.replace('"', '\\"') + '"'
    return shown


def left_out_line(left: LeftOut) -> str:
    """``<path>: <why>`` on one line (``shown_path``): a name holding a line break or a
    control character cannot start a line of its own."""
    return f"{shown_path(left.rel)}: {left.reason}"


NOTE_NAMES = 40  # left-out names a note lists before it counts the rest


def left_out_text(left: Sequence[LeftOut], at_most: int = NOTE_NAMES) -> str:
    """``name (why); ...`` for a note in the window: the first ``at_most`` names
    (``shown_path``), then how many more (``pack`` names them all on stderr)."""
    said = "; ".join(f"{shown_path(x.rel)} ({x.reason})" for x in left[:at_most])
    more = len(left) - at_most
    return said + (f"; and {more} more (llm-operator pack names them all)" if more > 0 else "")


@dataclass(frozen=True)
class TreeEntry:
    """One file of the context builder's tree: its path, size in bytes, whether it looks secret."""

    rel: str
    size: int
    secret: bool


@dataclass(frozen=True)
class WorkspaceTree:
    """The workspace's files in walk order, as the context builder lists them."""

    files: tuple[TreeEntry, ...]
    ignored: int  # files and folders .gitignore left out
    cut: bool  # more than MAX_TREE_FILES files: the rest are not listed
    left_out: tuple[LeftOut, ...] = ()  # entries not listed for what they are (FIFOs...)


def workspace_tree(workspace: Workspace, limit: int = MAX_TREE_FILES) -> WorkspaceTree:
    """The workspace's files in walk order, as the window's context builder lists them."""
    from ..actions.outline import files_under

    counts = WalkCounts(left_out=[])
    found: list[TreeEntry] = []
    cut = False
    for item in files_under(workspace, ".", counts, None):
        if len(found) >= limit:
            cut = True
            break
        try:
            # The size is only shown; the file is read by descriptor when it is packed.
            size = os.stat(workspace.root / item.target_rel, follow_symlinks=False).st_size
        except OSError as error:
            counts.leave_out(item.rel, f"unreadable ({os_reason(error)})")
            continue
        found.append(TreeEntry(item.rel, size, item.is_secret(workspace)))
    left = tuple(LeftOut(rel, reason) for rel, reason in counts.left_out or ())
    return WorkspaceTree(tuple(found), counts.ignored, cut, left)


@dataclass(frozen=True)
class Chosen:
    """The files chosen for a context message, in order, and those left out."""

    files: tuple[str, ...]
    left_out: tuple[LeftOut, ...]
    ignored: int = 0  # entries of the named folders .gitignore left out (counted, not named)


def choose_files(workspace: Workspace, paths: Iterable[str], include_secrets: bool) -> Chosen:
    """The files ``paths`` name, in order, without duplicates; and what was left out.

    A path outside the workspace raises ERR_PATH_OUTSIDE_WORKSPACE (a usage error).
    """
    from ..actions.outline import files_under

    files: dict[str, None] = {}
    left: dict[str, str] = {}
    ignored = 0
    for path in paths:
        real = workspace.resolve(path)
        inside = workspace.relative(real)
        if any(part.casefold() == ".git" for part in inside.split("/")):
            # Git's own files (objects, hooks, config with credentials) are not context.
            left[posixpath.normpath(path)] = "inside .git"
            continue
        if real.is_dir():
            rel = workspace.relative(real)
            start_secret = workspace.secret_match(rel) is not None
            counts = WalkCounts(left_out=[])
            for item in files_under(workspace, rel, counts, None):
                if item.is_secret(workspace, start_secret) and not include_secrets:
                    left[item.rel] = SECRET_REASON
                else:
                    files.setdefault(item.rel)
            for passed, reason in counts.left_out or ():
                left.setdefault(passed, reason)
            ignored += counts.ignored
            continue
        rel = posixpath.normpath(path)
        if not real.exists():
            left[rel] = "not found"
        elif not real.is_file():
            left[rel] = _not_regular(real)
        elif workspace.secret_match(path) is not None and not include_secrets:
            left[rel] = SECRET_REASON
        else:
            files.setdefault(rel)
    return Chosen(
        tuple(files),
        tuple(LeftOut(rel, reason) for rel, reason in left.items() if rel not in files),
        ignored,
    )


def _not_regular(real: Path) -> str:
    try:
        return f"a {kind_of(real.stat().st_mode)}, not a regular file"
    except OSError as error:
        return f"unreadable ({os_reason(error)})"


def read_for_context(
    workspace: Workspace, rel: str, include_secrets: bool = False
) -> PackedFile | LeftOut:
    """A chosen file as packed text, or why it cannot go in (read through the jail).

    Secrecy is decided again on the file actually read: a link retargeted at a secret
    file after the choice leaves it out unless ``include_secrets`` (the user ticked a
    file shown as secret-looking, or --include-secrets)."""
    try:
        found = find_file(workspace, rel)
        if found.size > MAX_FILE_BYTES:
            return LeftOut(rel, f"{found.size} bytes, over the {MAX_FILE_BYTES}-byte limit")
        data = read_bytes(found)
    except OperatorError as error:
        reason = "not found" if error.code == "ERR_FILE_NOT_FOUND" else error.code
        return LeftOut(rel, f"unreadable ({reason})")
    if not include_secrets and (
        workspace.is_secret(found.rel) or workspace.secret_match(rel) is not None
    ):
        return LeftOut(rel, SECRET_REASON)
    if b"\0" in data[:8192]:
        return LeftOut(rel, "binary")
    try:
        # As fs.readSlice decodes it (BOM dropped, CRLF and lone CR breaks made LF), so
        # the pack's line numbers are the ones every action uses.
        text = TextFile.decode(data, rel).text
    except OperatorError:
        return LeftOut(rel, "not UTF-8 text")
    return PackedFile(rel, text)


@dataclass(frozen=True)
class ContextPack:
    """A built context message: the files packed in it, those left out and why, and the
    outline of the rest (when one was asked for)."""

    files: tuple[str, ...]
    left_out: tuple[LeftOut, ...]
    message: ContextMessage
    outline: RepoMap | None = None  # the outline of the rest, when one was asked for
    ignored: int = 0  # entries of the named folders .gitignore left out


def outline_of_rest(
    workspace: Workspace,
    packed: Sequence[PackedFile],
    task: str = "",
    tokens: int = DEFAULT_MAP_TOKENS,
    memo: OutlineMemo | None = None,
    index: MapIndex | None = None,
) -> RepoMap:
    """The outline of the files not packed, ranked by relevance to the packed files and the
    task and cut to about ``tokens`` tokens (see ``repo_map``); never of a secret-looking
    file. Outlines come from, and go to, ``memo`` (the state store); ``index``, when given,
    is used instead of walking the workspace again."""
    from .repo_map import index_workspace, repo_map

    if index is None:
        index = index_workspace(workspace, memo)
    return repo_map(index, packed, task, tokens)


def _names_a_path(workspace: Workspace, path: str) -> bool:
    """Whether ``path`` is there as written (so ``a:1-2`` is a file's name, not a part)."""
    try:
        return os.path.lexists(workspace.root / path)
    except (OSError, ValueError):
        return False


def build_context(
    workspace: Workspace,
    paths: Iterable[str],
    *,
    task: str = "",
    map_tokens: int = 0,
    include_secrets: bool = False,
    limit: int = 30_000,
    primer: str | None = None,
    outlines: OutlineMemo | None = None,
    fit: bool = True,
) -> ContextPack:
    """The context message for ``paths`` (files, folders, or a file's part: ``path:10-80``,
    ``path::Outer/method``, see ``file_parts``). With ``fit``, a file named whole is sent
    as the definitions ``task`` names as code, the rest as its outline, when there are
    some. A part naming nothing in its file raises its error (a usage error)."""
    asked = merge_parts(
        [PartAsked(path) if _names_a_path(workspace, path) else parse_part(path) for path in paths]
    )
    parts = {posixpath.normpath(part.rel): part for part in asked}
    chosen = choose_files(workspace, [part.rel for part in asked], include_secrets)
    packed: list[PackedFile] = []
    left = list(chosen.left_out)
    for rel in chosen.files:
        read = read_for_context(workspace, rel, include_secrets)
        if isinstance(read, LeftOut):
            left.append(read)
            continue
        part = parts.get(rel)
        if part is not None and not part.whole:
            packed.append(narrow(read, part))
        else:
            packed.append(fit_to_task(read, task) if fit else read)
    rest = outline_of_rest(workspace, packed, task, map_tokens, outlines) if map_tokens else None
    text = primer if primer is not None else primer_text()
    message = pack_message(text, task, packed, rest.text if rest else None, limit)
    return ContextPack(tuple(p.rel for p in packed), tuple(left), message, rest, chosen.ignored)

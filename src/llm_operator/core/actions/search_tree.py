"""fs.searchTree: a substring search over a folder, in a stable order, within fixed limits.

Invariants:
- Files are visited in sorted path order (folders before their contents, names sorted
  by code point), so the same tree always gives the same matches and truncation point.
- ``.git`` folders, files that .gitignore files ignore, binary files (a NUL byte in the
  first 8 KiB) and files over 500,000 bytes are skipped and counted, never read fully.
- The .gitignore files of the folders above the start folder apply too, and a deeper
  .gitignore overrides a shallower one (``!pattern`` re-includes), as in git: a file is
  searched or skipped the same way whichever folder the search starts from.
- At most 300 files are scanned (read) and 200 matches reported; the header says which
  limit cut the search short.
- Symlinked folders are not followed (no loops, no escapes); a symlinked file is read
  only if its real path is inside the workspace.
- Secret-looking files (by the name of the link or of its target) are searched, but their
  matches are shown only with the user's consent: without it the result is the same
  search with those files left out.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import OperatorError
from ..store.files import not_found
from .base import ActionContext, ActionSpec, Kind, Outcome, Result, Reveal
from .read_fields import SearchFields

if TYPE_CHECKING:
    from ..store.workspace import Workspace

MAX_MATCHES = 200
MAX_FILES = 300
MAX_FILE_BYTES = 500_000
BINARY_PROBE = 8192
LONG_LINE = 1000


@dataclass
class _Tally:
    scanned: int = 0
    binary: int = 0
    too_large: int = 0
    ignored: int = 0
    unreadable: int = 0
    file_limit_hit: bool = False
    # (line as shown, from a secret-looking file) in walk order; collection stops once the
    # public list is full, because the list with secrets is then full too.
    hits: list[tuple[str, bool]] = field(default_factory=list)
    public_hits: int = 0
    total_public: int = 0
    total_secret: int = 0
    secret_files: list[str] = field(default_factory=list)

    def matches(self, with_secrets: bool) -> list[str]:
        return [hit for hit, secret in self.hits if with_secrets or not secret][:MAX_MATCHES]


class _Ignores:
    """The .gitignore files met on the way down, each applying below its own folder."""

    def __init__(self) -> None:
        self._specs: list[tuple[str, object]] = []

    def load(self, folder: Path, rel: str) -> int:
        path = folder / ".gitignore"
        if not path.is_file():
            return 0
        import pathspec

        try:
            lines = path.read_text("utf-8", errors="replace").splitlines()
        except OSError:
            return 0
        self._specs.append((rel, pathspec.GitIgnoreSpec.from_lines(lines)))
        return 1

    def pop(self, count: int) -> None:
        for _ in range(count):
            self._specs.pop()

    def ignored(self, rel: str, is_dir: bool) -> bool:
        # The deepest .gitignore with a matching pattern decides, as in git.
        for base, spec in reversed(self._specs):
            inner = rel if base == "." else rel[len(base) + 1 :]
            candidate = inner + "/" if is_dir else inner
            include = spec.check_file(candidate).include  # type: ignore[attr-defined]
            if include is not None:
                return bool(include)
        return False


def _scan_file(real: Path, rel: str, needle: bytes, tally: _Tally, secret: bool) -> None:
    try:
        size = real.stat().st_size
        if size > MAX_FILE_BYTES:
            tally.too_large += 1
            return
        if tally.scanned >= MAX_FILES:
            tally.file_limit_hit = True
            return
        data = real.read_bytes()
    except OSError:
        tally.unreadable += 1
        return
    if b"\0" in data[:BINARY_PROBE]:
        tally.binary += 1
        return
    tally.scanned += 1
    found = data.find(needle)
    if found < 0:
        return
    hits: list[str] = []
    line_no = data.count(b"\n", 0, found) + 1
    line_start = data.rfind(b"\n", 0, found) + 1
    while found >= 0:
        line_end = data.find(b"\n", found)
        if line_end < 0:
            line_end = len(data)
        text = data[line_start:line_end].decode("utf-8", "replace").rstrip("\r")
        if len(text) > LONG_LINE:
            text = text[:LONG_LINE] + " [...]"
        hits.append(f"{rel}:{line_no}: {text}")
        found = data.find(needle, line_end)
        if found >= 0:
            line_no += data.count(b"\n", line_end, found)
            line_start = data.rfind(b"\n", 0, found) + 1
    if secret:
        tally.total_secret += len(hits)
        tally.secret_files.append(rel)
    else:
        tally.total_public += len(hits)
    room = MAX_MATCHES - tally.public_hits
    if room > 0:
        taken = hits[:room] if not secret else hits[:MAX_MATCHES]
        tally.hits.extend((hit, secret) for hit in taken)
        if not secret:
            tally.public_hits += len(taken)


def _walk(workspace: Workspace, real: Path, rel: str, query: str, tally: _Tally) -> None:
    needle = query.encode("utf-8")
    ignores = _Ignores()
    if real.is_dir() and rel != ".":
        parts = rel.split("/")
        for depth in range(len(parts)):
            base = "/".join(parts[:depth]) or "."
            ignores.load(workspace.root / base, base)

    def visit(folder: Path, folder_rel: str) -> None:
        pushed = ignores.load(folder, folder_rel)
        try:
            with os.scandir(folder) as scan:
                entries = sorted(scan, key=lambda e: e.name)
        except OSError:
            tally.unreadable += 1
            ignores.pop(pushed)
            return
        for entry in entries:
            child_rel = entry.name if folder_rel == "." else f"{folder_rel}/{entry.name}"
            if entry.is_dir(follow_symlinks=False):
                if entry.name == ".git" or ignores.ignored(child_rel, True):
                    tally.ignored += entry.name != ".git"
                    continue
                visit(Path(entry.path), child_rel)
            elif entry.is_symlink() and os.path.isdir(entry.path):
                continue
            else:
                if ignores.ignored(child_rel, False):
                    tally.ignored += 1
                    continue
                target = Path(entry.path)
                if entry.is_symlink():
                    try:
                        target = workspace.resolve(child_rel)
                    except OperatorError:
                        tally.unreadable += 1
                        continue
                if not target.is_file():
                    continue
                secret = workspace.is_secret(child_rel) or workspace.is_secret(
                    workspace.relative(target)
                )
                _scan_file(target, child_rel, needle, tally, secret)
        ignores.pop(pushed)

    if real.is_dir():
        visit(real, rel)
    else:
        _scan_file(real, rel, needle, tally, workspace.is_secret(rel))


def _render(query: str, rel: str, tally: _Tally, matches: list[str], total: int) -> Outcome:
    truncated = []
    if total > len(matches):
        truncated.append(f"match limit {MAX_MATCHES}")
    if tally.file_limit_hit:
        truncated.append(f"file limit {MAX_FILES}")
    skipped = tally.binary + tally.too_large + tally.ignored + tally.unreadable
    header = [
        f"# path: {rel}",
        f"# query: {query}",
        f"# files scanned: {tally.scanned}; skipped: {skipped} ({tally.binary} binary, "
        f"{tally.too_large} over {MAX_FILE_BYTES} bytes, {tally.ignored} ignored by .gitignore, "
        f"{tally.unreadable} unreadable)",
        f"# matches: {len(matches)}"
        + (f" (truncated: {', '.join(truncated)})" if truncated else " (complete)"),
    ]
    summary = f"Found {total} matches in {rel} ({tally.scanned} files scanned)"
    if truncated:
        summary += f"; truncated at {' and '.join(truncated)}: narrow the path or query"
    return Outcome(True, summary, "\n".join(header + matches) + "\n")


def run_search_tree(ctx: ActionContext, fields: SearchFields) -> Result:
    real = ctx.workspace.resolve(fields.path)
    if not real.exists():
        raise not_found(ctx.workspace, fields.path)
    if not real.is_dir() and not real.is_file():
        # A FIFO or device would block or never end.
        raise OperatorError("ERR_NOT_A_FILE", f"{fields.path!r} is not a regular file or folder")
    rel = ctx.workspace.relative(real)
    query = fields.text
    tally = _Tally()
    _walk(ctx.workspace, real, rel, query, tally)
    public = _render(query, rel, tally, tally.matches(False), tally.total_public)
    if not tally.secret_files:
        return public
    total = tally.total_public + tally.total_secret
    withheld = tally.secret_files
    note = (
        f"# withheld: matches in {len(withheld)} secret-looking file(s) "
        f"({', '.join(withheld)}): the user did not approve sending them\n"
    )
    details = (public.details or "").replace("# matches:", note + "# matches:", 1)
    return Reveal(
        approved=_render(query, rel, tally, tally.matches(True), total),
        paths=tuple(withheld),
        reason=f"the search matched secret-looking files ({', '.join(withheld)}); showing those "
        "lines sends them to the chat",
        rejected=Outcome(True, public.summary, details),
    )


ACTIONS = (
    ActionSpec(
        "fs.searchTree",
        Kind.READ,
        SearchFields,
        run_search_tree,
        f"Find a substring in every text file under a folder (max {MAX_MATCHES} matches, "
        f"{MAX_FILES} files, files over {MAX_FILE_BYTES} bytes skipped; .gitignore respected).",
    ),
)

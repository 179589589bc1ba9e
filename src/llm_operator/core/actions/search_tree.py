"""fs.searchTree: a search over a folder, in a stable order, within fixed limits, resumable.

Invariants:
- Files come from the descriptor walk (``store.tree_walk``): depth first, names sorted by
  code point; ``.git``, the root's trash folders, symlinked folders, .gitignore'd paths,
  names that cannot be shown on one line and unreadable entries are never searched.
- At most 300 files are read and 200 matches shown. Matches are taken a whole file at a
  time: a file whose matches would overflow the 200 is left for the next call, unless it is
  the first file with matches (then its first 200 are shown and the header says so).
- The walk stops as soon as a cap binds; the header then ends with ``# more: after: <path>``
  and the same search with ``after: <path>`` resumes right after that file, so repeated
  calls cover the tree exactly once. The cost of a capped search does not grow with the
  size of the tree (a visit budget bounds the skipped entries too).
- Secret-looking files are searched, but nothing about their matches is said without the
  user's consent: the unapproved result is exactly the result the search would have if
  those files held no match, and its header counts the secret-looking files searched
  (whether or not they matched), so it confirms nothing. Their matches never count
  toward the caps, so the approved and unapproved results stop at the same file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from ..engines.line_search import LineQuery
from ..errors import InvalidCommand, OperatorError
from ..protocol.names import display_name, is_plain_name
from ..store.files import not_found
from ..store.tree_walk import WalkCounts, check_after, read_limited, walk_files, walk_one
from ..wording import counted
from .base import ActionContext, ActionSpec, Kind, Outcome, Result, Reveal, Secrecy
from .fields import Flag, model_validator
from .read_fields import SearchFields

if TYPE_CHECKING:
    from collections.abc import Generator, Iterator

    from ..store.tree_walk import Select, TreeFile
    from ..store.workspace import Workspace

MAX_MATCHES = 200
MAX_FILES = 300
MAX_FILE_BYTES = 500_000
MAX_VISITS = 5000  # files handed out by the walk (searched or skipped) per call
BINARY_PROBE = 8192


class SearchTreeFields(SearchFields):
    regex: Flag = False
    case_sensitive: Flag = True
    glob: str | None = None
    exclude: str | None = None
    after: str | None = None

    ALIASES: ClassVar[dict[str, str]] = {"q": "query", "caseSensitive": "case_sensitive"}
    INVALID_CODES: ClassVar[dict[str, str]] = {
        "regex": "ERR_INVALID_FIELD",
        "case_sensitive": "ERR_INVALID_FIELD",
    }

    @model_validator(mode="after")
    def _patterns(self) -> SearchTreeFields:
        for name in ("glob", "exclude"):
            value = getattr(self, name)
            if value is not None and not _split_patterns(value):
                raise InvalidCommand(
                    "ERR_INVALID_FIELD",
                    f"{name} holds no pattern; give comma-separated gitignore-style patterns "
                    "such as *.py, src/**/*.ts",
                )
        return self


def _split_patterns(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _select(fields: SearchTreeFields) -> Select | None:
    """The glob / exclude filter, on paths relative to the searched folder."""
    if fields.glob is None and fields.exclude is None:
        return None
    import pathspec

    wanted = pathspec.GitIgnoreSpec.from_lines(_split_patterns(fields.glob or ""))
    unwanted = pathspec.GitIgnoreSpec.from_lines(_split_patterns(fields.exclude or ""))
    has_glob = fields.glob is not None

    def select(rel: str, is_dir: bool) -> bool:
        candidate = rel + "/" if is_dir else rel
        if unwanted.match_file(candidate):
            return False
        # glob picks files; folders are walked into so their files can be picked.
        return is_dir or not has_glob or wanted.match_file(candidate)

    return select


@dataclass
class _Tally:
    counts: WalkCounts = field(default_factory=WalkCounts)
    scanned: int = 0
    binary: int = 0
    too_large: int = 0
    secret_files: int = 0
    public: list[str] = field(default_factory=list)
    # every match line in walk order with whether it comes from a secret-looking file
    every: list[tuple[str, bool]] = field(default_factory=list)
    matched_secret_files: list[str] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)  # which caps bound
    cut_file: str | None = None  # a single file whose matches were cut at the cap
    after: str | None = None  # where a follow-up call resumes

    @property
    def skipped(self) -> int:
        c = self.counts
        return self.binary + self.too_large + c.ignored + c.filtered + c.unreadable + c.odd_names


def _file_hits(item: TreeFile, query: LineQuery, tally: _Tally) -> list[str] | None:
    """The match lines of one file; None when it was skipped (and counted)."""
    try:
        handle = item.open()
    except OSError:
        tally.counts.unreadable += 1
        return None
    try:
        data = read_limited(handle, MAX_FILE_BYTES)
    except OSError:
        tally.counts.unreadable += 1
        return None
    finally:
        os.close(handle)
    if data is None:
        tally.too_large += 1
        return None
    if b"\0" in data[:BINARY_PROBE]:
        tally.binary += 1
        return None
    hits: list[str] = []
    for number, line in query.lines(data):
        hits.append(f"{item.rel}:{number}: {line}")
        if len(hits) > MAX_MATCHES:
            break
    return hits


def _search(
    workspace: Workspace,
    files: Iterator[TreeFile],
    query: LineQuery,
    tally: _Tally,
    start_secret: bool,
) -> None:
    last_done: str | None = None
    for item in files:
        if tally.scanned >= MAX_FILES or tally.counts.visited > MAX_VISITS:
            tally.cut.append(
                f"file limit {MAX_FILES}" if tally.scanned >= MAX_FILES else "visit limit"
            )
            tally.after = last_done
            return
        hits = _file_hits(item, query, tally)
        if hits is None:
            last_done = item.rel
            continue
        secret = item.is_secret(workspace, start_secret)
        room = MAX_MATCHES - len(tally.public)
        if not secret and len(hits) > room and tally.public:
            # Leave the whole file for the next call rather than split its matches.
            tally.cut.append(f"match limit {MAX_MATCHES}")
            tally.after = last_done
            return
        tally.scanned += 1
        last_done = item.rel
        if secret:
            tally.secret_files += 1
            if hits:
                tally.matched_secret_files.append(item.rel)
        cut_here = len(hits) > MAX_MATCHES
        hits = hits[:MAX_MATCHES]
        tally.every.extend((hit, secret) for hit in hits)
        if secret:
            continue  # a secret file's matches never bind a cap (see the module notes)
        tally.public.extend(hits)
        if cut_here:
            tally.cut_file = item.rel
            tally.cut.append(f"match limit {MAX_MATCHES}")
            tally.after = item.rel
            return
        if len(tally.public) >= MAX_MATCHES:
            if next(files, None) is not None:
                tally.cut.append(f"match limit {MAX_MATCHES}")
                tally.after = item.rel
            return


def _render(
    fields: SearchTreeFields, rel: str, tally: _Tally, with_secrets: bool
) -> tuple[str, str]:
    matches = [hit for hit, secret in tally.every if with_secrets or not secret]
    counts = tally.counts
    mode = []
    if fields.regex:
        mode.append("regex")
    if not fields.case_sensitive:
        mode.append("case-insensitive")
    query = fields.text
    if not is_plain_name(query.replace("\\", "")):
        query = display_name(query)  # a query_b64 with a line break stays on its header line
    header = [f"# path: {display_name(rel)}", f"# query: {query}"]
    if mode:
        header.append(f"# mode: {', '.join(mode)}")
    if fields.glob is not None:
        header.append(f"# glob: {fields.glob}")
    if fields.exclude is not None:
        header.append(f"# exclude: {fields.exclude}")
    if fields.after is not None:
        header.append(f"# after: {fields.after}")
    header.append(
        f"# files scanned: {tally.scanned}; skipped: {tally.skipped} ({tally.binary} binary, "
        f"{tally.too_large} over {MAX_FILE_BYTES} bytes, {counts.ignored} ignored by "
        f".gitignore, {counts.filtered} left out by glob/exclude, {counts.unreadable} "
        f"unreadable, {counts.odd_names} with names that cannot be shown on one line)"
    )
    if tally.secret_files and not with_secrets:
        header.append(
            f"# secret-looking files searched: {tally.secret_files}; their matches are sent "
            "only with the user's approval and are not shown or counted here"
        )
    cut = tally.cut
    header.append(
        f"# matches: {len(matches)}" + (f" (truncated: {cut[0]})" if cut else " (complete)")
    )
    if tally.cut_file is not None:
        header.append(
            f"# {tally.cut_file} has more than {MAX_MATCHES} matches; use fs.search on it "
            "for the rest"
        )
    if tally.after is not None:
        header.append(f"# more: after: {tally.after}")
    summary = (
        f"Found {counted(len(matches), 'match', 'matches')} in {display_name(rel)} "
        f"({counted(tally.scanned, 'file')} scanned)"
    )
    if cut:
        summary += f"; truncated at the {cut[0]}: " + (
            f"send the same search with after: {tally.after} for the next files"
            if tally.after is not None
            else "narrow the path or query"
        )
    return summary, "\n".join(header + matches) + "\n"


def run_search_tree(ctx: ActionContext, fields: SearchTreeFields) -> Result:
    workspace = ctx.workspace
    real = workspace.resolve(fields.path)
    if not real.exists():
        raise not_found(workspace, fields.path)
    rel = workspace.relative(real)
    if not is_plain_name(rel):
        # Every match line starts with this path: it must be one line of plain text.
        raise OperatorError(
            "ERR_INVALID_PATH",
            f"{fields.path!r} leads to {display_name(rel)!r}, a name that cannot be shown on "
            "one line; search a folder above it or below it",
        )
    if not real.is_dir() and not real.is_file():
        # A FIFO or device would block or never end.
        raise OperatorError("ERR_NOT_A_FILE", f"{fields.path!r} is not a regular file or folder")
    after = None
    if fields.after is not None and real.is_dir():
        after = check_after(fields.after, rel, "ERR_INVALID_FIELD")
    elif fields.after is not None:  # a single file has nothing to resume; checked all the same
        from ..store.workspace import check_path_text

        check_path_text(fields.after)
    query = LineQuery.compile(
        fields.text, regex=bool(fields.regex), case_sensitive=bool(fields.case_sensitive)
    )
    tally = _Tally()
    start_secret = workspace.secret_match(fields.path) is not None
    files: Generator[TreeFile, None, None]
    if real.is_dir():
        files = walk_files(workspace, rel, tally.counts, select=_select(fields), after=after)
    else:
        files = walk_one(workspace, rel, tally.counts)
    try:
        _search(workspace, files, query, tally, start_secret)
    except OSError as exc:
        raise OperatorError(
            "ERR_READ_FAILED", f"cannot search {fields.path!r}: {exc.strerror}"
        ) from None
    finally:
        files.close()
    summary, details = _render(fields, rel, tally, with_secrets=False)
    public = Outcome(True, summary, details)
    if not tally.matched_secret_files:
        return public
    shown = tally.matched_secret_files
    approved_summary, approved_details = _render(fields, rel, tally, with_secrets=True)
    return Reveal(
        approved=Outcome(True, approved_summary, approved_details),
        paths=tuple(shown),
        reason=f"the search matched lines of secret-looking files ({', '.join(shown)}); "
        "approving sends those lines to the chat",
        rejected=public,
    )


ACTIONS = (
    ActionSpec(
        "fs.searchTree",
        Kind.READ,
        SearchTreeFields,
        run_search_tree,
        f"Find a substring (or regex: true, a Python regex per line; case_sensitive: false) "
        f"in every text file under a folder, optionally only files matching glob and not "
        f"exclude (comma-separated gitignore-style patterns); max {MAX_MATCHES} matches and "
        f"{MAX_FILES} files per call, then '# more: after: <path>' resumes with after: "
        f"<path>; files over {MAX_FILE_BYTES} bytes skipped; .gitignore respected.",
        Secrecy.PER_FILE,
    ),
)

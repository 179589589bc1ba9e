"""fs.searchTree: a search over a folder, in a stable order, within fixed limits, resumable.

Invariants:
- Files come from the descriptor walk (``store.tree_walk``): depth first, names sorted by
  code point; ``.git``, the root's trash folders, symlinked folders, .gitignore'd paths,
  names that cannot be shown on one line and unreadable entries are never searched.
- At most 300 files are read and 200 matches shown. Matches are taken a whole file at a
  time: a file whose matches would overflow the 200 is left for the next call, unless it is
  the first file with matches (then its first 200 are shown and the header says so).
- The walk stops as soon as a cap binds; the header then ends with ``# more: after: <path>``
  (``after_json: "..."`` when the name is not plain ASCII, as a command holds ASCII only)
  and the same search with ``after: <path>`` resumes right after that file, so repeated
  calls cover the tree exactly once. The cost of a capped search does not grow with the
  size of the tree (a visit budget bounds the skipped entries too).
- Secret-looking files are never opened: the walk passes over them by name before any
  read, and the header counts them, so nothing in the result (matches, caps, timing)
  depends on their bytes. fs.search of one such file, with the user's approval, is the
  way to search it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from pydantic import model_validator

from ..engines.line_search import LineQuery
from ..errors import InvalidCommand, OperatorError
from ..file_names import (
    display_name,
    is_plain_name,
    listed_name,
    resume_cursor,
    visible_name,
)
from ..outcome import Outcome
from ..store.files import not_found
from ..store.ignores import MAX_GITIGNORE_LINES, MAX_WALK_GITIGNORE_LINES
from ..store.tree_walk import (
    WalkCounts,
    check_after,
    furthest,
    one_after,
    read_limited,
    walk_files,
    walk_one,
)
from ..wording import counted
from ..work_budget import spent
from .base import ActionContext, ActionSpec, Kind, Result, Secrecy
from .fields import B64Text, Flag, pick_text
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
BUDGET_CUT = "reply's work budget"


class SearchTreeFields(SearchFields):
    regex: Flag = False
    case_sensitive: Flag = True
    glob: str | None = None
    exclude: str | None = None
    after: str | None = None
    after_b64: B64Text | None = None  # after_json too: for a name that is not plain ASCII

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
        one_after(self.after, self.after_b64)
        return self

    @property
    def resume_after(self) -> str | None:
        """The path given as after, after_json or after_b64."""
        return pick_text(self, "after", "after_b64")


def _split_patterns(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _select(fields: SearchTreeFields) -> Select | None:
    """The glob / exclude filter, on paths relative to the searched folder."""
    if fields.glob is None and fields.exclude is None:
        return None
    from ..store.ignores import PatternProblem, compile_patterns

    try:
        wanted = compile_patterns(_split_patterns(fields.glob or ""))
        unwanted = compile_patterns(_split_patterns(fields.exclude or ""))
    except PatternProblem as problem:
        raise OperatorError(
            "ERR_INVALID_FIELD",
            f"the glob/exclude pattern {problem.pattern!r} cannot be used ({problem.reason}); "
            "give gitignore-style patterns such as *.py, src/**/*.ts, [abc].txt",
        ) from None
    has_glob = fields.glob is not None

    def select(rel: str, is_dir: bool) -> bool:
        candidate = rel + "/" if is_dir else rel
        if unwanted.match(candidate):
            return False
        # glob picks files; folders are walked into so their files can be picked.
        return is_dir or not has_glob or wanted.match(candidate)

    return select


@dataclass
class _Tally:
    """What fs.searchTree has found so far: the match lines, what it skipped and why, the caps
    that cut it and where the next call resumes."""

    counts: WalkCounts = field(default_factory=WalkCounts)
    scanned: int = 0
    binary: int = 0
    too_large: int = 0
    secret_files: int = 0  # passed over unread
    public: list[str] = field(default_factory=list)
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
    shown = listed_name(item.rel)
    for number, line in query.lines(data):
        hits.append(f"{shown}:{number}: {line}")
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
        if spent() and last_done is not None:
            # Between files: stop here and say where the next reply resumes.
            tally.cut.append(BUDGET_CUT)
            tally.after = furthest(last_done, tally.counts.passed)
            return
        if tally.scanned >= MAX_FILES or tally.counts.visited > MAX_VISITS:
            tally.cut.append(
                f"file limit {MAX_FILES}" if tally.scanned >= MAX_FILES else "visit limit"
            )
            tally.after = furthest(last_done, tally.counts.passed)
            return
        if item.is_secret(workspace, start_secret):
            # Decided by its name before it is opened: its bytes cannot show, count or slow.
            tally.secret_files += 1
            last_done = item.rel
            continue
        hits = _file_hits(item, query, tally)
        if hits is None:
            last_done = item.rel
            continue
        room = MAX_MATCHES - len(tally.public)
        if len(hits) > room and tally.public:
            # Leave the whole file for the next call rather than split its matches.
            tally.cut.append(f"match limit {MAX_MATCHES}")
            tally.after = furthest(last_done, tally.counts.passed)
            return
        tally.scanned += 1
        last_done = item.rel
        cut_here = len(hits) > MAX_MATCHES
        tally.public.extend(hits[:MAX_MATCHES])
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
    if tally.counts.budget_stop:  # the walk ended early: not complete
        tally.cut.append(BUDGET_CUT)
        tally.after = furthest(last_done, tally.counts.passed)


def _render(fields: SearchTreeFields, rel: str, tally: _Tally) -> tuple[str, str]:
    matches = tally.public
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
    if fields.resume_after is not None:
        header.append(f"# after: {display_name(fields.resume_after)}")
    header.append(
        f"# files scanned: {tally.scanned}; skipped: {tally.skipped} ({tally.binary} binary, "
        f"{tally.too_large} over {MAX_FILE_BYTES} bytes, {counts.ignored} ignored by "
        f".gitignore, {counts.filtered} left out by glob/exclude, {counts.unreadable} "
        f"unreadable, {counts.odd_names} with names that cannot be shown on one line)"
    )
    if counts.gitignore_dropped:
        header.append(
            f"# .gitignore pattern lines not applied: {counts.gitignore_dropped} (only the "
            f"first {MAX_GITIGNORE_LINES} of a file and {MAX_WALK_GITIGNORE_LINES} of a "
            "search are used)"
        )
    if tally.secret_files:
        header.append(
            f"# secret-looking files not searched: {tally.secret_files} (never opened; "
            "fs.search of one, approved by the user, searches it)"
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
    cursor = None if tally.after is None else resume_cursor(tally.after)
    if cursor is not None:
        header.append(f"# more: {cursor}")
    summary = (
        f"Found {counted(len(matches), 'match', 'matches')} in {visible_name(rel)} "
        f"({counted(tally.scanned, 'file')} scanned)"
    )
    if cut and cut[0] == BUDGET_CUT:
        summary += "; stopped: this reply's work budget is used up; send the same search " + (
            f"with {cursor} in a later reply for the next files"
            if cursor is not None
            else "in a later reply"
        )
    elif cut:
        summary += f"; truncated at the {cut[0]}: " + (
            f"send the same search with {cursor} for the next files"
            if cursor is not None
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
    given = fields.resume_after
    if given is not None and real.is_dir():
        after = check_after(given, rel, "ERR_INVALID_FIELD")
    elif given is not None:  # a single file has nothing to resume; checked all the same
        from ..store.workspace import check_path_text

        check_path_text(given)
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
    summary, details = _render(fields, rel, tally)
    return Outcome(True, summary, details)


ACTIONS = (
    ActionSpec(
        "fs.searchTree",
        Kind.READ,
        SearchTreeFields,
        run_search_tree,
        f"Find a substring (or an RE2 regex, no lookaround or backreferences) in every "
        f"text file under a folder, optionally only files matching glob and not exclude "
        f"(comma-separated gitignore-style patterns); max {MAX_MATCHES} matches and "
        f"{MAX_FILES} files per call, then the '# more:' line says how to resume; files over "
        f"{MAX_FILE_BYTES} bytes skipped; .gitignore respected.",
        Secrecy.PER_FILE,
    ),
)

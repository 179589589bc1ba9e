"""The outline of the rest of the workspace, ranked by relevance and cut to a budget.

A context message sends a few files whole; the rest of the workspace goes in as an
outline so the model knows what exists. Outlining everything is unbounded (hundreds of
files), so the outline is a map in the manner of aider's repository map:

1. ``index_workspace`` walks the tree as a folder outline does (.gitignore respected,
   ``.git`` never entered) and keeps, per file with a grammar, its outline lines (the
   outline engine's, read from the kept outlines when the file is unchanged, so nothing
   is parsed twice), the name each line defines, and the names the file uses (called,
   capitalized or imported: a regular-expression stand-in for tree-sitter's reference
   tags).
   Secret-looking files are never read for it: they neither appear in the map nor shape
   it.
2. ``rank_lines`` builds a graph of files: an edge from a file that uses a name to each
   file that defines it, weighted by how often it is used (a square root, so one file
   repeating a name does not dominate), more for the ticked files' uses, for names the
   task mentions and for long specific names, less for private (``_x``) names, short
   plain names and names defined in many files. PageRank personalized toward the ticked
   files, the files that define names the task mentions and the files the task names by
   path gives each file a rank (damping 0.5, so the walk stays near them); a file's rank
   flows to the definitions it uses along its edges. The definitions of a name the task
   mentions as code (``convert_type``, ``TextWrapper``, `` `run` ``, ``run()``: not a plain
   word such as "help") and the lines of a file it names come first. Lines no edge
   reaches keep a small share of their file's rank, so with room to spare the map is the
   whole outline.
3. The best lines are kept, with the lines that enclose them (a method shows its class),
   in file order under each file, the files most relevant first, as many as fit in the
   budget: at most ``tokens * 4`` characters, header included (the estimate of
   ``context_pack``: characters / 4).

Pure but for ``index_workspace``, which reads the workspace through the jail.
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import OperatorError
from ..protocol.context_pack import CHARS_PER_TOKEN, PackedFile
from ..store.tree_walk import WalkCounts, read_limited

if TYPE_CHECKING:
    from ..actions.base import OutlineMemo
    from ..store.workspace import Workspace

DEFAULT_MAP_TOKENS = 2000
# PageRank's damping: the walk returns to the ticked files (and the task's) half the time,
# not the usual 15%, so the rank stays near them: relevance to them, not the tree's most
# used files (with 0.85, click's globals.py outranked what the ticked parser.py imports).
RELEVANCE_ALPHA = 0.5
MAX_MAP_FILES = 3000
MAX_MAP_TOKENS = 1_000_000
# Languages whose structures are data or headings: their lines show, but define no names.
_NO_NAMES = frozenset({"markdown", "json", "yaml", "toml", "css", "html"})
IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_KEYWORD_NAME = re.compile(
    r"\b(?:def|class|func|function|fn|struct|interface|trait|enum|type|module|namespace|"
    r"protocol|record|object|union|mod|macro|extension)\b\s*\*?\s*(?:\([^)]*\)\s*)?"
    r"([A-Za-z_$][A-Za-z0-9_$]*)"
)
_BINDING_NAME = re.compile(r"\b(?:const|let|var|val)\s+([A-Za-z_$][A-Za-z0-9_$]*)\s*[=:]")
_NAME_STOP = re.compile(r"[(=:{<\[]")
# Words that are never a definition's name (what the fallback could otherwise pick).
_NOT_NAMES = frozenset(
    "if else for while return switch case public private protected static final abstract "  # noqa: SIM905
    "async export default extends implements new self this void".split()
)


def defined_name(line: str) -> str:
    """The name a definition line defines (``def load(`` -> ``load``), "" when unsure."""
    for found in (*_KEYWORD_NAME.finditer(line), *_BINDING_NAME.finditer(line)):
        before = line[: found.start()]
        if before.count("(") <= before.count(")"):  # not a parameter's type (C's struct x)
            return found.group(1)
    words = IDENTIFIER.findall(_NAME_STOP.split(line, maxsplit=1)[0])
    name = words[-1] if words else ""
    return "" if name in _NOT_NAMES else name


_CALLED = re.compile(r"([A-Za-z_$][A-Za-z0-9_$]*)\s*\(")
_IMPORT_LINE = re.compile(r"^[ \t]*(?:from[ \t]+\S+[ \t]+)?import\b(.*)$", re.MULTILINE)


def used_identifiers(text: str) -> Counter[str]:
    """The names a file uses, as references: names called (``load(``), capitalized names
    (classes, types, constants) and names on import lines. A lower-case name only read
    (a local ``lines``) is not counted: it would tie every file to any method of that
    name."""
    used = Counter(_CALLED.findall(text))
    used.update(name for name in IDENTIFIER.findall(text) if name[:1].isupper())
    for imported in _IMPORT_LINE.findall(text):
        used.update(name for name in IDENTIFIER.findall(imported) if not name[:1].isupper())
    return used


@dataclass(frozen=True)
class MapFile:
    """One outlined file as the map knows it: its outline lines, the name each defines, the
    names it uses."""

    rel: str
    note: str  # "python, 120 lines", as a folder outline heads the file
    lines: tuple[str, ...]  # outline lines as fs.outline renders them
    names: tuple[str, ...]  # the name each line defines ("" for none)
    uses: Counter[str]  # identifiers the file uses, with counts


@dataclass(frozen=True)
class MapIndex:
    """The workspace's outlined files, in walk order: what the map is ranked and cut from."""

    files: tuple[MapFile, ...]
    withheld: int  # secret-looking files: never read for the map
    cut: bool  # the tree has more than MAX_MAP_FILES outlined files: the rest are not mapped


def _outline_entry(line: str) -> tuple[int, str]:
    """The nesting depth of a rendered outline line and its definition text."""
    stripped = line.lstrip(" ")
    depth = (len(line) - len(stripped)) // 2
    return depth, stripped.split(": ", 1)[1] if ": " in stripped else stripped


def map_file(rel: str, data: bytes, lines: Sequence[str], note: str) -> MapFile:
    language = note.split(",", 1)[0]
    if language in _NO_NAMES:
        names = tuple("" for _ in lines)
    else:
        names = tuple(defined_name(_outline_entry(line)[1]) for line in lines)
    text = data.decode("utf-8", errors="replace")
    return MapFile(rel, note, tuple(lines), names, used_identifiers(text))


def index_workspace(
    workspace: Workspace,
    memo: OutlineMemo | None = None,
    stop: Callable[[], bool] | None = None,
    limit: int = MAX_MAP_FILES,
) -> MapIndex:
    """Every outlinable file's outline, names and identifiers (secret-looking files never)."""
    from ..actions.outline import DEPTH_DEFAULT, MAX_FILE_BYTES, files_under, outline_lines
    from ..engines.structure import language_for_path

    files: list[MapFile] = []
    withheld = 0
    cut = False
    for item in files_under(workspace, ".", WalkCounts(), None):
        if stop is not None and stop():
            break
        if language_for_path(item.rel) is None:
            continue
        if item.is_secret(workspace):
            withheld += 1
            continue
        if len(files) >= limit:
            cut = True
            break
        try:
            handle = item.open()
        except OSError:
            continue
        try:
            data = read_limited(handle, MAX_FILE_BYTES)
        except OSError:
            continue
        finally:
            os.close(handle)
        if data is None or b"\0" in data[:8192]:
            continue
        try:
            lines, note = outline_lines(data, item.rel, DEPTH_DEFAULT, memo, values=True)
        except OperatorError:
            continue
        files.append(map_file(item.rel, data, lines, note))
    if memo is not None:
        memo.flush()
    return MapIndex(tuple(files), withheld, cut)


def _specific(name: str) -> bool:
    """``snake_case`` or ``camelCase``: a name that is no plain word."""
    return "_" in name.strip("_") or any(c.isupper() for c in name[1:])


def _as_code(name: str, task: str) -> bool:
    """Whether the task names ``name`` as code rather than as a word."""
    if _specific(name):
        return True
    return re.search(rf"`{re.escape(name)}\b|\b{re.escape(name)}\(", task) is not None


def named_as_code(name: str, task: str) -> bool:
    """Whether ``task`` names ``name`` as code (see ``_as_code``): the context pack sends
    such a definition of a chosen file instead of the whole file."""
    return _as_code(name, task)


def _weight(name: str, mentioned: set[str], definers: int) -> float:
    weight = 1.0
    if name in mentioned:
        weight *= 10
    specific = _specific(name)
    if len(name) >= 8 and specific:
        weight *= 10
    if name.startswith("_"):
        weight *= 0.1
    if len(name) < 5 and not specific:
        weight *= 0.2  # ``run``, ``is``, ``of``: too common a word to say much
    if definers > 5:
        weight *= 0.1
    return weight


def _named_files(task: str, rels: Iterable[str]) -> set[str]:
    """Files the task names by path or by file name (``formatting.py``)."""
    words = set(re.findall(r"[\w./-]+", task))
    found = set()
    for rel in rels:
        base = rel.rsplit("/", 1)[-1]
        if rel in words or (base in words and "." in base):
            found.add(rel)
    return found


def pagerank(
    edges: dict[tuple[str, str], float],
    nodes: Iterable[str],
    wanted: dict[str, float],
    alpha: float = 0.85,
    tolerance: float = 1e-6,
    rounds: int = 100,
) -> dict[str, float]:
    """Personalized PageRank by power iteration, as networkx's reference ``pagerank``
    computes it: out-weights normalized, a dangling file's rank and the teleport both go
    to the ``wanted`` files (to all alike when none is wanted). Pure Python: networkx's
    own pagerank needs numpy and scipy, too much to load for a few hundred files."""
    order = list(dict.fromkeys([*nodes, *(node for edge in edges for node in edge)]))
    if not order:
        return {}
    out: dict[str, list[tuple[str, float]]] = defaultdict(list)
    total: dict[str, float] = defaultdict(float)
    for (source, target), weight in edges.items():
        if weight > 0:
            out[source].append((target, weight))
            total[source] += weight
    known = set(order)
    teleport = {node: value for node, value in wanted.items() if node in known and value > 0}
    mass = sum(teleport.values())
    if mass <= 0:
        teleport = dict.fromkeys(order, 1.0)
        mass = float(len(order))
    teleport = {node: value / mass for node, value in teleport.items()}
    dangling = [node for node in order if total.get(node, 0.0) == 0.0]
    ranks = dict.fromkeys(order, 1.0 / len(order))
    for _ in range(rounds):
        last = ranks
        ranks = dict.fromkeys(order, 0.0)
        spread = alpha * sum(last[node] for node in dangling)
        for node in order:
            share = alpha * last[node] / total[node] if node in total else 0.0
            for target, weight in out.get(node, ()):
                ranks[target] += share * weight
        for node, value in teleport.items():
            ranks[node] += spread * value + (1.0 - alpha) * value
        if sum(abs(ranks[node] - last[node]) for node in order) < len(order) * tolerance:
            break
    return ranks


@dataclass(frozen=True)
class RepoMap:
    """The outline of the rest of the workspace, and how much of it fit the budget."""

    text: str  # "" when nothing fits or nothing is left to outline
    files: int  # files shown
    total_files: int  # files that could have been shown
    lines: int  # outline lines shown
    total_lines: int


def rank_lines(
    index: MapIndex, packed: Sequence[PackedFile], task: str
) -> list[tuple[float, str, int]]:
    """Every outline line of the files not packed, best first: (score, path, line index)."""
    packed_rels = {p.rel for p in packed}
    uses: dict[str, Counter[str]] = {f.rel: f.uses for f in index.files}
    for p in packed:
        uses[p.rel] = used_identifiers(p.text)
    defines: dict[str, set[str]] = defaultdict(set)
    for file in index.files:
        for name in file.names:
            if name:
                defines[name].add(file.rel)
    task_words = set(IDENTIFIER.findall(task))
    mentioned = {word for word in task_words if word in defines}
    as_code = {name for name in mentioned if _as_code(name, task)}
    edges: dict[tuple[str, str], float] = defaultdict(float)
    edge_names: dict[str, dict[tuple[str, str], float]] = defaultdict(dict)
    for user, counts in uses.items():
        boost = 50.0 if user in packed_rels else 1.0
        for name, count in counts.items():
            definers = defines.get(name)
            if not definers or len(name) < 3:  # ``A``, ``T``, ``f``: no telling which
                continue
            weight = _weight(name, mentioned, len(definers)) * math.sqrt(count) * boost
            for definer in definers:
                if definer != user:
                    edges[(user, definer)] += weight
                    edge_names[user][(definer, name)] = weight
    wanted: dict[str, float] = dict.fromkeys(packed_rels, 1.0)
    for name in mentioned:
        for definer in defines[name]:
            wanted[definer] = wanted.get(definer, 0.0) + 1.0
    named = _named_files(task, uses)
    for rel in named:
        wanted[rel] = wanted.get(rel, 0.0) + 1.0
    ranks = pagerank(edges, uses, wanted, alpha=RELEVANCE_ALPHA)
    out_weight: dict[str, float] = defaultdict(float)
    for (user, _definer), weight in edges.items():
        out_weight[user] += weight
    flowed: dict[tuple[str, str], float] = defaultdict(float)
    for user, targets in edge_names.items():
        share = ranks.get(user, 0.0) / out_weight[user]
        for key, weight in targets.items():
            flowed[key] += share * weight
    scored: list[tuple[float, str, int]] = []
    for file in index.files:
        if file.rel in packed_rels:
            continue
        base = ranks.get(file.rel, 0.0) * 1e-3
        for at, name in enumerate(file.names):
            score = base / (1 + at) + flowed.get((file.rel, name), 0.0)
            if name in as_code or file.rel in named:
                score += 1.0 + score  # named in the task: before anything else
            scored.append((score, file.rel, at))
    scored.sort(key=lambda x: (-x[0], x[1], x[2]))
    return scored


def _enclosing(lines: Sequence[str], at: int) -> list[int]:
    """The lines that enclose line ``at`` (its class, for a method), nearest last."""
    depth = _outline_entry(lines[at])[0]
    found: list[int] = []
    for before in range(at - 1, -1, -1):
        if depth == 0:
            break
        level = _outline_entry(lines[before])[0]
        if level < depth:
            found.append(before)
            depth = level
    return found[::-1]


def _render(
    index: MapIndex, chosen: Sequence[tuple[float, str, int]], header: list[str]
) -> tuple[str, int, int]:
    by_rel = {file.rel: file for file in index.files}
    picked: dict[str, set[int]] = {}
    for _score, rel, at in chosen:
        lines = by_rel[rel].lines
        picked.setdefault(rel, set()).update([at, *_enclosing(lines, at)])
    out = list(header)
    shown = 0
    for rel, ats in picked.items():  # in the order of each file's best line
        file = by_rel[rel]
        out.append(f"{rel} ({file.note})")
        out.extend(f"  {file.lines[at]}" for at in sorted(ats))
        shown += len(ats)
    return "\n".join(out) + "\n", len(picked), shown


def repo_map(
    index: MapIndex, packed: Sequence[PackedFile], task: str, tokens: int = DEFAULT_MAP_TOKENS
) -> RepoMap:
    """The ranked outline of the files not packed, at most ``tokens * 4`` characters."""
    ranked = rank_lines(index, packed, task)
    packed_rels = {p.rel for p in packed}
    total_files = sum(1 for f in index.files if f.rel not in packed_rels and f.lines)
    budget = tokens * CHARS_PER_TOKEN
    if tokens <= 0 or not ranked:
        return RepoMap("", 0, total_files, 0, len(ranked))

    def header(files: int, lines: int) -> list[str]:
        head = [
            f"# the most relevant structures of the other files, for the files above and the "
            f"task: {lines} of {len(ranked)} lines from {files} of {total_files} files, cut to "
            f"about {tokens} tokens (characters / 4); fs.outline shows any file or folder whole"
        ]
        if index.withheld:
            head.append(f"# {index.withheld} secret-looking file(s) never outlined here")
        if index.cut:
            head.append(f"# only the first {len(index.files)} outlinable files were ranked")
        return head

    def made(count: int) -> tuple[str, int, int]:
        text, files, lines = _render(index, ranked[:count], [])
        top = "\n".join(header(files, lines)) + "\n"
        return top + text, files, lines

    # Each line costs at least a few characters: no more lines than that can fit.
    low, high = 0, min(len(ranked), budget // 8 + 1)
    best: tuple[str, int, int] | None = None
    while low < high:
        middle = (low + high + 1) // 2
        attempt = made(middle)
        if len(attempt[0]) <= budget:
            best, low = attempt, middle
        else:
            high = middle - 1
    if best is None:
        return RepoMap("", 0, total_files, 0, len(ranked))
    text, files, lines = best
    return RepoMap(text, files, total_files, lines, len(ranked))

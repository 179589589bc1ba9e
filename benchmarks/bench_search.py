"""fs.searchTree benchmarks: against grep -rnF and grep -rnE, and capped cost against tree size.

- plain search of 300 files x 80 KB (every file read) vs ``grep -rnF`` (target <= 2x)
- regex search of the same tree vs ``grep -rnE`` with the same pattern (target <= 2x)
- a capped search (no match, so the 300-file cap binds) on a 100,000-file tree vs the same
  search on a 1,000-file tree of the same shape (target <= 1.5x): the walk stops at the cap

- the same plain and regex searches as whole ``llm-operator exec`` processes, marginal
  (minus the same exec on an empty workspace), against grep's marginal cost (target <= 2x),
  after the RE2 engine change and before it (the old Python ``re`` engine put back in the
  child process by a shim, ``_PYTHON_RE_SHIM``; the product has no such switch)

grep is timed as its marginal cost (minus a run on an empty folder: process start-up), and
fs.searchTree in process through a Session, as the window runs it.
Run: python benchmarks/bench_search.py
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_core import _command, _make_tree


def _session_search(tree: Path, extra: str) -> Callable[[], None]:
    from llm_operator.core.plan.session import Session
    from llm_operator.core.store.workspace import Workspace

    session = Session(Workspace(tree), None)
    reply = _command(0, "fs.searchTree", ".", extra)

    def ours() -> None:
        session.memory.forget_all()
        run = session.prepare(reply)
        results = session.execute(run, {})
        assert results[0].ok, results[0].outcome.summary

    return ours


def _interleaved(runs: list[Callable[[], object]], repeat: int) -> list[float]:
    """Median seconds of each run, sampled in turn, so a change in the machine's load
    (the machine is shared) hits every run alike."""
    samples: list[list[float]] = [[] for _ in runs]
    for _ in range(repeat):
        for index, run in enumerate(runs):
            start = time.perf_counter()
            run()
            samples[index].append(time.perf_counter() - start)
    return [statistics.median(taken) for taken in samples]


def _grep_runs(grep: str, flag: str, pattern: str, tree: Path, empty: Path) -> list[Any]:
    def on(folder: Path) -> Callable[[], object]:
        return lambda: subprocess.run(
            [grep, flag, pattern, str(folder)], stdout=subprocess.DEVNULL, check=False
        )

    return [on(tree), on(empty)]


def bench_against_grep(tmp: Path) -> list[str]:
    tree = tmp / "tree"
    _make_tree(tree, 300, 80_000)
    empty = tmp / "empty-tree"
    empty.mkdir()
    grep = shutil.which("grep")
    if grep is None:
        return ["fs.searchTree: grep not found, no comparison"]
    lines = []
    cases = [
        ("plain", "query: needle_marker\n", "-rnF", "needle_marker"),
        ("regex", "query: needle_[a-z]+\nregex: true\n", "-rnE", "needle_[a-z]+"),
    ]
    for label, extra, flag, pattern in cases:
        ours = _session_search(tree, extra)
        grep_tree, grep_empty = _grep_runs(grep, flag, pattern, tree, empty)
        ours()
        grep_tree()
        t_ours, t_tree, t_empty = _interleaved([ours, grep_tree, grep_empty], 15)
        t_grep = t_tree - t_empty
        lines.append(
            f"fs.searchTree {label} 300 files x 80 KB: {t_ours * 1000:.1f} ms vs grep {flag} "
            f"{t_grep * 1000:.1f} ms (marginal) -> {t_ours / t_grep:.2f}x (target <= 2x)"
        )
    return lines


# Runs the command line with fs.searchTree's regexes on Python's backtracking re, as before
# the RE2 change, so the process benchmark can show both.
_PYTHON_RE_SHIM = """
import re, sys
from llm_operator.core.engines import line_search

class PythonRe:
    def __init__(self, source, case_sensitive):
        flags = re.MULTILINE | (0 if case_sensitive else re.IGNORECASE)
        self.pattern = re.compile(source.encode("utf-8"), flags)
    @classmethod
    def compile(cls, source, *, case_sensitive=True, whole_word=False):
        return cls(source, case_sensitive)
    def search(self, data, pos=0, end=None):
        found = self.pattern.search(data, pos, len(data) if end is None else end)
        return None if found is None else [found.span()]

line_search.LinearPattern = PythonRe
from llm_operator.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _exec_run(tree: Path, state: Path, reply: Path, engine: str) -> Callable[[], object]:
    prefix = ["-c", _PYTHON_RE_SHIM] if engine == "python-re" else ["-m", "llm_operator.cli"]
    command = [sys.executable, *prefix, "exec", "--workspace", str(tree)]
    command += ["--state-dir", str(state), "--no", str(reply)]

    def run() -> object:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        return done

    return run


def _fresh_exec(tree: Path, state: Path, reply: Path, engine: str) -> Callable[[], object]:
    """An exec run with a new state folder each time (a remembered id would be a repeat)."""
    run = _exec_run(tree, state, reply, engine)

    def fresh() -> object:
        shutil.rmtree(state, ignore_errors=True)
        return run()

    return fresh


def bench_processes(tmp: Path) -> list[str]:
    """Whole-process marginal cost of exec's search against grep's."""
    tree = tmp / "tree"
    if not tree.exists():
        _make_tree(tree, 300, 80_000)
    empty = tmp / "empty-ws"
    empty.mkdir(exist_ok=True)
    grep = shutil.which("grep")
    if grep is None:
        return ["fs.searchTree exec: grep not found, no comparison"]
    lines = []
    cases = [
        ("plain", "query: needle_marker\n", "-rnF", "needle_marker"),
        ("regex", "query: needle_[a-z]+\nregex: true\n", "-rnE", "needle_[a-z]+"),
    ]
    for number, (label, extra, flag, pattern) in enumerate(cases):
        reply = tmp / f"reply-{label}.txt"
        reply.write_text(_command(number, "fs.searchTree", ".", extra))
        engines = ["re2", "python-re"] if label == "regex" else ["re2"]
        for engine in engines:
            runs = [
                _fresh_exec(folder, tmp / f"state-{label}-{engine}-{folder.name}", reply, engine)
                for folder in (tree, empty)
            ]
            grep_tree, grep_empty = _grep_runs(grep, flag, pattern, tree, empty)
            for run in (*runs, grep_tree):
                run()
            t_tree, t_empty, g_tree, g_empty = _interleaved([*runs, grep_tree, grep_empty], 9)
            ours, theirs = t_tree - t_empty, g_tree - g_empty
            lines.append(
                f"exec fs.searchTree {label} ({engine}) 300 files x 80 KB, marginal: "
                f"{ours * 1000:.1f} ms vs grep {flag} {theirs * 1000:.1f} ms -> "
                f"{ours / theirs:.2f}x (target <= 2x)"
            )
    return lines


def _make_wide_tree(root: Path, files: int) -> None:
    """``files`` small files, 100 per folder, under 10 top folders (same shape at any size)."""
    text = "alpha beta gamma delta\n" * 20
    folders = max(1, files // 100)
    per_top = max(1, folders // 10)
    for n in range(folders):
        folder = root / f"top{n // per_top:02d}" / f"sub{n % per_top:04d}"
        folder.mkdir(parents=True, exist_ok=True)
        for k in range(100):
            (folder / f"f{k:03d}.txt").write_text(text)


def bench_capped(tmp: Path) -> list[str]:
    small = tmp / "small"
    large = tmp / "large"
    _make_wide_tree(small, 1_000)
    _make_wide_tree(large, 100_000)
    runs = [_session_search(tree, "query: text found nowhere\n") for tree in (small, large)]
    for run in runs:
        run()
    t_small, t_large = _interleaved(runs, 15)
    return [
        f"fs.searchTree capped (no match, 300-file cap) on 100,000 files: {t_large * 1000:.1f} ms "
        f"vs on 1,000 files {t_small * 1000:.1f} ms -> {t_large / t_small:.2f}x (target <= 1.5x)"
    ]


def run() -> list[str]:
    tmp = Path(tempfile.mkdtemp(prefix="bench-search-"))
    try:
        return bench_against_grep(tmp) + bench_processes(tmp) + bench_capped(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    print("\n".join(run()))

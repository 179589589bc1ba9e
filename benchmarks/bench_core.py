"""Core benchmarks: exec of a big reply, exec start-up, fs.searchTree against grep.

Each figure is a median over repeated runs on this machine, printed next to the peer it is
compared with and the target ratio. Start-up runs take turns with ``python -c pass`` of the
same interpreter; both wall time and the child's CPU time are given, since on a loaded
machine the CPU time is the steadier of the two. Run: python benchmarks/bench_core.py
"""

from __future__ import annotations

import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PY = sys.executable
# Children may write bytecode caches, as an installed app does: with
# PYTHONDONTWRITEBYTECODE set, every start-up would compile every module again.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _median_seconds(run: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _command(index: int, action: str, path: str, extra: str = "") -> str:
    return (
        f"OPERATOR_CMD\nversion: 1\nid: c{index}\naction: {action}\npath: {path}\n"
        f"{extra}END_OPERATOR_CMD\n"
    )


def _make_workspace(root: Path) -> None:
    rng = random.Random(7)
    (root / "src").mkdir(parents=True)
    for n in range(20):
        lines = [f"def f{n}_{i}(x):\n    return x * {rng.randint(1, 99)}\n" for i in range(200)]
        (root / "src" / f"m{n}.py").write_text("".join(lines))


def _big_reply(commands: int, size: int) -> str:
    parts = []
    for i in range(commands):
        kind = i % 3
        path = f"src/m{i % 20}.py"
        if kind == 0:
            parts.append(_command(i, "fs.readSlice", path, f"start: {1 + i}\nlines: 40\n"))
        elif kind == 1:
            parts.append(_command(i, "fs.search", path, "query: return x\n"))
        else:
            parts.append(_command(i, "fs.stat", path))
    body = "\n".join(parts)
    filler = ("Here is my reasoning about the code base, step by step. " * 40 + "\n") * 1
    prose = []
    while len(body) + sum(len(p) for p in prose) < size:
        prose.append(filler)
    text = "".join(prose) + body
    return text[-size:] if len(text) > size else text


def _exec(workspace: Path, reply: Path) -> None:
    state = tempfile.mkdtemp(prefix="bench-state-")
    try:
        subprocess.run(
            [
                PY,
                "-m",
                "llm_operator.cli",
                "exec",
                "--workspace",
                str(workspace),
                "--state-dir",
                state,
                str(reply),
            ],
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=CHILD_ENV,
        )
    finally:
        shutil.rmtree(state, ignore_errors=True)


def _interleaved(runs: dict[str, Callable[[], object]], rounds: int) -> dict[str, Stats]:
    """Median wall time and child CPU time of each run, the runs taking turns each round,
    so that a change in the machine's load falls on all of them alike."""
    wall: dict[str, list[float]] = {name: [] for name in runs}
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            run()
            wall[name].append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {
        name: Stats(statistics.median(wall[name]), statistics.median(cpu[name])) for name in runs
    }


@dataclass(frozen=True)
class Stats:
    wall: float
    cpu: float


def _startup_line(label: str, run: Stats, base: Stats) -> str:
    return (
        f"exec start-up ({label}): {run.wall * 1000:.0f} ms vs python -c pass "
        f"{base.wall * 1000:.0f} ms -> {run.wall / base.wall:.1f}x wall; CPU "
        f"{run.cpu * 1000:.0f} ms vs {base.cpu * 1000:.0f} ms -> {run.cpu / base.cpu:.1f}x "
        "(target <= 8x)"
    )


def bench_exec(tmp: Path) -> list[str]:
    workspace = tmp / "ws"
    _make_workspace(workspace)
    big = tmp / "big.txt"
    big.write_text(_big_reply(100, 200_000))
    one = tmp / "one.txt"
    one.write_text(_command(0, "fs.readSlice", "src/m0.py", "lines: 40\n"))
    empty = tmp / "empty.txt"
    empty.write_text("No commands in this reply.\n")
    _exec(workspace, one)  # warm the file cache and bytecode
    _exec(workspace, big)
    startup = _interleaved(
        {
            "pass": lambda: subprocess.run([PY, "-c", "pass"], check=False, env=CHILD_ENV),
            "one": lambda: _exec(workspace, one),
            "empty": lambda: _exec(workspace, empty),
            "big": lambda: _exec(workspace, big),
        },
        11,
    )
    t_big, t_one = startup["big"].wall, startup["one"].wall
    chars = len(big.read_text())
    return [
        f"exec {chars}-char reply with 100 commands: {t_big * 1000:.0f} ms vs one-command reply "
        f"{t_one * 1000:.0f} ms -> {t_big / t_one:.2f}x (target <= 1.5x)",
        _startup_line("reply without commands", startup["empty"], startup["pass"]),
        _startup_line("one fs.readSlice command", startup["one"], startup["pass"]),
    ]


def _make_tree(root: Path, files: int, size: int) -> None:
    rng = random.Random(11)
    words = ["alpha", "beta", "gamma", "delta", "value", "return", "import", "class", "self"]
    for n in range(files):
        folder = root / f"pkg{n % 10}"
        folder.mkdir(parents=True, exist_ok=True)
        lines = []
        total = 0
        while total < size:
            line = " ".join(rng.choice(words) for _ in range(10))
            if rng.random() < 0.0002:  # about 80 matches: every file is read
                line += " needle_marker"
            lines.append(line)
            total += len(line) + 1
        (folder / f"file{n}.txt").write_text("\n".join(lines) + "\n")


def bench_search_tree(tmp: Path) -> list[str]:
    from llm_operator.core.plan.session import Session
    from llm_operator.core.store.workspace import Workspace

    tree = tmp / "tree"
    _make_tree(tree, 300, 80_000)
    empty = tmp / "empty-tree"
    empty.mkdir()
    session = Session(Workspace(tree), None)
    reply = _command(0, "fs.searchTree", ".", "query: needle_marker\n")

    def ours() -> None:
        session.memory.forget_all()
        run = session.prepare(reply)
        results = session.execute(run, {})
        assert results[0].ok, results[0].outcome.summary

    ours()
    t_ours = _median_seconds(ours, 9)
    grep = shutil.which("grep")
    if grep is None:
        return ["fs.searchTree: grep not found, no comparison"]

    def grep_tree() -> None:
        subprocess.run(
            [grep, "-rnF", "needle_marker", str(tree)], stdout=subprocess.DEVNULL, check=False
        )

    def grep_empty() -> None:
        subprocess.run(
            [grep, "-rnF", "needle_marker", str(empty)], stdout=subprocess.DEVNULL, check=False
        )

    grep_tree()
    t_grep = _median_seconds(grep_tree, 9) - _median_seconds(grep_empty, 9)
    return [
        f"fs.searchTree 300 files x 80 KB: {t_ours * 1000:.1f} ms vs grep -rnF "
        f"{t_grep * 1000:.1f} ms (marginal) -> {t_ours / t_grep:.2f}x (target <= 2x)"
    ]


def run() -> list[str]:
    tmp = Path(tempfile.mkdtemp(prefix="bench-core-"))
    try:
        return bench_exec(tmp) + bench_search_tree(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    print("\n".join(run()))

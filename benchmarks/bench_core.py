"""Core benchmarks: file access, exec of a big reply, exec start-up (searchTree: bench_search).

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


def _exec(workspace: Path, reply: Path, state: Path | None = None) -> None:
    """One exec run. With ``state`` it uses that state folder, as a user's runs do; without,
    a new one (a first run ever: the store is created; its set-up is not timed apart)."""
    fresh = state is None
    folder = Path(tempfile.mkdtemp(prefix="bench-state-")) if state is None else state
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
                str(folder),
                str(reply),
            ],
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=CHILD_ENV,
        )
    finally:
        if fresh:
            shutil.rmtree(folder, ignore_errors=True)


class _FreshIds:
    """Writes the one-read reply under a new id before each run, so a kept state folder
    runs it each time instead of answering it as a repeat."""

    def __init__(self, reply: Path) -> None:
        self.reply = reply
        self.count = 0

    def write(self) -> Path:
        self.count += 1
        self.reply.write_text(_command(self.count, "fs.readSlice", "src/m0.py", "lines: 40\n"))
        return self.reply


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
    state = tmp / "state"  # the user's state folder, kept between runs as the app keeps it
    ids = _FreshIds(tmp / "one-kept.txt")
    _exec(workspace, one)  # warm the file cache and bytecode
    _exec(workspace, ids.write(), state)  # create the kept store once
    _exec(workspace, big)
    startup = _interleaved(
        {
            "pass": lambda: subprocess.run([PY, "-c", "pass"], check=False, env=CHILD_ENV),
            "one": lambda: _exec(workspace, ids.write(), state),
            "first": lambda: _exec(workspace, one),
            "empty": lambda: _exec(workspace, empty, state),
            "big": lambda: _exec(workspace, big),
        },
        11,
    )
    # Both on a new state folder, so the ratio is the reply's size alone.
    t_big, t_one = startup["big"].wall, startup["first"].wall
    chars = len(big.read_text())
    return [
        f"exec {chars}-char reply with 100 commands: {t_big * 1000:.0f} ms vs one-command reply "
        f"{t_one * 1000:.0f} ms -> {t_big / t_one:.2f}x (target <= 1.5x)",
        _startup_line("reply without commands", startup["empty"], startup["pass"]),
        _startup_line("one fs.readSlice command", startup["one"], startup["pass"]),
        _startup_line(
            "one fs.readSlice, first run on a new state folder", startup["first"], startup["pass"]
        ),
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


def _plain_atomic_write(target: Path, data: bytes) -> None:
    """The peer: an atomic write by path name (temp, fsync, rename, folder fsync)."""
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=".peer-", suffix=".tmp")
    with os.fdopen(handle, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temp, target)
    folder = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def bench_file_access(tmp: Path) -> list[str]:
    """fs.read's file access and the approved write, against plain by-name file I/O."""
    from llm_operator.core.changes import ChangeSet, FileChange
    from llm_operator.core.store.applying import apply_changeset
    from llm_operator.core.store.files import find_file, read_bytes
    from llm_operator.core.store.workspace import Workspace

    root = tmp / "access"
    deep = root / "a" / "b" / "c" / "d" / "e" / "f"
    deep.mkdir(parents=True)
    rels = [f"a/b/c/d/e/f/m{n}.py" for n in range(50)]
    for rel in rels:
        (root / rel).write_bytes(b"x = 1\n" * 2000)
    workspace = Workspace(root)

    def ours_read() -> None:
        for rel in rels:
            read_bytes(find_file(workspace, rel))

    def plain_read() -> None:
        for rel in rels:
            (root / rel).read_bytes()

    t_read = _median_seconds(ours_read, 15) / len(rels)
    t_plain_read = _median_seconds(plain_read, 15) / len(rels)
    target = root / "a" / "b" / "w.txt"
    target.write_bytes(b"0")
    versions = [str(n).encode() * 1000 for n in range(1, 40)]
    state = {"now": b"0"}

    def ours_write() -> None:
        after = versions[len(state["now"]) % len(versions)]
        change = FileChange("a/b/w.txt", state["now"], after)
        apply_changeset(workspace, ChangeSet((change,)), None)
        state["now"] = after

    def plain_write() -> None:
        _plain_atomic_write(root / "a" / "b" / "peer.txt", versions[0])

    t_write = _median_seconds(ours_write, 31)
    t_plain_write = _median_seconds(plain_write, 31)
    return [
        f"read a 12 KB file 7 folders deep (find_file + read_bytes): {t_read * 1e6:.0f} us vs "
        f"Path.read_bytes {t_plain_read * 1e6:.0f} us -> {t_read / t_plain_read:.1f}x",
        f"approved write of one file (stale check + atomic write): {t_write * 1000:.2f} ms vs "
        f"plain temp+fsync+rename {t_plain_write * 1000:.2f} ms -> "
        f"{t_write / t_plain_write:.2f}x",
    ]


def run() -> list[str]:
    tmp = Path(tempfile.mkdtemp(prefix="bench-core-"))
    try:
        return bench_file_access(tmp) + bench_exec(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    print("\n".join(run()))

"""State store benchmarks: what an approved write costs in ``exec`` next to a read.

Side by side in one run, interleaved so machine load hits every kind alike:
- exec of one read command (fs.stat) — the baseline;
- exec of one approved write (fs.write --yes): the write lock, the intent record, the
  atomic file write with its fsyncs, the commit with the session memory. Target <= 1.3x;
- exec of a 100-write batch: reported with its cost per write.
Then, in-process, what fsync costs per file: writing 100 files atomically with and
without the file and folder fsyncs, and the store's own per-write records.

Each exec gets fresh command ids (a repeat would not write). Medians of interleaved runs.
Run: python benchmarks/bench_store.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

PY = sys.executable
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ROUNDS = 11
TARGET_ONE_WRITE = 1.3


def _block(cmd_id: str, action: str, path: str, extra: str = "") -> str:
    return (
        f"OPERATOR_CMD\nversion: 1\nid: {cmd_id}\naction: {action}\npath: {path}\n"
        f"{extra}END_OPERATOR_CMD\n"
    )


def _exec(workspace: Path, state: Path, reply: str) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [
            PY,
            "-m",
            "llm_operator.cli",
            "exec",
            "--yes",
            "--workspace",
            str(workspace),
            "--state-dir",
            str(state),
        ],
        input=reply,
        capture_output=True,
        text=True,
        env=CHILD_ENV,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"exec failed: {done.stderr}\n{done.stdout[:2000]}")
    return elapsed


def _fsync_cost(folder: Path) -> tuple[float, float]:
    """Seconds per file: atomic write with fsyncs, and the same without them."""
    from llm_operator.core.store import applying, atomic

    files = 100

    def with_fsync(tag: str) -> None:
        for n in range(files):
            applying.write_file_atomically(folder / f"f{n}.txt", f"{tag}{n}\n".encode(), None)

    def without_fsync(tag: str) -> None:
        for n in range(files):
            target = folder / f"g{n}.txt"
            tmp = target.with_name(atomic.temp_name_for(target.name))
            tmp.write_bytes(f"{tag}{n}\n".encode())
            os.replace(tmp, target)

    timings: dict[str, list[float]] = {"sync": [], "nosync": []}
    for rounds in range(5):
        for name, run in (("sync", with_fsync), ("nosync", without_fsync)):
            start = time.perf_counter()
            run(str(rounds))
            timings[name].append(time.perf_counter() - start)
    return (
        statistics.median(timings["sync"]) / files,
        statistics.median(timings["nosync"]) / files,
    )


def _store_record_cost(workspace: Path, state: Path) -> float:
    """Seconds per write of the store's own work in a 100-write batch run in-process."""
    from llm_operator.core.plan.run import APPROVE
    from llm_operator.core.plan.session import Session
    from llm_operator.core.store.workspace import Workspace

    session = Session(Workspace(workspace), state)
    samples = []
    for rounds in range(3):
        text = "".join(
            _block(f"p{rounds}-{n}", "fs.write", f"batch/p{n}.txt", f"content: v{rounds}\n")
            for n in range(100)
        )
        run = session.prepare(text)
        start = time.perf_counter()
        session.execute(run, {p.index: APPROVE for p in run.pending})
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) / 100


def run() -> list[str]:
    with tempfile.TemporaryDirectory(prefix="bench-store-") as tmp:
        root = Path(tmp)
        workspace, state = root / "ws", root / "state"
        (workspace / "batch").mkdir(parents=True)
        (workspace / "one.txt").write_text("start\n")
        _exec(workspace, state, _block("warm", "fs.stat", "one.txt"))  # creates the store
        kinds: dict[str, Callable[[int], str]] = {
            "read": lambda n: _block(f"r{n}", "fs.stat", "one.txt"),
            "one write": lambda n: _block(f"w{n}", "fs.write", "one.txt", f"content: v{n}\n"),
            "100 writes": lambda n: "".join(
                _block(f"b{n}-{i}", "fs.write", f"batch/f{i}.txt", f"content: v{n}\n")
                for i in range(100)
            ),
        }
        samples: dict[str, list[float]] = {kind: [] for kind in kinds}
        for n in range(ROUNDS):
            for kind, reply in kinds.items():
                samples[kind].append(_exec(workspace, state, reply(n)))
        median = {kind: statistics.median(values) for kind, values in samples.items()}
        synced, unsynced = _fsync_cost(root / "ws" / "batch")
        store_per_write = _store_record_cost(workspace, state)
    base = median["read"]
    one = median["one write"] / base
    batch = median["100 writes"]
    per_write = (batch - base) / 100
    return [
        f"exec, one read (fs.stat):        {base * 1000:8.1f} ms   1.00x (baseline)",
        f"exec, one approved write:        {median['one write'] * 1000:8.1f} ms   {one:.2f}x "
        f"(target <= {TARGET_ONE_WRITE}x: {'met' if one <= TARGET_ONE_WRITE else 'NOT met'})",
        f"exec, 100 approved writes:       {batch * 1000:8.1f} ms   {batch / base:.2f}x "
        f"({per_write * 1000:.2f} ms per write over the read)",
        f"atomic write with fsyncs:        {synced * 1000:8.2f} ms per file; without: "
        f"{unsynced * 1000:.2f} ms (fsync costs {(synced - unsynced) * 1000:.2f} ms per file)",
        f"in-process 100-write batch:      {store_per_write * 1000:8.2f} ms per write "
        "(intent record, file write, fsyncs, share of the commit)",
    ]


def main() -> int:
    for line in run():
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

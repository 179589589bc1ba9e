"""How long a worker thread's tree-sitter parse keeps another thread (the window's) waiting.

tree-sitter holds Python's lock for a whole parse. ``engines.structure.source.parse`` gives
a large text to tree-sitter in pieces off the main thread, letting other threads run in
between. Side by side, on about 500 KB of this repository's Python sources parsed in a
worker thread while the main thread ticks every millisecond: the longest gap between two
ticks, and the parse time, for a plain ``Parser.parse`` of the bytes and for ``parse``.
Target: the longest gap under 16 ms (one frame at 60 Hz), at most 1.5x the parse time.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Callable
from pathlib import Path

from llm_operator.core.engines.structure.source import parse, parser_for

SOURCES = Path(__file__).resolve().parents[1] / "src" / "llm_operator"
RUNS = 5
SIZE = 500_000


def _text() -> bytes:
    data = b"".join(p.read_bytes() for p in sorted(SOURCES.rglob("*.py")))
    while len(data) < SIZE:
        data += data
    return data[:SIZE].rsplit(b"\n", 1)[0] + b"\n"


def _measure(work: Callable[[], object]) -> tuple[float, float]:
    """(longest gap between the main thread's ticks, parse seconds) for one worker run."""
    done = threading.Event()
    took: list[float] = []

    def worker() -> None:
        start = time.perf_counter()
        work()
        took.append(time.perf_counter() - start)
        done.set()

    gaps: list[float] = []
    thread = threading.Thread(target=worker)
    last = time.perf_counter()
    thread.start()
    while not done.is_set():
        time.sleep(0.001)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    thread.join()
    return max(gaps), took[0]


def run() -> list[str]:
    data = _text()
    parser_for("python").parse(data)  # grammar loaded
    plain = [_measure(lambda: parser_for("python").parse(data)) for _ in range(RUNS)]
    pieces = [_measure(lambda: parse("python", data)) for _ in range(RUNS)]
    lines = []
    for label, runs in (("plain Parser.parse", plain), ("parse() in pieces", pieces)):
        gap = statistics.median(g for g, _ in runs) * 1000
        took = statistics.median(t for _, t in runs) * 1000
        lines.append(f"{label}: longest main-thread gap {gap:.1f} ms, parse {took:.1f} ms")
    gap_ratio = statistics.median(g for g, _ in pieces) / statistics.median(g for g, _ in plain)
    cost = statistics.median(t for _, t in pieces) / statistics.median(t for _, t in plain)
    gap_ms = statistics.median(g for g, _ in pieces) * 1000
    verdict = "ok" if gap_ms < 16 and cost <= 1.5 else "OVER TARGET"
    lines.append(
        f"{len(data) // 1000} KB in a worker: gap in pieces / plain {gap_ratio:.2f}x, parse time "
        f"in pieces / plain {cost:.2f}x (target: gap < 16 ms, time <= 1.5x) {verdict}"
    )
    return lines


if __name__ == "__main__":
    print("\n".join(run()))

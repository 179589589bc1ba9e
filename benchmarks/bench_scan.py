"""Scanner benchmark: a 200,000-character reply, clean and with chat-page copy damage.

The peer is the least any scanner must do: split the text into lines and strip each one.
Both run in this process, interleaved, and the median of each is printed with the ratio.
Run: python benchmarks/bench_scan.py
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from llm_operator.core.protocol.scanner import SCAN_LIMIT, scan

BLOCK = (
    "OPERATOR_CMD\nversion: 1\nid: c{n}\naction: fs.readSlice\npath: src/module_{n}.py\n"
    "start: 1\nlines: 80\nEND_OPERATOR_CMD\nI will read the next file now.\n"
)


def _reply() -> str:
    text = "".join(BLOCK.format(n=n) for n in range(3000))
    return text[:SCAN_LIMIT]


def _damaged(text: str) -> str:
    # Gemini-style doubled line breaks, a BOM, no-break spaces after every colon.
    return "\ufeff" + text.replace(": ", ":\u00a0").replace("\n", "\r\n\r\n")[:SCAN_LIMIT]


def _floor(text: str) -> None:
    for line in text.splitlines():
        line.strip()


def _pair(ours: Callable[[], object], peer: Callable[[], object], repeat: int = 9) -> str:
    mine: list[float] = []
    theirs: list[float] = []
    for _ in range(repeat):
        for run, samples in ((ours, mine), (peer, theirs)):
            start = time.perf_counter()
            run()
            samples.append(time.perf_counter() - start)
    a, b = statistics.median(mine), statistics.median(theirs)
    return f"{a * 1000:.1f} ms vs {b * 1000:.1f} ms (ratio {a / b:.1f}x)"


def run() -> list[str]:
    clean = _reply()
    damaged = _damaged(clean)
    return [
        "scan, 200,000-character reply of blocks vs split+strip: "
        + _pair(lambda: scan(clean), lambda: _floor(clean)),
        "scan, the same with copy damage (doubled CRLF, BOM, NBSP) vs split+strip: "
        + _pair(lambda: scan(damaged), lambda: _floor(damaged)),
    ]


if __name__ == "__main__":
    print("\n".join(run()))

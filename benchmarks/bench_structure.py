"""Marginal cost of structure.read on a 10,000-line Python file against ast.parse.

Both run many times in one process after a warm-up (the tree-sitter parser is created
once and cached); the figure is the median time per call.
"""

from __future__ import annotations

import ast
import statistics
import time
from collections.abc import Callable

from llm_operator.core.engines.structure import read_structure

TARGET_RATIO = 2.0
LINES = 10_000


def generate_module(lines: int = LINES) -> str:
    """A deterministic module of functions and classes, exactly ``lines`` lines long."""
    parts = ['"""Generated benchmark module."""', "", "import os", ""]
    index = 0
    while len(parts) < lines - 20:
        parts += [
            "",
            f"# Helper number {index}.",
            "@functools.cache",
            f"def function_{index}(a, b, c=None):",
            f'    """Compute value {index}."""',
            f"    total = a + b * {index}",
            "    if total > 10:",
            "        return [x for x in range(total) if x % 2]",
            '    return {"k": total, "v": c}',
            "",
            "",
            f"class Model{index}(Base):",
            f"    size = {index}",
            "",
            "    def scaled(self, factor):",
            "        return self.size * factor",
            "",
        ]
        index += 1
    parts += ["", "def last_function(x):", "    return x", ""]
    parts += [f"VALUE_{i} = {i}" for i in range(lines - len(parts))]
    return "\n".join(parts[:lines]) + "\n"


def _median_ms(call: Callable[[], object], runs: int) -> float:
    for _ in range(3):
        call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def run(runs: int = 30) -> list[str]:
    text = generate_module()
    data = text.encode("utf-8")
    assert text.count("\n") == LINES
    start = text.rindex("\nclass Model") + 1
    target = [text[start : text.index("\n", start)], "def scaled(self, factor):"]
    assert len(read_structure(data, "bench.py", target)["matches"]) == 1
    structure_ms = _median_ms(lambda: read_structure(data, "bench.py", target), runs)
    ast_ms = _median_ms(lambda: ast.parse(text), runs)
    ratio = structure_ms / ast_ms
    return [
        f"structure.read 10k-line py: {structure_ms:.1f} ms vs ast.parse {ast_ms:.1f} ms "
        f"-> {ratio:.2f}x (target <= {TARGET_RATIO:g}x)"
    ]


if __name__ == "__main__":
    for line in run():
        print(line)

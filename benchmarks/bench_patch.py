"""fs.patch in-process against GNU patch on a 100,000-line file with a 3-hunk patch.

What is timed on our side is what fs.patch does with the bytes: TextFile.decode, then
apply_unified_diff, TextFile.encode, and the preview's diff (worked out from the lines the
hunks replaced, as fs.patch does, not by diffing the whole file again). GNU patch is timed as
``patch -o out file patchfile`` per run, minus a no-op ``patch --version`` run, so process
start-up is not counted against it. Target: at most 3x GNU patch's marginal time.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from llm_operator.core.engines.diffing import unified_diff
from llm_operator.core.engines.patching import apply_unified_diff
from llm_operator.core.engines.textfile import TextFile

LINES = 100_000
CHANGED = (10_000, 50_000, 90_000)
RUNS = 15
TARGET_RATIO = 3.0


def build_inputs() -> tuple[str, str]:
    """A deterministic Python-like file and a 3-hunk git-style patch into it."""
    rng = random.Random(20240501)
    lines = []
    for n in range(LINES):
        kind = n % 8
        if kind == 0:
            lines.append(f"def handler_{n}(request, limit={rng.randint(1, 99)}):")
        elif kind in (1, 2, 3, 4):
            lines.append(f"    value_{kind} = request.get('field_{rng.randint(0, 9999)}', {n})")
        elif kind == 5:
            lines.append("    return value_1 + value_2 * value_3 - value_4")
        else:
            lines.append("")
    before = "\n".join(lines) + "\n"
    after_lines = list(lines)
    for n in CHANGED:
        after_lines[n + 1] = after_lines[n + 1].replace("request.get", "request.fetch")
        after_lines.insert(n + 2, "    log.debug('patched')")
    after = "\n".join(after_lines) + "\n"
    patch = unified_diff(before, after, "big.py")
    return before, patch


def best_of(runs: int, action: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def run() -> list[str]:
    before, patch = build_inputs()
    data = before.encode("utf-8")
    out = [
        f"bench_patch: {LINES:,} lines ({len(data):,} bytes), {patch.count(chr(10) + '@@')} hunks"
    ]

    def in_process() -> bytes:
        file = TextFile.decode(data, "big.py")
        result = apply_unified_diff(file.text, patch, "big.py")
        after = file.encode(result.text, result.kept)
        result.line_diff(file.text).unified("big.py")
        return after

    check = TextFile.decode(in_process(), "big.py").text
    assert check.count("log.debug('patched')") == len(CHANGED)
    ours = best_of(RUNS, in_process)
    apply_only = best_of(RUNS, lambda: apply_unified_diff(before, patch, "big.py"))
    out.append(f"  apply_unified_diff alone:                 {apply_only * 1000:8.2f} ms")
    full_diff = best_of(RUNS, lambda: unified_diff(before, check, "big.py"))
    out.append(f"  fs.patch in-process (decode+apply+encode+preview diff): {ours * 1000:8.2f} ms")
    whole = f"{full_diff * 1000:8.2f} ms"
    out.append(f"  (unified_diff of the whole file instead:                {whole})")

    gnu = shutil.which("patch")
    if gnu is None:
        out.append("  GNU patch NOT FOUND: install it (apt-get install -y patch) to compare")
        return out
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "big.py").write_bytes(data)
        (folder / "p.diff").write_text(patch, encoding="utf-8", newline="\n")

        def gnu_patch() -> None:
            subprocess.run([gnu, "-s", "-o", "out.py", "big.py", "p.diff"], cwd=folder, check=True)

        def gnu_noop() -> None:
            subprocess.run([gnu, "--version"], cwd=folder, check=True, stdout=subprocess.DEVNULL)

        gnu_patch()
        if (folder / "out.py").read_bytes() != in_process():
            out.append("  WARNING: GNU patch and apply_unified_diff disagree on the result")
        marginal = max(best_of(RUNS, gnu_patch) - best_of(RUNS, gnu_noop), 1e-6)
    ratio = ours / marginal
    verdict = "OK" if ratio <= TARGET_RATIO else "OVER TARGET"
    out.append(
        f"  GNU patch marginal (run minus --version):               {marginal * 1000:8.2f} ms"
    )
    out.append(f"  ratio: {ratio:.2f}x (target <= {TARGET_RATIO:.0f}x) {verdict}")
    return out


if __name__ == "__main__":
    for line in run():
        print(line)
    sys.exit(0)

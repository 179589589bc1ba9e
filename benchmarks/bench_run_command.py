"""run.command overhead: the same command run directly and through run.command.

- a short command (``true``), where the fixed cost shows: the two snapshots of the
  workspace's files, the process group ending, the result built and encoded
- a pytest run of 20 passing tests, a real check
- 200 MB of output, where reading into the bounded keeper is the cost

Each is timed as the median of several runs: directly with ``subprocess.run`` (output
captured, as a person piping it would), and through a Session (approved, as the window
runs it, on a workspace of 500 small files so the snapshots have something to walk).
The ratio printed is through run.command / direct.
Run: python benchmarks/bench_run_command.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

PY = sys.executable
TESTS = "".join(f"def test_{i}():\n    assert {i} == {i}\n\n" for i in range(20))


def _workspace() -> Path:
    root = Path(tempfile.mkdtemp(prefix="bench-run-"))
    for folder in range(20):
        sub = root / f"pkg{folder}"
        sub.mkdir()
        for name in range(25):
            (sub / f"m{name}.py").write_text(f"x = {name}\n" * 20)
    (root / "test_many.py").write_text(TESTS)
    return root


def _median(run: Callable[[], object], times: int) -> float:
    run()  # warm up
    taken = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        taken.append(time.perf_counter() - start)
    return statistics.median(taken)


def _through_session(root: Path, line: str, shell: bool) -> Callable[[], object]:
    from llm_operator.core.plan.session import APPROVE, Session
    from llm_operator.core.protocol.encoder import encode_results
    from llm_operator.core.store.workspace import Workspace

    session = Session(Workspace(root), None)
    counter = [0]
    extra = "shell: true\n" if shell else ""

    def ours() -> object:
        counter[0] += 1
        reply = (
            f"OPERATOR_CMD\nversion: 1\nid: b{counter[0]}\naction: run.command\n"
            f"command: {line}\n{extra}timeout: 1800\nEND_OPERATOR_CMD\n"
        )
        run = session.prepare(reply)
        results = session.execute(run, {p.index: APPROVE for p in run.pending})
        assert results[0].outcome.ok, results[0].outcome.summary
        return encode_results(results)

    return ours


def _direct(root: Path, argv: list[str]) -> Callable[[], object]:
    def theirs() -> object:
        done = subprocess.run(argv, cwd=root, capture_output=True, check=True)
        return done.stdout

    return theirs


def main() -> None:
    root = _workspace()
    big = "head -c 200000000 /dev/zero | tr '\\0' 'x' | fold -w 100"
    cases = [
        ("true", ["true"], "true", False, 20),
        (
            "pytest, 20 tests",
            [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_many.py"],
            f"{PY} -m pytest -q -p no:cacheprovider test_many.py",
            False,
            5,
        ),
        ("200 MB of output", ["/bin/sh", "-c", big], big, True, 3),
    ]
    print(f"{'case':<20} {'direct':>10} {'run.command':>12} {'ratio':>7}")
    for name, argv, line, shell, times in cases:
        direct = _median(_direct(root, argv), times)
        ours = _median(_through_session(root, line, shell), times)
        print(f"{name:<20} {direct * 1000:>8.1f}ms {ours * 1000:>10.1f}ms {ours / direct:>6.2f}x")


if __name__ == "__main__":
    main()

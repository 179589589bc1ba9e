"""``llm-operator exec`` in a real process under a CPU-time and a memory limit, as a hostile
reply must be run: it has to end inside them, with results and without a traceback.

The limit is CPU time (RLIMIT_CPU), not the wall clock: on a busy machine the wall clock runs
on while other processes hold the cores, and a run that does its work in time must not fail
for that. The wall-clock timeout only ends a process that hangs without working (a blocked
read), and is far beyond any real run."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from .fixtures import Decoded, parse_results

MEMORY_LIMIT = 1536 * 1024 * 1024  # address space of the exec process
CPU_LIMIT = 60  # CPU seconds of the exec process; the reply's own budget is 30
HANG_LIMIT = 900  # wall seconds: only a process that waits forever gets near this


def _limit_cpu_and_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT))


def run_limited(
    workspace: Path, state: Path, text: str, *flags: str, env: dict[str, str] | None = None
) -> list[Decoded]:
    """``llm-operator exec`` of ``text`` under the limits; its results (stderr clean of
    tracebacks and memory errors, exit code 0 or 1)."""
    command = [sys.executable, "-m", "llm_operator.cli", "exec", "--workspace", str(workspace)]
    command += ["--state-dir", str(state), *flags, "-"]
    done = subprocess.run(
        command,
        input=text,
        capture_output=True,
        text=True,
        timeout=HANG_LIMIT,
        preexec_fn=_limit_cpu_and_memory,
        env={**os.environ, **(env or {})},
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert "MemoryError" not in done.stderr + done.stdout
    assert done.returncode in (0, 1), done.stderr
    return parse_results(done.stdout)

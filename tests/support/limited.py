"""``llm-operator exec`` in a real process under a time and a memory limit, as a hostile
reply must be run: it has to end inside them, with results and without a traceback."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from .fixtures import Decoded, parse_results

MEMORY_LIMIT = 1536 * 1024 * 1024  # address space of the exec process
TIME_LIMIT = 60  # seconds, generous for a loaded CI machine; a hang takes forever


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


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
        timeout=TIME_LIMIT,
        preexec_fn=_limit_memory,
        env={**os.environ, **(env or {})},
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert "MemoryError" not in done.stderr + done.stdout
    assert done.returncode in (0, 1), done.stderr
    return parse_results(done.stdout)

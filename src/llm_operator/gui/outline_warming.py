"""Starts and stops the outline warmer (``core.plan.outline_warmer``) for the open workspace.

One child at a time: opening another workspace, changing the secret patterns or closing
the window stops the running one before a new one starts. It is simply terminated: it
only ever writes a cache in SQLite transactions, which a killed process leaves whole. If
the window dies, the child sees its stdin close and stops by itself.
``LLM_OPERATOR_NO_OUTLINE_WARMING=1`` keeps it from starting (tests set it, so that
hundreds of windows do not start hundreds of children).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

DISABLE_ENV = "LLM_OPERATOR_NO_OUTLINE_WARMING"
STOP_WAIT_S = 2.0


class OutlineWarming:
    def __init__(self) -> None:
        self.child: subprocess.Popen[bytes] | None = None

    def start(
        self, workspace: Path, state_folder: Path, state_dir: Path, secret_patterns: list[str]
    ) -> None:
        self.stop()
        if os.environ.get(DISABLE_ENV) == "1":
            return
        asked = {
            "workspace": str(workspace),
            "state_folder": str(state_folder),
            "state_dir": str(state_dir),
            "secret_patterns": list(secret_patterns),
        }
        try:
            child = subprocess.Popen(
                [sys.executable, "-m", "llm_operator.core.plan.outline_warmer"],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                close_fds=True,
            )
        except OSError:
            return  # only the first outline is slower
        assert child.stdin is not None
        try:
            child.stdin.write(json.dumps(asked).encode() + b"\n")
            child.stdin.flush()
        except OSError:
            pass
        self.child = child
        # Reaped as soon as it ends, so a finished warmer leaves no zombie behind while the
        # window stays open (Popen.wait may be called from two threads).
        threading.Thread(target=child.wait, name="outline-warmer-reaper", daemon=True).start()

    def stop(self) -> None:
        child, self.child = self.child, None
        if child is None:
            return
        child.terminate()
        try:
            child.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        if child.stdin is not None:
            with contextlib.suppress(OSError):
                child.stdin.close()

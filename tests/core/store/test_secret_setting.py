"""The command line takes the secret-looking file patterns from the shared settings file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path


def test_exec_uses_the_patterns_of_the_settings_file(
    workspace: Path,
    state_dir: Path,
    private_config: Path,
    tmp_path: Path,
    cmd: Callable[..., str],
) -> None:
    private_config.mkdir(parents=True)
    (private_config / "settings.json").write_text(
        json.dumps({"secret_patterns": ["*.private"]}), encoding="utf-8"
    )
    (workspace / "vault.private").write_text("PIN=1234\n", encoding="utf-8")
    (workspace / ".env").write_text("TOKEN=abc\n", encoding="utf-8")
    reply = "\n".join(
        [
            cmd("p1", "fs.read", path="vault.private"),
            cmd("e1", "fs.read", path=".env"),
        ]
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "llm_operator.cli",
            "exec",
            "--workspace",
            str(workspace),
            "--state-dir",
            str(state_dir),
            "--no",
        ],
        input=reply,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "LLM_OPERATOR_CONFIG_DIR": str(private_config)},
    )
    assert done.returncode == 1
    assert "id: p1\nok: false" in done.stdout
    assert "ERR_REJECTED_BY_USER" in done.stdout
    assert "id: e1\nok: true" in done.stdout  # .env is no longer on the list


def test_a_damaged_settings_file_keeps_the_default_patterns(
    private_config: Path,
) -> None:
    from llm_operator.core.store.settings import Settings
    from llm_operator.core.store.workspace import DEFAULT_SECRET_PATTERNS

    private_config.mkdir(parents=True)
    (private_config / "settings.json").write_text('{"secret_patterns": "oops"', "utf-8")
    assert tuple(Settings.load().secret_patterns) == DEFAULT_SECRET_PATTERNS

"""`llm-operator pack` sending parts of files and parts sized for a chat, as a real process."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from support.actions import cli
from support.paths import ROOT

GIN = ROOT / "tests" / "data" / "structure_real" / "go"
TASK = "lastChar panics on an empty string; make it return 0 instead, update its test."


@pytest.fixture
def gin(tmp_path: Path) -> Path:
    root = tmp_path / "gin"
    root.mkdir()
    shutil.copy(GIN / "gin-utils.go", root / "utils.go")
    shutil.copy(GIN / "gin-utils_test.go", root / "utils_test.go")
    return root


def _pack(root: Path, tmp_path: Path, *args: str) -> tuple[int, str, str]:
    done = cli("pack", "--workspace", root, "--state-dir", tmp_path / "state", *args)
    return done.returncode, done.stdout, done.stderr


def test_a_task_and_a_symbol_send_the_parts_and_cost_less(gin: Path, tmp_path: Path) -> None:
    code, fitted, _ = _pack(
        gin,
        tmp_path,
        "--task",
        TASK,
        "--map-tokens",
        "0",
        "utils.go",
        "utils_test.go::TestLastChar",
    )
    assert code == 0
    assert "utils.go (187 lines; lines 124-129, 135-145 shown, the rest as its outline)" in fitted
    assert "utils_test.go (173 lines; lines 59-63 shown, the rest as its outline)" in fitted
    assert '| 62: \tassert.Panics(t, func() { lastChar("") })' in fitted
    code, whole, _ = _pack(
        gin,
        tmp_path,
        "--task",
        TASK,
        "--map-tokens",
        "0",
        "--whole-files",
        "utils.go",
        "utils_test.go",
    )
    assert code == 0
    assert "=== FILE: utils.go (187 lines) ===" in whole
    assert len(fitted) < len(whole) - 4_000


def test_a_part_naming_nothing_is_a_usage_error_without_a_traceback(
    gin: Path, tmp_path: Path
) -> None:
    code, out, err = _pack(gin, tmp_path, "utils.go::lastCharacter")
    assert code == 2
    assert not out
    assert "ERR_TARGET_NOT_FOUND" in err
    assert "lastChar" in err
    assert "Traceback" not in err
    assert str(gin) not in err
    code, _, err = _pack(gin, tmp_path, "utils.go:500-510")
    assert code == 2
    assert "ERR_INVALID_LINE_RANGE" in err


@pytest.mark.parametrize(("chat", "size"), [("chatgpt", 30_000), ("claude", 60_000)])
def test_the_chat_sets_the_part_size(gin: Path, tmp_path: Path, chat: str, size: int) -> None:
    for n in range(12):
        shutil.copy(gin / "utils_test.go", gin / f"copy{n}_test.go")
    code, out, err = _pack(gin, tmp_path, "--chat", chat, "--map-tokens", "0", ".")
    assert code == 0, err
    assert f"of at most {size} characters" in err
    parts = out.rstrip("\n").split("\n\nLLM Operator context, part ")
    assert len(parts) > 1
    assert max(len(part) for part in parts) <= size
    assert max(len(part) for part in parts) > 25_000


def test_the_window_s_chat_setting_is_the_default(
    gin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"chat": "claude", "part_size": 5000}))
    monkeypatch.setenv("LLM_OPERATOR_CONFIG_DIR", str(config))
    _, _, err = _pack(gin, tmp_path, "utils.go")
    assert "of at most 60000 characters" in err
    (config / "settings.json").write_text(json.dumps({"chat": "custom", "part_size": 5000}))
    _, _, err = _pack(gin, tmp_path, "utils.go")
    assert "of at most 5000 characters" in err

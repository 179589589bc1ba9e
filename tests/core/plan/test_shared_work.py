"""A write's file is decoded, hashed and diffed once for all the steps that need it (the
plan, the preview, the check before writing, the undo record and the landed lines): on a
big file each extra pass is a visible part of the run."""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core import changes
from llm_operator.core.engines import diffing
from llm_operator.core.engines.diffing import unified_diff
from llm_operator.core.engines.textfile import TextFile
from llm_operator.core.plan.session import Session


def _count_calls(
    monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, counted: Callable[..., bool]
) -> list[int]:
    calls = [0]
    real = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if counted(*args, **kwargs):
            calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)
    return calls


def test_a_patch_decodes_hashes_and_diffs_its_file_once_each_way(
    run_reply: Any,
    cmd: Any,
    workspace: Path,
    make_session: Callable[[], Session],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = "".join(f"line {n}\n" for n in range(5000))
    after = before.replace("line 100\n", "line one hundred\n").replace("line 4000\n", "")
    (workspace / "big.txt").write_text(before, encoding="utf-8")
    patch = base64.b64encode(unified_diff(before, after, "big.txt").encode()).decode()
    big = {len(before), len(after)}  # the file's sizes before and after, in bytes

    decodes = _count_calls(monkeypatch, TextFile, "decode", lambda data, *rest: len(data) in big)
    hashes = _count_calls(monkeypatch, changes, "sha256_hex", lambda data, *rest: len(data) in big)
    diffs = _count_calls(
        monkeypatch,
        diffing,
        "_matching_blocks",
        lambda a, b, *rest: a.total > 1000 or b.total > 1000,
    )

    (result,) = run_reply(cmd("p1", "fs.patch", path="big.txt", patch_b64=patch))

    assert result.ok, result.summary
    assert (workspace / "big.txt").read_text(encoding="utf-8") == after
    assert "101: line one hundred" in (result.details or "")
    # Once the old bytes, to patch them: the new bytes were encoded from the patched text,
    # which the preview and the result take as it is.
    assert decodes[0] == 1
    # Once the old bytes (the undo copy's name), once the new (the undo record).
    assert hashes[0] == 2
    # The review diff is worked out from what the hunks replaced: the whole file is never
    # diffed against its old text, and the preview's diff gives the landed lines too.
    assert diffs[0] == 0
    # The undo copy, named by the digest worked out once, gives the file back.
    monkeypatch.undo()
    report = make_session().undo_last()
    assert not report.refused, report.summary
    assert report.restored == ("big.txt",)
    assert (workspace / "big.txt").read_text(encoding="utf-8") == before

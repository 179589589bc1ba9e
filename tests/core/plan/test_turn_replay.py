"""A real multi-turn task replayed in both result forms (tests/data/turns/gin_lastchar):
the same files land either way, and what goes back to the chat is measured. In the
readable form no text read, search or outline carries any base64."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from llm_operator.core.plan.run import APPROVE
from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.encoder import Result, ResultForm, encode_results
from llm_operator.core.protocol.readable_details import readable_details
from llm_operator.core.protocol.result_reader import read_results
from llm_operator.core.store.workspace import Workspace
from support.paths import DATA

TURNS = DATA / "turns" / "gin_lastchar"
GO = DATA / "structure_real" / "go"
B64_VALUE = re.compile(r"^details_b64: (\S+)$", re.MULTILINE)


def replay(root: Path, state: Path, form: ResultForm) -> list[str]:
    return replay_results(root, state, form)[0]


def replay_results(
    root: Path, state: Path, form: ResultForm
) -> tuple[list[str], list[list[Result]]]:
    root.mkdir()
    shutil.copyfile(GO / "gin-utils.go", root / "utils.go")
    shutil.copyfile(GO / "gin-utils_test.go", root / "utils_test.go")
    session = Session(Workspace(root), state)
    sent: list[str] = []
    made: list[list[Result]] = []
    for turn in sorted(TURNS.glob("turn-*.txt")):
        prepared = session.prepare(turn.read_text("utf-8"))
        results = session.execute(prepared, {p.index: APPROVE for p in prepared.pending})
        assert all(result.ok for result in results), [r.outcome.summary for r in results]
        sent.append(encode_results(results, form))
        made.append(results)
    return sent, made


def shown_as_lines(result: Result, strict: bytes | None) -> bytes | None:
    """What the readable form shows of ``strict``, details the readable form shows as lines."""
    if strict is None:
        return None
    shown = readable_details(replace(result.outcome, details=strict.decode("utf-8")))
    return shown.encode("utf-8") if shown else None


def test_the_turns_replay_in_both_forms_and_readable_sends_no_base64(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    readable, made = replay_results(tmp_path / "readable", tmp_path / "s1", ResultForm.READABLE)
    strict = replay(tmp_path / "strict", tmp_path / "s2", ResultForm.BASE64)
    for name in ("utils.go", "utils_test.go"):
        assert (tmp_path / "readable" / name).read_bytes() == (
            tmp_path / "strict" / name
        ).read_bytes()
    code = (tmp_path / "readable" / "utils.go").read_text("utf-8")
    assert '\tif str == "" {\n\t\treturn 0\n\t}\n\treturn str[len(str)-1]\n}\n' in code
    test = (tmp_path / "readable" / "utils_test.go").read_text("utf-8")
    assert 'assert.Equal(t, uint8(0), lastChar(""))' in test
    assert "}\n\nfunc TestLastCharOfOneByte(t *testing.T) {" in test
    assert "}\n\nfunc TestParseAccept(" in test

    for one, two, results in zip(readable, strict, made, strict=True):
        # The same details, but for a structure action's result JSON, which the readable
        # form shows as lines.
        expected = [
            r.details if result.outcome.readable_as is None else shown_as_lines(result, r.details)
            for r, result in zip(read_results(two), results, strict=True)
        ]
        assert [r.details for r in read_results(one)] == expected
    readable_text = "\n\n".join(readable)
    strict_text = "\n\n".join(strict)
    assert "details_b64" not in readable_text
    b64_chars = sum(len(value) for value in B64_VALUE.findall(strict_text))
    with capsys.disabled():
        print(
            f"\nturn replay (gin lastChar, 4 turns, 11 commands): readable "
            f"{len(readable_text)} characters, 0 base64; strict v3 {len(strict_text)} "
            f"characters, {b64_chars} base64 ({b64_chars / len(strict_text):.0%}); "
            f"readable/strict = {len(readable_text) / len(strict_text):.2f}"
        )
    assert len(readable_text) < 0.9 * len(strict_text)
    assert b64_chars > 0.6 * len(strict_text)

"""No part holds only a notice: a part pasted alone always carries something to act on.

Results: the app's undo notices lead the next results; when the first answer cannot sit
beside them whole, it is cut so that its first piece shares their part. Context messages:
a part never holds only frame lines of a file begun earlier (its reopen and end lines),
headings or blank lines; sent with real files in parts of many sizes, sent in part too.
"""

from __future__ import annotations

import random

import pytest

from llm_operator.core.outcome import Outcome
from llm_operator.core.plan.file_parts import fit_to_task
from llm_operator.core.protocol.context_pack import PackedFile, pack_message
from llm_operator.core.protocol.encoder import Result, ResultForm
from llm_operator.core.protocol.parts import split_results
from llm_operator.core.protocol.result_reader import read_results
from support.paths import ROOT

CLICK = ROOT / "tests" / "data" / "pack_real" / "click" / "src" / "click"


def _notice(number: int) -> Result:
    summary = f"Undone by the user: write-{number} (notes/plan.txt); treat it as not executed"
    details = '{"undone": [{"id": "write-%d", "action": "fs.write", "path": "notes/plan.txt"}]}'
    return Result(f"undo-{number}", Outcome(True, summary, details % number), notice=True)


def _answer(size: int) -> Result:
    text = "".join(f"{n}: {'x' * 60}\n" for n in range(1, size // 64 + 1))
    return Result("read-9", Outcome(True, "Read notes/big.txt", text))


@pytest.mark.parametrize("form", list(ResultForm))
@pytest.mark.parametrize("notices", [1, 3])
@pytest.mark.parametrize("answer", [9_800, 30_000])
def test_undo_notices_never_fill_a_part_alone(form: ResultForm, notices: int, answer: int) -> None:
    results = [*[_notice(n) for n in range(1, notices + 1)], _answer(answer)]
    parts = split_results(results, 10_000, form)
    assert parts.count > 1
    assert not parts.too_long
    bodies = [text.split("\n\n", 1)[1] for text in parts.texts]  # after the part's header
    for text, body in zip(parts.texts, bodies, strict=True):
        assert len(text) <= 10_000
        blocks = list(read_results(body))
        assert any(not block.id.startswith("undo-") for block in blocks), text[:300]
    # Nothing lost: the answer's details come back whole, joined in order.
    joined = b"".join(
        block.details or b""
        for body in bodies
        for block in read_results(body)
        if block.id == "read-9"
    )
    assert joined.decode("utf-8") == results[-1].outcome.details


CONTENT_FREE = ("=== END FILE:", "## ")


def _only_frames(part: str) -> bool:
    lines = part.split("\n")[2:]  # the part's header and the blank line after it
    for line in lines:
        if not line.strip() or line.startswith(CONTENT_FREE):
            continue
        if line.startswith("=== FILE") and ("continued from line" in line or "continues" in line):
            continue
        return False
    return True


@pytest.mark.parametrize("seed", range(6))
def test_no_context_part_holds_only_frame_lines(seed: int) -> None:
    chooser = random.Random(seed)
    names = sorted(path.name for path in CLICK.glob("*.py"))
    checked = 0
    for _ in range(40):
        chosen = chooser.sample(names, chooser.randint(1, 3))
        task = chooser.choice(["", "Fix `wrap_text` and `HelpFormatter`", "make_str is slow"])
        files = [PackedFile(name, (CLICK / name).read_text("utf-8")) for name in chosen]
        files = [fit_to_task(file, task) for file in files]
        limit = chooser.randint(1_000, 12_000)
        message = pack_message("PRIMER\n" * chooser.randint(1, 40), task, files, None, limit)
        if len(message.parts) < 2:
            continue
        checked += 1
        for part in message.parts:
            assert not _only_frames(part), part[:400]
    assert checked > 20

"""A structure action's details in the readable form: numbered lines, not one JSON line.

The strict v3 form keeps the seed's result JSON; the readable form (what a chat model reads
with no tools) shows a read's text as fs.readSlice numbers lines and drops a write's JSON
line, whose facts the summary already says."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path

from llm_operator.core.plan.run import APPROVE
from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.encoder import ResultForm, encode_results
from llm_operator.core.protocol.result_reader import ReadResult, read_results
from support.fixtures import cmd, reply

SOURCE = (
    "import os\n\n\ndef helper(y):\n    return y\n\n\nclass Shop:\n"
    "    def helper(self, z):\n        return z\n\n    def total(self):\n"
    '        return "a\\tb"\n'
)


def both_forms(make_session: Callable[[], Session], text: str) -> tuple[str, str]:
    session = make_session()
    prepared = session.prepare(text)
    results = session.execute(prepared, {p.index: APPROVE for p in prepared.pending})
    return encode_results(results, ResultForm.READABLE), encode_results(results, ResultForm.BASE64)


def details(block: ReadResult) -> str:
    assert block.details is not None, block.id
    return block.details.decode("utf-8")


def test_a_read_structure_shows_numbered_lines_and_the_strict_form_keeps_the_json(
    workspace: Path, make_session: Callable[[], Session]
) -> None:
    (workspace / "shop.py").write_text(SOURCE)
    readable, strict = both_forms(
        make_session,
        reply(
            cmd("r1", "fs.readStructure", path="shop.py", symbol="Shop/total"),
            cmd("r2", "fs.readStructure", path="shop.py", target="def total(self):"),
        ),
    )
    one, taken = read_results(readable)
    assert one.ok
    assert details(one) == ('# lines 12-13\n12:     def total(self):\n13:         return "a\\tb"\n')
    assert "| 12:     def total(self):" in readable.splitlines()
    assert '"matches"' not in readable
    assert details(taken).splitlines()[0] == "# lines 12-13 (target matched Shop/total)"
    strict_one = json.loads(details(read_results(strict)[0]))
    assert strict_one == {
        "matches": [
            {
                "text": '    def total(self):\n        return "a\\tb"',
                "line_range_inclusive": [12, 13],
            }
        ],
        "warnings": [],
    }


def test_several_matches_are_each_numbered_under_their_own_line(
    workspace: Path, make_session: Callable[[], Session]
) -> None:
    (workspace / "shop.py").write_text(SOURCE + "\n\ndef helper(z):\n    return z\n")
    readable, _ = both_forms(
        make_session, reply(cmd("r1", "fs.readStructure", path="shop.py", target="def helper("))
    )
    [read] = read_results(readable)
    assert details(read).splitlines() == [
        "# match 1 of 2: lines 4-5",
        "4: def helper(y):",
        "5:     return y",
        "# match 2 of 2: lines 16-17",
        "16: def helper(z):",
        "17:     return z",
    ]


def test_a_structure_write_drops_the_json_line_the_summary_repeats(
    workspace: Path, make_session: Callable[[], Session]
) -> None:
    (workspace / "shop.py").write_text(SOURCE)
    readable, strict = both_forms(
        make_session,
        reply(
            cmd(
                "w1",
                "fs.replaceTextInStructure",
                path="shop.py",
                symbol="helper",
                old_text="return y",
                new_text="return y + 1",
            )
        ),
    )
    [shown] = read_results(readable)
    assert shown.summary == "Replaced text in the structure (line 5) in shop.py"
    assert details(shown) == "# landed in shop.py:\n5:     return y + 1\n"
    [kept] = read_results(strict)
    first, _, rest = details(kept).partition("\n")
    assert json.loads(first) == {"affected_lines": [5, 5], "warnings": []}
    assert rest == details(shown)
    assert "details_b64" not in readable
    assert base64.b64decode(strict.split("details_b64: ")[1].split("\n")[0])

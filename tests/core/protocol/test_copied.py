"""What clipboard watch makes of copied text: the app's own material is never a reply,
a reply runs, and a text quoting the primer's examples is asked about."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from llm_operator.core.actions.operator import interface_spec
from llm_operator.core.plan.context import build_context
from llm_operator.core.protocol.copied import (
    CopiedAction,
    classify_copied,
    own_examples,
    text_digest,
)
from llm_operator.core.protocol.encoder import ResultForm
from llm_operator.core.protocol.primer import primer_text
from llm_operator.core.protocol.scanner import scan
from llm_operator.core.store.workspace import Workspace
from support.fixtures import cmd, reply
from support.paths import ROOT

Damage = Callable[[str], str]
IGNORE, ASK, RUN = CopiedAction.IGNORE, CopiedAction.ASK, CopiedAction.RUN
PRIMER = primer_text()
READ_1 = "\n".join(
    [
        "OPERATOR_CMD",
        "version: 1",
        "id: read-1",
        "action: fs.readSlice",
        "path: notes/plan.txt",
        "END_OPERATOR_CMD",
    ]
)


def as_copied(text: str) -> str:
    return text


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def spaced(text: str) -> str:
    """Copy damage a chat page adds: no-break spaces at line ends, spaces around colons."""
    return "\n".join(line.replace(": ", " :  ", 1) + "\u00a0 " for line in text.split("\n"))


def doubled(text: str) -> str:
    """Every line followed by an empty one, as some pages copy a code block."""
    return "\n\n".join(text.split("\n"))


def markdown_source(text: str) -> str:
    """Keys copied as markdown source: underscores escaped (the scanner refuses these)."""
    return text.replace("edits_json", "edits\\_json").replace("content_json", "content\\_json")


@pytest.mark.parametrize("form", list(ResultForm))
@pytest.mark.parametrize(
    "damage",
    [as_copied, crlf, spaced, doubled, markdown_source],
    ids=lambda damage: damage.__name__,
)
def test_the_primer_is_never_a_reply_however_it_was_copied(
    form: ResultForm, damage: Damage
) -> None:
    text = damage(primer_text(form))
    assert scan(text).items  # the scanner does see its examples as commands
    found = classify_copied(text)
    assert found.action is IGNORE
    assert found.blocks == 0
    assert len(found.examples) == 9
    assert found.why == "it is the LLM primer, the app's own text"


def test_the_served_spec_is_never_a_reply() -> None:
    found = classify_copied(interface_spec())
    assert scan(interface_spec()).items
    assert found.action is IGNORE
    assert found.why == "it is the interface specification, the app's own text"


def test_a_context_message_in_parts_is_never_a_reply(tmp_path: Path) -> None:
    """Its first part starts with the primer; its files hold whole replies, as numbered
    lines (docs/protocol.md of this repository and a saved chat)."""
    root = tmp_path / "project"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "protocol.md").write_text((ROOT / "docs" / "protocol.md").read_text())
    saved = reply(cmd("w1", "fs.write", path="x.txt", content="x"), READ_1)
    (root / "chat.txt").write_text(saved)
    pack = build_context(
        Workspace(root), ["chat.txt", "docs/protocol.md"], task="Fix it", limit=8000
    )
    parts = pack.message.parts
    assert len(parts) > 3
    assert any(scan(part).items for part in parts[1:])  # numbered marker lines are seen
    for part in [*parts, pack.message.whole, crlf(parts[0])]:
        found = classify_copied(part)
        assert found.action is IGNORE, part[:200]
        assert found.why in ("", "it is a context message, the app's own text")


def test_results_and_prose_are_not_replies() -> None:
    results = "\n".join(
        [
            "OPERATOR_RESULT",
            "id: r1",
            "ok: true",
            "summary: Read chat.txt",
            "details_lines: 3",
            "| OPERATOR_CMD",
            "| id: w1",
            "| END_OPERATOR_CMD",
            "END_OPERATOR_RESULT",
        ]
    )
    for text in (results, crlf(results), "prose naming OPERATOR_CMD in a sentence"):
        found = classify_copied(text)
        assert found == classify_copied(text)
        assert found.action is IGNORE
        assert found.why == ""


def test_a_reply_runs_even_when_it_reuses_an_example_id_for_other_content() -> None:
    other = READ_1.replace("notes/plan.txt", "src/app.py")
    for text in (
        reply(cmd("r1", "fs.read", path="a.txt")),
        reply(other),
        reply(other.replace("read-1", "edit-2"), cmd("w9", "fs.delete", path="notes/todo.txt")),
    ):
        found = classify_copied(text)
        assert found.action is RUN
        assert found.examples == ()


@pytest.mark.parametrize(
    "damage", [as_copied, crlf, spaced, doubled], ids=lambda damage: damage.__name__
)
def test_a_reply_quoting_a_primer_example_is_asked_about(damage: Damage) -> None:
    own = cmd("w1", "fs.write", path="x.txt", content="x")
    found = classify_copied(damage(reply(READ_1, own)))
    assert found.action is ASK
    assert found.examples == ("read-1",)
    assert found.blocks == 1
    # The examples alone, without the primer's heading: a piece of the primer, or a reply
    # that sends exactly an example. The person decides.
    found = classify_copied(damage(reply(READ_1)))
    assert found.action is ASK
    assert found.blocks == 0


def test_a_whole_chat_holding_the_primer_and_a_reply_is_asked_about() -> None:
    own = cmd("w1", "fs.write", path="x.txt", content="x")
    for text in (PRIMER + "\n\n" + reply(own), reply(own) + "\n" + PRIMER.split("\n\n")[0]):
        found = classify_copied(text)
        assert found.action is ASK
        assert found.blocks == 1
        assert "the LLM primer's heading" in found.frames


def test_a_block_left_open_is_the_reply_s_own() -> None:
    """An example whose END line was lost is not the example: it would be refused anyway,
    and its refusal must reach the LLM."""
    cut = READ_1.removesuffix("\nEND_OPERATOR_CMD")
    found = classify_copied(reply(cut))
    assert found.action is RUN
    assert found.blocks == 1


def test_the_examples_are_read_from_the_primer_and_the_spec() -> None:
    examples = own_examples()
    blocks = PRIMER.count("\nOPERATOR_CMD\n") + interface_spec().count("\nOPERATOR_CMD\n")
    assert 0 < len(examples) <= blocks


def test_a_digest_ignores_what_a_clipboard_changes_and_nothing_else() -> None:
    text = reply(cmd("r1", "fs.read", path="a.txt"))
    assert text_digest(text) == text_digest(crlf(text))
    assert text_digest(text) == text_digest("\ufeff" + text.rstrip("\n") + "  \n\n")
    assert text_digest(text) == text_digest(text.replace("\n", " \t\n"))
    assert text_digest(text) != text_digest(text.replace("a.txt", "b.txt"))
    assert text_digest(text) != text_digest(text.replace("path:", "path: "))


def test_a_huge_copy_is_judged_on_the_part_that_would_run() -> None:
    """Only the scanner's window (the last 200,000 characters) is read: the examples at the
    end of a long primer log are still the app's, a reply at the end still runs."""
    log = (PRIMER + "\n") * 400
    assert len(log) > 5_000_000
    assert classify_copied(log).action is IGNORE
    prose = "words and more words\n" * 20_000
    found = classify_copied(prose + PRIMER + "\n" + reply(cmd("r1", "fs.read", path="a.txt")))
    assert found.action is ASK
    found = classify_copied(PRIMER + prose + reply(cmd("r1", "fs.read", path="a.txt")))
    assert found.action is RUN  # the primer lies outside what would run

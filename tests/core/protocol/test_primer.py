"""The primer: its size, what it names, and its examples run verbatim.

Every example block of the primer and of the served spec is pasted as it stands into a
session on a temp workspace, and what happens is checked against what the text says next
to it (the primer's ``->`` lines; the spec's file contents and summaries).
"""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from llm_operator.core import actions
from llm_operator.core.actions.operator import interface_spec
from llm_operator.core.error_codes import ERROR_CODES
from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.encoder import ResultForm
from llm_operator.core.protocol.primer import (
    ERROR_GROUPS,
    NOT_FOR_THE_MODEL,
    PRIMER_LIMIT,
    grouped_codes,
    primer_text,
)
from llm_operator.core.protocol.primer_table import STYLE_FIELDS
from llm_operator.core.protocol.scanner import BlockProblem, CommandBlock, scan
from llm_operator.core.store.workspace import Workspace
from support.fixtures import Decoded, run_session

BLOCK = re.compile(r"^OPERATOR_CMD\n(?:.*\n)*?END_OPERATOR_CMD$", re.MULTILINE)
CLAIM = re.compile(
    r"-> (?P<rejected>if the user rejects it: )?ok: (?P<ok>true|false)"
    r"(?: \((?P<code>ERR_[A-Z_]+)\))?(?P<repeat>, marked as a repeat)?"
    r'(?:, details hold "(?P<text>[^"]*)")?$'
)


@dataclass(frozen=True)
class Example:
    block: str
    claim: re.Match[str]


def primer_examples() -> list[Example]:
    text = primer_text()
    found: list[Example] = []
    for match in BLOCK.finditer(text):
        after = text[match.end() + 1 :].split("\n", 1)[0]
        claim = CLAIM.match(after)
        assert claim is not None, f"no '->' line says what this block does:\n{match.group()}"
        found.append(Example(match.group(), claim))
    return found


def test_the_primer_command_prints_at_most_14000_characters() -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "llm_operator.cli", "primer"], capture_output=True, check=True
    ).stdout
    assert len(printed) <= PRIMER_LIMIT == 14_000  # what `llm-operator primer | wc -c` counts
    assert printed.decode("ascii") == primer_text()


def test_the_primer_is_plain_ascii_and_says_version_1() -> None:
    text = primer_text()
    assert text.isascii()
    assert "version: 1" in text.splitlines()[0]
    assert "version: 3" not in text


def test_the_primer_mentions_the_full_spec_without_asking_for_a_fetch() -> None:
    text = primer_text()
    assert "operator.getInterfaceSpec" in text
    assert "llm-operator spec" in text
    sentence = next(line for line in text.splitlines() if "operator.getInterfaceSpec" in line)
    assert "only for details this primer leaves open" in sentence
    assert "once at the start" not in text


@pytest.mark.parametrize("name", actions.action_names())
def test_the_primer_names_every_action_and_its_fields(name: str) -> None:
    line = next(
        (row for row in primer_text().splitlines() if row.startswith(f"{name}:")), None
    ) or next(row for row in primer_text().splitlines() if row.startswith(f"{name} W:"))
    spec = actions.get_spec(name)
    for field in spec.fields.model_fields:
        if field in STYLE_FIELDS and "[style]" in line:
            continue
        assert re.search(rf"(?<![\w]){re.escape(field)}(?![\w])", line), (field, line)
    for alias in getattr(spec.fields, "ALIASES", {}):
        assert re.search(rf"[(/]{alias}[)/]", line), (alias, line)


def test_write_actions_are_marked_as_needing_approval() -> None:
    lines = primer_text().splitlines()
    for spec in actions.all_specs():
        writes = spec.kind.value == "write"
        assert any(line.startswith(f"{spec.name} W:") for line in lines) is writes, spec.name


def test_the_style_legend_names_every_style_field() -> None:
    legend = next(line for line in primer_text().splitlines() if line.startswith("[style] ="))
    assert all(field in legend for field in STYLE_FIELDS)


def test_the_primer_names_every_error_code_a_model_can_act_on() -> None:
    text = primer_text()
    missing = [
        code
        for code in ERROR_CODES
        if code not in NOT_FOR_THE_MODEL and not re.search(rf"\b{code}\b", text)
    ]
    assert not missing
    assert set(ERROR_CODES) >= NOT_FOR_THE_MODEL


def test_the_error_groups_name_only_registered_codes_once() -> None:
    listed = [code for codes in ERROR_GROUPS.values() for code in codes]
    assert len(listed) == len(set(listed))
    assert set(listed) <= set(ERROR_CODES), set(listed) - set(ERROR_CODES)
    grouped = [code for codes in grouped_codes().values() for code in codes]
    assert sorted(grouped) == sorted(set(ERROR_CODES) - NOT_FOR_THE_MODEL)


def test_the_primer_teaches_recovery() -> None:
    text = primer_text()
    for needed in [
        "fresh id for EVERY command",
        "verification reads",
        "corrections",
        "marked as a repeat and saying when it ran",
        "a repeated read id runs again on the file as it is now",
        "user undid is no longer a repeat",
        "ERR_REJECTED_BY_USER",
        "Ask what they want",
        "ERR_TRASH_UNAVAILABLE",
        "got no result did not run",
        "resend it with a new id",
        "Never start or end a prose line with a marker word",
        "A code fence around blocks is harmless",
    ]:
        assert needed in text, needed


def test_scanning_the_primer_finds_only_its_examples() -> None:
    text = primer_text()
    examples = primer_examples()
    scanned = scan(text)
    assert len(scanned.items) == len(examples) >= 8
    assert scanned.result_blocks == 0
    for item, example in zip(scanned.items, examples, strict=True):
        if isinstance(item, BlockProblem):
            # Only the example that shows a mistake is refused, and for that mistake.
            assert item.code == example.claim.group("code"), item
        else:
            assert isinstance(item, CommandBlock)


def test_the_example_payloads_decode_to_what_the_text_shows() -> None:
    text = primer_text()
    shown = re.findall(r"edits_json = (\{.*\}\]\})", text)
    assert json.loads(shown[0])["edits"][0]["op"] == "replaceFirst"
    for sent in re.findall(r"^edits_json: (.*)$", text, re.MULTILINE):
        assert json.loads(sent)["version"] == 1
    fallback = re.search(r"content_b64: (\S+) would do the same", text)
    assert fallback is not None
    (content,) = re.findall(r"^content_json: (.*)$", text, re.MULTILINE)
    assert base64.b64decode(fallback.group(1)).decode() == json.loads(content) == "first\nsecond\n"


def test_the_primer_describes_the_results_form_in_use() -> None:
    readable = primer_text()
    strict = primer_text(ResultForm.BASE64)
    assert "details_lines: N" in readable
    assert "details_b64" not in readable.replace("*_b64", "")
    assert "details_b64: base64" in strict
    assert "details_lines" not in strict
    for text in (readable, strict):
        assert len(text) <= PRIMER_LIMIT
        assert "symbol: Class/method" in text
        assert "\\u00e9 for non-ASCII is fine" in text
        assert "final newline" in text


def _plan_workspace(tmp_path: Path) -> Path:
    root = tmp_path / "primer-ws"
    (root / "notes").mkdir(parents=True)
    (root / "notes" / "plan.txt").write_text("Alpha\nBeta\n", encoding="utf-8")
    return root


def test_the_worked_examples_run_verbatim_and_do_what_the_text_says(
    tmp_path: Path, state_dir: Path
) -> None:
    root = _plan_workspace(tmp_path)
    session = Session(Workspace(root), state_dir)
    examples = primer_examples()
    for example in examples:
        claim = example.claim
        # Each block is its own reply, pasted as the model wrote it; writes approved
        # unless the text says the user rejects it.
        (result,) = run_session(session, example.block, not claim.group("rejected"))
        _check(result, claim)
    plan = (root / "notes" / "plan.txt").read_text("utf-8")
    assert plan == "Alpha\nBeta\nGamma\n"  # edit-2 applied; edit-6 changed nothing
    assert (root / "notes" / "todo.txt").read_text("utf-8") == "first\nsecond\n"  # write-5


def _check(result: Decoded, claim: re.Match[str]) -> None:
    context = f"{result.id}: {result.summary}"
    assert result.ok is (claim.group("ok") == "true"), context
    assert result.code == claim.group("code"), context
    assert result.repeat is bool(claim.group("repeat")), context
    if claim.group("repeat"):
        # "marked as a repeat and saying when it ran" (rule 4): an earlier message's time.
        assert re.search(r"already ran at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", result.summary)
    if claim.group("text"):
        assert result.details is not None, context
        assert claim.group("text") in result.details.splitlines(), (context, result.details)


# -- the served spec's examples --------------------------------------------------------


def spec_examples() -> list[str]:
    text = interface_spec()
    golden = text[text.index("GOLDEN PATH EXAMPLES") : text.index("COMMON MISTAKE EXAMPLE")]
    return [match.group() for match in BLOCK.finditer(golden)]


def test_the_spec_examples_run_verbatim_and_do_what_the_text_says(
    tmp_path: Path, state_dir: Path
) -> None:
    root = tmp_path / "spec-ws"
    (root / "app").mkdir(parents=True)
    original = "class UserAuth:\n    def validate(self):\n        return False\n"
    replaced = "class UserAuth:\n    def validate(self):\n        return self.user is not None\n"
    (root / "app" / "auth.py").write_text(original, encoding="utf-8")
    session = Session(Workspace(root), state_dir)
    write, edits, structure, write_b64, structure_b64 = spec_examples()
    # The prose above the base64 examples says what they hold.
    target = re.search(r"^target_b64: (\S+)$", structure_b64, re.MULTILINE)
    assert target is not None
    assert base64.b64decode(target.group(1)).decode("ascii").splitlines() == [
        "class UserAuth:",
        "def validate(self):",
    ]
    plan = root / "notes" / "plan.txt"
    for block, expected in [(write, "Alpha\nBeta"), (write_b64, "Alpha\nBeta")]:
        plan.unlink(missing_ok=True)
        (result,) = run_session(session, block, True)
        assert result.ok, result.summary
        assert plan.read_text("utf-8") == expected
    (result,) = run_session(session, edits, True)
    assert result.ok, result.summary
    # insertAfter "Beta" with "\nGamma": the anchor ends the file, so Gamma lands on a new line.
    assert plan.read_text("utf-8") == "Alpha\nBeta\nGamma"
    for block in (structure, structure_b64):
        (root / "app" / "auth.py").write_text(original, encoding="utf-8")
        (result,) = run_session(session, block, True)
        assert result.ok, result.summary
        assert (root / "app" / "auth.py").read_text("utf-8") == replaced


def test_the_spec_common_mistake_is_what_the_app_answers(tmp_path: Path, state_dir: Path) -> None:
    text = interface_spec()
    section = text[text.index("COMMON MISTAKE EXAMPLE") :]
    said = section.strip().splitlines()[-1]
    (block,) = [match.group() for match in BLOCK.finditer(section)]
    (result,) = run_session(Session(Workspace(_plan_workspace(tmp_path)), state_dir), block, True)
    assert result.summary == said


def test_the_spec_describes_repeats_as_they_are() -> None:
    text = interface_spec()
    assert "identical content are ignored" not in text
    assert "marked as a repeat" in text
    assert "version: 3" not in text


def test_the_primer_names_every_edit_op_and_key() -> None:
    from llm_operator.core.engines.edit_models import OPS

    line = next(row for row in primer_text().splitlines() if row.startswith("insertAfter ("))
    for op, model in OPS.items():
        section = re.search(rf"(?:^|; ){op} \(([^)]*)\)", line)
        assert section is not None, op
        for field in set(model.model_fields) - {"op"}:
            assert re.search(rf"\b{field}\b", section.group(1)), (op, field)


def test_an_undone_command_runs_again_and_the_undo_is_announced(
    tmp_path: Path, state_dir: Path
) -> None:
    """Rule 4 and 9 of the primer: a command the user undid is no longer a repeat, and the
    next results start with an undo-<n> notice listing it."""
    root = _plan_workspace(tmp_path)
    session = Session(Workspace(root), state_dir)
    blocks = {
        example.block.split("\nid: ")[1].split("\n")[0]: example.block
        for example in primer_examples()
    }
    (first,) = run_session(session, blocks["write-5"], True)
    assert first.ok
    session.undo_last()
    assert not (root / "notes" / "todo.txt").exists()
    notice, again = run_session(session, blocks["write-5"], True)
    assert notice.id.startswith("undo-")
    assert "write-5" in notice.summary
    assert (again.id, again.ok, again.repeat) == ("write-5", True, False)
    assert (root / "notes" / "todo.txt").read_text("utf-8") == "first\nsecond\n"


def test_a_missing_target_is_cured_by_the_named_line_not_by_a_read() -> None:
    from llm_operator.core.protocol.primer import READ_AGAIN, SEND_NAMED, grouped_codes

    groups = grouped_codes()
    assert "ERR_TARGET_NOT_FOUND" not in groups[READ_AGAIN]
    assert groups[SEND_NAMED] == ["ERR_TARGET_NOT_FOUND", "ERR_TARGET_AMBIGUOUS"]


def test_the_structure_lines_say_a_symbol_alone_is_enough() -> None:
    # "target|target_b64 [symbol]" read as: a target is required, a symbol optional; the
    # validator takes a symbol alone (inflection_options, turn 3 used symbol: parameterize).
    lines = [x for x in primer_text().splitlines() if x.startswith("fs.") and "Structure" in x]
    structure = [x for x in lines if not x.startswith("fs.outline")]
    assert len(structure) == 8
    for line in structure:
        assert " path target|target_b64|symbol [occurrence]" in line, line
        assert "[symbol]" not in line
    [move] = [x for x in structure if x.startswith("fs.moveStructure")]
    assert "[dest_target|dest_target_b64|dest_symbol] [dest_occurrence]" in move

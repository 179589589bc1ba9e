"""A file's relevant part in a context message, on real files (tests/data).

gin's utils.go (tests/data/structure_real/go) and click's formatting.py
(tests/data/pack_real/click): a task that names a definition as code sends that
definition with the file's own line numbers and the rest as the outline; a line range or
a symbol path sends that; anything naming nothing is refused, never sent whole silently.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from llm_operator.core.errors import OperatorError
from llm_operator.core.plan.context import build_context
from llm_operator.core.plan.file_parts import fit_to_task, narrow, parse_part
from llm_operator.core.protocol.context_pack import PackedFile, file_lines, pack_message
from llm_operator.core.store.workspace import Workspace
from support.paths import ROOT

DATA = ROOT / "tests" / "data"
GIN = DATA / "structure_real" / "go" / "gin-utils.go"
CLICK = DATA / "pack_real" / "click" / "src" / "click" / "formatting.py"
TASK = "lastChar panics on an empty string; make it return 0 instead, update its test."


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(GIN, root / "utils.go")
    shutil.copy(CLICK, root / "formatting.py")
    return root


def _primer_and_task(message: str) -> str:
    return message[: message.index("## Files")]


def _body(message: str, rel: str) -> list[str]:
    start = message.index(f"=== FILE: {rel} (")
    end = message.index(f"=== END FILE: {rel} ===")
    return message[start:end].split("\n")[1:-1]


def test_a_task_naming_a_function_sends_it_and_outlines_the_rest(project: Path) -> None:
    text = GIN.read_text("utf-8")
    pack = build_context(Workspace(project), ["utils.go"], task=TASK, limit=100_000)
    message = pack.message.whole
    # lastChar, and joinPaths, the one definition that calls it (a change of it concerns).
    assert "utils.go (187 lines; lines 124-129, 135-145 shown, the rest as its outline)" in (
        message
    )
    body = _body(message, "utils.go")
    lines = file_lines(text)
    numbered = [line for line in body if re.match(r"\| \d+: ", line)]
    # The function, with the numbers fs.readSlice gives it, and nothing else of the file.
    shown = [*range(124, 130), *range(135, 146)]
    assert numbered == [f"| {n}: {lines[n - 1]}" for n in shown]
    assert "| # lines 1-123 not shown" in body
    assert "| # lines 130-134 not shown" in body
    assert "| 131-133: func nameOfFunction(f any) string {" in body
    assert "| # lines 146-187 not shown" in body
    assert "| 28-44: func Bind(val any) HandlerFunc {" in body
    whole = build_context(Workspace(project), ["utils.go"], task=TASK, limit=100_000, fit=False)
    # The part and its outline take well under half of what the whole file takes.
    assert pack.message.chars - len(_primer_and_task(message)) < 0.5 * (
        whole.message.chars - len(_primer_and_task(message))
    )


def test_a_test_file_is_narrowed_to_the_tests_that_call_the_named_function(
    tmp_path: Path,
) -> None:
    text = (GIN.parent / "gin-utils_test.go").read_text("utf-8")
    packed = fit_to_task(PackedFile("utils_test.go", text), TASK)
    assert packed.shown == ((59, 63),)  # TestLastChar, the one test calling lastChar(
    assert packed.body()[1] == (1, "19-21: func init() {", False)  # in the gap from line 1


def test_without_fit_or_when_the_task_names_nothing_the_file_goes_whole(project: Path) -> None:
    workspace = Workspace(project)
    for task, fit in [(TASK, False), ("Make the errors friendlier", True), ("", True)]:
        pack = build_context(workspace, ["utils.go"], task=task, limit=100_000, fit=fit)
        assert "=== FILE: utils.go (187 lines) ===" in pack.message.whole
        assert f"| 187: {file_lines(GIN.read_text('utf-8'))[-1]}" in pack.message.whole


def test_a_method_is_sent_with_its_class_line_and_siblings_outlined(project: Path) -> None:
    task = "write_usage should wrap long program names"
    pack = build_context(Workspace(project), ["formatting.py"], task=task, limit=100_000)
    body = _body(pack.message.whole, "formatting.py")
    assert "| 158: " + file_lines(CLICK.read_text("utf-8"))[157] in body
    assert "| 110-299: class HelpFormatter:" in body
    assert "|   204-206: def write_heading(self, heading: str) -> None:" in body
    assert not any(line.startswith("| 203: ") or line.startswith("| 157: ") for line in body)


def test_a_line_range_and_a_symbol_path_send_exactly_those(project: Path) -> None:
    workspace = Workspace(project)
    asked = ["utils.go:10-20", "formatting.py::HelpFormatter/write_dl", "utils.go::safeInt8"]
    pack = build_context(workspace, asked, limit=100_000)
    message = pack.message.whole
    assert "utils.go (187 lines; lines 10-20, 173-179 shown, the rest as its outline)" in message
    assert "formatting.py (320 lines; lines 229-271 shown, the rest as its outline)" in message
    assert pack.files == ("utils.go", "formatting.py")


def test_a_part_that_names_nothing_is_refused_naming_what_is_there(project: Path) -> None:
    workspace = Workspace(project)
    with pytest.raises(OperatorError) as missing:
        build_context(workspace, ["formatting.py::HelpFormatter/nope"])
    assert missing.value.code == "ERR_TARGET_NOT_FOUND"
    assert "HelpFormatter/write_usage" in missing.value.message
    for bad in ("utils.go:200-210", "utils.go:9-3", "utils.go:0-4"):
        with pytest.raises(OperatorError) as outside:
            build_context(workspace, [bad])
        assert outside.value.code == "ERR_INVALID_LINE_RANGE", bad


def test_a_file_whose_name_looks_like_a_part_is_sent_whole(project: Path) -> None:
    (project / "notes:1-2").write_text("one\ntwo\nthree\n", "utf-8")
    pack = build_context(Workspace(project), ["notes:1-2"], limit=100_000)
    assert "=== FILE: notes:1-2 (3 lines) ===" in pack.message.whole
    assert parse_part("./x:1-2").whole
    assert parse_part("a.py::A/b").symbols == ("A/b",)


def test_a_file_line_never_reads_as_a_gap_or_an_outline_line(tmp_path: Path) -> None:
    """Hostile lines: a file may hold text shaped like the gap and outline lines, and a
    definition line with controls; each stays a numbered body line or is escaped."""
    text = "".join(
        [
            "# lines 1-3 not shown\n",
            "10-20: def forged():\n",
            "def target_fn():\n",
            "    return '\u202e\x1b[31m'\n",
            *[f"x{n} = {n}\n" for n in range(40)],
            "def other\u2028name():\n    pass\n",
        ]
    )
    packed = fit_to_task(PackedFile("evil.py", text), "fix `target_fn`")
    assert packed.shown == ((3, 4),)
    message = pack_message("P", "fix `target_fn`", [packed], None, 100_000).whole
    body = _body(message, "evil.py")
    assert body[0] == "| # lines 1-2 not shown"
    assert "| 3: def target_fn():" in body
    assert any(line.startswith("|\\4: ") for line in body)  # escaped, still line 4
    assert not any("\u2028" in line or "\x1b" in line for line in message.split("\n"))
    assert "| 1: # lines 1-3 not shown" not in body  # line 1 is left out, not forged in


def test_narrowing_a_file_no_grammar_knows_takes_a_range_only(tmp_path: Path) -> None:
    packed = PackedFile("notes.txt", "".join(f"line {n}\n" for n in range(1, 51)))
    assert fit_to_task(packed, "fix `line`") is packed
    part = narrow(packed, parse_part("notes.txt:5-9"))
    assert part.shown == ((5, 9),)
    assert part.outline == ()
    with pytest.raises(OperatorError) as refused:
        narrow(packed, parse_part("notes.txt::Anything"))
    assert "name a line range instead" in refused.value.message


def test_a_refusal_marks_what_a_file_could_hide_in_its_symbol_names(tmp_path: Path) -> None:
    """A Markdown heading is a symbol by its text: an escape sequence in one must not reach
    a terminal through the refusal that lists the file's symbols."""
    text = "# Intro\n\ntext\n\n# Red \x1b[31mheading\u202e\n\nmore\n"
    with pytest.raises(OperatorError) as refused:
        narrow(PackedFile("notes.md", text), parse_part("notes.md::Missing\x1b[2J"))
    message = refused.value.message
    assert "\x1b" not in message
    assert "\u202e" not in message
    assert "Red <U+001B>[31mheading<U+202E>" in message
    assert "'Missing<U+001B>[2J'" in message

"""`llm-operator pack` as a real process: stdout the message, stderr what was left out."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from llm_operator.core.wording import counted
from support.actions import cli
from support.context_parts import unpack


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "app").mkdir(parents=True)
    (root / "app" / "main.py").write_text("def main():\n    return 0\n")
    (root / "app" / "util.py").write_text("def helper(x):\n    return x\n")
    (root / "app" / ".env").write_text("TOKEN=leak-me-not\n")
    (root / "keys").mkdir()
    (root / "keys" / "server.pem").write_text("-----BEGIN KEY----- leak-me-not\n")
    (root / "README.md").write_text("# Demo\n\n## Usage\nrun it\n")
    return root


def test_pack_prints_the_message_and_leaves_secrets_out(ws: Path) -> None:
    done = cli("pack", "--workspace", ws, "--task", "Add logging", "app", "keys/server.pem")
    assert done.returncode == 1, done.stderr
    assert "leak-me-not" not in done.stdout
    assert "## Task\nAdd logging" in done.stdout
    assert set(unpack([done.stdout.rstrip("\n")])) == {"app/main.py", "app/util.py"}
    assert "left out app/.env: secret-looking" in done.stderr
    assert "left out keys/server.pem: secret-looking" in done.stderr
    assert "packed 2 files" in done.stderr
    assert "tokens (characters / 4)" in done.stderr


def test_include_secrets_lets_them_in_and_exits_0(ws: Path) -> None:
    done = cli("pack", "--workspace", ws, "--include-secrets", "app")
    assert done.returncode == 0, done.stderr
    assert "TOKEN=leak-me-not" in done.stdout
    assert "left out" not in done.stderr


def test_outline_adds_the_rest_of_the_tree(ws: Path) -> None:
    done = cli("pack", "--workspace", ws, "--outline", "app/main.py")
    assert done.returncode == 0, done.stderr
    outline = done.stdout.split("## Outline of the rest of the workspace\n", 1)[1]
    assert "app/util.py (python, 2 lines)\n  1-2: def helper(x):" in outline
    assert "README.md (markdown, 4 lines)" in outline
    assert "app/main.py (" not in outline  # packed whole, so not outlined again
    assert "leak-me-not" not in done.stdout


def test_a_small_limit_prints_parts_that_each_fit(ws: Path) -> None:
    for n in range(30):
        (ws / "app" / f"mod{n}.py").write_text("".join(f"X{j} = {j}\n" for j in range(60)))
    done = cli("pack", "--workspace", ws, "--limit", "3000", "app")
    assert done.returncode == 1  # app/.env left out
    parts = done.stdout.rstrip("\n").split("\n\nLLM Operator context, part ")
    parts = [parts[0]] + ["LLM Operator context, part " + p for p in parts[1:]]
    assert len(parts) > 5
    assert all(len(part) <= 3000 for part in parts)
    assert len(unpack(parts)) == 32
    assert f"{counted(len(parts), 'part')} of at most 3000 characters" in done.stderr


def test_usage_errors_exit_2(ws: Path, tmp_path: Path) -> None:
    outside = cli("pack", "--workspace", ws, "../elsewhere")
    assert outside.returncode == 2
    assert "ERR_PATH_OUTSIDE_WORKSPACE" in outside.stderr
    assert str(tmp_path) not in outside.stderr
    assert cli("pack", "--workspace", tmp_path / "nope").returncode == 2
    assert cli("pack", "--workspace", ws, "--limit", "10").returncode == 2
    assert cli("pack").returncode == 2
    assert "Traceback" not in outside.stderr


def test_a_missing_path_is_reported_and_exits_1(ws: Path) -> None:
    done = cli("pack", "--workspace", ws, "app/main.py", "app/gone.py")
    assert done.returncode == 1
    assert "left out app/gone.py: not found" in done.stderr
    assert set(unpack([done.stdout.rstrip("\n")])) == {"app/main.py"}


def outline_of(stdout: str) -> str | None:
    head = "## Outline of the rest of the workspace\n"
    return stdout.split(head, 1)[1] if head in stdout else None


def test_the_outline_is_on_by_default_and_map_tokens_0_leaves_it_out(ws: Path) -> None:
    default = cli("pack", "--workspace", ws, "app/main.py")
    assert default.returncode == 0, default.stderr
    shown = outline_of(default.stdout)
    assert shown is not None
    assert "app/util.py (python, 2 lines)\n  1-2: def helper(x):" in shown
    assert "about 2000 tokens (characters / 4)" in shown
    assert "llm-operator: outline of the rest: 2 of 2 files" in default.stderr
    none = cli("pack", "--workspace", ws, "--map-tokens", "0", "app/main.py")
    assert none.returncode == 0, none.stderr
    assert outline_of(none.stdout) is None
    assert "def helper" not in none.stdout
    assert "outline of the rest" not in none.stderr


CLICK = Path(__file__).resolve().parents[1] / "data" / "pack_real" / "click"
THREE = ("src/click/formatting.py", "src/click/parser.py", "src/click/exceptions.py")


@pytest.fixture
def click(tmp_path: Path) -> Path:
    root = tmp_path / "click"
    shutil.copytree(CLICK, root)
    return root


@pytest.mark.parametrize("tokens", [150, 600, 2000])
def test_map_tokens_cuts_the_outline_of_a_real_tree_to_its_budget(click: Path, tokens: int) -> None:
    done = cli("pack", "--workspace", click, "--map-tokens", str(tokens), *THREE)
    assert done.returncode == 0, done.stderr
    shown = outline_of(done.stdout)
    assert shown is not None
    assert len(shown.rstrip("\n")) <= tokens * 4
    assert f"about {tokens} tokens" in shown
    assert f" of {tokens} tokens" in done.stderr
    # The first file of the rest is one a ticked file imports from (exceptions.py:
    # globals.py and utils.py; formatting.py: _textwrap.py), never the package's
    # __init__.py, which imports everything and is imported by none of them.
    first = shown.split("\n")[1].split(" (", 1)[0]
    assert first in {"src/click/globals.py", "src/click/utils.py", "src/click/_textwrap.py"}


def test_pack_of_three_real_files_is_their_numbered_text_plus_primer_plus_10k(
    click: Path,
) -> None:
    from llm_operator.core.protocol.context_pack import PackedFile, file_section
    from llm_operator.core.protocol.primer import primer_text

    done = cli("pack", "--workspace", click, "--task", "Fix the help wrapping", *THREE)
    assert done.returncode == 0, done.stderr
    assert set(unpack([done.stdout.rstrip("\n")])) == set(THREE)
    numbered = 0
    for rel in THREE:
        section = file_section(PackedFile(rel, (click / rel).read_text("utf-8")))
        numbered += len("\n".join(section)) + 1
    raw = sum((click / rel).stat().st_size for rel in THREE)
    primer = len(primer_text())
    # 41,358 bytes of files, 1,231 lines: line numbers and FILE lines add 6,099 characters.
    assert len(done.stdout) <= numbered + primer + 10_000, (len(done.stdout), numbered, raw)
    whole_outline = cli("pack", "--workspace", click, "--map-tokens", "1000000", *THREE)
    assert len(whole_outline.stdout) > len(done.stdout)  # the outline was cut to the budget


@pytest.mark.parametrize("value", ["-1", "1000001", "lots"])
def test_a_bad_map_tokens_is_a_usage_error(ws: Path, value: str) -> None:
    done = cli("pack", "--workspace", ws, "--map-tokens", value, "app/main.py")
    assert done.returncode == 2
    assert "--map-tokens" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_files_are_numbered_as_read_slice_numbers_them(ws: Path) -> None:
    from llm_operator.core.actions.base import ActionContext, FileSource, Outcome
    from llm_operator.core.actions.read import run_read_slice
    from llm_operator.core.actions.read_fields import SliceFields
    from llm_operator.core.store.workspace import Workspace

    # Mixed line ends, a form feed and a U+2028 (not line ends for readSlice), a tab,
    # blank lines and no final newline.
    text = "first\r\nsecond\n\n\tthird \x0c still third\u2028 same\r\n\nlast, no newline"
    (ws / "app" / "odd.py").write_bytes(text.encode("utf-8"))
    done = cli("pack", "--workspace", ws, "--map-tokens", "0", "app/odd.py")
    assert done.returncode == 0, done.stderr
    packed = done.stdout.split("=== FILE: app/odd.py (6 lines) ===\n", 1)[1]
    packed_lines = packed.split("\n=== END FILE: app/odd.py ===", 1)[0].split("\n")
    result = run_read_slice(
        ActionContext(Workspace(ws), FileSource()), SliceFields(path="app/odd.py", lines=50)
    )
    assert isinstance(result, Outcome)
    read_lines = [line for line in result.details.split("\n") if line[:1].isdigit()]
    assert packed_lines == read_lines
    assert packed_lines[0] == "1: first"
    assert packed_lines[-1] == "6: last, no newline"

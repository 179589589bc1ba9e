"""The context builder engine on a real project: this repository's own src/."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from llm_operator.core.errors import OperatorError
from llm_operator.core.plan.context import (
    SECRET_REASON,
    LeftOut,
    build_context,
    choose_files,
    read_for_context,
    workspace_tree,
)
from llm_operator.core.protocol.context_pack import file_lines
from llm_operator.core.store.workspace import Workspace
from support.context_parts import unpack
from support.paths import ROOT

SECRETS = ("src/llm_operator/.env", "src/llm_operator/core/deploy.pem", "src/id_rsa")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of this repository's src/ with three secret-looking files added."""
    root = tmp_path / "project"
    shutil.copytree(
        ROOT / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    for rel in SECRETS:
        (root / rel).write_text("API_TOKEN=do-not-send-0xDEADBEEF\n")
    (root / ".gitignore").write_text("build/\n*.log\n")
    (root / "build").mkdir()
    (root / "build" / "out.py").write_text("GENERATED = 1\n")
    (root / "src" / "run.log").write_text("log\n")
    return root


def expected_text(path: Path) -> str:
    text = path.read_text("utf-8").removeprefix("\ufeff").replace("\r\n", "\n")
    return "".join(line + "\n" for line in file_lines(text))


def test_the_tree_lists_files_marks_secrets_and_respects_gitignore(project: Path) -> None:
    tree = workspace_tree(Workspace(project))
    rels = [entry.rel for entry in tree.files]
    assert "src/llm_operator/cli.py" in rels
    assert "build/out.py" not in rels
    assert "src/run.log" not in rels
    assert tree.ignored == 2
    assert {entry.rel for entry in tree.files if entry.secret} == set(SECRETS)
    assert rels == sorted(rels, key=lambda rel: tuple(rel.split("/")))


@pytest.mark.slow
def test_pack_of_src_holds_exactly_the_ticked_files_and_parts_fit(project: Path) -> None:
    workspace = Workspace(project)
    every = [e.rel for e in workspace_tree(workspace).files if e.rel.endswith(".py")]
    ticked = random.Random(15).sample(every, 25)
    limit = 12_000
    pack = build_context(workspace, ticked, task="Review these", limit=limit, map_tokens=2000)
    assert set(pack.files) == set(ticked)
    assert pack.left_out == ()
    assert len(pack.message.parts) > 1
    assert all(len(part) <= limit for part in pack.message.parts)
    rebuilt = unpack(pack.message.parts)
    assert set(rebuilt) == set(ticked)
    for rel in ticked:
        assert rebuilt[rel] == expected_text(project / rel), rel
    whole = pack.message.whole
    assert "## Task\nReview these" in whole
    assert "## Outline of the rest of the workspace" in whole
    assert "do-not-send" not in whole
    for rel in SECRETS:
        assert rel not in whole  # not packed, not even outlined or named


def test_a_ticked_secret_file_goes_in_only_when_allowed(project: Path) -> None:
    workspace = Workspace(project)
    ticked = ["src/llm_operator/cli.py", "src/llm_operator/.env"]
    refused = build_context(workspace, ticked, limit=200_000)
    assert refused.files == ("src/llm_operator/cli.py",)
    assert [(left.rel, left.reason) for left in refused.left_out] == [
        ("src/llm_operator/.env", SECRET_REASON)
    ]
    assert "do-not-send" not in refused.message.whole
    allowed = build_context(workspace, ticked, include_secrets=True, limit=200_000)
    assert allowed.files == tuple(ticked)
    assert "do-not-send" in allowed.message.whole


def test_a_named_folder_leaves_its_secret_files_out(project: Path) -> None:
    chosen = choose_files(Workspace(project), ["src"], include_secrets=False)
    assert not set(SECRETS) & set(chosen.files)
    assert {left.rel for left in chosen.left_out} == set(SECRETS)
    assert "src/run.log" not in chosen.files  # .gitignore applies inside a named folder
    with_secrets = choose_files(Workspace(project), ["src"], include_secrets=True)
    assert set(SECRETS) <= set(with_secrets.files)


def test_a_symlink_to_a_secret_file_is_secret(project: Path) -> None:
    (project / "notes.txt").symlink_to(project / "src" / "id_rsa")
    chosen = choose_files(Workspace(project), ["notes.txt"], include_secrets=False)
    assert chosen.files == ()
    assert chosen.left_out[0].reason == SECRET_REASON


def test_a_file_named_on_its_own_goes_in_even_if_gitignored(project: Path) -> None:
    chosen = choose_files(Workspace(project), ["src/run.log", "src/run.log"], False)
    assert chosen.files == ("src/run.log",)


def test_binary_undecodable_missing_and_large_files_are_left_out_with_reasons(
    project: Path,
) -> None:
    (project / "blob.bin").write_bytes(b"\0\1\2")
    (project / "latin.txt").write_bytes(b"caf\xe9\n")
    (project / "huge.txt").write_text("x" * 600_000)
    paths = ["blob.bin", "latin.txt", "huge.txt", "missing.py"]
    pack = build_context(Workspace(project), paths, limit=50_000)
    reasons = {left.rel: left.reason for left in pack.left_out}
    assert reasons["blob.bin"] == "binary"
    assert reasons["latin.txt"] == "not UTF-8 text"
    assert reasons["huge.txt"].startswith("600000 bytes, over")
    assert reasons["missing.py"] == "not found"
    assert pack.files == ()


def test_a_path_outside_the_workspace_is_refused(project: Path) -> None:
    with pytest.raises(OperatorError) as caught:
        choose_files(Workspace(project), ["../etc"], include_secrets=False)
    assert caught.value.code == "ERR_PATH_OUTSIDE_WORKSPACE"


def test_git_internals_are_never_packed(project: Path) -> None:
    (project / ".git").mkdir()
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (project / "head-link").symlink_to(project / ".git" / "HEAD")
    chosen = choose_files(Workspace(project), [".git", ".git/HEAD", "head-link"], True)
    assert chosen.files == ()
    assert {left.rel: left.reason for left in chosen.left_out} == {
        ".git": "inside .git",
        ".git/HEAD": "inside .git",
        "head-link": "inside .git",
    }


def test_a_link_retargeted_at_a_secret_after_the_choice_stays_out(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "notes.txt").write_text("harmless notes\n")
    (root / ".env").write_text("API_KEY=sk-live-123\n")
    (root / "link.txt").symlink_to("notes.txt")
    workspace = Workspace(root)
    chosen = choose_files(workspace, ["link.txt"], include_secrets=False)
    assert chosen.files == ("link.txt",)  # a link to notes: nothing secret when chosen
    (root / "spare").symlink_to(".env")
    (root / "spare").replace(root / "link.txt")  # retargeted before it is read
    left = read_for_context(workspace, "link.txt")
    assert isinstance(left, LeftOut)
    assert left.reason == SECRET_REASON
    allowed = read_for_context(workspace, "link.txt", include_secrets=True)
    assert not isinstance(allowed, LeftOut)
    assert "sk-live-123" in allowed.text


def test_a_long_left_out_note_names_the_first_and_counts_the_rest() -> None:
    from llm_operator.core.plan.context import NOTE_NAMES, left_out_text

    left = [LeftOut(f"s/sock{n}", "a socket, not a regular file") for n in range(NOTE_NAMES + 5)]
    text = left_out_text(left)
    assert text.count("(a socket, not a regular file)") == NOTE_NAMES
    assert text.endswith("; and 5 more (llm-operator pack names them all)")
    assert left_out_text([LeftOut("a: b\u202e", "binary")]) == '"a: b\\u202e" (binary)'

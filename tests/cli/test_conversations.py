"""A new chat is a new conversation: its ids start again, and a read always reads now.

Everything here runs ``llm-operator`` as a process, as a user's terminal or script does:
``primer --workspace`` and ``pack`` start a new conversation (``pack --continue`` does
not); ``exec`` continues the workspace's current one.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from support.actions import cli
from support.examples import everyday_share
from support.fixtures import Decoded, parse_results


def block(cmd_id: str, action: str, **fields: str) -> str:
    lines = ["OPERATOR_CMD", "version: 1", f"id: {cmd_id}", f"action: {action}"]
    lines += [f"{key}: {value}" for key, value in fields.items()]
    return "\n".join([*lines, "END_OPERATOR_CMD"])


def chat_reply(read_path: str, content: str) -> str:
    """What the primer teaches a model to send first: read-1, then write-1."""
    return (
        block("read-1", "fs.read", path=read_path)
        + "\n\n"
        + block("write-1", "fs.write", path="notes.txt", content=content)
    )


@pytest.fixture
def places(tmp_path: Path) -> dict[str, Any]:
    """A workspace, and an environment whose user state folder is the one ``exec`` is
    given (``pack`` uses it too when not given --state-dir)."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.txt").write_text("alpha\n", encoding="utf-8")
    (workspace / "b.txt").write_text("beta\n", encoding="utf-8")
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "xdg"), HOME=str(tmp_path / "home"))
    env["LLM_OPERATOR_CONFIG_DIR"] = str(tmp_path / "config")
    return {
        "workspace": workspace,
        "state": tmp_path / "xdg" / "llm-operator",
        "env": env,
    }


def paste(places: dict[str, Any], text: str) -> list[Decoded]:
    done = cli(
        "exec",
        "--workspace",
        places["workspace"],
        "--state-dir",
        places["state"],
        "--yes",
        stdin=text,
        env=places["env"],
    )
    assert "Traceback" not in done.stderr
    return parse_results(done.stdout)


def new_chat(places: dict[str, Any], how: str) -> None:
    if how == "primer":
        where = ["--workspace", places["workspace"], "--state-dir", places["state"]]
        done = cli("primer", *where, env=places["env"])
    else:
        done = cli("pack", "--workspace", places["workspace"], "a.txt", env=places["env"])
    assert done.returncode == 0, done.stderr
    assert "OPERATOR_CMD" in done.stdout  # the primer (alone or in the pack) was printed


@pytest.mark.slow
@pytest.mark.parametrize("how", everyday_share(["primer", "pack"], str))
def test_a_new_chat_may_reuse_read_1_and_write_1(places: dict[str, Any], how: str) -> None:
    workspace = places["workspace"]
    first = paste(places, chat_reply("a.txt", "from the first chat"))
    assert [(r.id, r.ok) for r in first] == [("read-1", True), ("write-1", True)]

    new_chat(places, how)
    second = paste(places, chat_reply("b.txt", "from the second chat"))
    assert [(r.id, r.ok, r.code) for r in second] == [
        ("read-1", True, None),
        ("write-1", True, None),
    ]
    assert second[0].details == "beta\n"
    assert not any(r.repeat for r in second)  # nothing of the old chat comes back
    assert (workspace / "notes.txt").read_text(encoding="utf-8") == "from the second chat"

    # Within the new chat, pasting the same reply again is still safe: the write is a
    # repeat (not run again over a hand edit), the read reads the file as it is now.
    (workspace / "notes.txt").write_text("edited by hand", encoding="utf-8")
    (workspace / "b.txt").write_text("beta, changed\n", encoding="utf-8")
    again = paste(places, chat_reply("b.txt", "from the second chat"))
    assert [(r.id, r.ok, r.repeat) for r in again] == [
        ("read-1", True, True),
        ("write-1", True, True),
    ]
    assert again[0].details == "beta, changed\n"
    assert (workspace / "notes.txt").read_text(encoding="utf-8") == "edited by hand"
    # ... and the same id for other content is refused, as before.
    other = paste(places, chat_reply("b.txt", "something else"))
    assert other[1].code == "ERR_DUPLICATE_ID"
    assert (workspace / "notes.txt").read_text(encoding="utf-8") == "edited by hand"


@pytest.mark.slow
def test_pack_continue_keeps_the_current_chat(places: dict[str, Any]) -> None:
    paste(places, chat_reply("a.txt", "one"))
    done = cli("pack", "--workspace", places["workspace"], "--continue", "a.txt", env=places["env"])
    assert done.returncode == 0, done.stderr
    refused = paste(places, chat_reply("b.txt", "two"))
    assert [r.code for r in refused] == ["ERR_DUPLICATE_ID", "ERR_DUPLICATE_ID"]
    assert (places["workspace"] / "notes.txt").read_text(encoding="utf-8") == "one"


def test_a_repeated_read_returns_the_file_as_it_is_now(places: dict[str, Any]) -> None:
    workspace = places["workspace"]
    lines = [f"line {n}" for n in range(1, 921)]
    (workspace / "big.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    read = block("read-1", "fs.readSlice", path="big.py", start="68", lines="10")
    first = paste(places, read)
    assert first[0].summary.startswith("Read lines 68-77 of 920")
    lines[73:73] = ["a new line 75", "two", "three"]
    (workspace / "big.py").write_text("\n".join(lines) + "\n", encoding="utf-8")

    again = paste(places, read)
    assert again[0].ok
    assert again[0].summary.startswith("Read lines 68-77 of 923"), again[0].summary
    assert again[0].repeat  # it says it repeats an id, and that it was read again
    assert "a read runs again" in again[0].summary
    assert "a new line 75" in (again[0].details or "")


@pytest.mark.slow
def test_primer_without_a_workspace_starts_nothing_and_a_bad_one_is_a_usage_error(
    places: dict[str, Any], tmp_path: Path
) -> None:
    paste(places, chat_reply("a.txt", "one"))
    plain = cli("primer", env=places["env"])
    assert plain.returncode == 0
    assert paste(places, chat_reply("b.txt", "two"))[1].code == "ERR_DUPLICATE_ID"
    missing = cli("primer", "--workspace", tmp_path / "nowhere", env=places["env"])
    assert missing.returncode == 2
    assert "Traceback" not in missing.stderr
    assert "is not a folder" in missing.stderr  # as exec says it of the path it was given


@pytest.mark.slow
def test_an_undo_of_an_earlier_chats_batch_is_not_told_to_the_new_chat(
    places: dict[str, Any],
) -> None:
    workspace = places["workspace"]
    where = ["--workspace", workspace, "--state-dir", places["state"]]
    paste(places, chat_reply("a.txt", "first chat"))
    new_chat(places, "primer")
    undone = cli("undo", "--yes", *where, env=places["env"])
    assert undone.returncode == 0, undone.stderr
    assert not (workspace / "notes.txt").exists()
    assert "earlier chat" in undone.stdout  # whom the notice is for
    assert "OPERATOR_RESULT\nid: undo-1\n" in undone.stdout  # to paste there by hand
    # The new chat never sent write-1: its results do not begin with that notice.
    results = paste(places, chat_reply("b.txt", "second chat"))
    assert [r.id for r in results] == ["read-1", "write-1"]
    assert (workspace / "notes.txt").read_text(encoding="utf-8") == "second chat"


@pytest.mark.slow
def test_pack_starts_the_new_chat_in_the_store_exec_is_given(places: dict[str, Any]) -> None:
    # A state folder of its own, as a script gives exec: pack given the same starts the
    # new conversation there (in the user state folder, exec would never see it, and the
    # new chat's write-1 would be refused as a reused id).
    elsewhere = dict(places, state=places["workspace"] / ".own-state")
    paste(elsewhere, chat_reply("a.txt", "from the first chat"))
    where = ["--workspace", places["workspace"], "--state-dir", elsewhere["state"]]
    done = cli("pack", *where, "a.txt", env=places["env"])
    assert done.returncode == 0, done.stderr
    second = paste(elsewhere, chat_reply("b.txt", "from the second chat"))
    assert [(r.id, r.ok, r.code) for r in second] == [
        ("read-1", True, None),
        ("write-1", True, None),
    ]
    notes = places["workspace"] / "notes.txt"
    assert notes.read_text(encoding="utf-8") == "from the second chat"
    # And the app's own records in that folder (here inside the workspace) are never
    # packed or named.
    whole = cli("pack", *where, ".", env=places["env"])
    assert ".own-state" not in whole.stdout + whole.stderr

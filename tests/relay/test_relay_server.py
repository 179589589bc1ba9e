"""`llm-operator relay`: pairing, the checks every connection passes, and replies run as a
paste, over real sockets against the real command."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from support.relay_process import EXTENSION, answers_to, relay_process, send_reply


def block(command_id: str, action: str, **fields: str) -> str:
    lines = ["OPERATOR_CMD", "version: 1", f"id: {command_id}", f"action: {action}"]
    lines += [f"{key}: {value}" for key, value in fields.items()]
    return "\n".join([*lines, "END_OPERATOR_CMD"]) + "\n"


def closed_code(ws: object) -> int | None:
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=30)  # type: ignore[attr-defined]
    return closed.value.rcvd.code if closed.value.rcvd is not None else None


@pytest.fixture
def files(workspace: Path) -> Path:
    (workspace / "a.txt").write_text("alpha\n")
    return workspace


def test_pairing_gives_a_token_that_opens_a_chat_and_uses_up_the_code(
    files: Path, state_dir: Path
) -> None:
    with relay_process(files, state_dir) as relay:
        first_code = relay.code
        token = relay.pair()
        assert relay.code != first_code  # a new code was printed: the old one is spent
        with relay.open() as ws:
            ws.send(json.dumps({"type": "pair", "code": first_code}))
            assert closed_code(ws) == 1008
        with relay.chat(token) as ws:
            answer = send_reply(ws, block("r1", "fs.read", path="a.txt"), "m1")
        assert answer["type"] == "results"
        assert answer["needs_approval"] is False
        assert "alpha" in answer["parts"][0]
        assert answer["message_id"] == "m1"
        assert answer["conversation"] == "c-1"


@pytest.mark.parametrize(
    "hello",
    [
        {"type": "hello", "token": "not-the-token", "site": "x", "conversation": "c"},
        {"type": "hello", "site": "x", "conversation": "c"},
        {"type": "reply", "conversation": "c", "message_id": "m", "text": "x"},
        "not json",
    ],
    ids=["wrong-token", "missing-token", "no-hello", "not-json"],
)
def test_a_connection_without_the_token_is_closed_before_anything_runs(
    files: Path, state_dir: Path, hello: object
) -> None:
    with relay_process(files, state_dir) as relay:
        relay.pair()
        with relay.open() as ws:
            ws.send(hello if isinstance(hello, str) else json.dumps(hello))
            assert closed_code(ws) == 1008
        relay.wait_for_log("refused a connection")


@pytest.mark.parametrize("origin", ["https://chatgpt.com", "null", "http://127.0.0.1:9"])
def test_a_web_page_origin_is_refused_in_the_handshake(
    files: Path, state_dir: Path, origin: str
) -> None:
    with relay_process(files, state_dir) as relay:
        with pytest.raises(InvalidStatus) as refused:
            relay.open(origin=origin)
        assert refused.value.response.status_code == 403
        relay.wait_for_log("is not a browser extension's")


def raw_handshake(port: int, host: str, origin: str | None) -> bytes:
    request = (
        f"GET / HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    )
    if origin is not None:
        request += f"Origin: {origin}\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall((request + "\r\n").encode())
        return conn.recv(4096)


def test_a_rebound_host_and_a_missing_origin_are_refused(files: Path, state_dir: Path) -> None:
    with relay_process(files, state_dir) as relay:
        answer = raw_handshake(relay.port, f"evil.com:{relay.port}", EXTENSION)
        assert answer.startswith(b"HTTP/1.1 403"), answer
        assert raw_handshake(relay.port, f"127.0.0.1:{relay.port}", None).startswith(
            b"HTTP/1.1 403"
        )
        # The same request with the right Host and an extension's Origin is let in.
        welcome = raw_handshake(relay.port, f"localhost:{relay.port}", EXTENSION)
        assert welcome.startswith(b"HTTP/1.1 101"), welcome
        relay.wait_for_log("refused a connection: Host evil.com")


def test_every_other_spelling_of_the_host_is_refused(files: Path, state_dir: Path) -> None:
    # A rebound name may come with or without the port, in capitals, with a trailing
    # dot, or as the IPv6 loopback: none of them is the relay's own address.
    with relay_process(files, state_dir) as relay:
        port = relay.port
        for host in (
            "127.0.0.1",
            "localhost",
            f"LOCALHOST:{port}",
            f"localhost.:{port}",
            f"[::1]:{port}",
            f"127.0.0.1:{port}.evil.com",
            f"evil.com:{port}",
            "",
        ):
            answer = raw_handshake(port, host, EXTENSION)
            assert answer.startswith((b"HTTP/1.1 403", b"HTTP/1.1 400")), (host, answer)
        assert raw_handshake(port, f"127.0.0.1:{port}", EXTENSION).startswith(b"HTTP/1.1 101")


def test_a_page_opening_connections_in_a_loop_never_takes_the_extensions_turn(
    files: Path, state_dir: Path
) -> None:
    # Any web page may open WebSockets to 127.0.0.1 (its own Origin, or a rebound Host):
    # each is refused, and none of them counts towards the connection rate, so the
    # extension still gets in right after (it was refused with 429 when they counted).
    with relay_process(files, state_dir) as relay:
        for number in range(40):
            host = f"127.0.0.1:{relay.port}" if number % 2 else f"evil.com:{relay.port}"
            origin = "https://evil.example" if number % 2 else EXTENSION
            assert raw_handshake(relay.port, host, origin).startswith(b"HTTP/1.1 403")
        token = relay.pair()
        with relay.chat(token) as ws:
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=30)) == {"type": "pong"}
            # A line the relay writes after all it says about the connection.
            ws.send(json.dumps({"type": "accepted", "message_id": "probe", "part": 0}))
            relay.wait_for_log("part 1 of probe placed")
        # The first ten are logged, the rest counted: a page cannot flood the log.
        log = relay.log()
        assert "too many connections" not in log
        assert log.count("refused a connection") == 10, log
        assert "refused 30 more connection(s) of web pages meanwhile" in log


def test_the_same_message_twice_runs_once(files: Path, state_dir: Path) -> None:
    command = block("c1", "run.command", command="sh -c 'echo x >> count.txt'")
    with relay_process(files, state_dir, "yes") as relay:
        token = relay.pair()
        with relay.chat(token) as ws:
            first = send_reply(ws, command, "m1")
            again = send_reply(ws, command, "m1")
        with relay.chat(token) as ws:  # another connection: still from memory
            third = send_reply(ws, command, "m1")
    assert first == again == third
    assert "ok: true" in first["parts"][0]
    assert (files / "count.txt").read_text() == "x\n"


def test_a_write_waits_for_approval_rejected_with_no(files: Path, state_dir: Path) -> None:
    write = block("w1", "fs.write", path="a.txt", content="changed")
    with relay_process(files, state_dir, "no") as relay, relay.chat(relay.pair()) as ws:
        answer = send_reply(ws, write, "m1")
    assert answer["needs_approval"] is True
    assert "ok: false" in answer["parts"][0]
    assert "ERR_REJECTED_BY_USER" in answer["parts"][0]
    assert "--approve no" in answer["parts"][0]
    assert (files / "a.txt").read_text() == "alpha\n"


def test_a_write_lands_with_yes(files: Path, state_dir: Path) -> None:
    write = block("w1", "fs.write", path="a.txt", content="changed")
    with relay_process(files, state_dir, "yes") as relay, relay.chat(relay.pair()) as ws:
        answer = send_reply(ws, write, "m1")
    assert answer["needs_approval"] is True
    assert "ok: true" in answer["parts"][0]
    assert (files / "a.txt").read_text() == "changed"


def test_an_oversize_message_closes_the_connection_and_runs_nothing(
    files: Path, state_dir: Path
) -> None:
    huge = block("w1", "fs.write", path="big.txt", content="x") + "y" * 1_100_000
    with relay_process(files, state_dir, "yes") as relay, relay.chat(relay.pair()) as ws:
        ws.send(
            json.dumps({"type": "reply", "conversation": "c-1", "message_id": "m", "text": huge})
        )
        assert closed_code(ws) == 1009
    assert not (files / "big.txt").exists()


def test_replies_without_commands_and_messages_from_before_are_ignored(
    files: Path, state_dir: Path
) -> None:
    read = block("r1", "fs.read", path="a.txt")
    with relay_process(files, state_dir) as relay:
        token = relay.pair()
        with relay.chat(token, existing=["old-1"]) as ws:
            plain = send_reply(ws, "Sure, here is my plan.", "m1")
            old = send_reply(ws, read, "old-1")
            new = send_reply(ws, read, "m2")
    assert plain["type"] == old["type"] == "ignored"
    assert "no OPERATOR_CMD" in plain["reason"]
    assert "before pairing" in old["reason"]
    assert new["type"] == "results"


def test_each_chat_is_a_conversation_of_its_own(files: Path, state_dir: Path) -> None:
    """A new chat may reuse ``w1`` for other content; within a chat it is a duplicate."""
    first = block("w1", "fs.write", path="b.txt", content="one")
    other = block("w1", "fs.write", path="b.txt", content="two")
    with relay_process(files, state_dir, "yes") as relay:
        token = relay.pair()
        with relay.chat(token, conversation="c-1") as ws:
            assert "ok: true" in send_reply(ws, first, "m1")["parts"][0]
            clash = send_reply(ws, other, "m2")
        with relay.chat(token, conversation="c-2") as ws:
            fresh = send_reply(ws, other, "m1", conversation="c-2")
    assert "ERR_DUPLICATE_ID" in clash["parts"][0]
    assert "ok: true" in fresh["parts"][0]
    assert (files / "b.txt").read_text() == "two"


def test_paused_relays_nothing(files: Path, state_dir: Path) -> None:
    read = block("r1", "fs.read", path="a.txt")
    with relay_process(files, state_dir, "yes", "--control") as relay:
        token = relay.pair()
        assert relay.process.stdin is not None
        with relay.chat(token) as ws:
            relay.process.stdin.write("pause\n")
            relay.process.stdin.flush()
            assert json.loads(ws.recv(timeout=30)) == {"type": "status", "state": "paused"}
            paused = send_reply(ws, read, "m1")
            relay.process.stdin.write("resume\n")
            relay.process.stdin.flush()
            assert json.loads(ws.recv(timeout=30)) == {"type": "status", "state": "running"}
            resumed = send_reply(ws, read, "m1")
    assert paused["type"] == "ignored"
    assert "paused" in paused["reason"]
    assert resumed["type"] == "results"


def test_a_ping_keeps_the_connection_and_gets_a_pong(files: Path, state_dir: Path) -> None:
    with relay_process(files, state_dir) as relay, relay.chat(relay.pair()) as ws:
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=30)) == {"type": "pong"}
        ws.send(json.dumps({"type": "mystery"}))
        assert json.loads(ws.recv(timeout=30))["type"] == "error"


def test_reads_before_a_write_come_at_once_and_the_rest_after_the_decision(
    files: Path, state_dir: Path
) -> None:
    """The read before the write cannot be changed by it: its result is sent before the
    review. The read after the write would read the planned file: it waits."""
    text = (
        block("r1", "fs.read", path="a.txt")
        + block("w1", "fs.write", path="a.txt", content="changed")
        + block("r2", "fs.read", path="a.txt")
    )
    with relay_process(files, state_dir, "no") as relay, relay.chat(relay.pair()) as ws:
        early, final = answers_to(ws, text, "m1")
        again = answers_to(ws, text, "m1")
    assert (early["final"], early["needs_approval"]) == (False, False)
    assert "id: r1" in early["parts"][0]
    assert "id: w1" not in early["parts"][0]
    assert (final["final"], final["needs_approval"]) == (True, True)
    assert "id: r1" not in final["parts"][0]
    assert "ERR_REJECTED_BY_USER" in final["parts"][0]
    assert "id: r2" in final["parts"][0]
    assert again == [early, final]  # from memory, both, in the same order


def test_an_undo_notice_leads_the_next_results_of_its_own_chat_only(
    files: Path, state_dir: Path
) -> None:
    import subprocess
    import sys

    write = block("w1", "fs.write", path="n.txt", content="one")
    read = block("r1", "fs.read", path="a.txt")
    with relay_process(files, state_dir, "yes") as relay:
        token = relay.pair()
        with relay.chat(token, conversation="c-1") as ws:
            assert "ok: true" in send_reply(ws, write, "m1")["parts"][0]
        undo = [sys.executable, "-m", "llm_operator.cli", "undo", "--yes"]
        undo += ["--workspace", str(files), "--state-dir", str(state_dir)]
        done = subprocess.run(undo, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert not (files / "n.txt").exists()
        with relay.chat(token, conversation="c-2") as ws:
            other = send_reply(ws, read, "m1", conversation="c-2")
        with relay.chat(token, conversation="c-1") as ws:
            own = send_reply(ws, read, "m2")
    assert "id: undo-" not in other["parts"][0]
    assert own["parts"][0].startswith("OPERATOR_RESULT\nid: undo-")
    assert "w1" in own["parts"][0].split("END_OPERATOR_RESULT")[0]


def test_half_a_character_in_a_reply_or_a_name_is_read_not_a_crash(
    files: Path, state_dir: Path
) -> None:
    """JSON may hold a lone surrogate (a page's text cut inside an emoji): the reply still
    runs, in the chat it names, and the relay goes on."""
    read = block("r1", "fs.read", path="a.txt")
    raw = (
        '{"type": "reply", "conversation": "c-\\ud83d", "message_id": "m\\ud83d", '
        '"title": "t\\udc00", "text": ' + json.dumps("\ud83d cut\n" + read) + "}"
    )
    with relay_process(files, state_dir) as relay, relay.chat(relay.pair()) as ws:
        ws.send(raw)
        while (answer := json.loads(ws.recv(timeout=60)))["type"] == "status":
            pass
        assert answer["type"] == "results", answer
        assert "alpha" in answer["parts"][0]
        assert answer["conversation"] == "c-\\ud83d"
        again = send_reply(ws, read, "m2")
    assert again["type"] == "results"


def test_with_nobody_to_review_a_write_is_not_run_and_no_rejection_is_claimed(
    files: Path, state_dir: Path
) -> None:
    """--approve window with no window open: the write says ERR_NO_REVIEWER (not "rejected
    by the user": nobody rejected it), the read before it ran, nothing was written."""
    text = block("r1", "fs.read", path="a.txt") + block(
        "w1", "fs.write", path="a.txt", content="changed"
    )
    with relay_process(files, state_dir, "window") as relay, relay.chat(relay.pair()) as ws:
        early, final = answers_to(ws, text, "m1")
    assert "alpha" in early["parts"][0]
    assert "id: w1" in final["parts"][0]
    assert "ERR_NO_REVIEWER" in final["parts"][0]
    assert "ERR_REJECTED_BY_USER" not in final["parts"][0]
    assert (files / "a.txt").read_text() == "alpha\n"


def test_a_relay_started_again_knows_the_browser_paired_before(
    files: Path, state_dir: Path, private_config: Path
) -> None:
    read = block("r1", "fs.read", path="a.txt")
    with relay_process(files, state_dir) as relay:
        token = relay.pair()
    kept = private_config / "relay-tokens.json"
    assert token not in kept.read_text()  # only a digest is kept
    assert kept.stat().st_mode & 0o777 == 0o600
    with relay_process(files, state_dir) as relay, relay.chat(token) as ws:
        assert send_reply(ws, read, "m1")["type"] == "results"

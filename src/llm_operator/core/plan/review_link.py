"""The local link between an MCP server and the window reviewing its calls.

The window listens on a Unix socket in the workspace's state folder (``review.sock``,
mode 0600, in a folder only its user can enter) while a workspace is open; the server
connects when its calls need approval. Both ends check that the peer runs as the same
user (SO_PEERCRED where the system has it).

One connection is one review, one JSON line each way:

    server -> window  {"client": "<MCP client name>", "reply": "<the commands as a reply>",
                       "channel": "mcp" | "relay", "conversation": <n>}
    window -> server  {"decisions": {"<index>": [approved, "reason", merged, edited]}}
                      or {"refused": "<why the window cannot review now>"}

The window prepares the reply itself, so it shows exactly what a paste of those commands
would show; the server runs its own plan of them, and the stale-file check refuses a plan
whose file changed between the two. ``merged`` (optional) lists the merged changes the
person approved of files that changed outside while the review was open, each as
``[path, digest of the file's bytes, digest of the merged bytes]``: the server makes the
merge again from its own plan and writes it only if it gives those very bytes. ``edited``
(optional) lists the person's own text for changes they edited, each as ``[path, digest
of the proposed bytes, text]``: the server applies it only to a change of its own plan
with those very proposed bytes (``person_edit``). The server
closing the connection withdraws the review (the call was cancelled or timed out): the
window closes its dialog and nothing is sent.
``channel`` (default ``mcp``) names the channel in the window's title; ``conversation``
(optional) is the conversation the server plans the reply in (a relayed chat's), so the
window plans it in the same one and a repeat there is a repeat here.
A probe (``{"probe": true}``) is answered with ``{"ready": true}``: the server uses it to
learn whether a window is there. A connection that starts with ``{"watch": ...}`` streams
a command the server runs to the window (``watch_link``).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import struct
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .outside_merge import ShownMerge
from .person_edit import PersonEdit
from .run import Decision

SOCKET_NAME = "review.sock"
MAX_LINE = 4_000_000  # a review request: a reply of at most a few MB
_SUN_PATH_MAX = 100  # sockaddr_un holds about 104-108 bytes; longer paths go via /proc


def socket_path(state_folder: Path) -> Path:
    return state_folder / SOCKET_NAME


class LinkError(Exception):
    """The window could not be reached or broke off; ``str()`` says why, for people."""


def _address(path: Path) -> tuple[str, int | None]:
    """An address ``bind``/``connect`` accept for ``path``; a long path is reached through
    its folder's descriptor (Linux), whose fd the caller closes afterwards."""
    text = str(path)
    if len(os.fsencode(text)) <= _SUN_PATH_MAX or not Path("/proc/self/fd").is_dir():
        return text, None
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    return f"/proc/self/fd/{folder}/{path.name}", folder


def same_user(conn: socket.socket) -> bool:
    """Whether the peer runs as this user (True where the system cannot tell: the socket's
    mode and folder already keep other users out)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    raw = conn.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", raw)
    return bool(uid == os.getuid())


def _send(conn: socket.socket, message: Mapping[str, object]) -> None:
    conn.sendall(json.dumps(message).encode("utf-8") + b"\n")


def _receive(conn: socket.socket) -> dict[str, object] | None:
    """One JSON line, or None when the peer closed first."""
    data = b""
    while b"\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
        if len(data) > MAX_LINE:
            raise LinkError("the message is too large")
    try:
        found = json.loads(data.split(b"\n", 1)[0])
    except ValueError:
        raise LinkError("the message is not JSON") from None
    if not isinstance(found, dict):
        raise LinkError("the message is not a JSON object")
    return found


# -- the server's side -------------------------------------------------------------------


def _connect(path: Path, timeout: float | None) -> socket.socket:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(timeout)
    address, folder = _address(path)
    try:
        conn.connect(address)
    except OSError:
        conn.close()
        raise
    finally:
        if folder is not None:
            os.close(folder)
    if not same_user(conn):
        conn.close()
        raise LinkError("the review socket belongs to another user")
    return conn


def window_ready(state_folder: Path) -> bool:
    """Whether a window is listening for reviews of this workspace."""
    try:
        with _connect(socket_path(state_folder), 2.0) as conn:
            _send(conn, {"probe": True})
            answer = _receive(conn)
    except (OSError, LinkError):
        return False
    return answer is not None and answer.get("ready") is True


class ReviewRequest:
    """One review asked of the window; ``wait`` blocks until the answer, ``withdraw``
    (from another thread) breaks off."""

    def __init__(
        self,
        state_folder: Path,
        client: str,
        reply: str,
        channel: str = "mcp",
        conversation: int | None = None,
    ) -> None:
        try:
            self._conn = _connect(socket_path(state_folder), 5.0)
        except OSError as error:
            raise LinkError(
                f"no window is reviewing this workspace ({error.strerror or error})"
            ) from None
        self._conn.settimeout(None)
        request: dict[str, object] = {"client": client, "reply": reply, "channel": channel}
        if conversation is not None:
            request["conversation"] = conversation
        _send(self._conn, request)

    def wait(self) -> dict[int, Decision]:
        try:
            answer = _receive(self._conn)
        except OSError as error:
            why = error.strerror or error
            raise LinkError(f"the window broke off the review ({why})") from None
        finally:
            self.withdraw()
        if answer is None:
            raise LinkError("the window closed the review without an answer")
        if "refused" in answer:
            raise LinkError(f"the window cannot review now: {answer['refused']}")
        return parse_decisions(answer.get("decisions"))

    def withdraw(self) -> None:
        with contextlib.suppress(OSError):
            self._conn.shutdown(socket.SHUT_RDWR)
        self._conn.close()


def parse_decisions(raw: object) -> dict[int, Decision]:
    if not isinstance(raw, dict):
        raise LinkError("the window's answer holds no decisions")
    decisions: dict[int, Decision] = {}
    for key, value in raw.items():
        if (
            not isinstance(key, str)
            or not key.isdigit()
            or not isinstance(value, list)
            or len(value) not in (2, 3, 4)
            or not isinstance(value[0], bool)
            or not isinstance(value[1], str)
        ):
            raise LinkError("the window's answer is not a list of decisions")
        merged = _merges(value[2]) if len(value) >= 3 else ()
        edited = _edits(value[3]) if len(value) == 4 else ()
        decisions[int(key)] = Decision(value[0], value[1], merged, edited)
    return decisions


def _merges(raw: object) -> tuple[ShownMerge, ...]:
    if not isinstance(raw, list) or not all(
        isinstance(item, list) and len(item) == 3 and all(isinstance(v, str) for v in item)
        for item in raw
    ):
        raise LinkError("the window's answer holds a merged change that is not readable")
    return tuple(ShownMerge(*item) for item in raw)


def _edits(raw: object) -> tuple[PersonEdit, ...]:
    if not isinstance(raw, list) or not all(
        isinstance(item, list) and len(item) == 3 and all(isinstance(v, str) for v in item)
        for item in raw
    ):
        raise LinkError("the window's answer holds an edited change that is not readable")
    return tuple(PersonEdit(*item) for item in raw)


# -- the window's side -------------------------------------------------------------------


@dataclass
class Review:
    """A review the window was asked for. ``answer`` sends the decisions (once);
    ``withdrawn`` is set when the server broke off (then nothing is sent)."""

    client: str
    reply: str
    _conn: socket.socket
    withdrawn: threading.Event
    _answered: threading.Event
    channel: str = "mcp"  # "mcp" or "relay": named in the window's title
    conversation: int | None = None  # the server's conversation of the reply, if given

    def answer(self, decisions: Mapping[int, Decision]) -> bool:
        """Send the decisions; False if the review was withdrawn meanwhile."""
        payload = {
            str(k): [
                d.approved,
                d.reason,
                [[m.path, m.theirs, m.merged] for m in d.merged],
                [[e.path, e.proposed, e.text] for e in d.edited],
            ]
            for k, d in decisions.items()
        }
        return self._finish({"decisions": payload})

    def refuse(self, why: str) -> bool:
        return self._finish({"refused": why})

    def _finish(self, message: Mapping[str, object]) -> bool:
        if self._answered.is_set():
            return False
        self._answered.set()
        if self.withdrawn.is_set():
            return False
        try:
            _send(self._conn, message)
        except OSError:
            return False
        return True


class ReviewListener:
    """Accepts reviews for one workspace in a thread; ``on_review`` is called from that
    thread (the window passes them to its UI thread) and ``on_withdrawn`` when the server
    breaks one off."""

    def __init__(
        self,
        state_folder: Path,
        on_review: Callable[[Review], None],
        on_withdrawn: Callable[[Review], None],
        on_watch: Callable[[socket.socket, dict[str, object]], None] | None = None,
    ) -> None:
        self._path = socket_path(state_folder)
        self._on_watch = on_watch
        self._on_review = on_review
        self._on_withdrawn = on_withdrawn
        self._stopped = threading.Event()
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with contextlib.suppress(FileNotFoundError):
            if window_ready(state_folder):
                self._sock.close()
                raise LinkError("another window already reviews this workspace")
            self._path.unlink()  # left by a window that was killed
        address, folder = _address(self._path)
        # Not through the umask, which is the whole process's: a file another thread
        # writes at that moment would get the wrong mode. Until the chmod below the
        # socket has the umask's mode (others cannot write to it, so cannot connect),
        # and every connection's peer is checked anyway.
        try:
            self._sock.bind(address)
            os.chmod(self._path, 0o600)
        except OSError:
            self._sock.close()
            raise
        finally:
            if folder is not None:
                os.close(folder)
        self._sock.listen(8)
        self._sock.settimeout(0.5)
        self._thread = threading.Thread(target=self._serve, name="review-link", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stopped.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(None)
            if not same_user(conn):
                return
            try:
                request = _receive(conn)
            except (OSError, LinkError):
                return
            if request is None:
                return
            if request.get("probe") is True:
                with contextlib.suppress(OSError):
                    _send(conn, {"ready": True})
                return
            if "watch" in request:
                if self._on_watch is not None:
                    self._on_watch(conn, request)
                return
            client, reply = request.get("client"), request.get("reply")
            if not isinstance(client, str) or not isinstance(reply, str):
                return
            channel = "relay" if request.get("channel") == "relay" else "mcp"
            number = request.get("conversation")
            review = Review(
                client[:200],
                reply,
                conn,
                threading.Event(),
                threading.Event(),
                channel,
                number if isinstance(number, int) and not isinstance(number, bool) else None,
            )
            self._on_review(review)
            # The server sends nothing more: a read returning means it broke off.
            with contextlib.suppress(OSError):
                conn.recv(1)
            if not review._answered.is_set():
                review.withdrawn.set()
                self._on_withdrawn(review)
            else:
                review.withdrawn.set()

    def stop(self) -> None:
        self._stopped.set()
        # Shutting the listening socket down wakes the thread blocked in accept() at once
        # (Linux); a close alone leaves it there until its timeout.
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self._sock.close()
        with contextlib.suppress(OSError):
            self._path.unlink()
        self._thread.join(timeout=2)

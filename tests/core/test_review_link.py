"""The review socket between an MCP server and the window: private, one window per
workspace, long state paths, answers and withdrawals."""

from __future__ import annotations

import socket
import stat
import sys
import threading
from pathlib import Path

import pytest

from llm_operator.core.plan.review_link import (
    LinkError,
    Review,
    ReviewListener,
    ReviewRequest,
    socket_path,
    window_ready,
)
from llm_operator.core.plan.run import APPROVE, Decision

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Unix sockets")


class Window:
    def __init__(self) -> None:
        self.reviews: list[Review] = []
        self.arrived = threading.Event()
        self.withdrawn = threading.Event()

    def on_review(self, review: Review) -> None:
        self.reviews.append(review)
        self.arrived.set()

    def on_withdrawn(self, review: Review) -> None:
        self.withdrawn.set()


def test_the_socket_is_private_and_answers_a_review(tmp_path: Path) -> None:
    window = Window()
    listener = ReviewListener(tmp_path, window.on_review, window.on_withdrawn)
    try:
        mode = socket_path(tmp_path).stat().st_mode
        assert stat.S_ISSOCK(mode)
        assert stat.S_IMODE(mode) == 0o600
        assert window_ready(tmp_path)
        request = ReviewRequest(tmp_path, "Claude", "OPERATOR_CMD\n...")
        assert window.arrived.wait(10)
        (review,) = window.reviews
        assert review.client == "Claude"
        assert review.reply == "OPERATOR_CMD\n..."
        assert review.answer({0: APPROVE, 2: Decision(False, "no")})
        assert request.wait() == {0: APPROVE, 2: Decision(False, "no")}
        assert not review.answer({0: APPROVE})  # once only
    finally:
        listener.stop()
    assert not socket_path(tmp_path).exists()
    assert not window_ready(tmp_path)


def test_a_withdrawn_review_is_told_to_the_window_and_gets_no_answer(tmp_path: Path) -> None:
    window = Window()
    listener = ReviewListener(tmp_path, window.on_review, window.on_withdrawn)
    try:
        request = ReviewRequest(tmp_path, "client", "reply")
        assert window.arrived.wait(10)
        request.withdraw()
        assert window.withdrawn.wait(10)
        assert not window.reviews[0].answer({0: APPROVE})
    finally:
        listener.stop()


def test_one_window_per_workspace_and_a_dead_windows_socket_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = Window()
    first = ReviewListener(tmp_path, window.on_review, window.on_withdrawn)
    try:
        with pytest.raises(LinkError, match="another window"):
            ReviewListener(tmp_path, window.on_review, window.on_withdrawn)
    finally:
        first.stop()
    # A window killed with -9 leaves its socket file behind: nobody listens on it.
    # Bound by its name in the folder: under a long TMPDIR the whole path does not fit a
    # socket address (the listener goes through the folder's descriptor then).
    monkeypatch.chdir(tmp_path)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as dead:
        dead.bind(socket_path(tmp_path).name)
    assert not window_ready(tmp_path)
    second = ReviewListener(tmp_path, window.on_review, window.on_withdrawn)
    try:
        assert window_ready(tmp_path)
    finally:
        second.stop()


def test_a_state_folder_longer_than_a_socket_address_works(tmp_path: Path) -> None:
    deep = tmp_path / ("a-long-folder-name-" * 4) / ("another-long-folder-" * 4)
    deep.mkdir(parents=True)
    assert len(str(socket_path(deep))) > 110
    window = Window()
    listener = ReviewListener(deep, window.on_review, window.on_withdrawn)
    try:
        assert window_ready(deep)
        assert stat.S_IMODE(socket_path(deep).stat().st_mode) == 0o600
    finally:
        listener.stop()


def test_no_window_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LinkError, match="no window is reviewing this workspace"):
        ReviewRequest(tmp_path, "client", "reply")


def test_the_persons_edits_cross_the_link_whole_and_bad_ones_are_refused() -> None:
    from llm_operator.core.plan.person_edit import PersonEdit
    from llm_operator.core.plan.review_link import parse_decisions

    edit = PersonEdit("a.txt", "sha256:" + "1" * 64, "line\r\nwith \u00e9\n")
    raw = {"3": [True, "", [], [[edit.path, edit.proposed, edit.text]]]}
    assert parse_decisions(raw) == {3: Decision(True, edited=(edit,))}
    for bad in ([["a.txt", "x"]], [["a.txt", "x", 3]], "a.txt"):
        with pytest.raises(LinkError, match="edited change"):
            parse_decisions({"3": [True, "", [], bad]})


def test_stopping_wakes_a_listener_that_waits_with_no_timeout(tmp_path: Path) -> None:
    # Closing the window stops its listener at once: the socket is shut down, which wakes
    # the thread blocked in accept(), rather than left for the accept timeout to notice.
    window = Window()
    listener = ReviewListener(tmp_path, window.on_review, window.on_withdrawn)
    listener._sock.settimeout(None)
    assert window_ready(tmp_path)  # the accept loop goes round: it now waits for good
    listener.stop()
    assert not listener._thread.is_alive()
    assert not socket_path(tmp_path).exists()

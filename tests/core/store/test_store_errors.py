"""What a store failure is said to be comes from the failure, never from the names in it."""

from __future__ import annotations

import errno
import sqlite3

import pytest

from llm_operator.core.store.database import store_error


@pytest.mark.parametrize(
    ("exc", "said", "not_said"),
    [
        (
            OSError(errno.EROFS, "Read-only file system", "/home/u/fullstack/state"),
            "read-only",
            "full",
        ),
        (
            OSError(errno.ENOSPC, "No space left on device", "/srv/readonly-mirror/state"),
            "the disk holding it is full",
            "read-only",
        ),
        (
            OSError(errno.EACCES, "Permission denied", "/home/u/locked-box/state"),
            "permission denied",
            "another program holds it locked",
        ),
        (sqlite3.OperationalError("database or disk is full"), "full", "read-only"),
    ],
)
def test_the_reason_is_read_from_the_error_not_from_its_file_name(
    exc: BaseException, said: str, not_said: str
) -> None:
    error = store_error(exc, "open the store")
    assert error.code == "ERR_STATE_STORE_UNAVAILABLE"
    assert said in error.message.lower()
    assert not_said not in error.message.lower()
    assert "/home/u" not in error.message
    assert "/srv" not in error.message

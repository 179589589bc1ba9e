"""A workspace's checks: named command lines the person set up (tests, lint, build).

Invariants:
- Checks live in the workspace's state store (table ``checks``), never in a file of the
  workspace: a reply can write files, so a check kept in one could be changed by the
  model that then runs it without a question (run.check asks nothing).
- A name is 1-40 characters of letters, digits, ``.``, ``_`` and ``-``, starting with a
  letter or digit; a name is one check (adding it again replaces its command).
- The command line is kept as typed (split by shlex when it runs, or run by /bin/sh -c
  when ``shell``); ``keep`` names environment variables the check keeps even though their
  names look secret; ``timeout`` is the most seconds a run may take.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import OperatorError
from .commands import DEFAULT_TIMEOUT, MAX_TIMEOUT, split_command
from .database import StateStore, guarded

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}\Z")


@dataclass(frozen=True)
class Check:
    """A named command line the person set up for the workspace (tests, lint, build)."""

    name: str
    command: str
    shell: bool = False
    timeout: int = DEFAULT_TIMEOUT
    keep: tuple[str, ...] = ()

    @property
    def argv(self) -> tuple[str, ...]:
        return split_command(self.command, self.shell)


def check_name(name: str) -> str:
    if not NAME.match(name):
        raise OperatorError(
            "ERR_INVALID_FIELD",
            f"check name {name!r} is not 1-40 letters, digits, '.', '_' or '-' starting "
            "with a letter or digit",
        )
    return name


def list_checks(store: StateStore | None) -> tuple[Check, ...]:
    """The workspace's checks by name (none without a store). Raises StoreError."""
    if store is None:
        return ()
    with guarded("read the workspace's checks"), store.reading() as db:
        rows = db.execute(
            "SELECT name, command, shell, timeout, keep FROM checks ORDER BY name"
        ).fetchall()
    return tuple(
        Check(str(name), str(command), bool(shell), int(timeout), tuple(str(keep).split()))
        for name, command, shell, timeout, keep in rows
    )


def add_check(store: StateStore, check: Check) -> None:
    """Keep ``check`` (replacing one of the same name). Raises OperatorError, StoreError."""
    check_name(check.name)
    check.argv  # noqa: B018 - a line that cannot be split is refused now, not when it runs
    if not 1 <= check.timeout <= MAX_TIMEOUT:
        raise OperatorError("ERR_INVALID_FIELD", f"timeout must be from 1 to {MAX_TIMEOUT} seconds")
    with guarded("save the check"), store.transaction() as db:
        db.execute(
            "INSERT OR REPLACE INTO checks (name, command, shell, timeout, keep) "
            "VALUES (?, ?, ?, ?, ?)",
            (check.name, check.command, int(check.shell), check.timeout, " ".join(check.keep)),
        )


def remove_check(store: StateStore, name: str) -> bool:
    """Forget check ``name``; False when there was none. Raises StoreError."""
    with guarded("remove the check"), store.transaction() as db:
        cursor = db.execute("DELETE FROM checks WHERE name = ?", (name,))
    return cursor.rowcount > 0

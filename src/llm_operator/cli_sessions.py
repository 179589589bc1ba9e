"""What every subcommand of the command line shares: its exit codes and the sessions it
opened (``run`` closes their state stores before the process leaves)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core.plan.session import Session

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


# The sessions an exec or undo of this process opened: closed by ``run`` before it leaves.
OPENED: list[Session] = []


def open_session(workspace: Path, state_dir: Path | None) -> Session | None:
    from .core.errors import OperatorError
    from .core.plan.session import Session
    from .core.store.settings import Settings
    from .core.store.state import default_state_dir
    from .core.store.workspace import Workspace

    try:
        # The secret-looking file and environment patterns are shared with the window.
        settings = Settings.load()
        chosen = Workspace(
            workspace,
            tuple(settings.secret_patterns),
            secret_environment=tuple(settings.secret_environment),
        )
    except OperatorError as error:
        print(f"llm-operator: {error.message}", file=sys.stderr)
        return None
    session = Session(chosen, state_dir if state_dir is not None else default_state_dir())
    OPENED.append(session)
    return session

"""What the LLM last saw of the files each run touched, kept for the note about files
changed outside the app (see ``core.store.seen_copies``); one workspace at a time."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.plan.session import Session
    from ..core.store.seen_copies import SeenCopies


class OutsideNotes:
    """Keeps what the LLM last saw of the files each run touched, per workspace."""

    def __init__(self) -> None:
        self._copies: SeenCopies | None = None
        self._root: Path | None = None

    def _for(self, session: Session | None) -> SeenCopies | None:
        if session is None:
            return None
        root = session.workspace.root
        if self._copies is None or self._root != root:
            from ..core.store.seen_copies import SeenCopies

            self._copies, self._root = SeenCopies(session.workspace), root
        self._copies.workspace = session.workspace  # its secret patterns as they are now
        return self._copies

    def remember(self, session: Session | None, touched: Iterable[str]) -> None:
        copies = self._for(session)
        if copies is not None:
            copies.remember(touched)

    def note(self, session: Session | None, names: Iterable[str]) -> str:
        from ..core.store.seen_copies import changed_note

        copies = self._for(session)
        return changed_note(copies, names) if copies is not None else ""

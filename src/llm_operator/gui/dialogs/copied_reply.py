"""The question clipboard watch asks before running copied text that quotes the app's own
examples (core/protocol/copied.py, Rule 3): it may be a piece of the primer, a note about
it or a chat copied whole, and its examples would run as commands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMessageBox, QWidget

from ..plain_text import plain_question

if TYPE_CHECKING:
    from ...core.protocol.copied import CopiedText


class CopiedReplyQuestion:
    """Run copied text that quotes the app's examples? No unless the person says yes."""

    @classmethod
    def ask(cls, parent: QWidget | None, verdict: CopiedText) -> bool:
        text = (
            f"The text just copied is not plainly a reply: {verdict.why}.\n\n"
            "It may be the primer, a piece of it or a whole chat rather than the LLM's "
            "reply. Running it runs every command block in it, the examples included "
            "(reads at once; every write is still shown for review).\n\n"
            "Run it?"
        )
        Button = QMessageBox.StandardButton
        pressed = plain_question(
            parent,
            QMessageBox.Icon.Question,
            "Run the copied text?",
            text,
            Button.Yes | Button.No,
            Button.No,
        )
        return pressed == Button.Yes

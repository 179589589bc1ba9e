"""A reply picked up from the clipboard: asked about when it quotes the app's examples,
run, and the window brought forward only when the person is needed.

A reply of reads only runs where the window stands: the results go on the clipboard as
for any run (with auto-copy on), and the status bar, plus a tray notice where the desktop
has a tray, says so; the person stays in the chat. The window comes forward when a run
needs the person (a review of writes, a secret-looking read to approve), before a
question about copied examples, and for every reply when the setting
``raise_every_reply`` asks for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from ..core.protocol.copied import CopiedText


@dataclass(frozen=True)
class PickupHooks:
    """What the pick-up needs of the window."""

    parent: QWidget
    busy: Callable[[], bool]  # a run or an undo is in flight
    say: Callable[[str], None]  # a status-bar message
    run_text: Callable[[str], None]  # put the reply in the paste pane and run it
    come_forward: Callable[[], None]  # raise and activate the window
    is_active: Callable[[], bool]  # the window has the focus
    raise_every_reply: Callable[[], bool]  # the setting
    tray: Callable[[str], bool]  # a tray notice; False when there is no tray


class ReplyPickup:
    def __init__(self, hooks: PickupHooks) -> None:
        self._hooks = hooks
        self._asking = False
        self.running = False  # the run in flight came from the clipboard

    def pick_up(self, text: str, verdict: CopiedText) -> None:
        from ..core.protocol.copied import CopiedAction

        hooks = self._hooks
        if self._asking:
            hooks.say("A copied text was ignored: the window is asking about the one before.")
            return
        if hooks.busy():
            hooks.say("A copied reply was ignored: a run is in progress.")
            return
        if verdict.action is CopiedAction.ASK:
            from .dialogs.copied_reply import CopiedReplyQuestion

            hooks.come_forward()  # the question needs the person
            self._asking = True
            try:
                run = CopiedReplyQuestion.ask(hooks.parent, verdict)
            finally:
                self._asking = False
            if not run:
                hooks.say("The copied text was not run: paste it here to run it after all.")
                return
            if hooks.busy():  # a run started while the question was open
                hooks.say("The copied text was not run: a run is in progress.")
                return
        elif hooks.raise_every_reply():
            hooks.come_forward()
        hooks.run_text(text)
        self.running = hooks.busy()

    def needs_person(self) -> None:
        """The run asks the person something (a review): a copied reply's window comes
        forward for it."""
        if self.running and not self._hooks.is_active():
            self._hooks.come_forward()

    def finished(self, message: str, notes: str = "") -> str:
        """The status message of a finished run (``notes`` after it); a copied reply's says
        so, and a tray notice repeats it, without the notes, which may quote the reply,
        when the window is not in front."""
        if not self.running:
            return message + notes
        self.running = False
        said = f"Copied reply run. {message}"
        if not self._hooks.is_active():
            self._hooks.tray(said)
        return said + notes

    def failed(self) -> None:
        self.running = False

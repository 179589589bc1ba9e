"""The context builder's "fit the files to the task" option: one check box and the step it
switches, kept apart from the builder so the builder only places and reads it.

On, a ticked file whose definitions the task names as code goes in as those definitions,
the rest of the file as its outline (``core.plan.file_parts.fit_to_task``), exactly as
``llm-operator pack`` sends it without ``--whole-files``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QCheckBox

if TYPE_CHECKING:
    from ...core.protocol.context_pack import PackedFile


def fit_to_task_box(changed: Callable[[], None]) -> QCheckBox:
    """The check box, on by default, calling ``changed`` when toggled."""
    box = QCheckBox("Send only the definitions the task names (the rest of a file as its outline)")
    box.setObjectName("context-fit")
    box.setToolTip(
        "A ticked file whose functions or classes the task names as code (lastChar, "
        "parse_args, `help`) goes in as those definitions; the rest of the file is given as "
        "its outline, so the model reads more with fs.readSlice when it needs it"
    )
    box.setChecked(True)
    box.toggled.connect(changed)
    return box


def fitted(packed: list[PackedFile], task: str, on: bool) -> list[PackedFile]:
    """``packed`` fitted to ``task`` when ``on``."""
    if not on:
        return packed
    from ...core.plan.file_parts import fit_to_task

    return [fit_to_task(file, task) for file in packed]

"""The context builder's "fit the files to the task" options, kept apart from the builder so
the builder only places them and calls ``apply``.

- A check box, on by default: a ticked file whose definitions the task names as code goes
  in as those definitions and the ones calling them, the rest of the file as its outline
  (``core.plan.file_parts.fit_to_task``), exactly as ``llm-operator pack`` sends it
  without ``--whole-files``.
- A line of parts, comma-separated, as ``pack`` takes them: ``utils.go:10-80`` (lines) or
  ``utils.go::Outer/method`` (a definition by its symbol path): a ticked file named there
  goes in as those parts, whatever the box says. A part that names nothing in its file,
  or a file not ticked, is said under the line, and that file goes in as the box says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from ...core.errors import OperatorError
from ...core.file_names import visible_name
from ..plain_text import set_plain

if TYPE_CHECKING:
    from ...core.protocol.context_pack import PackedFile


class FitToTask(QWidget):
    """The check box, the parts line and a note on parts that name nothing."""

    def __init__(self, changed: Callable[[], None]) -> None:
        super().__init__()
        self.box = QCheckBox(
            "Send only the definitions the task names (the rest of a file as its outline)"
        )
        self.box.setObjectName("context-fit")
        self.box.setToolTip(
            "A ticked file whose functions or classes the task names as code (lastChar, "
            "parse_args, `help`) goes in as those definitions and the ones that call them; "
            "the rest of the file is given as its outline"
        )
        self.box.setChecked(True)
        self.box.toggled.connect(changed)
        self.parts = QLineEdit()
        self.parts.setObjectName("context-parts")
        self.parts.setPlaceholderText("utils.go:10-80, app.py::Parser/parse")
        self.parts.setToolTip(
            "Send only these parts of ticked files, comma-separated: path:first-last for "
            "lines, path::Class/method for a definition (symbol paths as fs.outline gives them)"
        )
        self.parts.textChanged.connect(changed)
        self.note = QLabel()
        self.note.setObjectName("context-parts-note")
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.box)
        row = QHBoxLayout()
        label = QLabel("Only &parts:")
        label.setBuddy(self.parts)
        row.addWidget(label)
        row.addWidget(self.parts, 1)
        layout.addLayout(row)
        layout.addWidget(self.note)
        self.note.hide()

    def apply(self, packed: list[PackedFile], task: str) -> list[PackedFile]:
        """``packed`` with the parts line and the box applied; the note says what failed."""
        from ...core.plan.file_parts import fit_to_task, merge_parts, narrow, parse_part

        named = [piece.strip() for piece in self.parts.text().split(",") if piece.strip()]
        asked = {part.rel: part for part in merge_parts([parse_part(p) for p in named])}
        problems: list[str] = []
        fitted: list[PackedFile] = []
        for file in packed:
            part = asked.get(file.rel)
            if part is not None and not part.whole:
                try:
                    fitted.append(narrow(file, part))
                    continue
                except OperatorError as error:
                    problems.append(error.message)
            fitted.append(fit_to_task(file, task) if self.box.isChecked() else file)
        ticked = {file.rel for file in packed}
        problems += [f"{visible_name(rel)} is not ticked" for rel in asked if rel not in ticked]
        # Each message shows a file's names and symbols already marked (visible_name,
        # core.visible.shown): rendering again would mark the markers.
        set_plain(self.note, "\n".join(problems), rendered=True)
        self.note.setVisible(bool(problems))
        return fitted

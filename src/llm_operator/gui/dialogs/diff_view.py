"""One file's change, unified or side by side, with line numbers and changed words marked.

It renders a ``ChangePreview`` made by the session; it never diffs anything itself. The
two columns of the side-by-side view scroll together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QStackedWidget, QWidget

from ..pages import Page, PageView, side_by_side_pages, unified_page

if TYPE_CHECKING:
    from ...core.plan.preview import ChangePreview


class DiffView(QStackedWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.unified = PageView()
        self.unified.setObjectName("diff")
        self.left = PageView()
        self.left.setObjectName("diff-old")
        self.right = PageView()
        self.right.setObjectName("diff-new")
        self.columns = QSplitter(Qt.Orientation.Horizontal)
        self.columns.addWidget(self.left)
        self.columns.addWidget(self.right)
        self.addWidget(self.unified)
        self.addWidget(self.columns)
        for one, other in ((self.left, self.right), (self.right, self.left)):
            one.verticalScrollBar().valueChanged.connect(other.verticalScrollBar().setValue)
            one.horizontalScrollBar().valueChanged.connect(other.horizontalScrollBar().setValue)
        self.preview: ChangePreview | None = None
        self._side_by_side = False
        self._note = ""

    @property
    def side_by_side(self) -> bool:
        return self._side_by_side

    def set_side_by_side(self, on: bool) -> None:
        self._side_by_side = on
        self._render()

    def show_preview(self, preview: ChangePreview | None, note: str = "") -> None:
        self.preview = preview
        self._note = note
        self._render()

    def _render(self) -> None:
        preview = self.preview
        if preview is None:
            page = Page()
            page.add(self._note)
            self.unified.show_page(page)
            self.setCurrentWidget(self.unified)
            return
        if self._side_by_side:
            left, right = side_by_side_pages(preview)
            self.left.show_page(left)
            self.right.show_page(right)
            self.setCurrentWidget(self.columns)
        else:
            self.unified.show_page(unified_page(preview))
            self.setCurrentWidget(self.unified)

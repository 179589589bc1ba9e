"""The review dialog's size, place, splits and view, kept in the app's settings.

A dialog opened by the window takes them from the window's ``settings`` and gives them
back when it closes (``save_settings``); a bare dialog (tests, scripts) keeps nothing.
A saved geometry that no screen can show any more is left to Qt, which puts the dialog
back on a screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog, QSplitter, QTabWidget


def _settings(dialog: QDialog) -> object | None:
    return getattr(dialog.parent(), "settings", None)


def _layout(dialog: QDialog) -> dict[str, str] | None:
    layout = getattr(_settings(dialog), "review_layout", None)
    return layout if isinstance(layout, dict) else None


def _bytes(text: str | None) -> QByteArray | None:
    if not text:
        return None
    return QByteArray.fromBase64(text.encode("ascii", "replace"))


def restore_layout(dialog: QDialog, splits: dict[str, QSplitter], views: QTabWidget) -> bool:
    """Put back what ``keep_layout`` kept; False when nothing was kept."""
    kept = _layout(dialog)
    if not kept:
        return False
    geometry = _bytes(kept.get("geometry"))
    if geometry is not None:
        dialog.restoreGeometry(geometry)
    for name, split in splits.items():
        state = _bytes(kept.get(name))
        if state is not None:
            split.restoreState(state)
    if kept.get("view") == "all":
        views.setCurrentIndex(1)
    return geometry is not None


def keep_layout(dialog: QDialog, splits: dict[str, QSplitter], views: QTabWidget) -> None:
    kept = _layout(dialog)
    if kept is None:
        return
    kept["geometry"] = bytes(dialog.saveGeometry().toBase64().data()).decode("ascii")
    for name, split in splits.items():
        kept[name] = bytes(split.saveState().toBase64().data()).decode("ascii")
    kept["view"] = "all" if views.currentIndex() == 1 else "file"
    save = getattr(dialog.parent(), "save_settings", None)
    if callable(save):
        save()

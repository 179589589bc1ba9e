"""Dialogs, each behind one ``ask(...)`` classmethod."""

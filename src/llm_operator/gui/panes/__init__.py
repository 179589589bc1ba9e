"""The panes of the main window."""

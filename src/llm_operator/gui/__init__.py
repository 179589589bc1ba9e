"""The window: the only package that imports PySide6. It drives ``llm_operator.core``."""

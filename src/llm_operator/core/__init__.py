"""The Qt-free core: scanner, validator, actions, engines, encoder and session.

Nothing under this package may import PySide6.
"""

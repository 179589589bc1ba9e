"""A command line as the chat is shown it: no absolute path of the person's machine.

A check is often set up with its program's full path (``/home/ann/proj/.venv/bin/python -m
pytest -q``), which names the person's home folder and user name. Nothing sent to the chat
holds an absolute path, so a program given by absolute path is shown by its base name
(``python -m pytest -q``); the rest of the line is shown as typed (the person chose it,
and a model that reads it must see the arguments that ran). What runs is unchanged: only
the text sent to the chat is.
"""

from __future__ import annotations

import io
import shlex
from pathlib import PurePosixPath


def shown_command(line: str) -> str:
    """``line`` with its first word, when an absolute path, replaced by its base name (quoted
    as the shell would need it); a line that cannot be split is returned as it is."""
    stream = io.StringIO(line)
    lexer = shlex.shlex(stream, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        first = lexer.get_token()
    except ValueError:  # an open quote: the line never ran as an argument list
        return line
    if not first or not first.startswith("/"):
        return line
    base = PurePosixPath(first).name or first
    # The lexer has read the first word and the one white space character after it.
    rest = line[stream.tell() :]
    return shlex.quote(base) + (" " + rest if rest else "")

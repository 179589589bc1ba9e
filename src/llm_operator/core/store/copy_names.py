"""The names tools give a file's copies, and the names those copies were made from.

A copy of a secret holds the secret, so a secret-looking name stays secret-looking under
the marks that file managers, editors, browsers, sync and merge tools add when they copy:
``.env copy`` and ``credentials copy 2.json`` (Finder, VS Code), ``.env - Copy (2)``
(Windows Explorer), ``.env (copy)``, ``.env (another copy)``, ``.env (3rd copy)`` (GNOME
Files), ``credentials (1).json`` (browsers, GNOME, Google Drive), ``Copy of .env`` (Google
Drive, older Windows), ``.env 2`` (iCloud Drive), Dropbox's and Nextcloud's "conflicted
copy" notes, OneDrive's machine-name suffix (``.env-DESKTOP-AB12CD``), Syncthing's
``.sync-conflict-...``, git mergetool's ``_BASE_1234``, ``.orig`` and ``.rej`` of patch,
editors' backup, swap and autosave files, package managers' ``.rpmsave`` and ``.dpkg-old``,
browsers' partial downloads.

A name also counts as the name a file system or a reader takes it for (``plain``): Windows
and SMB shares drop trailing dots and spaces and read ``name:stream`` as the file ``name``
(``key.pem.``, ``.env::$DATA``), HFS+ ignores invisible characters (``.e<ZWSP>nv``), and
compatibility forms read as plain characters (full-width ``<U+FF0E>env``).

Invariants:
- ``originals(name)`` is ``name`` (and its ``plain`` form, when that differs) followed by
  every name that taking such marks off (one
  at a time, again and again) gives; nothing else. The caller matches its patterns against
  each, so every pattern of the user's list covers its copies.
- A mark comes off only where the tools put it: as a prefix (``Copy of``), at the end of
  the name, or just before one of its extensions (a ``.``). A name is never cut inside a
  word, so ``keyboard.py``, ``monkey.py``, ``environment.py`` and ``envelope.txt`` gain no
  reading that a pattern could match, and a mark alone (``copy``, ``(1)``) is no copy of
  anything.
- Bounded: at most ``MOST_ORIGINALS`` names per name (then the name with every mark off
  is added, so marks piled on cannot hide the original), none looked for in a name longer
  than any file system allows, and the one pattern that reads a run of free text (a note
  in parentheses) reads it possessively, so a hostile name full of marks cannot make a
  tree walk or a check slow.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["MOST_ORIGINALS", "originals", "plain"]

MOST_ORIGINALS = 16
# No file system holds a longer name (255 bytes or UTF-16 units), so a longer one as written
# reaches no file; looking no further keeps the matching linear in what can exist.
LONGEST_NAME = 255

# "copy" as file managers write it in the languages they are most used in.
# en, de/nl, pl/sv, fi, fr, es/it, pt (composed, and decomposed as macOS stores names); then
# ru, ja (Finder: "X \u306e\u30b3\u30d4\u30fc"), zh, ko.
_COPY_WORD = (
    r"(?:copy|kopie|kopia|kopio|copie|copia|c(?:\u00f3|o\u0301)pia"
    r"|\u043a\u043e\u043f\u0438\u044f|\u306e?\u30b3\u30d4\u30fc|\u526f\u672c|\ubcf5\uc0ac\ubcf8)"
)

# A mark that sits at the end of a name or just before one of its extensions.
_MARK = re.compile(
    rf"""
    (?:
        \ +-\ +{_COPY_WORD}(?:\ +\(\d+\))?      # Windows: "X - Copy", "X - Copy (2)"
      | [\ ._-]{_COPY_WORD}(?:\ +\d+)?          # Finder, VS Code: "X copy", "X copy 2"; X_copy
      | \ *+\((?:\d++|(?=[^()]*?(?:{_COPY_WORD}|conflict))(?:[^()]|\(\d+\))*+)\)
                                                # "(1)", "(copy)", "(another copy)",
                                                # "(3rd copy)", Dropbox's and Nextcloud's
                                                # "(... conflicted copy 2024-01-01)"
      | [\ ._-]\d{{1,3}}                          # iCloud "X 2", Safari "X-1", "X.1", "X_1"
      | [._-](?:bak|bk|backup|old|orig|rej|prev|previous|save|sav|swp|swo|swn|swx|tmp|temp
              |kate-swp|dpkg-(?:old|new|dist|bak|tmp)|ucf-(?:old|new|dist)
              |rpm(?:new|save|orig)|pac(?:new|save|orig)
              |crdownload|part|partial|download|opdownload)
      | -(?:desktop|laptop)-[a-z0-9]+           # OneDrive's default machine names
      | \.sync-conflict-[a-z0-9-]*              # Syncthing
      | _conflict-[0-9-]+                       # ownCloud
      | [._](?:backup|base|local|remote)[._]\d+ # git mergetool
    )(?=\.|\Z)
    """,
    re.IGNORECASE | re.VERBOSE,
)
# OneDrive's other machine names: a Windows computer name is upper case, at most 15
# characters ("report-MYPC.docx"); lower case would take in ordinary "-name" endings.
_MACHINE = re.compile(r"-(?=[A-Z0-9-]{0,14}[A-Z])[A-Z0-9][A-Z0-9-]{0,14}(?=\.|\Z)")
# Marks that only ever end a name: "X~", emacs's "X.~1~", JetBrains' safe-write files.
_TAIL = re.compile(r"(?:~|\.~[0-9a-z]+~|___jb_(?:old|tmp)___|\.sb-[0-9a-f]+-\w+)\Z", re.I)
# "Copy of X" (Google Drive, older Windows: "Copy (2) of X"), and its translations.
_PREFIX = re.compile(
    rf"\A{_COPY_WORD}(?:\ *\(\d+\)|\ +\d+)?\ +(?:of|de|di|von|van)\ +", re.IGNORECASE | re.VERBOSE
)
# rsync's temporary copy while it transfers: ".X.AbC123".
_RSYNC = re.compile(r"\A\.(.+)\.[A-Za-z0-9]{6}\Z")


# Characters that show nothing and that HFS+ leaves out when it compares names: format
# characters (zero-width space and joiners, bidi marks, byte order mark, soft hyphen), the
# combining grapheme joiner, variation selectors, Hangul fillers, Mongolian selectors.
_INVISIBLE = re.compile(
    r"[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    r"\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U000e0000-\U000e0fff]"
)


def plain(name: str) -> str:
    """``name`` as Windows, SMB shares and HFS+ open it and as a reader takes it: in NFKC
    form, invisible characters left out, an NTFS stream (``:stream``, ``::$DATA``) and
    trailing dots and spaces taken off. Never empty: a name that would be gives itself."""
    text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", name))
    stream = text.find(":", 1)
    if stream > 0:
        text = text[:stream]
    text = text.rstrip(". ")
    return text or name


def _one_mark_less(name: str) -> list[str]:
    """The names ``name`` may have been made from by adding one mark."""
    found: list[str] = []
    if len(name) > 2 and name.startswith("#") and name.endswith("#"):
        found.append(name[1:-1])  # emacs's autosave
    if len(name) > 2 and name.startswith(".#"):
        found.append(name[2:])  # emacs's lock
    if rsync := _RSYNC.match(name):
        found.append(rsync.group(1))
    if prefix := _PREFIX.match(name):
        found.append(name[prefix.end() :])
    cut = [m.span() for pattern in (_MARK, _MACHINE, _TAIL) for m in pattern.finditer(name)]
    for start, end in cut:
        if start > 0:
            shorter = name[:start] + name[end:]
            found.append(shorter)
            # vim's swap file of X is ".X.swp": the dot it added goes too.
            if shorter.startswith(".") and len(shorter) > 1:
                found.append(shorter[1:])
    return found


def _bare(name: str) -> str:
    """``name`` with its marks taken off, the first one found each time (at most
    ``MOST_ORIGINALS`` of them: no tool piles up more)."""
    for _ in range(MOST_ORIGINALS):
        shorter = next((s for s in _one_mark_less(name) if s), None)
        if shorter is None:
            break
        name = shorter
    return name


@lru_cache(maxsize=8192)
def originals(name: str) -> tuple[str, ...]:
    """``name`` and the names it would be a copy of (see the module's invariants)."""
    found = [name]
    if len(name) > LONGEST_NAME:
        return tuple(found)
    if (bare := plain(name)) != name:
        found.append(bare)
    for current in found:  # grows while it is read: each found name may be a copy too
        for shorter in _one_mark_less(current):
            if shorter and shorter not in found:
                if len(found) == MOST_ORIGINALS:
                    # Too many ways to take the marks off: the name with them all off
                    # still counts, so piling marks on a copy cannot hide what it copies.
                    bare = _bare(name)
                    return (*found, bare) if bare not in found else tuple(found)
                found.append(shorter)
    return tuple(found)

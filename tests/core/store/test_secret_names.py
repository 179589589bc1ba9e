"""Which paths look secret: any case, every component, link chains, new defaults offered once."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from llm_operator.core.store.copy_names import MOST_ORIGINALS, originals
from llm_operator.core.store.settings import LEGACY_SECRET_DEFAULTS, Settings
from llm_operator.core.store.workspace import DEFAULT_SECRET_PATTERNS, Workspace


@pytest.mark.parametrize(
    "rel",
    [
        ".ENV",
        ".Env.Production",
        "server.PEM",
        "deploy/ID_RSA",
        ".envrc",
        ".git/config",
        "vendor/lib/.GIT/Config",
        "home/.aws/credentials",
        "vault.KDBX",
        ".git-credentials",
        ".pgpass",
        "cert.p12",
        "secrets.d/app.conf",  # inside a folder named like a secret
        "deploy/prod.env",  # env files named by their purpose
        "Docker.ENV",
        "infra/prod.TFVARS",
        "keys/server.ppk",
        ".env~",  # backup, swap and autosave copies count as their originals
        "#.env#",
        "deploy/key.PEM.bak",
        ".id_rsa.swp",
        ".git/modules/lib/config",  # the config of any git folder
        "mirror/app.git/config",
        "keys/AuthKey_AB12CD34.p8",  # credentials of common tools
        "home/.config/gh/hosts.yml",
        "home/.my.cnf",
        ".cargo/credentials.toml",
        "deploy/service-account-prod.json",
        "app-firebase-adminsdk-x1y2.json",
    ],
)
def test_secret_looking_paths(rel: str, tmp_path: Path) -> None:
    assert Workspace(tmp_path).is_secret(rel)


@pytest.mark.parametrize(
    "rel",
    [
        "README.md",
        "src/env.py",
        "config/credentials.py",
        "aws/credentials",
        ".github/x",
        "src/environment.ts",
        "main.tf",
        "notes.txt~",
        "src/config",
        "web/modules/auth/config",
        "backup.bak",
    ],
)
def test_ordinary_paths(rel: str, tmp_path: Path) -> None:
    assert not Workspace(tmp_path).is_secret(rel)


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
def test_links_are_checked_hop_by_hop(tmp_path: Path) -> None:
    (tmp_path / "envs").mkdir()
    (tmp_path / "envs/prod.txt").write_text("X=1\n", encoding="utf-8")
    (tmp_path / "conf/.aws").mkdir(parents=True)
    (tmp_path / "conf/.aws/credentials").write_text("[default]\n", encoding="utf-8")
    os.symlink("envs/prod.txt", tmp_path / ".env")
    os.symlink(".env", tmp_path / "notes.txt")
    os.symlink("conf/.aws", tmp_path / "awsconf")
    os.symlink("envs", tmp_path / "plain")
    ws = Workspace(tmp_path)
    assert ws.secret_match(".env") == ".env"  # the link's own name
    assert ws.secret_match("notes.txt") == ".env"  # a hop of the chain
    assert ws.secret_match("awsconf/credentials") == "conf/.aws/credentials"  # the target
    assert ws.secret_match("envs/prod.txt") is None  # by its own name it is not secret
    assert ws.secret_match("plain/prod.txt") is None


def test_new_default_patterns_join_an_old_settings_file_once(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    old = [p for p in LEGACY_SECRET_DEFAULTS if p != "*.key"] + ["*.private"]
    path.write_text(json.dumps({"secret_patterns": old}), encoding="utf-8")
    loaded = Settings.load(path)
    assert "*.key" not in loaded.secret_patterns  # the user removed it: stays removed
    assert "*.private" in loaded.secret_patterns
    for added in (".envrc", ".git/config", ".aws/credentials", "*.kdbx"):
        assert added in loaded.secret_patterns
    loaded.secret_patterns.remove(".envrc")
    loaded.save()
    again = Settings.load(path)
    assert ".envrc" not in again.secret_patterns  # offered once, removed by the user
    assert set(DEFAULT_SECRET_PATTERNS) - {".envrc", "*.key"} <= set(again.secret_patterns)


# How tools name a copy of ``stem`` + ``ext``: file managers, editors, browsers, sync and
# merge tools. Each gives the copy's name from the original's stem and extension.
COPY_SCHEMES: dict[str, Callable[[str, str], str]] = {
    "Finder, VS Code": lambda stem, ext: f"{stem} copy{ext}",
    "Finder, second copy": lambda stem, ext: f"{stem} copy 2{ext}",
    "Finder, after the extension": lambda stem, ext: f"{stem}{ext} copy",
    "GNOME Files": lambda stem, ext: f"{stem} (copy){ext}",
    "GNOME Files, second": lambda stem, ext: f"{stem} (another copy){ext}",
    "GNOME Files, third": lambda stem, ext: f"{stem} (3rd copy){ext}",
    "GNOME Files, eleventh": lambda stem, ext: f"{stem} (11th copy){ext}",
    "GNOME Files, after the extension": lambda stem, ext: f"{stem}{ext} (copy)",
    "Windows Explorer": lambda stem, ext: f"{stem} - Copy{ext}",
    "Windows Explorer, second": lambda stem, ext: f"{stem} - Copy (2){ext}",
    "Windows Explorer, copy of a copy": lambda stem, ext: f"{stem} - Copy - Copy{ext}",
    "Windows Explorer, after the extension": lambda stem, ext: f"{stem}{ext} - Copy",
    "Windows XP, Google Drive": lambda stem, ext: f"Copy of {stem}{ext}",
    "Windows XP, second": lambda stem, ext: f"Copy (2) of {stem}{ext}",
    "browsers, GNOME, Google Drive": lambda stem, ext: f"{stem} (1){ext}",
    "browsers, second": lambda stem, ext: f"{stem} (2){ext}",
    "browsers, after the extension": lambda stem, ext: f"{stem}{ext} (1)",
    "Firefox": lambda stem, ext: f"{stem}(1){ext}",
    "Safari": lambda stem, ext: f"{stem}-1{ext}",
    "iCloud Drive": lambda stem, ext: f"{stem} 2{ext}",
    "VS Code smart naming": lambda stem, ext: f"{stem}.1{ext}",
    "by hand": lambda stem, ext: f"{stem}_copy{ext}",
    "by hand, old": lambda stem, ext: f"{stem}_old{ext}",
    "Dropbox": lambda stem, ext: f"{stem} (Someone's conflicted copy 2024-01-01){ext}",
    "Dropbox, numbered": lambda stem, ext: (
        f"{stem} (Someone's conflicted copy 2024-01-01 (1)){ext}"
    ),
    "Dropbox, case": lambda stem, ext: f"{stem} (Case Conflict){ext}",
    "Nextcloud": lambda stem, ext: f"{stem} (conflicted copy 2024-01-01 101500){ext}",
    "ownCloud": lambda stem, ext: f"{stem}_conflict-20240101-101500{ext}",
    "Seafile": lambda stem, ext: f"{stem} (SFConflict me@example.org 2024-01-01-10-15-00){ext}",
    "OneDrive": lambda stem, ext: f"{stem}-DESKTOP-ABC123{ext}",
    "OneDrive, laptop": lambda stem, ext: f"{stem}-LAPTOP-1{ext}",
    "OneDrive, named machine": lambda stem, ext: f"{stem}-MYPC{ext}",
    "Syncthing": lambda stem, ext: f"{stem}.sync-conflict-20240101-101500-ABCDEFG{ext}",
    "git mergetool": lambda stem, ext: f"{stem}_BASE_12345{ext}",
    "git mergetool, local": lambda stem, ext: f"{stem}_LOCAL_12345{ext}",
    "git mergetool, backup": lambda stem, ext: f"{stem}_BACKUP_12345{ext}",
    "git mergetool, orig": lambda stem, ext: f"{stem}{ext}.orig",
    "patch rejects": lambda stem, ext: f"{stem}{ext}.rej",
    "backup": lambda stem, ext: f"{stem}{ext}.bak",
    "backup, numbered": lambda stem, ext: f"{stem}{ext}.1",
    "editors": lambda stem, ext: f"{stem}{ext}~",
    "emacs, numbered": lambda stem, ext: f"{stem}{ext}.~2~",
    "emacs autosave": lambda stem, ext: f"#{stem}{ext}#",
    "vim swap": lambda stem, ext: f".{stem}{ext}.swp",
    "Kate swap": lambda stem, ext: f"{stem}{ext}.kate-swp",
    "nano": lambda stem, ext: f"{stem}{ext}.save.1",
    "JetBrains safe write": lambda stem, ext: f"{stem}{ext}___jb_old___",
    "rsync transfer": lambda stem, ext: f".{stem}{ext}.Ab12Cd",
    "dpkg": lambda stem, ext: f"{stem}{ext}.dpkg-old",
    "rpm": lambda stem, ext: f"{stem}{ext}.rpmsave",
    "pacman": lambda stem, ext: f"{stem}{ext}.pacnew",
    "Chrome partial download": lambda stem, ext: f"{stem}{ext}.crdownload",
    "Firefox partial download": lambda stem, ext: f"{stem}{ext}.part",
    "German Finder": lambda stem, ext: f"{stem} Kopie{ext}",
    "German Windows": lambda stem, ext: f"{stem} - Kopie{ext}",
    "French Windows": lambda stem, ext: f"{stem} - Copie{ext}",
    "Spanish Google Drive": lambda stem, ext: f"Copia de {stem}{ext}",
    "Japanese Finder": lambda stem, ext: f"{stem} \u306e\u30b3\u30d4\u30fc{ext}",
    "Chinese Windows": lambda stem, ext: f"{stem} - \u526f\u672c{ext}",
    "Portuguese Finder, as macOS stores it": lambda stem, ext: f"{stem} co\u0301pia{ext}",
}

# (folder, stem, extension) of secrets; a copy keeps its folder.
SECRETS = [
    ("", ".env", ""),
    ("", ".netrc", ""),
    ("", "credentials", ".json"),
    ("", "secrets", ".py"),
    ("", "prod", ".env"),
    ("", "prod.env", ""),
    ("deploy/", "server", ".pem"),
    ("", "id_rsa", ""),
    ("home/.aws/", "credentials", ""),
    ("", ".env", ".local"),
    ("", "client_secret_123", ".json"),
]
# The same schemes over ordinary names must not make them secret. (Not ``env.py`` nor
# ``netrc``: vim's and rsync's leading dot name their copies ``.env.py.swp`` and
# ``.netrc.swp``, which are a ``.env.*`` and the swap file of ``.netrc``.)
ORDINARY = [
    ("src/", "environment", ".py"),
    ("", "envelope", ".txt"),
    ("", "keyboard", ".py"),
    ("", "monkey", ".py"),
    ("", "notes", ".txt"),
    ("", "README", ".md"),
    ("config/", "credentials", ".py"),
    ("", "secrets_manager", ".py"),
    ("aws/", "credentials", ""),
    ("", "keys", ".txt"),
]


@pytest.mark.parametrize("scheme", COPY_SCHEMES)
def test_copies_of_secrets_look_secret_under_every_scheme(scheme: str, tmp_path: Path) -> None:
    workspace = Workspace(tmp_path)
    make = COPY_SCHEMES[scheme]
    missed = [
        folder + make(stem, ext)
        for folder, stem, ext in SECRETS
        if not workspace.is_secret(folder + make(stem, ext))
    ]
    assert missed == []


@pytest.mark.parametrize("scheme", COPY_SCHEMES)
def test_copies_of_ordinary_files_stay_ordinary(scheme: str, tmp_path: Path) -> None:
    workspace = Workspace(tmp_path)
    make = COPY_SCHEMES[scheme]
    caught = [
        folder + make(stem, ext)
        for folder, stem, ext in ORDINARY
        if workspace.is_secret(folder + make(stem, ext))
    ]
    assert caught == []


@pytest.mark.parametrize(
    "rel",
    [
        ".env copy",  # the names the copies had when they leaked
        ".env (copy)",
        ".env - Copy",
        ".env (1)",
        "credentials copy.json",
        "credentials (1).json",
        "secrets copy.py",
        ".netrc copy",
        "prod.env copy",
        ".ENV COPY",  # any case
        "CREDENTIALS - COPY (3).JSON",
        ".aws copy/credentials",  # a copied folder of a pattern with a "/"
        "home/.aws (1)/credentials copy",
        ".git copy/config",  # a copied git folder still holds its remote URLs
        "vendor/app.git (1)/config",
        ".git/config (1)",
        "Copy of .env - Copy (2) copy",  # marks on marks
    ],
)
def test_copies_look_secret(rel: str, tmp_path: Path) -> None:
    assert Workspace(tmp_path).is_secret(rel)


@pytest.mark.parametrize(
    "rel",
    [
        "copy",  # a mark alone copies nothing
        "(1)",
        "Copy of ",
        "src/environment copy.py",
        "src/env copy.py",
        "env (1)",
        "envelope (1).txt",
        "keyboard - Copy.py",
        "monkey copy.py",
        "mykey.py",
        "key.py",
        ".envoy.yaml",
        "notes.txt~",
        "backup.bak",
        "secrets-manager.py",  # a word after a secret's stem is not a copy mark
        "credentials-helper.json",
        "config copy",
        "src/config (1)",
        "netrc copy",
        "credentials-mypc.json",  # a machine name is upper case
    ],
)
def test_names_that_only_look_like_copies_are_ordinary(rel: str, tmp_path: Path) -> None:
    assert not Workspace(tmp_path).is_secret(rel)


def test_a_users_own_pattern_covers_its_copies(tmp_path: Path) -> None:
    workspace = Workspace(tmp_path, ("tokens.txt", "vault/*.yml"))
    assert workspace.is_secret("tokens copy.txt")
    assert workspace.is_secret("Copy of tokens.txt")
    assert workspace.is_secret("vault (1)/prod - Copy.yml")
    assert not workspace.is_secret(".env copy")  # the user's list is the list
    assert not workspace.is_secret("tokenstxt copy")


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
def test_copies_are_secret_as_links_on_the_way_and_as_targets(tmp_path: Path) -> None:
    (tmp_path / "plain.txt").write_text("X=1\n", encoding="utf-8")
    (tmp_path / ".env - Copy").write_text("X=1\n", encoding="utf-8")
    (tmp_path / "conf/.aws (1)").mkdir(parents=True)
    (tmp_path / "conf/.aws (1)/credentials").write_text("[default]\n", encoding="utf-8")
    os.symlink("plain.txt", tmp_path / "credentials (1).json")  # named like a copy
    os.symlink(".env - Copy", tmp_path / "notes.txt")  # an innocent name leading to one
    os.symlink("conf/.aws (1)", tmp_path / "awsconf")
    ws = Workspace(tmp_path)
    assert ws.secret_match("credentials (1).json") == "credentials (1).json"
    assert ws.secret_match("notes.txt") == ".env - Copy"
    assert ws.secret_match("awsconf/credentials") == "conf/.aws (1)/credentials"
    assert ws.secret_match("plain.txt") is None


def test_a_name_full_of_marks_is_looked_at_in_bounded_steps(tmp_path: Path) -> None:
    hostile = [
        "x" + " (1)" * 60 + ".txt",
        "Copy of " * 30 + "notes",
        "(" + "copy " * 50,
        " " * 250 + "(",
        "n" + " - Copy" * 40,
        "-1" * 127,
        "-A" * 127,
    ]
    for name in hostile:
        found = originals(name)
        assert found[0] == name
        assert len(found) <= MOST_ORIGINALS + 1
    assert originals("a" * 300 + " copy") == ("a" * 300 + " copy",)  # no file has that name
    # More ways to take marks off than are looked at: the name with all of them off counts.
    piled = "credentials (1) - Copy copy 2 (copy) (Case Conflict)-MYPC.json.bak~"
    assert len(originals(piled)) == MOST_ORIGINALS + 1
    assert Workspace(tmp_path).is_secret(piled)


def test_names_that_open_or_read_as_a_secret_are_secret(tmp_path: Path) -> None:
    ws = Workspace(tmp_path)
    for name in (
        "key.pem.",
        ".env ",
        ".netrc. .",
        ".env::$DATA",
        "credentials.json:Zone.Identifier",
        ".e\u200bnv",
        ".env\u202e",
        "\ufeffid_rsa",
        "\uff0eenv",
        "conf/\uff0eaws/credentials",
    ):
        assert ws.is_secret(name), name
    for name in ("notes.", "a:b.txt", "...", ":", "\u200b", "keyboard.py\u200b"):
        assert not ws.is_secret(name), name

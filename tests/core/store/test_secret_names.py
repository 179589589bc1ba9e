"""Which paths look secret: any case, every component, link chains, new defaults offered once."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

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

"""scripts/build_extension.py: one zip per browser, each with the manifest its browser
runs (a service worker for Chromium, a background script and an add-on id for Firefox),
and every file the manifests name inside."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

from support.paths import ROOT


def test_each_browser_gets_a_zip_with_every_file_its_manifest_names(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_extension.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    zips = sorted(Path(line) for line in done.stdout.split())
    assert [path.name.rsplit("-", 1)[-1] for path in zips] == ["chromium.zip", "firefox.zip"]
    for path in zips:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            found = json.loads(archive.read("manifest.json"))
        assert found["manifest_version"] == 3
        named = {found["options_ui"]["page"], found["action"]["default_popup"]}
        for script in found["content_scripts"]:
            named.update(script["js"])
            assert script["js"][-1] == "content/relay.js"
        background = found["background"]
        named.update(background.get("scripts", [background.get("service_worker")]))
        assert named <= names, named - names
        if path.name.endswith("firefox.zip"):
            assert background == {"scripts": ["background.js"]}
            assert found["browser_specific_settings"]["gecko"]["id"]
        else:
            assert background == {"service_worker": "background.js"}
        # Released zips reach the three chat sites only.
        hosts = {m for s in found["content_scripts"] for m in s["matches"]}
        assert all(m.startswith("https://") for m in hosts), hosts

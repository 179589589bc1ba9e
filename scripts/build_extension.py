"""Build the browser extension (extension/) into one zip per browser.

    python scripts/build_extension.py [--out DIR] [--unpacked DIR --browser chromium|firefox]
                                      [--extra-match SITE=PATTERN ...]

Chromium runs the background as a service worker; Firefox (115 and later) runs it as a
background script and needs an add-on id. Everything else is the same files.
``--extra-match`` adds a page pattern for a site's content scripts (the end-to-end test
uses it for its local fixture pages); released zips are built without it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import zipfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "extension"
BROWSERS = ("chromium", "firefox")
GECKO_ID = "relay@llm-operator.invalid"


def manifest(browser: str, extra: list[tuple[str, str]]) -> dict[str, object]:
    found = json.loads((SOURCE / "manifest.json").read_text("utf-8"))
    if browser == "firefox":
        found["background"] = {"scripts": ["background.js"]}
        found["browser_specific_settings"] = {
            "gecko": {"id": GECKO_ID, "strict_min_version": "115.0"}
        }
    scripts = found["content_scripts"]
    for site, pattern in extra:
        wanted = f"sites/{site}.js"
        entry = next((s for s in scripts if wanted in s["js"]), None)
        if entry is None:
            raise SystemExit(f"build_extension: no content script for site {site!r}")
        scripts.append({**entry, "matches": [pattern]})
    return found


def files() -> list[Path]:
    return sorted(
        path
        for path in SOURCE.rglob("*")
        if path.is_file() and path.name != "manifest.json" and path.suffix != ".md"
    )


def write_unpacked(target: Path, browser: str, extra: list[tuple[str, str]]) -> Path:
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for path in files():
        into = target / path.relative_to(SOURCE)
        into.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, into)
    text = json.dumps(manifest(browser, extra), indent=2) + "\n"
    (target / "manifest.json").write_text(text, "utf-8")
    return target


def write_zip(out: Path, browser: str) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    version = json.loads((SOURCE / "manifest.json").read_text("utf-8"))["version"]
    name = out / f"llm-operator-relay-{version}-{browser}.zip"
    with zipfile.ZipFile(name, "w", zipfile.ZIP_DEFLATED) as archive:
        # A fixed date: the same sources make the same zip.
        for path in files():
            info = zipfile.ZipInfo(path.relative_to(SOURCE).as_posix(), (2024, 1, 1, 0, 0, 0))
            archive.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
        info = zipfile.ZipInfo("manifest.json", (2024, 1, 1, 0, 0, 0))
        archive.writestr(info, json.dumps(manifest(browser, []), indent=2) + "\n")
    return name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("dist"))
    parser.add_argument("--unpacked", type=Path, help="write the unpacked extension here")
    parser.add_argument("--browser", choices=BROWSERS, default="chromium")
    parser.add_argument("--extra-match", action="append", default=[], metavar="SITE=PATTERN")
    args = parser.parse_args(argv)
    extra = []
    for item in args.extra_match:
        site, _, pattern = item.partition("=")
        if not pattern:
            parser.error(f"--extra-match wants SITE=PATTERN, got {item!r}")
        extra.append((site, pattern))
    if args.unpacked is not None:
        print(write_unpacked(args.unpacked, args.browser, extra))
        return 0
    for browser in BROWSERS:
        print(write_zip(args.out, browser))
    return 0


if __name__ == "__main__":
    sys.exit(main())

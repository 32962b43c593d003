"""MkDocs hook: the README's pictures (``assets/readme/``) are part of the site too, at
the same path, so the manual and the README show the same files (no copies)."""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
PICTURES = "assets/readme"


def on_files(files: Files, config: object) -> Files:
    """Add every picture of ``assets/readme/`` to the site's files."""
    for path in sorted((ROOT / PICTURES).iterdir()):
        if path.is_file():
            files.append(File(f"{PICTURES}/{path.name}", src_dir=str(ROOT),
                              dest_dir=config["site_dir"],
                              use_directory_urls=config["use_directory_urls"]))
    return files

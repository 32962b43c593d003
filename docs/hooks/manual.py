"""MkDocs hooks of the manual.

* The README's pictures (``assets/readme/``) are part of the site too, at the same path,
  so the manual and the README show the same files (no copies).
* The docstrings cross-reference in Sphinx's roles (``:func:`solve```); the API pages
  show the name alone (``~a.b.c`` as ``c``), as Sphinx would.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
PICTURES = "assets/readme"
ROLE = re.compile(r":(?:func|class|mod|data|meth|attr|exc|obj):<code>(~?)([^<]*)</code>")


def on_files(files: Files, config: Any) -> Files:
    """Add every picture of ``assets/readme/`` to the site's files."""
    for path in sorted((ROOT / PICTURES).iterdir()):
        if path.is_file():
            files.append(File(f"{PICTURES}/{path.name}", src_dir=str(ROOT),
                              dest_dir=config["site_dir"],
                              use_directory_urls=config["use_directory_urls"]))
    return files


def _name(match: re.Match[str]) -> str:
    tilde, target = match.groups()
    return f"<code>{target.rsplit('.', 1)[-1] if tilde else target}</code>"


def on_page_content(html: str, **kwargs: Any) -> str:
    """Sphinx roles in rendered docstrings shown as their names."""
    return ROLE.sub(_name, html)

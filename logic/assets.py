"""Where the project's ``assets/`` live: the installed ``pawnfence_assets`` data
package (a plain ``pip install .``) or, in a source checkout, ``<repo>/assets``."""

from __future__ import annotations

import importlib.util
from pathlib import Path

__all__ = ["asset_path", "assets_dir"]


def assets_dir() -> Path:
    """The directory holding the EPD libraries and piece art."""
    spec = importlib.util.find_spec("pawnfence_assets")
    if spec is not None and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            if (Path(loc) / "diagrams.epd").is_file():
                return Path(loc)
    return Path(__file__).resolve().parent.parent / "assets"


def asset_path(name: str) -> Path:
    """The path of asset ``name`` (which may not exist)."""
    return assets_dir() / name

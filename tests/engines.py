"""Fake UCI engines for the tests: ``fake_engine(folder, *flags)`` writes an executable
that runs ``tests/data/scan/fake_engine.py`` with the given fault flags (see there)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

FAKE = Path(__file__).resolve().parent / "data" / "scan" / "fake_engine.py"


def fake_engine(folder: Path, *flags: str) -> str:
    """The path of an executable fake engine with ``flags`` (e.g. ``"--hang-go"``)."""
    name = "engine" + "".join(f.replace("-", "_") for f in flags) + ".sh"
    path = Path(folder) / name
    path.write_text(f'#!/bin/sh\nexec "{os.environ.get("PAWNFENCE_PYTHON", sys.executable)}" '
                    f'"{FAKE}" {" ".join(flags)}\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(path)

"""Shared fixtures: paths to ../shared (Syzygy tables, corpora) and a detector-cache reset."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PAWNFENCE_SHARED", ROOT.parent / "shared"))
DATA = Path(__file__).resolve().parent / "data"

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
# the interpreter the fake UCI engines of the tests run under (it has python-chess)
os.environ.setdefault("PAWNFENCE_PYTHON", sys.executable)
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


@pytest.fixture(autouse=True)
def _fresh_cache():
    import logic

    logic.clear_cache()
    yield


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A fresh user folder (``PAWNFENCE_HOME``) for a viewer test, with the dummy video
    driver."""
    monkeypatch.setenv("PAWNFENCE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    return tmp_path / "home"


@pytest.fixture(scope="session")
def syzygy_dir() -> Path:
    path = SHARED / "syzygy"
    if not (path / "KPvK.rtbw").is_file():
        pytest.skip(f"Syzygy tables not found at {path} (the project's ../shared/syzygy)")
    return path


def pytest_addoption(parser):
    parser.addoption("--regen-refs", action="store_true", default=False,
                     help="rewrite the reference images in tests/data/ref/ from this run")


@pytest.fixture
def regen_refs(request) -> bool:
    return request.config.getoption("--regen-refs")


def use_work_clock() -> None:
    """Give this process's exact proofs a :class:`~logic.exact.WorkClock` each (for a
    worker process of a test, which the fixture below does not reach)."""
    import logic
    from logic.exact import WorkClock

    logic.METHODS["exact"].clock = WorkClock


@pytest.fixture(autouse=True)
def _work_clock(monkeypatch):
    """Every exact proof made through the registry (``logic.detect``, the batch tools,
    the commands run in-process, the viewer's background proofs) reads a clock of its own
    that advances with the work done, never with wall time: a budget is a count of work,
    so an answer never depends on the machine's speed or load."""
    import logic
    from logic.exact import WorkClock

    monkeypatch.setattr(logic.METHODS["exact"], "clock", WorkClock)

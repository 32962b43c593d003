"""What survives a restart: settings (JSON in the user config folder) and the user's
own position list (EPD in the user data folder), both written atomically.

``PAWNFENCE_HOME`` overrides both folders (tests and portable installs use it).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import platformdirs

from logic.files import atomic_write_text

__all__ = ["Settings", "config_dir", "data_dir", "load_settings", "save_settings",
           "load_user_positions", "add_user_position", "atomic_write_text"]


def config_dir() -> Path:
    home = os.environ.get("PAWNFENCE_HOME")
    return Path(home) if home else Path(platformdirs.user_config_dir("pawnfence"))


def data_dir() -> Path:
    home = os.environ.get("PAWNFENCE_HOME")
    return Path(home) if home else Path(platformdirs.user_data_dir("pawnfence"))


@dataclass
class Settings:
    """The viewer's persistent settings."""

    fen: str = "4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - - 0 1"
    flipped: bool = False
    method: str = "paper"
    side: str = "white"
    speed: float = 3.0
    structure: bool = False
    tool: str = "P"
    search: bool = False
    engine: str = ""  # a UCI engine for the search panel; "" = /usr/games/stockfish if present
    width: int = 1280
    height: int = 860


def load_settings() -> Settings:
    """The saved settings, or defaults if missing or unreadable."""
    try:
        data = json.loads((config_dir() / "settings.json").read_text(encoding="utf-8"))
        known = {f.name: f.type for f in fields(Settings)}
        base = Settings()
        for key, value in data.items():
            if key in known and type(value) is type(getattr(base, key)):
                setattr(base, key, value)
        return base
    except (OSError, ValueError, TypeError, AttributeError):
        return Settings()


def save_settings(settings: Settings) -> str | None:
    """Save ``settings``; returns an error message instead of raising."""
    try:
        atomic_write_text(config_dir() / "settings.json", json.dumps(asdict(settings), indent=1))
    except OSError as exc:
        return f"could not save settings: {exc}"
    return None


def user_positions_path() -> Path:
    return data_dir() / "my-positions.epd"


def load_user_positions() -> list[tuple[str, str]]:
    """``(name, fen)`` pairs of the user's own list (bad lines are skipped)."""
    from logic.position import read_positions

    try:
        entries = read_positions(user_positions_path())
    except OSError:
        return []
    return [(str(e.ops.get("id", e.board.board_fen())), e.board.fen()) for e in entries]


def add_user_position(name: str, fen: str) -> Path:
    """Append a position to the user's list (the file is rewritten atomically)."""
    import chess

    board = chess.Board(fen)
    safe = name.replace('"', "'").replace(";", ",")
    path = user_positions_path()
    try:
        old = path.read_text(encoding="utf-8")
    except OSError:
        old = "# pawnfence: my positions\n"
    if old and not old.endswith("\n"):
        old += "\n"
    atomic_write_text(path, old + board.epd(id=safe) + "\n")
    return path

"""Where ragtui finds its bundled files and keeps its own state.

``prompts/``, ``personas/`` and ``sample_data/`` live at the top of the repository so people can
read and edit them. A wheel carries copies under ``ragtui/_bundled/`` (see pyproject.toml), so
the same lookup works from a checkout, an editable install and a plain ``pip install``.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parents[2]  # ragtui/ (this file is ragtui/core/config/paths.py)
BUNDLED_NAMES = ("prompts", "personas", "sample_data")


def bundled_dir(name: str) -> Path:
    """Return the directory of a bundled resource (``prompts``, ``personas``, ``sample_data``)."""
    if name not in BUNDLED_NAMES:
        raise ValueError(f"unknown bundled resource {name!r}")
    checkout = _PACKAGE_DIR.parent / name
    if checkout.is_dir():
        return checkout
    return _PACKAGE_DIR / "_bundled" / name


def _xdg(var: str, fallback: str) -> Path:
    value = os.environ.get(var)
    return Path(value) if value else Path.home() / fallback


def data_dir() -> Path:
    """Per-user data directory (the default database lives here)."""
    return _xdg("XDG_DATA_HOME", ".local/share") / "ragtui"


def state_dir() -> Path:
    """Per-user state directory (logs of ragtui and of the embedded model server)."""
    return _xdg("XDG_STATE_HOME", ".local/state") / "ragtui"


def cache_dir() -> Path:
    """Per-user cache directory (the assembled embedded model file)."""
    return _xdg("XDG_CACHE_HOME", ".cache") / "ragtui"


def config_dir() -> Path:
    """Per-user config directory (``config.toml``)."""
    return _xdg("XDG_CONFIG_HOME", ".config") / "ragtui"

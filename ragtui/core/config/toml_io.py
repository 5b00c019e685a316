"""Reading user TOML files with errors that name the file and the line (``validation`` checks the keys)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from ..types.errors import ConfigError


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """Parse ``path``; any problem becomes a ConfigError naming the file (``what`` says its role)."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"{what} {path} does not exist", "check the path") from None
    except tomllib.TOMLDecodeError as exc:
        # tomllib's message already carries "(at line N, column M)".
        raise ConfigError(f"{what} {path} is not valid TOML: {exc}", "fix the file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {what} {path}: {exc}") from None

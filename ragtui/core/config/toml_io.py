"""Reading user TOML files with errors that name the file, the line and the key."""

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


def reject_unknown_keys(data: dict[str, Any], allowed: set[str], where: str) -> None:
    """Typos in hand-written files should fail loudly, not be silently ignored."""
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ConfigError(
            f"{where}: unknown key {unknown[0]!r}",
            f"allowed keys: {', '.join(sorted(allowed))}",
        )


def expect_type(value: Any, kind: type | tuple[type, ...], where: str) -> Any:
    """Check a TOML value's type; bools are not numbers here even though Python says so."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if not ok:
        names = " or ".join(k.__name__ for k in kinds)
        raise ConfigError(f"{where} must be {names}, got {type(value).__name__} {value!r}")
    return value

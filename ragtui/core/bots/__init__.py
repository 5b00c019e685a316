"""The bot under test. ``Bot`` is the contract every adapter fulfils.

Which adapters exist is in ``ragtui/core/registry/bots.py``: each one declares its ``type`` name and how it reads
its ``[bot]`` keys beside its own code (``*_settings.py``), and plugins add their own.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Bot", "BotAnswer"]


def __getattr__(name: str) -> Any:
    # Imported on use: reading a config's [bot] table imports this package, and must not pay for
    # the model clients ``base`` brings in.
    if name in __all__:
        from . import base

        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

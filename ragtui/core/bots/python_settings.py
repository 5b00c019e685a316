"""The ``[bot] type = "python"`` settings: a function or class in the team's own code
(``python_bot.py``, named by its path: this module imports nothing of its adapter)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator

from ..config.bot_table import BotTable
from ..config.validation import invalid, positive
from ..registry.bots import BotType

HISTORY_FORMATS = ("messages", "pairs")


def import_target(target: str) -> str:
    module, _, attribute = target.partition(":")
    if not module or not attribute:
        raise invalid(f"must look like 'module:function' or 'module:Class', got {target!r}")
    return target


class PythonBotConfig(BotTable):
    target: Annotated[str, AfterValidator(import_target)]  # "module:function" or "module:Class"
    prompt: str | None = None  # passed as the third argument when the function takes one
    history_format: Literal["messages", "pairs"] = "messages"  # messages: [{role, content}]; pairs: [[q, a]]
    timeout: Annotated[float, positive()] | None = None

    @property
    def search_path(self) -> Path | None:
        """The config file's folder, importable too."""
        return self.base


def public(p: PythonBotConfig) -> dict[str, Any]:
    return {"target": p.target, "history_format": p.history_format}


PYTHON = BotType("python", "ragtui.core.bots.python_bot:build", PythonBotConfig, public, order=3)

"""The ``[bot] type = "python"`` settings: a function or class in the team's own code (``python_bot.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config.bot_config import TableValues
from ..registry.bots import BotType, register_bot
from ..types.errors import ConfigError
from .context import BotContext

if TYPE_CHECKING:
    from .base import Bot

HISTORY_FORMATS = ("messages", "pairs")
PYTHON_KEYS = {"type", "target", "prompt", "history_format", "timeout"}


@dataclass
class PythonBotConfig:
    target: str  # "module:function" or "module:Class"
    prompt: str | None = None  # passed as the third argument when the function takes one
    history_format: str = "messages"  # messages: [{role, content}]; pairs: [[question, answer]]
    timeout: float | None = None
    search_path: Path | None = None  # the config file's folder, importable too
    where: str = "[bot]"


def parse_python(table: dict[str, Any], where: str, base: Path) -> PythonBotConfig:
    values = TableValues(table, where)
    target = values.required("target", str)
    module, _, attribute = target.partition(":")
    if not module or not attribute:
        raise ConfigError(f"{where} target must look like 'module:function' or 'module:Class', got {target!r}")
    history_format = values.get("history_format", str, "messages")
    if history_format not in HISTORY_FORMATS:
        raise ConfigError(f"{where} history_format must be one of {', '.join(HISTORY_FORMATS)}")
    return PythonBotConfig(
        target=target,
        prompt=values.get("prompt", str),
        history_format=history_format,
        timeout=values.positive("timeout", None),
        search_path=base,
        where=where,
    )


def public(p: PythonBotConfig) -> dict[str, Any]:
    return {"target": p.target, "history_format": p.history_format}


def build(settings: PythonBotConfig, context: BotContext) -> Bot:
    from .python_bot import PythonBot

    return PythonBot(settings)


PYTHON = register_bot(BotType("python", build, frozenset(PYTHON_KEYS - {"type"}), parse_python, public, order=3))

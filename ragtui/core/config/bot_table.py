"""The base of each bot type's settings model (``bots/*_settings.py``, and a plugin's): a pydantic
``TomlTable`` that knows where it was read, and the keys that say where an answer keeps its
passages. ``bot_config.parse_bot`` reads the ``[bot]`` table with the type's model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import BeforeValidator, PrivateAttr, model_validator

from ..text.json_path import JsonPath
from .bot_config import PassageMapping
from .validation import TomlTable, invalid


def json_path(value: object) -> object:
    """A JSON path as the file writes it (``"choices[0].message"``)."""
    if not isinstance(value, str):
        raise invalid(f"must be str, got {type(value).__name__} {value!r}")
    try:
        return JsonPath.parse(value)
    except ValueError as exc:
        raise invalid(f": {exc}") from None


JsonPathText = Annotated[JsonPath, BeforeValidator(json_path)]


class BotTable(TomlTable):
    """The ``[bot]`` table of one type, less ``type``: each type's settings model derives from it.
    After reading, ``where`` (file and table) names it in messages and ``base`` is the config
    file's folder."""

    _where: str = PrivateAttr("[bot]")
    _base: Path | None = PrivateAttr(None)

    @model_validator(mode="before")
    @classmethod
    def _no_key(cls, data: Any) -> Any:
        if isinstance(data, dict) and "api_key" in data:
            raise invalid(
                ": api_key is not read from files, so it never ends up in a repository",
                "put the key in an environment variable and name it with api_key_env (or ${NAME} in headers)",
            )
        return data

    def read_from(self, where: str, base: Path) -> None:
        """Called by ``parse_bot`` once read: the file and table, and the file's folder."""
        self._where, self._base = where, base

    @property
    def where(self) -> str:
        return self._where

    @property
    def base(self) -> Path | None:
        return self._base


class PassageKeys(BotTable):
    """The keys that say where a bot's answer keeps its passages (``bots/mapping.py``)."""

    passages_path: JsonPathText | None = None
    passage_text: JsonPathText = JsonPath.parse("text")
    passage_title: JsonPathText = JsonPath.parse("title")
    passage_source: JsonPathText = JsonPath.parse("source")

    @property
    def passages(self) -> PassageMapping:
        return PassageMapping(self.passages_path, self.passage_text, self.passage_title, self.passage_source)

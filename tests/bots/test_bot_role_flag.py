"""Whether ragtui resolves its own `bot` role is a flag on the bot type (`uses_bot_role`), not a
comparison with the name "builtin": a plugin's bot type that answers with ragtui's bot model
gets the role, one that brings its own does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.core.config.settings import Config
from ragtui.core.models.endpoints import resolve_each, resolve_endpoints
from ragtui.core.registry import bots as registry
from ragtui.core.registry.bots import BotType, uses_bot_role


def _never_built(settings: object, context: object) -> object:
    raise AssertionError("no dialogue runs here")


@pytest.fixture
def team_types(monkeypatch: pytest.MonkeyPatch) -> None:
    registry.bot_type_names()  # the built-in types first, as a config would load them
    for name, flag in (("team-rag", True), ("team-api", False)):
        monkeypatch.setitem(registry._types, name, BotType(name, _never_built, uses_bot_role=flag))


def config_with_bot(tmp_path: Path, type_name: str) -> Config:
    config = Config(language="en", database=tmp_path / "r.db")
    config.bot.type = type_name
    return config


@pytest.mark.usefixtures("team_types")
@pytest.mark.parametrize(
    ("type_name", "has_role"), [("builtin", True), ("http", False), ("team-rag", True), ("team-api", False)]
)
def test_the_bot_role_follows_the_type_s_flag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, type_name: str, has_role: bool
):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_MODEL", "m")
    config = config_with_bot(tmp_path, type_name)
    assert uses_bot_role(type_name) is has_role
    assert ("bot" in resolve_endpoints(config)) is has_role
    assert ("bot" in resolve_each(config)) is has_role


def test_an_unknown_type_uses_no_bot_role():
    assert uses_bot_role("no-such-type") is False

"""How a run was run, from what its sessions recorded (``sessions.config``, written by the engine's
``public_config``: endpoints' public fields only, never a key): the bot, the customer's and the
judge's models, max turns. Every value is gathered over all the run's sessions, so a run resumed
with another model shows both."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..types.stored import StoredSession

# The bot's settings worth a reader's line, in this order; the rest (headers, timeouts, the name
# of the key's environment variable) says nothing about which bot answered.
_BOT_FIELDS = ("type", "model", "base_url", "url", "target")


@dataclass(frozen=True)
class RunFacts:
    bots: list[str]  # "builtin-rag · model gpt-4o-mini · base_url http://…"
    customer_models: list[str]
    configured_judges: list[str]  # the judge endpoint's model (the verdicts name theirs)
    max_turns: list[int]


def _role_model(config: dict[str, Any], role: str) -> str | None:
    endpoint = (config.get("roles") or {}).get(role)
    if not isinstance(endpoint, dict):
        return None
    if endpoint.get("embedded"):
        return f"{endpoint.get('model') or 'embedded model'} (embedded)"
    model = endpoint.get("model")
    return str(model) if model else None


def _bot(config: dict[str, Any]) -> str | None:
    name = config.get("bot")
    settings = config.get("bot_settings")
    parts = [str(name)] if name else []
    if isinstance(settings, dict):
        parts += [f"{key} {settings[key]}" for key in _BOT_FIELDS if settings.get(key) and settings[key] != name]
    else:  # the built-in bot: the bot role's endpoint
        endpoint = (config.get("roles") or {}).get("bot")
        if isinstance(endpoint, dict):
            parts += [f"{key} {endpoint[key]}" for key in ("model", "base_url") if endpoint.get(key)]
    return " · ".join(parts) or None


def run_facts(sessions: Iterable[StoredSession]) -> RunFacts:
    bots: dict[str, None] = {}  # dicts as ordered sets: first seen first
    customers: dict[str, None] = {}
    judges: dict[str, None] = {}
    turns: set[int] = set()
    for s in sessions:
        for found, value in ((bots, _bot(s.config)), (customers, _role_model(s.config, "user"))):
            if value:
                found[value] = None
        if judge := _role_model(s.config, "judge"):
            judges[judge] = None
        turns.add(s.max_turns)
    return RunFacts(list(bots), list(customers), list(judges), sorted(turns))

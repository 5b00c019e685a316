"""Building the dialogue metrics a run asks for, and the dialogue they judge — from a stored
session or from a labelled file's messages."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...models.llm import ChatClient
from ...registry import metrics as registry
from ...types.errors import ConfigError
from ...types.expectations import Expectation
from ...types.passages import Passage
from ...types.scenarios import expectations_of
from .base import DialogueContext, DialogueMetric, DialogueTurn

if TYPE_CHECKING:
    from ...types.stored import StoredSession


def resolve_dialogue_names(names: list[str]) -> list[str]:
    known = registry.metric_names(registry.DIALOGUE)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ConfigError(f"unknown dialogue metric {unknown[0]!r}", f"known dialogue metrics: {', '.join(known)}")
    return [n for n in known if n in names]


def build_dialogue_metrics(
    names: list[str],
    judge: ChatClient,
    prompts_dir: Path | None,
    language: str,
    thresholds: Mapping[str, float] | None = None,
    policies: tuple[Expectation, ...] = (),
) -> list[DialogueMetric]:
    """The dialogue metrics to run when a dialogue ends; templates validated here, up front.
    ``policies`` are the config's ``[[policy]]`` prohibitions (for ``expectations``)."""
    from ..metric_settings import MetricSettings

    settings = MetricSettings(thresholds={**registry.default_thresholds(), **(thresholds or {})}, policies=policies)
    return [
        registry.find_metric(name).build(judge, prompts_dir, language, settings)  # type: ignore[union-attr]
        for name in resolve_dialogue_names(names)
    ]


def context_from_session(session: StoredSession) -> DialogueContext:
    """The dialogue as stored: one ``DialogueTurn`` per turn, customer message and bot answer (and
    an imported conversation's human agent, kept apart from the bot's answer; notes left out)."""
    by_turn: dict[int, dict[str, Any]] = {}
    for message in session.messages:
        slot = by_turn.setdefault(message.turn, {"customer": "", "bot": None, "passages": [], "agent": None})
        if message.role == "user":
            slot["customer"] = message.text
        elif message.role == "bot":  # an imported conversation's agent and notes are never the bot's
            slot["bot"] = message.text
            slot["passages"] = list(message.passages)
        elif message.role == "agent":
            slot["agent"] = message.text
    turns = [
        DialogueTurn(turn, s["customer"], s["bot"], s["passages"], agent=s["agent"])
        for turn, s in sorted(by_turn.items())
    ]
    scenario = session.scenario if isinstance(session.scenario, dict) else {}
    return DialogueContext(
        turns,
        session.language,
        session.stop_reason,
        session.persona.goal,
        expectations=expectations_of(scenario),
        tags=tuple(str(t) for t in scenario.get("tags") or ()),
    )


def context_from_messages(
    messages: list[dict[str, Any]], language: str, passages: list[str] | None = None
) -> DialogueContext:
    """A dialogue from plain ``{"role", "text"}`` records (a labelled file): customer lines open
    a turn, bot lines answer it. ``passages`` are the knowledge the bot had, if given."""
    turns: list[dict[str, Any]] = []
    for message in messages:
        if message["role"] == "user" or not turns or turns[-1]["bot"] is not None:
            if message["role"] == "user":
                turns.append({"customer": message["text"], "bot": None})
                continue
            turns.append({"customer": "", "bot": None})
        turns[-1]["bot"] = message["text"]
    shared = [Passage(f"context#{i}", "", text) for i, text in enumerate(passages or [], start=1)]
    return DialogueContext(
        [
            DialogueTurn(i, t["customer"], t["bot"], shared if t["bot"] is not None else [])
            for i, t in enumerate(turns, 1)
        ],
        language,
    )


__all__ = ["build_dialogue_metrics", "context_from_messages", "context_from_session", "resolve_dialogue_names"]

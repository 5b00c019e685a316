"""Dialogue metrics: verdicts on a whole conversation, judged once it has ended.

``resolution`` (was the problem solved, and the one-word outcome), ``retention`` (did the bot
keep what the customer told it), ``repetition`` (did it go round in circles) and
``expectations`` (did it say what the scenario expects and nothing a policy forbids). Each returns a
``Judgment`` like the turn metrics and is stored as a versioned judgment of the session
(``record.dialogue_verdicts``). They are on by default (``dialogue_metrics`` in the config); the
registry loads them through ragtui's own entry points.

This package's face is light, like ``core.metrics``: importing it, or a metric's description
(``resolution_info``, ``retention_info``, ``repetition_info``, ``expectations_info``), loads no
metric and no model client. The names below are imported when first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ...registry import metrics as registry

if TYPE_CHECKING:
    from .base import DialogueContext, DialogueMetric, DialogueTurn, load_bundled_fallback, metric_applies
    from .build import build_dialogue_metrics, context_from_messages, context_from_session, resolve_dialogue_names
    from .resolution_info import OUTCOMES, SUCCESS_OUTCOMES

# name → the module of this package that holds it.
_HOMES = {
    "DialogueContext": "base",
    "DialogueMetric": "base",
    "DialogueTurn": "base",
    "load_bundled_fallback": "base",
    "metric_applies": "base",
    "build_dialogue_metrics": "build",
    "context_from_messages": "build",
    "context_from_session": "build",
    "resolve_dialogue_names": "build",
    "OUTCOMES": "resolution_info",
    "SUCCESS_OUTCOMES": "resolution_info",
}


def __getattr__(name: str) -> Any:
    """``DIALOGUE_METRICS``: the registry's dialogue metrics (plugins included), read when first
    used; the other names, imported from their module when first used."""
    if name == "DIALOGUE_METRICS":
        return registry.metric_names(registry.DIALOGUE)
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


__all__ = [
    "DIALOGUE_METRICS",
    "OUTCOMES",
    "SUCCESS_OUTCOMES",
    "DialogueContext",
    "DialogueMetric",
    "DialogueTurn",
    "build_dialogue_metrics",
    "context_from_messages",
    "context_from_session",
    "load_bundled_fallback",
    "metric_applies",
    "resolve_dialogue_names",
]

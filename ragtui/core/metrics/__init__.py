"""Metrics that judge a bot turn. Each returns a ``Judgment``; see ``base``.

The rubric is the primary metric: its score is the turn score. The others are shown beside it,
each against its own threshold (``[thresholds]`` in the config), and stored the same way.
``trust`` is derived from faithfulness, answerability and answer_correctness on the same turn,
so choosing it adds them, and it always runs last.

Which metrics exist, and what each needs, is in the registry (``ragtui/core/registry/metrics.py``): each metric class
describes itself and builds itself; ragtui declares its own as entry points, and plugins add
theirs the same way (docs/plugins.md).
"""

from __future__ import annotations

from typing import Any

from ..config import paths
from ..content.prompts import PromptSet
from ..models.llm import ChatClient
from ..registry import metrics as registry
from ..registry.metrics import PRIMARY_METRIC, MetricInfo
from ..types.errors import ConfigError
from ..types.judgments import Judgment
from .answer_correctness import AnswerCorrectness
from .answer_relevancy import AnswerRelevancy
from .answerability import Answerability
from .base import Metric, TurnContext
from .faithfulness import Faithfulness
from .metric_settings import MetricSettings
from .rubric import CheckedRubricJudge
from .trust import Trust

# The built-in turn metrics; the registry loads them through ragtui's own entry points
# (pyproject.toml), as it loads a plugin's.
BUILTIN_METRICS = (CheckedRubricJudge, AnswerRelevancy, AnswerCorrectness, Answerability, Faithfulness, Trust)


def __getattr__(name: str) -> Any:
    """``KNOWN_METRICS`` and ``BINARY_METRICS``, read from the registry (plugins included) when
    first used, not when this package is imported."""
    if name == "KNOWN_METRICS":
        return registry.metric_names(registry.TURN)
    if name == "BINARY_METRICS":
        return registry.binary_metrics()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def resolve_names(names: list[str], *, include_primary: bool = True) -> list[str]:
    """Known, deduplicated, the primary first, each derived metric's inputs added before it and
    derived metrics last (the registry's order)."""
    known = registry.metric_names(registry.TURN)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ConfigError(f"unknown metric {unknown[0]!r}", f"known metrics: {', '.join(known)}")
    primary = registry.primary_metric()
    ordered = [primary] if include_primary else []
    derived = [n for n in known if n in names and registry.find_metric(n).info.inputs]  # type: ignore[union-attr]
    ordered += [n for n in names if n not in derived]
    for name in derived:
        ordered += [*registry.find_metric(name).info.inputs, name]  # type: ignore[union-attr]
    return list(dict.fromkeys(ordered))


def build_metrics(
    names: list[str],
    judge: ChatClient,
    prompts: PromptSet,
    *,
    settings: MetricSettings | None = None,
    include_primary: bool = True,
) -> list[Metric]:
    """The metrics to run on every bot turn, in the order to run them. Every template and
    examples file is loaded (and validated) here, before any dialogue starts."""
    settings = settings or MetricSettings()
    language = prompts.judge.language
    directory = prompts.directory or paths.bundled_dir("prompts")
    return [
        registry.find_metric(name).build(judge, directory, language, settings)  # type: ignore[union-attr]
        for name in resolve_names(names, include_primary=include_primary)
    ]


__all__ = [
    "BINARY_METRICS",
    "KNOWN_METRICS",
    "PRIMARY_METRIC",
    "Judgment",
    "Metric",
    "MetricInfo",
    "MetricSettings",
    "TurnContext",
    "build_metrics",
    "resolve_names",
]

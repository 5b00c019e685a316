"""The turn metrics a run asks for, resolved and built: known, deduplicated, the primary first,
each derived metric's inputs before it (``resolve_names``), then each built from its registered
class with the run's judge, prompts and settings (``build_metrics``)."""

from __future__ import annotations

from ..config import paths
from ..content.prompts import PromptSet
from ..models.llm import ChatClient
from ..registry import metrics as registry
from ..types.errors import ConfigError
from .base import Metric
from .metric_settings import MetricSettings


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


__all__ = ["build_metrics", "resolve_names"]

"""Metrics that judge a bot turn. Each returns a ``Judgment``; see ``base``."""

from __future__ import annotations

from ..errors import ConfigError
from ..llm import ChatClient
from ..prompts import PromptSet
from .base import Judgment, Metric, TurnContext
from .rubric import RubricJudge

KNOWN_METRICS = ("rubric",)
PRIMARY_METRIC = "rubric"  # the metric whose score is the turn score


def build_metrics(names: list[str], judge: ChatClient, prompts: PromptSet) -> list[Metric]:
    unknown = [n for n in names if n not in KNOWN_METRICS]
    if unknown:
        raise ConfigError(f"unknown metric {unknown[0]!r}", f"known metrics: {', '.join(KNOWN_METRICS)}")
    if PRIMARY_METRIC not in names:
        names = [PRIMARY_METRIC, *names]
    metrics: list[Metric] = []
    for name in dict.fromkeys(names):
        if name == "rubric":
            metrics.append(RubricJudge(judge, prompts.judge))
    return metrics


__all__ = ["Judgment", "Metric", "TurnContext", "build_metrics", "KNOWN_METRICS", "PRIMARY_METRIC"]

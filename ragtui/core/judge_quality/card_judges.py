"""Which verdicts have a row on the judge card, and the judge each row is keyed by.

A row per metric and language for every verdict that can decide a run's exit status: each turn
metric with a judge of its own (derived ones, like ``trust``, have none) and each dialogue metric
that names a bundled labelled set (``MetricInfo.card_set``: resolution, repetition, expectations).
A row's key is the judge model and the fingerprint of the judge as a run builds it, so the
figure measured and the verdict that carries it are for the same prompt.
"""

from __future__ import annotations

from pathlib import Path

from ..content.prompts import PromptSet
from ..metrics import build_metrics
from ..metrics.dialogue import build_dialogue_metrics
from ..metrics.metric_settings import MetricSettings
from ..models.llm import ChatClient
from ..registry import metrics as registry


def card_metric_names() -> tuple[str, ...]:
    turn = [n for n in registry.metric_names(registry.TURN) if not _info(n).inputs]
    dialogue = [n for n in registry.metric_names(registry.DIALOGUE) if _info(n).card_set]
    return (*turn, *dialogue)


def _info(name: str) -> registry.MetricInfo:
    info = registry.metric_info(name)
    assert info is not None, name  # only registered names are listed
    return info


def is_dialogue(name: str) -> bool:
    return _info(name).kind == registry.DIALOGUE


def card_set(name: str) -> str:
    """The bundled labelled file a card row is measured on."""
    return _info(name).card_set or f"{name}.jsonl"


def metric_calls(name: str) -> float:
    """Model calls a verdict is assumed to cost (the estimate before measuring)."""
    return _info(name).calls


def card_judge(name: str, client: ChatClient, prompts_dir: Path, language: str, settings: MetricSettings) -> object:
    """The judge of ``name`` in ``language`` as a run builds it (its fingerprint keys the row)."""
    if is_dialogue(name):
        (metric,) = build_dialogue_metrics(
            [name], client, prompts_dir, language, settings.thresholds, policies=settings.policies
        )
        return metric
    prompts = PromptSet.load(prompts_dir, language)
    metrics = build_metrics([name], client, prompts, settings=settings, include_primary=True)
    return next(m for m in metrics if m.name == name)

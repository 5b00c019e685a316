"""Metrics that judge a bot turn. Each returns a ``Judgment``; see ``base``.

The rubric is the primary metric: its score is the turn score. The others are shown beside it,
each against its own threshold (``[thresholds]`` in the config), and stored the same way.
``trust`` is derived from faithfulness, answerability and answer_correctness on the same turn,
so choosing it adds them, and it always runs last.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .. import paths
from ..config import DEFAULT_THRESHOLDS, Config
from ..content.prompts import PromptSet, load_prompt
from ..errors import ConfigError
from ..models.llm import ChatClient
from .answer_correctness import AnswerCorrectness
from .answer_relevancy import AnswerRelevancy, RelevancyOptions
from .answerability import Answerability
from .base import Judgment, Metric, TurnContext
from .examples import examples_path, load_examples
from .faithfulness import Faithfulness
from .rubric import CheckedRubricJudge
from .trust import INPUTS as TRUST_INPUTS
from .trust import Trust

KNOWN_METRICS = ("rubric", "answer_relevancy", "answer_correctness", "answerability", "faithfulness", "trust")
PRIMARY_METRIC = "rubric"  # the metric whose score is the turn score
# Graded metrics are compared with people by Spearman, binary ones by accuracy, F1 and kappa.
BINARY_METRICS = frozenset({"answerability", "trust"})


@dataclass(frozen=True)
class MetricSettings:
    """What the metrics take from the config besides the judge and the prompts."""

    thresholds: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_THRESHOLDS))
    relevancy: RelevancyOptions = field(default_factory=RelevancyOptions)
    # metric → a few-shot examples file used instead of prompts/<lang>/examples/<metric>.jsonl
    examples: dict[str, Path] = field(default_factory=dict)

    @classmethod
    def from_config(cls, config: Config) -> MetricSettings:
        return cls(
            thresholds={**DEFAULT_THRESHOLDS, **config.thresholds},
            relevancy=RelevancyOptions(config.uncertainty_weight, config.relevancy_scale),
        )


def resolve_names(names: list[str], *, include_primary: bool = True) -> list[str]:
    """Known, deduplicated, the primary first, trust's inputs added and trust last."""
    unknown = [n for n in names if n not in KNOWN_METRICS]
    if unknown:
        raise ConfigError(f"unknown metric {unknown[0]!r}", f"known metrics: {', '.join(KNOWN_METRICS)}")
    ordered = [PRIMARY_METRIC] if include_primary else []
    ordered += [n for n in names if n != "trust"]
    if "trust" in names:
        ordered += [*TRUST_INPUTS, "trust"]
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
    metrics: list[Metric] = []
    for name in resolve_names(names, include_primary=include_primary):
        if name == "rubric":
            # The turn score from yes/no checks combined in code (rubric_probes); the
            # whole-verdict RubricJudge stays for re-judging with an edited judge_rubric prompt.
            metrics.append(CheckedRubricJudge(judge, load_prompt(directory, language, "judge_probes")))
            continue
        threshold = settings.thresholds.get(name, DEFAULT_THRESHOLDS[name])
        if name == "trust":
            metrics.append(Trust(threshold))
            continue
        kind = f"metric_{name}"
        template = load_prompt(directory, language, kind)
        examples = load_examples(settings.examples.get(name) or examples_path(directory, language, name), kind)
        if name == "answer_relevancy":
            metrics.append(AnswerRelevancy(judge, template, examples, settings.relevancy, threshold))
        elif name == "answer_correctness":
            metrics.append(AnswerCorrectness(judge, template, examples, threshold))
        elif name == "answerability":
            metrics.append(Answerability(judge, template, examples, threshold))
        elif name == "faithfulness":
            metrics.append(Faithfulness(judge, template, examples, threshold))
    return metrics


__all__ = [
    "BINARY_METRICS",
    "KNOWN_METRICS",
    "PRIMARY_METRIC",
    "Judgment",
    "Metric",
    "MetricSettings",
    "TurnContext",
    "build_metrics",
    "resolve_names",
]

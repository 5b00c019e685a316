"""Turn metrics that need the bot's retrieved passages, on a turn whose transcript has none.

A simulated turn without passages is the bot's own doing (it retrieved nothing), and the metrics
judge it so: faithfulness and answerability give 0 (``faithfulness.py``, ``answerability.py``).
An imported conversation is different: its transcript simply does not carry what the bot
retrieved, so a 0 would blame the bot for the file's silence. Such a turn gets a *skipped*
verdict — visible, unscored, never an error — saying "no passages", unless the transcript carries
passages after all. Which metrics need passages is read from the registry: those whose labelled
items need a ``context`` (faithfulness, answerability, trust — and a plugin's that declares it).

The rubric is still judged — it is the turn score — but without its checks against the passages
(``CheckedRubricJudge(grounded=False)``): whether the context answers the question and whether
each claim is supported by it. Its verdict says "grounding not checked: no passages". No fit
is applied to it: a fit was measured on the whole rubric.
"""

from __future__ import annotations

from ..metrics.answer_correctness import skipped
from ..metrics.answerability import has_passages
from ..metrics.base import Metric, TurnContext
from ..metrics.rubric import CheckedRubricJudge
from ..registry.metrics import metric_info
from ..types.judgments import Judgment
from .fit_store import FittedMetric

NO_PASSAGES = {
    "en": "no passages: the imported conversation does not say what the bot retrieved",
    "ja": "参照文書なし：取り込んだ会話には、ボットが検索した文書が含まれていません",
}


def needs_passages(metric: str) -> bool:
    """Whether ``metric`` judges against the bot's retrieved passages."""
    info = metric_info(metric)
    return info is not None and "context" in info.label_fields


def passages_missing(metric: str, context: TurnContext, *, imported: bool) -> bool:
    """Whether ``metric`` must be skipped on this turn: an imported turn without passages."""
    return imported and needs_passages(metric) and not has_passages(context.passages)


def skipped_no_passages(metric: str, language: str, threshold: float) -> Judgment:
    judgment = skipped(metric, NO_PASSAGES.get(language, NO_PASSAGES["en"]), threshold)
    judgment.details["no_passages"] = True
    judgment.model = ""
    return judgment


def judge_for_turn(metric: Metric, context: TurnContext, *, imported: bool) -> Metric:
    """``metric`` as it judges this turn: the rubric without its grounding checks on an
    imported turn that has no passages; any other metric as it is."""
    if not imported or has_passages(context.passages):
        return metric
    inner = metric.inner if isinstance(metric, FittedMetric) else metric
    if isinstance(inner, CheckedRubricJudge) and inner.grounded:
        return CheckedRubricJudge(inner.client, inner.template, inner.bias, grounded=False)
    return metric

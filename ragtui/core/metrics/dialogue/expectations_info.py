"""The expectations metric's description — what every view needs of it — apart from its judge:
its prompt's schema, its CSV columns, its gate role, what a dialogue's checks are assumed to cost,
and its ``MetricInfo``. Importing this loads no model client (``expectations`` is the metric,
``expectation_judge`` its judge)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...content.prompts import PROMPT_KINDS
from ...registry.metrics import DIALOGUE, EXPECTATION_RATE, MetricInfo
from ...store.expectation_cells import COLUMNS

if TYPE_CHECKING:
    from ...types.expectations import Expectation
    from ...types.scenarios import Scenario

KIND = "metric_expectations"
# The template's keys and slots, for the metric class to declare (``MetricInfo.prompts``).
EXPECTATION_PROMPTS: dict[str, dict[str, frozenset[str]]] = {KIND: PROMPT_KINDS[KIND]}


def assumed_calls(
    expectations: tuple[Expectation, ...], tags: tuple[str, ...], policies: tuple[Expectation, ...], answers: float
) -> float:
    """Judge calls one dialogue's expectations are assumed to cost with no past run to learn
    from: none for the deterministic forms; a prohibition is asked of every answer (it can only
    stop early when broken); an expectation to meet is assumed met halfway through."""
    # Imported when an estimate is made: the config's declarations are not needed to describe.
    from ...config.expectation_items import policies_for

    judged = [e for e in [*expectations, *policies_for(policies, tags)] if not e.deterministic]
    return sum(answers if e.polarity == "must_not" else max(1.0, answers / 2) for e in judged)


def scenario_calls(scenario: Scenario, policies: tuple[Expectation, ...], answers: float) -> float:
    return assumed_calls(scenario.expectations, scenario.tags, policies, answers)


# The verdict reaches its pass mark (1.0) when every scored expectation was met or kept: one missed
# fact or broken policy is under it. (Whether the dialogue passed is core/runs/passing.py.)
INFO = MetricInfo(
    "expectations",
    kind=DIALOGUE,
    card_set="expectations.jsonl",
    default_threshold=1.0,
    prompts=EXPECTATION_PROMPTS,
    scenario_calls=scenario_calls,
    label_fields=("question", "response", "expectation"),
    columns=COLUMNS,
    order=30,
    explanation=(
        "did the bot say what the scenario expects and nothing a policy forbids; the score is the share of "
        "checked expectations met or kept"
    ),
    gates=EXPECTATION_RATE,
)

__all__ = ["EXPECTATION_PROMPTS", "INFO", "KIND", "assumed_calls"]

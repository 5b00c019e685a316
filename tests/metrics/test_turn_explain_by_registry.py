"""A turn verdict explains itself through its metric's own ``explain``, found in the registry:
the built-ins name their function in ``core/metrics/explain.py`` (no branch on a metric's name
there), and a turn metric registered from outside shows its own lines the same way."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import ragtui.core.metrics.explain as explain_module
from ragtui.core.metrics.explain import explain_lines
from ragtui.core.registry import metrics as registry
from ragtui.core.registry.metrics import MetricInfo, register_metric

FAITHFUL = {"verdicts": [{"statement": "Refunds take 5 days.", "p_yes": 0.9}]}


def test_a_built_in_turn_metric_explains_through_its_own_class():
    faithfulness = registry.find_metric("faithfulness")
    assert faithfulness is not None
    lines = explain_lines("faithfulness", FAITHFUL)
    assert lines == faithfulness.explain(FAITHFUL)
    assert lines and "Refunds take 5 days." in lines[0]


def test_the_explain_module_names_no_metric():
    names = set(registry.metric_names())
    source = Path(explain_module.__file__).read_text(encoding="utf-8")
    literals = {n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant)}
    assert names.isdisjoint(literals), sorted(names & literals)


class Tone:
    """A turn metric from outside ragtui, with an explanation of its own."""

    info = MetricInfo("tone_check", label_fields=("response",))

    @classmethod
    def build(cls, judge: Any, prompts_dir: Any, language: str, settings: Any) -> Any:
        raise NotImplementedError  # never built here: only its explanation is read

    @staticmethod
    def explain(details: dict[str, Any]) -> list[str]:
        return [f"tone: {details.get('tone')}"]


def test_a_turn_metric_from_outside_explains_itself_the_same_way():
    register_metric(Tone)
    try:
        assert explain_lines("tone_check", {"tone": "warm"}) == ["tone: warm"]
    finally:
        registry._classes.pop("tone_check", None)

"""How a metric's verdict reads (``registry.metric_views``): label, cell, status, explanation
lines and CSV cells, for the built-ins and for a metric that describes nothing but its name."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from ragtui.core.registry import metric_views
from ragtui.core.registry import metrics as registry
from ragtui.core.registry.metrics import DIALOGUE, MetricInfo, register_metric
from ragtui.core.text.score_text import FAIL_STYLE, PASS_STYLE


@dataclass
class V:
    metric: str
    score: float | None
    outcome: str | None = None
    skipped: bool = False
    details: dict[str, Any] = field(default_factory=dict)


@pytest.fixture
def bare_metric():
    """A dialogue metric that declares nothing but its name and kind."""

    @register_metric
    class Bare:
        info = MetricInfo("bare_test", kind=DIALOGUE, default_threshold=0.6)

        @classmethod
        def build(cls, judge, prompts_dir, language, settings):
            return cls()

    yield Bare
    registry._classes.pop("bare_test")


def test_a_cell_says_the_outcome_and_the_score_or_why_there_is_none():
    assert metric_views.cell(V("resolution", 1.0, "handed_over")) == "handed over 1.00"
    assert metric_views.cell(V("retention", 0.5)) == "0.50"
    assert metric_views.cell(V("retention", 0.5), low=True) == "≈0.50"
    assert metric_views.cell(V("repetition", None, skipped=True)) == "skipped"
    assert metric_views.cell(V("resolution", None)) == "unscored"
    assert metric_views.cell(None) == "–"


def test_status_by_success_outcome_else_by_the_pass_mark():
    assert metric_views.status(V("resolution", 0.2, "handed_over")) == "pass"  # its outcome decides
    assert metric_views.status(V("resolution", 0.9, "partly_resolved")) == "fail"
    assert metric_views.status(V("retention", 0.9)) == "fail"  # default pass mark 1.0
    assert metric_views.status(V("retention", 0.9), threshold=0.8) == "pass"
    assert metric_views.styled_cell(V("retention", 0.9), 0.8).style == PASS_STYLE
    assert metric_views.styled_cell(V("retention", 0.7), 0.8).style == FAIL_STYLE


def test_builtins_explain_themselves_and_write_their_csv_cells():
    assert metric_views.label("resolution") == "resolution" and metric_views.explanation("resolution")
    lines = metric_views.explain("retention", {"facts": [{"turn": 1, "fact": "uses the app", "verdict": "kept"}]})
    assert lines == ["[kept] turn 1: uses the app"]
    assert metric_views.csv_columns("resolution") == ("resolution", "outcome")
    assert metric_views.csv_cells("resolution", V("resolution", 1.0, "resolved")) == ["1.00", "resolved"]
    assert metric_views.csv_cells("resolution", None) == ["", ""]


def test_a_metric_that_describes_nothing_still_shows(bare_metric):
    assert metric_views.label("bare_test") == "bare_test"
    assert metric_views.explanation("bare_test") == "" and metric_views.explain("bare_test", {"x": 1}) == []
    assert metric_views.csv_columns("bare_test") == ("bare_test",)
    assert metric_views.csv_cells("bare_test", V("bare_test", 0.25)) == ["0.25"]
    assert metric_views.status(V("bare_test", 0.6)) == "pass"  # its default pass mark


def test_shown_metrics_in_registry_order_and_unknown_ones_kept():
    present = {"repetition", "gone_plugin", "resolution"}
    assert metric_views.shown_metrics(present) == ["resolution", "repetition", "gone_plugin"]
    assert metric_views.label("gone_plugin") == "gone_plugin"

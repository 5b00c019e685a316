"""The warning shown before the embedded judge's Japanese turn scores (docs/judge-calibration.md)."""

from __future__ import annotations

from ragtui.core.models.embedded import judge_caveat
from ragtui.core.models.endpoints import Endpoint


def test_the_embedded_judge_warns_before_japanese_turn_scores_and_only_then():
    embedded = {"judge": Endpoint("judge", None, "local", 0.0, "", embedded=True)}
    remote = {"judge": Endpoint("judge", "http://127.0.0.1:1/v1", "big", 0.0, "OPENAI_API_KEY")}
    caveat = judge_caveat(embedded, "ja")
    assert caveat and "Japanese" in caveat and "stronger model" in caveat
    assert judge_caveat(embedded, "en") is None and judge_caveat(remote, "ja") is None

"""The rubric's ``other_company`` check asks what the seed's guideline means — does the reply
recommend or compare a competitor's product? — rather than whether it names a company: the
services the product itself works with (Google or Apple sign-in for ID linking) are no competitor.
It is asked about the reply alone, after the same prefix as the other reply-only checks."""

from __future__ import annotations

import pytest

from ragtui.core.config.paths import bundled_dir
from ragtui.core.content.prompts import load_prompt
from ragtui.core.metrics.base import TurnContext
from ragtui.core.metrics.rubric import CheckedRubricJudge
from ragtui.core.types.passages import Passage
from tests.fakes.rubric_checks import check_name

PASSAGE = {
    "en": "You can link your Tsumugi ID with a Google, Apple, X or LINE account.",
    "ja": "つむぎIDは Google、Apple、X、LINE のアカウントと連携できます。",
}
REPLY = {
    "en": "Go to Settings > Account > Linked services and tap Link next to Google.",
    "ja": "設定 > アカウント > 連携サービスで Google の「連携する」を押してください。",
}
COMPETITOR = {"en": "competitor", "ja": "競合他社"}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_other_company_asks_about_competitors_of_the_reply_alone(language):
    judge = CheckedRubricJudge(None, load_prompt(bundled_dir("prompts"), language, "judge_probes"))  # type: ignore[arg-type]
    turn = TurnContext(1, "How do I link?", REPLY[language], [Passage("kb#1", "", PASSAGE[language])], [], language)
    questions = {q.name: q for q in judge.questions(turn)}
    asked = questions["other_company"].messages[-1]["content"]
    assert COMPETITOR[language] in asked and REPLY[language] in asked
    assert PASSAGE[language] not in asked
    # Same text before the question as says_unknown's: a server's prompt cache reuses it.
    unknown = questions["says_unknown"].messages[-1]["content"]
    shared = unknown[: unknown.index(REPLY[language]) + len(REPLY[language])]
    assert asked.startswith(shared)
    if language == "en":  # scripted judges in the tests find the check by its wording
        assert check_name({"messages": questions["other_company"].messages}) == "other_company"

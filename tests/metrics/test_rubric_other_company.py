"""The rubric's ``other_company`` check is asked with the passages: a service the context itself
names (Google, Apple, X, LINE for ID linking) is not "another company". Its request starts with
the same text as the ``context_answers`` check, so a server's prompt cache reuses that prefix."""

from __future__ import annotations

import pytest

from ragtui.core.content.prompts import load_prompt
from ragtui.core.metrics.base import TurnContext
from ragtui.core.metrics.rubric import CheckedRubricJudge
from ragtui.core.paths import bundled_dir
from ragtui.core.records.passages import Passage

PASSAGE = {
    "en": "You can link your Tsumugi ID with a Google, Apple, X or LINE account.",
    "ja": "つむぎIDは Google、Apple、X、LINE のアカウントと連携できます。",
}
REPLY = {
    "en": "Go to Settings > Account > Linked services and tap Link.",
    "ja": "設定 > アカウント > 連携サービスで「連携する」を押してください。",
}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_other_company_is_asked_with_the_context_after_the_same_prefix_as_context_answers(language):
    judge = CheckedRubricJudge(None, load_prompt(bundled_dir("prompts"), language, "judge_probes"))  # type: ignore[arg-type]
    turn = TurnContext(1, "How do I link?", REPLY[language], [Passage("kb#1", "", PASSAGE[language])], [], language)
    questions = {q.name: q for q in judge.questions(turn)}
    asked = questions["other_company"].messages[-1]["content"]
    assert PASSAGE[language] in asked and REPLY[language] in asked
    context_answers = questions["context_answers"].messages[-1]["content"]
    prefix = context_answers[: context_answers.index(PASSAGE[language]) + len(PASSAGE[language])]
    assert asked.startswith(prefix)
    # The other checks of the reply alone still see only the reply.
    assert PASSAGE[language] not in questions["polite"].messages[-1]["content"]

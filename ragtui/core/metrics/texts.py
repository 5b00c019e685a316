"""Sentences the metrics write themselves (not the judge), in the dialogue's language.

Defined results — an empty answer, no passages, no reference — and the trust verdict are
explained in code, so they read the same every time and cost no judge call.
"""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "no_question": "(no question given)",
        "no_reference": "no reference answer for this scenario",
        "empty_answer": "the answer is empty, so it answers nothing",
        "no_passages": "the bot received no passages, so nothing can be answered or grounded from them",
        "no_claims": "the answer makes no factual claims, so nothing in it is ungrounded",
        "whole_answer": "no statements were extracted, so the whole answer was judged as one statement",
        "faithful_p": "mean P(supported) {p:.2f}; {supported} of {total} statements are likely supported (P ≥ 0.5)",
        "unsupported": "; not supported: {items}",
        "answerable": "answerable from the passages",
        "unanswerable": "not answerable from the passages",
        "trust_yes": "can be trusted: {reasons}",
        "trust_no": "cannot be trusted: {reasons}",
        "trust_unknown": "cannot decide: {reasons}",
        "trust_none": "none of faithfulness, answerability or answer_correctness ran on this turn",
        "passes": "{metric} {score:.2f} ≥ {threshold:.2f}",
        "fails": "{metric} {score:.2f} < {threshold:.2f}",
        "skipped": "{metric} skipped ({why})",
        "unscored": "{metric} unscored ({why})",
        "not_run": "{metric} not run",
        "expected_level": "expected level {level:.2f} of {top}",
        "p_yes": "{label} (P(yes) {p:.2f})",
    },
    "ja": {
        "no_question": "（質問なし）",
        "no_reference": "このシナリオには参照回答がありません",
        "empty_answer": "回答が空のため、何にも答えていません",
        "no_passages": "ボットは参照文書を受け取っていないため、文書から答えることも根拠づけることもできません",
        "no_claims": "回答に事実についての主張がないため、根拠のない内容はありません",
        "whole_answer": "文を抽出できなかったため、回答全体を1つの文として判定しました",
        "faithful_p": "P(裏づけあり) の平均 {p:.2f}。{total} 文のうち {supported} 文が裏づけられている可能性が高い（P ≥ 0.5）",
        "unsupported": "。裏づけのない文：{items}",
        "answerable": "参照文書から答えられます",
        "unanswerable": "参照文書からは答えられません",
        "trust_yes": "信頼できます：{reasons}",
        "trust_no": "信頼できません：{reasons}",
        "trust_unknown": "判断できません：{reasons}",
        "trust_none": "このターンでは faithfulness・answerability・answer_correctness のいずれも実行されていません",
        "passes": "{metric} {score:.2f} ≥ {threshold:.2f}",
        "fails": "{metric} {score:.2f} < {threshold:.2f}",
        "skipped": "{metric} はスキップ（{why}）",
        "unscored": "{metric} は未採点（{why}）",
        "not_run": "{metric} は未実行",
        "expected_level": "期待レベル {level:.2f}／{top}",
        "p_yes": "{label}（P(はい) {p:.2f}）",
    },
}


def text(language: str, key: str, **values: object) -> str:
    table = TEXTS.get(language, TEXTS["en"])
    return table[key].format(**values) if values else table[key]

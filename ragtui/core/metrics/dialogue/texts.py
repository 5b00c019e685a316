"""Sentences the dialogue metrics write themselves, in the dialogue's language."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "no_answer": "the dialogue has no bot answer, so there is nothing to judge",
        "no_need": "the customer wrote nothing that states a need",
        "no_facts": "the customer stated no facts about their situation, so none could be forgotten",
        "one_answer": "fewer than two bot answers, so nothing can repeat",
        "resolution": "{outcome}: {met} of {total} customer intents satisfied",
        "retention": "{kept} of {total} facts the customer gave were kept",
        "repetition": "{repeats} of {total} later answers repeat an earlier one",
        "resolved": "resolved",
        "partly_resolved": "partly resolved",
        "unresolved": "unresolved",
        "handed_over": "handed over",
        "expectations": "{met} of {total} expectations met or kept; {broken} policies broken",
        "expectations_unscored": "no expectation could be checked",
    },
    "ja": {
        "no_answer": "ボットの回答が1つもないため、判定できません",
        "no_need": "お客様の発言に要望が書かれていません",
        "no_facts": "お客様は自分の状況についての事実を述べていないため、忘れようがありません",
        "one_answer": "ボットの回答が2つ未満のため、繰り返しは起こりえません",
        "resolution": "{outcome}：お客様の要望 {total} 件中 {met} 件が満たされました",
        "retention": "お客様が伝えた事実 {total} 件中 {kept} 件が保たれました",
        "repetition": "2回目以降の回答 {total} 件中 {repeats} 件が以前の回答の繰り返しです",
        "resolved": "解決",
        "partly_resolved": "一部解決",
        "unresolved": "未解決",
        "handed_over": "適切に引き継ぎ",
        "expectations": "期待 {total} 件中 {met} 件を満たしました。破られたポリシー {broken} 件",
        "expectations_unscored": "どの期待も確認できませんでした",
    },
}


def dtext(language: str, key: str, **values: object) -> str:
    table = TEXTS.get(language, TEXTS["en"])
    return table[key].format(**values) if values else table[key]

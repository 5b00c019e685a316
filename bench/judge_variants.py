"""The judge variants the ablation harness (``bench_calibration.py``) compares.

Each variant turns one labelled item into the chat messages of one or two judge calls and reads
the judge's level distribution from the reply. All variants are score-first (one token, read by
probability) unless named ``*-reasoning``; the shipped metrics use the variant the README names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ragtui.core.metrics.probability import SCALE_0_5, SCALE_1_5, YES_NO

Messages = list[dict[str, str]]

CORRECTNESS_ONE_WAY = {
    "en": (
        "You compare a RESPONSE with a REFERENCE answer. How much of what the REFERENCE says does the "
        "RESPONSE also say? 5 = all of it, same meaning; 4 = nearly all; 3 = the main point; 2 = some "
        "facts; 1 = same topic only; 0 = unrelated or contradicts. Answer with one digit, 0 to 5."
    ),
    "ja": (
        "回答（RESPONSE）を参照回答（REFERENCE）と比べます。参照回答の内容のうち、どれだけを回答も述べていますか。"
        "5=すべて・同じ意味、4=ほぼすべて、3=要点、2=一部、1=話題が同じだけ、0=無関係か矛盾。数字1文字（0〜5）で答えてください。"
    ),
}
CORRECTNESS_SAME_MEANING = {
    "en": (
        "Do these two texts say the same thing? Rate how close their MEANING is; wording does not matter.\n"
        "5 = same meaning, only worded differently.\n"
        "4 = mostly the same; a minor detail differs or is missing.\n"
        "3 = roughly the same, but an important detail differs or is missing.\n"
        "2 = not the same, but they share some details.\n"
        "1 = not the same; only the topic is shared.\n"
        "0 = about different things.\n"
        "Answer with one digit, 0 to 5."
    ),
    "ja": (
        "2つの文は同じことを言っていますか。意味の近さを評価してください。言い回しの違いは問いません。\n"
        "5 = 同じ意味で、言い回しだけが違う。\n"
        "4 = ほぼ同じ。細かい点が1つ違うか抜けている。\n"
        "3 = おおむね同じだが、重要な点が違うか抜けている。\n"
        "2 = 同じではないが、一部の内容が共通している。\n"
        "1 = 同じではなく、話題だけが共通している。\n"
        "0 = 別々のことについての文。\n"
        "数字1文字（0〜5）で答えてください。"
    ),
}
CORRECTNESS_SAME_MEANING_1_5 = {
    lang: text.replace("0 = about different things.\n", "")
    .replace("1 = not the same; only the topic is shared.", "1 = different; at most the topic is shared.")
    .replace("0 to 5", "1 to 5")
    .replace("0 = 別々のことについての文。\n", "")
    .replace("1 = 同じではなく、話題だけが共通している。", "1 = 違う内容。共通するのはせいぜい話題だけ。")
    .replace("0〜5", "1〜5")
    for lang, text in CORRECTNESS_SAME_MEANING.items()
}
CORRECTNESS_YES_NO = {
    "en": "Do these two texts have the same meaning? Answer yes or no.",
    "ja": "2つの文は同じ意味ですか。「はい」か「いいえ」で答えてください。",
}
ANSWERABILITY_STATES = {
    "en": (
        "Read the PASSAGE and the QUESTION. Does the PASSAGE state the answer to the QUESTION, so that "
        "someone could answer it from the PASSAGE alone? A passage about the same subject that does not "
        "state the asked-for fact, or states it for another year, person or place, does not. Answer yes or no."
    ),
    "ja": (
        "文章（PASSAGE）と質問（QUESTION）を読んでください。文章は質問の答えを述べていて、文章だけで答えられますか。"
        "同じ話題でも、問われている事実そのもの（その年・その人・その場所）を述べていなければ「いいえ」です。「はい」か「いいえ」で答えてください。"
    ),
}
ANSWER_FIRST = {
    "en": (
        "Answer the QUESTION using only the PASSAGE, in at most ten words. If the PASSAGE does not "
        "contain the answer, write exactly: not stated"
    ),
    "ja": "文章だけを使って、質問に20文字以内で答えてください。答えが文章にない場合は「記載なし」とだけ書いてください。",
}
CHECK_CANDIDATE = {
    "en": (
        "Does the PASSAGE state that the answer to the QUESTION is the CANDIDATE? It must say so itself, "
        "for exactly what is asked. Answer yes or no."
    ),
    "ja": "文章は、質問の答えが候補（CANDIDATE）であると、問われている通りに述べていますか。「はい」か「いいえ」で答えてください。",
}


def pair_user(reference: str, response: str, language: str) -> str:
    if language == "ja":
        return f"文1: {reference}\n文2: {response}\n評価:"
    return f"Text 1: {reference}\nText 2: {response}\nRating:"


def qa_user(question: str, passage: str, language: str) -> str:
    if language == "ja":
        return f"文章: {passage}\n\n質問: {question}\n答え:"
    return f"PASSAGE: {passage}\n\nQUESTION: {question}\nAnswer:"


@dataclass(frozen=True)
class Variant:
    name: str
    metric: str  # "correctness" | "answerability"
    system: dict[str, str]
    levels: dict[str, float]
    scale_max: float  # value / scale_max → 0–1
    scale_min: float = 0.0
    shots: int = 0  # nearest examples from the choose split, as earlier turns
    sampled_only: bool = False  # ignore the probabilities: the plain sampled level
    two_step: bool = False  # answerability: answer first, then check the candidate
    user: Callable[[dict, str], str] | None = None


# Japanese pairs judged with the English instructions (the 1.5B model follows English better).
CORRECTNESS_SAME_MEANING_EN_FOR_JA = {"en": CORRECTNESS_SAME_MEANING["en"], "ja": CORRECTNESS_SAME_MEANING["en"]}

VARIANTS = [
    Variant("c-oneway-0-5", "correctness", CORRECTNESS_ONE_WAY, SCALE_0_5, 5.0),
    Variant("c-same-0-5", "correctness", CORRECTNESS_SAME_MEANING, SCALE_0_5, 5.0),
    Variant("c-same-0-5-sampled", "correctness", CORRECTNESS_SAME_MEANING, SCALE_0_5, 5.0, sampled_only=True),
    Variant("c-same-1-5", "correctness", CORRECTNESS_SAME_MEANING_1_5, SCALE_1_5, 5.0, 1.0),
    Variant("c-same-yes-no", "correctness", CORRECTNESS_YES_NO, YES_NO, 1.0),
    Variant("c-same-0-5-en-instructions", "correctness", CORRECTNESS_SAME_MEANING_EN_FOR_JA, SCALE_0_5, 5.0),
    Variant("c-same-0-5-nearest3", "correctness", CORRECTNESS_SAME_MEANING, SCALE_0_5, 5.0, shots=3),
    Variant("a-states-yes-no", "answerability", ANSWERABILITY_STATES, YES_NO, 1.0),
    Variant("a-states-yes-no-sampled", "answerability", ANSWERABILITY_STATES, YES_NO, 1.0, sampled_only=True),
    Variant("a-states-yes-no-nearest2", "answerability", ANSWERABILITY_STATES, YES_NO, 1.0, shots=2),
    Variant("a-answer-then-check", "answerability", CHECK_CANDIDATE, YES_NO, 1.0, two_step=True),
]

RUBRIC_WHOLE_FIRST = {
    "en": (
        "You grade one reply of a customer support chatbot. The bot must answer only from the CONTEXT; "
        "if the CONTEXT lacks the answer it must say it does not know (that is a GOOD reply); it must never "
        "mention other companies; it must be accurate, relevant, complete and polite. Grade the RESPONSE "
        "overall from 1 (bad) to 5 (excellent). Answer with one digit."
    ),
    "ja": (
        "カスタマーサポートのチャットボットの返答を1つ採点します。ボットは参照文書だけから答えること。参照文書に答えが"
        "なければ、わからないと述べること（それは良い返答です）。他社に言及しないこと。正確・適切・十分・丁寧であること。"
        "返答を総合的に 1（悪い）〜5（非常に良い）で採点し、数字1文字で答えてください。"
    ),
}

VARIANTS += [
    # The shipped checks: each check sees only the text it is about (prompts/<lang>/judge_probes.toml).
    Variant("r-checks", "rubric", {}, {}, 5.0, 1.0),
    # The first design: every check saw the whole turn (context, chat, question, reply). Measured
    # with ragtui at commit a27d675; kept in the table, not re-runnable with this code.
    Variant("r-checks-v1-whole-turn", "rubric", {}, {}, 5.0, 1.0),
    # Japanese turns checked with the English questions (as English instructions helped JSTS).
    Variant("r-checks-en-questions", "rubric", {}, {}, 5.0, 1.0),
    # Japanese checks with the options named the other way round (いいえ first): is the lean to
    # いいえ an order effect of the answer cue?
    Variant("r-checks-ja-no-first", "rubric", {}, {}, 5.0, 1.0),
    # Japanese questions, answered with the English words yes / no.
    Variant("r-checks-ja-yes-no-words", "rubric", {}, {}, 5.0, 1.0),
    # The shipped checks read against each check's content-free P(yes) (metrics/check_bias.py).
    Variant("r-checks-debiased", "rubric", {}, {}, 5.0, 1.0),
    Variant("r-whole-score-first", "rubric", RUBRIC_WHOLE_FIRST, SCALE_1_5, 5.0, 1.0),
    Variant("r-whole-reasoning", "rubric", {}, {}, 5.0, 1.0),
]


def ja_probes_variant(template, name: str):
    """The Japanese check template rewritten for the ``r-checks-ja-*`` variants."""
    parts = dict(template.parts)
    if name == "r-checks-ja-no-first":
        parts = {k: v.replace("「はい」か「いいえ」", "「いいえ」か「はい」") for k, v in parts.items()}
    elif name == "r-checks-ja-yes-no-words":
        parts = {k: v.replace("「はい」か「いいえ」で答えてください", "Answer yes or no") for k, v in parts.items()}
    return replace(template, parts=parts)

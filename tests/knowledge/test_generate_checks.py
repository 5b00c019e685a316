"""The code checks a generated scenario must pass: its quote is in its passage (normalized:
width, case, spacing, Markdown emphasis alike), its question in the right language and not a
near-duplicate, an out-of-scope probe's terms in no passage, the facts a quote pins down, and a
plan that covers every document before it repeats a passage."""

from __future__ import annotations

import hashlib

import pytest

from ragtui.core.generate.facts import exact_facts, menu_paths, one_way_of_several, the_number_asked
from ragtui.core.generate.normalize import normalize, quote_parts
from ragtui.core.generate.out_of_scope import absent_topics, parse_topics, terms_in_knowledge, topic_for, topic_named
from ragtui.core.generate.plan import KINDS, OUT_OF_SCOPE, OUT_OF_SCOPE_EVERY, passage_order, plan
from ragtui.core.generate.quote_check import find_quote
from ragtui.core.generate.similarity import copied_share, near_duplicates
from ragtui.core.text.script import script_language
from ragtui.core.text.text_similarity import dice
from ragtui.core.types.knowledge import SourcedPassage

PASSAGE = (
    "Refunds are paid within **5 business days** to the original card.\n\nYearly plans:  unused months are refunded."
)


def test_a_quote_is_found_despite_emphasis_spacing_case_and_width():
    match = find_quote("refunds are paid within 5 business days", PASSAGE)
    assert match is not None and PASSAGE[match.start : match.end] == "Refunds are paid within **5 business days"
    assert find_quote("Yearly plans: unused months are refunded.", PASSAGE) is not None  # two spaces in the source
    assert find_quote("ＲＥＦＵＮＤＳ　ａｒｅ　ｐａｉｄ", PASSAGE) is not None  # full-width, ideographic space
    assert find_quote("返金は５営業日以内", "返金は5営業日以内に行われます。") is not None


def test_a_quote_with_an_ellipsis_must_match_each_part_in_order():
    assert find_quote("Refunds are paid … unused months are refunded", PASSAGE) is not None
    assert find_quote("unused months are refunded ... Refunds are paid", PASSAGE) is None  # out of order
    assert quote_parts("a ... b … c") == ["a", "b", "c"]


@pytest.mark.parametrize(
    "quote",
    ["Refunds are paid within 7 business days", "Refunds are always paid", "", "..."],
    ids=["changed-number", "invented", "empty", "only-ellipsis"],
)
def test_a_quote_not_in_the_passage_is_refused(quote: str):
    assert find_quote(quote, PASSAGE) is None


def test_normalized_text_maps_back_to_the_source():
    source = "Ｔｓｕｍｕｇｉ  **ID**"
    normalized = normalize(source)
    assert normalized.text == "tsumugi id"
    start, end = normalized.span(0, len(normalized.text))
    assert source[start:end] == source.rstrip("*")


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("How do I link my Google account?", "en"),
        ("Googleアカウントを連携するには？", "ja"),
        ("Tsumugi IDの削除方法", "ja"),
        ("12345 ???", None),
    ],
)
def test_the_language_of_a_question_is_told_by_its_script(text: str, language: str | None):
    assert script_language(text) == language


def test_near_duplicate_questions_are_dropped_in_english_and_japanese():
    questions = [
        "How do I link my Google account?",
        "How do I link my Google account to Tsumugi?",
        "How can I get a refund for a yearly plan?",
        "パスワードを忘れた場合はどうすればいいですか？",
        "パスワードを忘れた場合、どうすればいいですか？",
    ]
    assert near_duplicates(questions) == {1: 0, 4: 3}
    assert dice(questions[0], questions[2]) < 0.5
    assert dice("How do I link my Google account?", "How do I unlink my Apple account?") < 0.78  # another question


def test_a_question_that_reads_the_passage_back_is_measured():
    passage = "To unlink, tap Unlink next to the service on the same screen."
    assert copied_share("Do I tap Unlink next to the service on the same screen?", passage) > 0.6
    assert copied_share("How do I disconnect my Apple login?", passage) < 0.3


def sourced(doc: str, heading: tuple[str, ...], text: str) -> SourcedPassage:
    return SourcedPassage(
        doc,
        heading[-1] if heading else doc,
        heading,
        None,
        0,
        len(text),
        text,
        hashlib.sha256(text.encode()).hexdigest(),
    )


KB = [
    sourced("a.md", ("A", "one"), "Premium costs $4.99 a month."),
    sourced("a.md", ("A", "one"), "Cancel under Settings > Premium."),
    sourced("a.md", ("A", "two"), "Receipts are emailed."),
    sourced("b.md", ("B",), "Accounts inactive for 24 months are closed."),
    sourced("c.md", ("C",), "Support answers within 2 days."),
]


def test_an_out_of_scope_probe_is_refused_when_its_terms_are_in_the_knowledge_base():
    assert terms_in_knowledge(["gift cards", "Apple Watch"], KB) == []
    found = terms_in_knowledge(["PREMIUM", "apple watch"], KB)
    assert [(f.term, f.doc_id) for f in found] == [("PREMIUM", "a.md")]
    assert [f.term for f in terms_in_knowledge(["ID"], KB)] == ["ID"]  # too short to tell anything


def test_the_topics_shown_for_probes_are_those_the_knowledge_base_never_names():
    topics = parse_topics(
        "# a comment\n\ngift cards / gift card\npremium pricing / Premium\n学生割引 / 学割\na public API / API\n"
    )
    assert [t.name for t in topics] == ["gift cards", "premium pricing", "学生割引", "a public API"]
    kb = [*KB, sourced("d.md", ("D",), "Rapid replies, always.")]
    absent = absent_topics(topics, kb)
    assert [t.name for t in absent] == ["gift cards", "学生割引", "a public API"]  # "api" is not in "rapid"
    assert [topic_for(absent, n) for n in range(4)] == [*absent, absent[0]]  # in turn, then again
    assert topic_for([], 4) is None
    assert topic_named("Can I use a GIFT CARD?", absent) == absent[0]
    assert topic_named("学割はありますか？", absent) == absent[1]  # a two-character curated word counts
    assert topic_named("How fast are rapid replies?", absent) is None


def test_facts_of_a_quote_become_exact_expectations_as_written():
    quote = 'Yearly plans cost $48 or 4,800円 and refunds take 5 business days: tap "Request refund" under Settings > Billing.'
    assert exact_facts(quote) == ["$48", "4,800円", "5 business days", "Settings > Billing"]
    assert menu_paths("「設定」>「アカウント」>「連携サービス」を開きます。") == [
        "「設定」>「アカウント」>「連携サービス」"
    ]
    assert exact_facts("Linking never posts anything.") == []


def test_a_fact_offered_as_one_way_among_others_is_no_fact_a_right_answer_must_say():
    reference = (
        "Support form: https://support.tsumugi.example/contact, also available in the app under Menu > Help >"
        " Contact us. Replies take 2 business days."
    )
    assert one_way_of_several(reference, "Menu > Help > Contact us")
    assert not one_way_of_several(reference, "2 business days")  # its own sentence offers no other way
    assert one_way_of_several("「設定」または「ヘルプ」から開けます。", "「設定」")
    assert not one_way_of_several("Images can be up to 10 MB.", "10 MB")


def test_the_plan_covers_every_document_and_heading_before_it_repeats_a_passage():
    order = passage_order(KB)
    assert [p.doc_id for p in order[:3]] == ["a.md", "b.md", "c.md"]  # a document each first
    assert order[0].heading != order[3].heading  # then a.md's other heading before its second passage
    items = plan(KB, 12)
    grounded = [item for item in items if item.passage is not None]
    assert len({id(item.passage) for item in grounded[: len(KB)]}) == len(KB)  # none twice before all once
    assert [item.kind for item in grounded[: len(KINDS)]] == list(KINDS)
    assert [item.index for item in items if item.kind == OUT_OF_SCOPE] == [
        OUT_OF_SCOPE_EVERY - 1,
        2 * OUT_OF_SCOPE_EVERY - 1,
    ]


def test_a_plan_of_probes_only_needs_no_passage():
    assert {item.kind for item in plan([], 3, kinds=(OUT_OF_SCOPE,))} == {OUT_OF_SCOPE}
    with pytest.raises(ValueError, match="no passage"):
        plan([], 3, kinds=("factual",))


def test_the_number_asked_is_the_reference_s_one_number_that_its_quote_says_too():
    quote = "After 10 failed login attempts in a row, the account is locked for 30 minutes."
    assert the_number_asked("It is locked after 10 failed attempts.", quote) == "10"
    assert the_number_asked("It stays locked for 30 minutes.", quote) == "30 minutes"  # with its unit
    assert the_number_asked("After 10 attempts it is locked for 30 minutes.", quote) is None  # which one?
    assert the_number_asked("It is locked after 12 failed attempts.", quote) is None  # not the quote's
    assert the_number_asked("速達は1営業日で届きます。", "速達は1営業日で、料金は800円です。") == "1営業日"

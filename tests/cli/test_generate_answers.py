"""A generated reference must answer the question asked, against the fake server: what the
question's words require is checked in code first (a duration for "how long", a number for "how
much", the steps it announces); then the round trip — the writer answers the question again from
the passage alone, never shown the reference, and the judge must say both give the same answer.
That second answer is a right answer every expectation must hold on, and a right answer must meet
an expectation clearly (``proof.RIGHT_AT``), not only just."""

# ruff: noqa: F811 (the fixtures of test_scenarios_generate, imported by name)

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from ragtui.core.generate.pipeline import FRESH_ANSWER_MAX, whole_sentences
from stand_ins.fake_openai import Reply

from ..conftest import JUDGE, yes_no_reply
from .test_generate_proofs import expect_items, one_page, writes
from .test_scenarios_generate import (  # noqa: F401
    CHECK,
    config_path,
    generate,
    last_user,
    schema_name,
)

# two sentences side by side: a two-questions item is written for a pair of them
SECURITY = "If you did not change your e-mail address, contact support at once. Support answers within a day."
SHIPPING = "Shipping is free on orders of ¥5,000 or more. Orders arrive in 2 to 4 days."


def case_of(question: str, reference: str, *expect: str) -> dict:
    """The writer's case: ``question``, ``reference`` (its own quote) and ``expect``."""
    return {"question": question, "reference": reference, "quote": reference, "expect": list(expect)}


def arrival_case(*expect: str) -> dict:
    """ "How many days until my order arrives?", the whole shipping page its reference."""
    return case_of("How many days until my order arrives?", SHIPPING, *expect)


@pytest.mark.parametrize(
    ("title", "passage", "question", "reference", "reason"),
    [
        (  # a question for the page's whole policy, written for its first rule
            "Refund policy",
            "Premium fees are not refunded for unused time.\n\nWe refund double charges: send the form within 30 days.",
            "What is the refund policy for Premium fees?",
            "Premium fees are not refunded for unused time.",
            "the question asks for its page's whole topic; its part gives some of it",
        ),
        (  # the steps of what the customer says they did, and no word of what went wrong
            "Changing your email address",
            "Go to Settings > Account > Email address and tap Change. Until you tap the link we send, the old "
            "address stays in use.",
            "I changed my email address, but I still get emails at the old one. How can I fix this?",
            "Go to Settings > Account > Email address and tap Change.",
            "the customer's trouble is not spoken of; the reference tells what they already did",
        ),
        (  # a cause that is the question again
            "Merging accounts",
            "Because accounts cannot be merged, export your posts from one and import them into the other.",
            "Why can't I merge my accounts?",
            "Because accounts cannot be merged, export your posts from one and import them into the other.",
            "the question asks why; the reference gives no reason",
        ),
        (
            "Help",
            SHIPPING,
            "How long does it take to ship an order of ¥5,000 or more?",
            "Shipping is free on orders of ¥5,000 or more.",
            "the question asks how long; the reference gives no duration",
        ),
        (
            "Help",
            "To deactivate your account, follow these steps: Sign in, select Settings > Deactivate.",
            "How do I deactivate my account?",
            "To deactivate your account, follow these steps:",
            "the reference announces steps it does not give",
        ),
        (  # a question about something else than the part it was written for
            "Help",
            "Service faults: a problem on our side made Premium features unavailable to you.",
            "Why can't I cancel my subscription before the renewal date? I have a pet named Max.",
            "Service faults: a problem on our side made Premium features unavailable to you.",
            "the question shares no word of its own with the part it was written for",
        ),
        (  # the steps of the case "do not arrive", to a customer who asks how to turn them on
            "Help",
            "If push notifications do not arrive:\n1. Check that notifications are allowed in your phone's settings.",
            "How can I enable push notifications?",
            "Check that notifications are allowed in your phone's settings.",
            "the reference answers a case the question does not state",
        ),
    ],
)
def test_a_reference_without_what_its_question_asks_for_is_dropped_before_any_judge(
    server, config_path, tmp_path: Path, capsys, title: str, passage: str, question: str, reference: str, reason: str
):
    folder = one_page(tmp_path, title, passage)
    server.set_default(JUDGE, writes({"question": question, "reference": reference, "quote": reference}))
    assert generate(config_path, folder, tmp_path / "x.toml", "--n", "1", "--kinds", "factual") == 1
    assert f"dropped 1: {reason}" in " ".join(capsys.readouterr().out.split())
    assert not [b for b in server.chat_requests(JUDGE) if schema_name(b) in ("entailment", "answers")]


def test_a_reference_the_passage_answers_otherwise_is_dropped_by_the_round_trip(
    server, config_path, tmp_path: Path, capsys
):
    """The reference is about the question's topic but answers another question of it: the
    writer, asked again without it, answers the question asked; the judge says they differ."""
    folder = one_page(tmp_path, "Shipping", SHIPPING)
    case = {
        "question": "When does my order arrive?",
        "reference": "Shipping is free on orders of ¥5,000 or more.",
        "quote": "Shipping is free on orders of ¥5,000 or more.",
    }
    server.set_default(
        JUDGE,
        writes(case, answer_again=lambda q, r: "In 2 to 4 days.", same=lambda first, second: first == second),
    )
    assert generate(config_path, folder, tmp_path / "x.toml", "--n", "1", "--kinds", "factual") == 1
    printed = " ".join(capsys.readouterr().out.split())
    assert "dropped 1: answered again from the passage alone, the question gets another answer" in printed
    (fresh,) = [last_user(b) for b in server.chat_requests(JUDGE) if schema_name(b) == "fresh_answer"]
    assert "When does my order arrive?" in fresh and SHIPPING in fresh
    assert "Shipping is free on orders of ¥5,000 or more.\n" not in fresh.split("### PASSAGE END ###")[1]
    (compared,) = [last_user(b) for b in server.chat_requests(JUDGE) if schema_name(b) == "same_answer"]
    assert "Shipping is free" in compared and "In 2 to 4 days." in compared


def test_a_second_answer_the_judge_cannot_compare_drops_the_item_rather_than_keep_it_unchecked(
    server, config_path, tmp_path: Path, capsys
):
    folder = one_page(tmp_path, "Shipping", SHIPPING)
    case = arrival_case()
    base = writes(case, answer_again=lambda q, r: "Two to four days.")
    server.set_default(JUDGE, lambda body: Reply("it depends") if schema_name(body) == "same_answer" else base(body))
    assert generate(config_path, folder, tmp_path / "x.toml", "--n", "1", "--kinds", "factual") == 1
    printed = " ".join(capsys.readouterr().out.split())
    assert "the reference could not be compared with a second answer from the passage" in printed


def test_a_second_answer_cut_at_its_length_limit_is_compared_by_its_whole_sentences(
    server, config_path, tmp_path: Path
):
    """The small writer goes on past the question until the limit cuts it mid-sentence: the
    item is not dropped as unchecked; the judge compares the answer's whole sentences."""
    folder = one_page(tmp_path, "Shipping", SHIPPING)
    rambling = "Your parcel comes two to four days after you order. " + "We pack each order with care. " * 30
    cut = rambling[: FRESH_ANSWER_MAX - 1].rstrip()
    assert not cut.endswith(".")
    server.set_default(JUDGE, writes(arrival_case(), answer_again=lambda q, r: cut, same=lambda first, second: True))
    out = tmp_path / "x.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "factual") == 0
    assert len(tomllib.loads(out.read_text(encoding="utf-8"))["scenario"]) == 1
    (compared,) = [last_user(b) for b in server.chat_requests(JUDGE) if schema_name(b) == "same_answer"]
    assert whole_sentences(cut) in compared and cut not in compared


def test_the_second_answer_is_a_right_answer_every_expectation_must_hold_on(
    server, config_path, tmp_path: Path, capsys
):
    """The passage's second answer agrees, but says nothing of the free shipping the question
    never asked about: the expectation that asks for it is not written; the item is kept."""
    folder = one_page(tmp_path, "Shipping", SHIPPING)
    case = arrival_case("says shipping is free on orders of ¥5,000 or more")
    server.set_default(JUDGE, writes(case, answer_again=lambda q, r: "Your order arrives in 2 to 4 days."))
    out = tmp_path / "kept.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "factual") == 0
    printed = " ".join(capsys.readouterr().out.split())
    asked = [last_user(b) for b in server.chat_requests(JUDGE) if b.get("max_tokens") == 1]
    assert any("Your order arrives in 2 to 4 days." in a and "free on orders" in a for a in asked)
    assert "a shorter right answer in other words fails it" in printed
    assert all("free" not in json.dumps(e) for e in expect_items(out))


def delivery_window_judged(right: float, other: float):
    """The writer's arrival case expecting "mentions the delivery window", which the judge says
    the reference (or a part of it) meets with P ``right`` and any other answer with ``other``."""
    base = writes(arrival_case("mentions the delivery window"))

    def respond(body: dict) -> Reply:
        check = CHECK.search(last_user(body)) if body.get("max_tokens") == 1 else None
        if check is not None and "delivery window" in check.group(3):
            return yes_no_reply(right if check.group(2) in SHIPPING else other)
        return base(body)

    return respond


def test_an_expectation_the_reference_meets_only_just_is_not_written(server, config_path, tmp_path: Path, capsys):
    """P 0.66 on the reference passes the run's line (0.5) but not the proof's (0.8): a right
    answer in other words would fall below the line as often as not."""
    folder = one_page(tmp_path, "Shipping", SHIPPING)
    server.set_default(JUDGE, delivery_window_judged(right=0.66, other=0.1))
    out = tmp_path / "just.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "factual") == 0
    assert "the reference answer fails it, even rewritten" in " ".join(capsys.readouterr().out.split())
    assert all("delivery window" not in json.dumps(e) for e in expect_items(out))


@pytest.mark.parametrize(("wrong_p", "written"), [(0.45, False), (0.15, True)])
def test_a_wrong_answer_must_fail_an_expectation_clearly(
    server, config_path, tmp_path: Path, capsys, wrong_p: float, written: bool
):
    """P 0.45 on a wrong answer is under the run's line (0.5), but by a coin's width: the bot's
    wrong answer would pass it as often as not. A wrong answer must stay at or under 0.2."""
    folder = one_page(tmp_path, "Shipping", SHIPPING)
    server.set_default(JUDGE, delivery_window_judged(right=0.95, other=wrong_p))
    out = tmp_path / "wrong.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "factual") == 0
    kept = [e for e in expect_items(out) if "delivery window" in json.dumps(e)]
    assert bool(kept) == written
    if written:
        assert kept[0]["checked"] == {"reference": 0.95, "wrong": 0.15}
    else:
        assert "a wrong answer meets it too, even rewritten" in " ".join(capsys.readouterr().out.split())


def test_an_expectation_about_the_second_clause_of_a_one_sentence_reference_is_not_written(
    server, config_path, tmp_path: Path, capsys
):
    """ "Can I link my ID with Google?" is answered by the reference's first clause alone (the
    judge says so); "log in with one tap", its second clause, is a detail the question never
    asked, and fails that shorter right answer."""
    sentence = "You can link your ID with a Google account and then log in with one tap instead of a password."
    folder = one_page(tmp_path, "Linking", sentence)
    case = case_of("Can I link my ID with a Google account?", sentence, "says you can log in with one tap")
    server.set_default(JUDGE, writes(case))
    out = tmp_path / "clause.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "factual") == 0
    asked = [last_user(b) for b in server.chat_requests(JUDGE) if schema_name(b) == "answers"]
    assert any("You can link your ID with a Google account.\n" in a for a in asked)
    assert "a shorter right answer in other words fails it" in " ".join(capsys.readouterr().out.split())
    assert all("one tap" not in json.dumps(e) for e in expect_items(out))


def test_the_request_s_passage_markers_a_writer_copies_are_not_part_of_the_reference(
    server, config_path, tmp_path: Path
):
    passage = "Go to Settings > Security > Two-step verification and choose an authenticator app."
    folder = one_page(tmp_path, "Two-step verification", passage)
    case = {
        "question": "How do I turn on two-step verification?",
        "reference": f"PASSAGE BEGIN > {passage}",
        "quote": passage,
    }
    server.set_default(JUDGE, writes(case))
    out = tmp_path / "markers.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "factual") == 0
    (scenario,) = tomllib.loads(out.read_text(encoding="utf-8"))["scenario"]
    assert scenario["reference"] == passage


def test_an_expectation_the_rest_of_the_reference_answers_without_is_not_written(
    server, config_path, tmp_path: Path, capsys
):
    """ "How do I track my parcel?": the reference without its clause about the link's 6 hours
    still answers (the judge says so), so that clause is a detail never asked: neither its
    `contains` nor the judged sentence is written."""
    reference = (
        "To track your parcel, open My account > Orders, select the order, "
        "and the tracking link becomes active about 6 hours after the order ships."
    )
    folder = one_page(tmp_path, "Tracking", reference)
    case = case_of(
        "How do I track my parcel?", reference, "The tracking link becomes active about 6 hours after the order ships."
    )
    server.set_default(JUDGE, writes(case, answers=lambda asked: "My account > Orders" in asked))
    out = tmp_path / "parcel.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "factual") == 0
    assert all("6 hours" not in json.dumps(e) for e in expect_items(out))
    asked = [last_user(b) for b in server.chat_requests(JUDGE) if schema_name(b) == "answers"]
    assert any("To track your parcel, open My account > Orders, select the order.\n" in a for a in asked)
    printed = " ".join(capsys.readouterr().out.split())
    assert "2 dropped: a shorter right answer in other words fails it" in printed  # the contains and the sentence


def test_a_message_of_two_questions_is_asked_of_the_reference_one_by_one(server, config_path, tmp_path: Path, capsys):
    """The judge says yes to the pair, and no to the second question on its own (the reference
    never says how to reset a password): the item is dropped, counted as one of two answered."""
    folder = one_page(tmp_path, "Security", SECURITY)
    question = "I got an e-mail about a change I didn't make. What should I do? Who do I tell about it?"
    case = case_of(question, "If you did not change your e-mail address, contact support at once.")
    base = writes(case)

    def judge(body: dict) -> Reply:
        if schema_name(body) == "answers":
            asked = last_user(body).split("Answer:")[0]
            return Reply(
                json.dumps({"answers": "no" if "Who do I tell" in asked and "What should" not in asked else "yes"})
            )
        return base(body)

    server.set_default(JUDGE, judge)
    assert generate(config_path, folder, tmp_path / "x.toml", "--n", "1", "--kinds", "two_questions") == 1
    assert "dropped 1: the message asks two questions; the reference answers one" in " ".join(
        capsys.readouterr().out.split()
    )
    asked = [last_user(b).split("Answer:")[0] for b in server.chat_requests(JUDGE) if schema_name(b) == "answers"]
    assert any("I got an e-mail about a change I didn't make. What should I do?\n" in a for a in asked)
    assert any("I got an e-mail about a change I didn't make. Who do I tell about it?\n" in a for a in asked)


def test_a_message_of_two_questions_both_answered_is_kept(server, config_path, tmp_path: Path):
    folder = one_page(tmp_path, "Security", SECURITY)
    question = "I got an e-mail about a change I didn't make. What should I do? Who do I tell about it?"
    server.set_default(
        JUDGE, writes(case_of(question, "If you did not change your e-mail address, contact support at once."))
    )
    out = tmp_path / "kept.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "two_questions") == 0
    assert tomllib.loads(out.read_text(encoding="utf-8"))["scenario"][0]["question"] == question

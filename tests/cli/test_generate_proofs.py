"""`ragtui scenarios generate` proves every expectation before it writes it, against the fake
server: the reference must meet it, a wrong answer made in code must fail it, with the run's own
expectation judge; one that fails is rewritten once, then dropped and counted; each kept one carries
its check in the file, which loads and passes `scenarios --check`. A `contains` is a short phrase
(a longer fact is judged). A reference that does not answer its question, and a question that is
not a question of its kind, are dropped by reason."""

# ruff: noqa: F811 (the fixtures of test_scenarios_generate, imported by name)

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from ragtui.cli.main import main
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.generate.pipeline import REFERENCE_CUT_AT, REFERENCE_MAX
from stand_ins.fake_openai import Reply

from ..conftest import JUDGE
from .test_scenarios_generate import (  # noqa: F401
    CHECK,
    PASSAGE,
    ProvingJudge,
    config_path,
    generate,
    help_folder,
    last_user,
    schema_name,
    with_judge,
    writer,
)


def expect_items(path: Path) -> list[dict]:
    tables = tomllib.loads(path.read_text(encoding="utf-8"))["scenario"]
    return [e for t in tables for e in [*t.get("expect", []), *t.get("expect_not", [])]]


def one_page(tmp_path: Path, title: str, passage: str) -> Path:
    """A help folder of one page holding ``passage``."""
    folder = tmp_path / "help"
    folder.mkdir()
    (folder / "page.md").write_text(f"# {title}\n\n{passage}\n", encoding="utf-8")
    return folder


def writes(case: dict, **judging) -> object:
    """A writer that writes ``case`` (no expectation of its own) and says each reference follows
    from its quote; the judge's other checks as ``with_judge`` answers them (``judging``)."""
    return with_judge(
        lambda b: (
            Reply(json.dumps({"follows": "yes"}))
            if schema_name(b) == "entailment"
            else Reply(json.dumps({"expect": [], "expect_not": [], **case}))
        ),
        **judging,
    )


def rewritten_as(base, text: str) -> tuple[object, list[dict]]:
    """``base``, with every rewrite request answered ``text``; and the list of those requests."""
    rewrites: list[dict] = []

    def respond(body: dict) -> Reply:
        if schema_name(body) == "expectation":
            rewrites.append(body)
            return Reply(json.dumps({"expectation": text}))
        return base(body)

    return respond, rewrites


def test_every_kept_expectation_carries_its_check_and_the_file_loads_and_checks(
    server, help_folder, config_path, tmp_path, capsys
):
    server.set_default(JUDGE, writer())
    out = tmp_path / "proven.toml"
    assert generate(config_path, help_folder, out, "--n", "6") == 0
    printed = capsys.readouterr().out
    items = expect_items(out)
    assert items and all("checked" in e for e in items), [e for e in items if "checked" not in e]
    tables = tomllib.loads(out.read_text(encoding="utf-8"))["scenario"]
    judged = [e for t in tables for e in t.get("expect", []) if "text" in e]
    assert judged and all(e["checked"] == {"reference": 0.95, "wrong": 0.03} for e in judged)  # the fake judge's P
    # a prohibition: the reference does not do it, the answer that does it is caught (P of the act)
    prohibitions = [e for t in tables for e in t.get("expect_not", [])]
    assert prohibitions and all(e["checked"] == {"reference": 0.03, "wrong": 0.95} for e in prohibitions)
    assert all(e["checked"] == {"reference": 1.0, "wrong": 0.0} for e in items if "contains" in e)
    scenarios = load_scenarios(out, "en")
    assert all(e.checked is not None for s in scenarios for e in s.expectations)
    assert re.search(r"expectations: \d+ proven on the reference and a wrong answer", printed)
    config_path.write_text(
        config_path.read_text(encoding="utf-8").replace(
            "max_turns = 1\n", f'max_turns = 1\nknowledge = "{help_folder}"\n'
        ),
        encoding="utf-8",
    )
    assert main(["scenarios", "--check", str(out), "--config", str(config_path)]) == 0


def test_the_wrong_answers_are_the_reference_with_its_number_changed_and_another_item_s_reference(
    server, help_folder, config_path, tmp_path
):
    judge = ProvingJudge()
    server.set_default(JUDGE, writer(judge=judge))
    assert generate(config_path, help_folder, tmp_path / "w.toml", "--n", "3", "--kinds", "factual") == 0
    answers = {m.group(2) for b in server.chat_requests(JUDGE) if (m := CHECK.search(last_user(b)))}
    references = set(judge.references.values())
    refund = next(r for r in references if "5 business days" in r)
    assert refund.replace("5 business days", "6 business days") in answers  # its key fact changed
    assert len(answers & references) == 3  # each item's reference, for itself and as the other's wrong answer


def test_an_expectation_the_reference_fails_is_rewritten_once_then_dropped_and_counted(
    server, help_folder, config_path, tmp_path, capsys
):
    judge = ProvingJudge(right_fails=("gives the answer the help centre gives", "says it again"))
    respond, rewrites = rewritten_as(writer(judge=judge), "says it again")
    server.set_default(JUDGE, respond)
    out = tmp_path / "dropped.toml"
    assert generate(config_path, help_folder, out, "--n", "2", "--kinds", "factual") == 0
    printed = capsys.readouterr().out
    assert len(rewrites) == 2  # once for each item's expectation, never more
    assert "the correct answer itself fails this check" in last_user(rewrites[0]).lower()
    assert "2 dropped: the reference answer fails it, even rewritten" in printed
    assert not [e for e in expect_items(out) if "text" in e]  # none written


def test_a_rewritten_expectation_that_proves_itself_is_kept_with_its_check(server, help_folder, config_path, tmp_path):
    judge = ProvingJudge(wrong_meets=("gives the answer the help centre gives",))

    def respond(body: dict) -> Reply:
        if schema_name(body) == "expectation":
            assert "a wrong answer passes this check too" in last_user(body).lower()
            return Reply(json.dumps({"expectation": "gives the refund's timing"}))
        return base(body)

    base = writer(judge=judge)
    server.set_default(JUDGE, respond)
    out = tmp_path / "rewritten.toml"
    assert generate(config_path, help_folder, out, "--n", "1", "--kinds", "factual") == 0
    judged = [e for e in expect_items(out) if "text" in e]
    assert [e["text"] for e in judged] == ["gives the refund's timing"]
    assert judged[0]["checked"] == {"reference": 0.95, "wrong": 0.03}


def test_a_sentence_of_the_quote_is_judged_not_matched_word_for_word(server, config_path, tmp_path):
    folder = tmp_path / "help"
    folder.mkdir()
    label = "Enter your PIN, then press OK."
    sentence = f'The locker opens in 10 minutes, and its screen says "{label}"'  # one sentence
    (folder / "lockers.md").write_text(f"# Lockers\n\n{sentence}\n", encoding="utf-8")
    (folder / "pay.md").write_text("# Paying\n\nWe take Visa and JCB cards.\n", encoding="utf-8")

    def respond(body: dict) -> Reply:
        passage = PASSAGE.search(last_user(body)).group(1)  # type: ignore[union-attr]
        if "locker" in passage:
            case = {"question": "What does the locker say, and when?", "reference": sentence, "quote": sentence}
        else:
            case = {"question": "Which cards do you take?", "reference": passage, "quote": passage}
        return Reply(json.dumps({**case, "expect": [], "expect_not": []}))

    server.set_default(
        JUDGE,
        with_judge(
            lambda b: Reply(json.dumps({"follows": "yes"})) if schema_name(b) == "entailment" else respond(b),
            # the question asks both what and when: half of the answer does not answer it
            answers=lambda asked: ("10 minutes" in asked and "PIN" in asked) or "Visa" in asked,
        ),
    )
    out = tmp_path / "locker.toml"
    assert generate(config_path, folder, out, "--n", "2", "--kinds", "factual") == 0
    items = expect_items(out)
    assert {"10 minutes"} == {e["contains"] for e in items if "contains" in e}  # a number with its unit
    assert [e["text"] for e in items if "text" in e] == [f"gives this in its own words: {label}"]


def test_a_reference_that_does_not_answer_its_question_is_dropped(server, help_folder, config_path, tmp_path, capsys):
    base = writer()
    server.set_default(
        JUDGE, lambda body: Reply(json.dumps({"answers": "no"})) if schema_name(body) == "answers" else base(body)
    )
    assert generate(config_path, help_folder, tmp_path / "x.toml", "--n", "2", "--kinds", "factual") == 1
    assert "dropped 2: the reference does not answer the question asked" in capsys.readouterr().out


def test_a_heading_for_a_question_is_asked_again_once_then_dropped(server, help_folder, config_path, tmp_path, capsys):
    judge = ProvingJudge()
    base = writer(judge=judge)
    asked_again: list[str] = []

    def heading_first(body: dict) -> Reply:
        reply = base(body)
        if schema_name(body) != "scenario":
            return reply
        data = json.loads(reply.text)
        if "not a question" in last_user(body):
            asked_again.append(last_user(body))
            if "Linked services" not in json.dumps(body["messages"]):
                return reply  # told what was wrong, the writer asks a question
        data["question"] = "Refund times for yearly plans"  # a heading, as a small writer gives
        judge.wrote(data["question"], data["reference"])
        return Reply(json.dumps(data))

    server.set_default(JUDGE, heading_first)
    out = tmp_path / "headings.toml"
    assert generate(config_path, help_folder, out, "--n", "3", "--kinds", "factual") == 0
    printed = capsys.readouterr().out
    assert len(asked_again) == 3  # once an item, never more
    assert "dropped 1: the question is not a question (a heading or a statement), twice" in printed
    assert all(s.question.endswith("?") for s in load_scenarios(out, "en"))


def test_a_two_questions_item_with_one_question_is_asked_again_then_dropped(
    server, help_folder, config_path, tmp_path, capsys
):
    judge = ProvingJudge()
    base = writer(judge=judge)

    def one_question(body: dict) -> Reply:
        reply = base(body)
        if schema_name(body) != "scenario":
            return reply
        data = json.loads(reply.text)
        data["question"] = data["question"].split("? ")[0] + "?"
        judge.wrote(data["question"], data["reference"])
        return Reply(json.dumps(data))

    server.set_default(JUDGE, one_question)
    # the folder has one pair of sentences side by side: one two-questions item
    assert generate(config_path, help_folder, tmp_path / "two.toml", "--n", "1", "--kinds", "two_questions") == 1
    printed = capsys.readouterr().out
    assert "dropped 1: a two-questions item asked one question, twice" in printed
    again = [b for b in server.chat_requests(JUDGE) if "needs two questions" in last_user(b)]
    assert len(again) == 1


def test_a_prohibition_is_proven_on_the_reference_and_on_an_answer_that_breaks_it(
    server, help_folder, config_path, tmp_path, capsys
):
    judge = ProvingJudge(acts={"promises a refund in cash": "in cash"})
    base = writer(judge=judge, prohibition="promises a refund in cash", violation="We will also pay you back in cash.")
    server.set_default(JUDGE, base)
    out = tmp_path / "prohibition.toml"
    assert generate(config_path, help_folder, out, "--n", "1", "--kinds", "factual") == 0
    (kept,) = [e for e in expect_items(out) if e.get("text") == "promises a refund in cash"]
    assert kept["checked"] == {"reference": 0.03, "wrong": 0.95}
    asked = [b for b in server.chat_requests(JUDGE) if schema_name(b) == "violation"]
    assert len(asked) == 1 and "it promises a refund in cash." in last_user(asked[0])
    answers = {m.group(2) for b in server.chat_requests(JUDGE) if (m := CHECK.search(last_user(b)))}
    reference = next(iter(judge.references.values()))
    assert f"{reference} We will also pay you back in cash." in answers  # the reference, broken


def test_a_prohibition_an_answer_breaking_it_does_not_trip_is_rewritten_once_then_dropped(
    server, help_folder, config_path, tmp_path, capsys
):
    judge = ProvingJudge(acts={"promises a refund in cash": "in cash", "promises a refund by cheque": "cheque"})
    respond, rewrites = rewritten_as(
        writer(judge=judge, prohibition="promises a refund in cash", violation="We will refund you gladly."),
        "promises a refund by cheque",
    )
    server.set_default(JUDGE, respond)
    out = tmp_path / "uncaught.toml"
    assert generate(config_path, help_folder, out, "--n", "1", "--kinds", "factual") == 0
    printed = capsys.readouterr().out
    assert len(rewrites) == 1 and "a reply that does this is not caught" in last_user(rewrites[0]).lower()
    assert "1 dropped: an answer that does what it forbids is not caught, even rewritten" in printed
    assert not [e for e in expect_items(out) if "promises" in e.get("text", "")]


def test_an_expectation_a_shorter_right_answer_fails_is_rewritten_once_then_dropped(
    server, help_folder, config_path, tmp_path, capsys
):
    """The shortest right answer, in other words, must meet every expectation too: here it is
    not the reference, so this fake judge reads the judged one as unmet there, and it lacks the
    refund's number, so that `contains` goes as well."""
    judge = ProvingJudge()
    respond, rewrites = rewritten_as(
        writer(judge=judge, shorten=lambda reference: "Your money comes back to the card you paid with."),
        "says it again",
    )
    server.set_default(JUDGE, respond)
    out = tmp_path / "short.toml"
    assert generate(config_path, help_folder, out, "--n", "1", "--kinds", "factual") == 0
    printed = capsys.readouterr().out
    asked = [b for b in server.chat_requests(JUDGE) if schema_name(b) == "short_answer"]
    assert len(asked) == 1 and "Write the shortest reply" in last_user(asked[0])
    assert len(rewrites) == 1 and "a shorter correct reply in other words fails" in last_user(rewrites[0]).lower()
    assert "a shorter right answer in other words fails it, even rewritten" in printed
    assert expect_items(out) == []  # the judged one and the number: neither holds on the short answer


def test_a_number_the_shorter_right_answer_keeps_stays_a_contains(server, config_path, tmp_path):
    passage = "You can pause for up to 3 months, from My account > Pause."
    folder = one_page(tmp_path, "Pausing", passage)
    case = {"question": "How long can I pause for?", "reference": passage, "quote": passage}
    server.set_default(
        JUDGE,
        writes(
            case,
            shorten=lambda reference: "Up to 3 months.",  # the writer's shortest reply
            answers=lambda asked: "3 months" in asked,  # "Open My account…" alone does not answer
        ),
    )
    out = tmp_path / "kept.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "factual") == 0
    assert [e.get("contains") for e in expect_items(out)] == ["3 months"]


def test_a_short_answer_that_copies_the_reference_is_set_aside_for_its_first_sentence_that_answers(
    server, config_path, tmp_path, capsys
):
    """A small writer gives back the reference as its "shortest reply": that proves nothing, so
    the reference's first sentence the judge says answers the question alone is the other right
    answer — and the link's 24 hours, which the question never asked, is not written."""
    passage = "To verify your address, tap the link in the email we send; the link is valid for 24 hours."
    reference = "To verify your address, tap the link in the email we send. The link is valid for 24 hours."
    folder = one_page(tmp_path, "Verifying", passage)
    server.set_default(
        JUDGE, writes({"question": "How do I verify my address?", "reference": reference, "quote": passage})
    )
    out = tmp_path / "verify.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "factual") == 0
    printed = " ".join(capsys.readouterr().out.split())
    asked = [last_user(b) for b in server.chat_requests(JUDGE) if schema_name(b) == "answers"]
    assert any("tap the link in the email we send." in a and "24 hours" not in a for a in asked)
    assert expect_items(out) == []
    assert "1 dropped: a shorter right answer in other words fails it, even rewritten" in printed


def test_a_contains_the_question_already_says_or_a_bare_yes_is_not_written(server, config_path, tmp_path):
    folder = one_page(
        tmp_path, "Shipping", "Shipping is free on orders of ¥5,000 or more. Orders arrive in 2 to 4 days."
    )
    case = {
        "question": "Is shipping free on an order of ¥5,000?",
        "reference": "Yes. Shipping is free on orders of ¥5,000 or more.",
        "quote": "Shipping is free on orders of ¥5,000 or more.",
        "expect": ["Yes"],
    }
    server.set_default(JUDGE, writes(case))
    out = tmp_path / "echo.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "factual") == 0
    assert not [e for e in expect_items(out) if "contains" in e]  # neither "¥5,000" nor "Yes"


def test_the_one_number_a_how_many_question_is_answered_with_is_a_contains_even_without_a_unit(
    server, config_path, tmp_path
):
    """ "10" under "How many failed attempts …?": no unit the facts know, yet a right answer must
    say it and the reference with it changed to 11 does not."""
    passage = "Your account is locked after 10 failed login attempts in a row."
    folder = one_page(tmp_path, "Locked accounts", passage)
    case = {
        "question": "How many failed login attempts lock my account?",
        "reference": "It is locked after 10 failed attempts in a row.",
        "quote": passage,
    }
    server.set_default(JUDGE, writes(case, shorten=lambda reference: "10 attempts."))
    out = tmp_path / "locked.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "factual") == 0
    assert [e.get("contains") for e in expect_items(out)] == ["10"]


def test_a_way_offered_among_others_is_no_contains(server, config_path, tmp_path):
    """ "…, also available in the app under Menu > Help > Contact us": a right answer that gives
    the form's address alone would fail a `contains` of the menu path."""
    passage = "Support form: https://support.example/contact, also available in the app under Menu > Help > Contact us."
    folder = one_page(tmp_path, "Contacting support", passage)
    case = {"question": "How can I contact support?", "reference": passage, "quote": passage}
    server.set_default(JUDGE, writes(case))
    out = tmp_path / "contact.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "procedural") == 0
    assert not [e for e in expect_items(out) if "contains" in e]


def test_a_reference_cut_at_its_length_limit_is_its_part_whole(server, config_path, tmp_path):
    """A long checklist's reference reaches the schema's limit mid-sentence ("…ad blockers, which
    can"): the draft keeps the part it was written for, whole, not the cut-off words."""
    steps = [f"{n}. Open page number {n} in Settings and tap the Reload button to try it again." for n in range(1, 9)]
    passage = "If pages load slowly, try these steps:\n" + "\n".join(steps)
    folder = one_page(tmp_path, "Slow pages", passage)
    cut = ("If pages load slowly, try these steps: " + " ".join(s[3:] for s in steps))[: REFERENCE_MAX - 3].rstrip(" .")
    assert len(cut) >= REFERENCE_CUT_AT
    case = {"question": "What should I do if pages load slowly?", "reference": cut, "quote": passage}
    server.set_default(JUDGE, writes(case))
    out = tmp_path / "slow.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "conditional") == 0
    (table,) = tomllib.loads(out.read_text(encoding="utf-8"))["scenario"]
    assert table["reference"].startswith("If pages load slowly, try these steps: Open page number 1 in")
    assert table["reference"].endswith("Open page number 8 in Settings and tap the Reload button to try it again.")


def test_an_expectation_bounding_the_amount_the_other_way_is_failed_in_code_rewritten_once_then_dropped(
    server, config_path, tmp_path, capsys
):
    """This fake judge, like the small one, meets "more than 3 months" on a reference that says
    "up to 3 months": the generator reads the two bounds itself and never asks it."""
    passage = "You can pause for up to 3 months, from My account > Pause."
    folder = one_page(tmp_path, "Pausing", passage)
    case = {
        "question": "How do I pause my subscription?",
        "reference": passage,
        "quote": passage,
        "expect": ["You can pause for more than 3 months.", "You can pause for up to 3 months."],
    }
    respond, rewrites = rewritten_as(writes(case), "Pausing for 3 months or longer is possible.")
    server.set_default(JUDGE, respond)
    out = tmp_path / "bounds.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "factual") == 0
    printed = capsys.readouterr().out
    assert len(rewrites) == 1 and "the correct answer itself fails this check" in last_user(rewrites[0]).lower()
    assert "1 dropped: the reference answer fails it, even rewritten" in printed
    assert [e["text"] for e in expect_items(out) if "text" in e] == ["You can pause for up to 3 months."]
    judged = {m.group(3) for b in server.chat_requests(JUDGE) if (m := CHECK.search(last_user(b)))}
    assert judged and not [s for s in judged if "more than" in s or "or longer" in s]  # never asked


def test_an_expectation_that_is_the_customer_s_message_again_is_dropped_before_the_judge(
    server, config_path, tmp_path, capsys
):
    """The judge meets "The customer asked: …" on the reference (the question is in the turn it
    reads): it says nothing of the answer, and is neither judged nor rewritten."""
    passage = "You can change your username once every 30 days."
    folder = one_page(tmp_path, "Usernames", passage)
    question = "Can I change my username every 30 days? A pet named Max is always in the room."
    case = {
        "question": question,
        "reference": passage,
        "quote": passage,
        "expect": [f"The customer asked: {question}", f"{question} "],
    }
    respond, rewrites = rewritten_as(writes(case), "says it again")
    server.set_default(JUDGE, respond)
    out = tmp_path / "asked.toml"
    assert generate(config_path, folder, out, "--n", "1", "--kinds", "factual") == 0
    printed = capsys.readouterr().out
    assert "2 dropped: it is the customer's message again, not what the answer must say" in printed
    assert rewrites == [] and [e for e in expect_items(out) if "text" in e] == []
    judged = {m.group(3) for b in server.chat_requests(JUDGE) if (m := CHECK.search(last_user(b)))}
    assert not [s for s in judged if "username" in s]

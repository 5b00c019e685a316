"""The expectation judge: one yes/no question per expectation and answer, P(yes) read from the
judge's probabilities, the sampled answer (marked) when the endpoint gives none, an unreadable
reply unscored — never a number — and a prohibition asked about the forbidden act itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.core.metrics.dialogue.expectation_judge import (
    MET_AT,
    AnswerToCheck,
    ExpectationJudge,
    forbidden_act,
)
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.llm import ClientPool
from ragtui.core.types.errors import ConfigError
from ragtui.core.types.expectations import Expectation
from ragtui.core.types.passages import Passage
from stand_ins.fake_openai import Reply, level_reply

from ..conftest import JUDGE, yes_no_reply

ANSWER = AnswerToCheck(
    turn=2,
    question="Do I get money back if I cancel mid-month?",
    answer="Cancelling stops the next renewal; the days already paid for are not refunded.",
    passages=[Passage("billing.md", "Billing", "Unused days of a plan are not refunded.")],
)
MUST = Expectation("no-refund", "says unused time is not refunded")
MUST_NOT = Expectation("refund-promise", "promises a refund", polarity="must_not")


@pytest.fixture
async def judge(config):
    """judge(language="en", prompts_dir=None) → an ExpectationJudge on the fake judge model."""
    pool = ClientPool()
    client = pool.client_for(resolve_endpoints(config)["judge"])

    def make(language: str = "en", prompts_dir: Path | None = None) -> ExpectationJudge:
        return ExpectationJudge(client, prompts_dir, language)

    yield make
    await pool.aclose()


async def test_p_yes_is_read_from_the_probabilities_of_one_token(judge, server):
    server.script(JUDGE, yes_no_reply(0.8))
    check = await judge().check(MUST, ANSWER)
    assert check.p_yes == pytest.approx(0.8) and check.read == "probability" and check.error is None
    assert check.turn == 2 and check.p_yes >= MET_AT
    [request] = server.chat_requests(JUDGE)
    assert request["max_tokens"] == 1 and request["temperature"] == 0 and request["logprobs"] is True
    asked = request["messages"][-1]["content"]
    # Only what the question needs: the customer's message, the answer, the expectation.
    assert ANSWER.question in asked and ANSWER.answer in asked and MUST.text in asked
    assert "Unused days of a plan" not in asked  # no passages unless the lever is on
    assert check.prompt == request["messages"] and check.reply == "yes"


async def test_japanese_labels_count_as_yes_and_no(judge, server):
    from stand_ins.fake_openai import level_reply

    server.script(JUDGE, level_reply({"は": 0.3, "いい": 0.7}))
    check = await judge("ja").check(Expectation("x", "未使用期間は返金されないと伝える"), ANSWER)
    assert check.p_yes == pytest.approx(0.3) and check.read == "probability"


async def test_without_probabilities_the_sampled_answer_is_used_and_marked(judge, server):
    server.script(JUDGE, Reply("No."))
    check = await judge().check(MUST, ANSWER)
    assert check.p_yes == 0.0 and check.read == "sampled" and check.error is None


async def test_an_endpoint_rejecting_logprobs_gives_a_sampled_check(judge, server):
    def picky(body: dict) -> Reply:
        if "logprobs" in body:
            return Reply(status=400, error_message="'logprobs' is not supported by this model")
        return Reply("yes")

    server.set_default(JUDGE, picky)
    check = await judge().check(MUST, ANSWER)
    assert check.p_yes == 1.0 and check.read == "sampled"


async def test_a_garbage_reply_is_asked_again_then_unscored_never_a_number(judge, server):
    server.script(JUDGE, Reply("Well, partly"), Reply("It depends"))
    check = await judge().check(MUST, ANSWER)
    assert check.p_yes is None and check.read == "none"
    assert check.error and "names no allowed level" in check.error
    assert check.reply == "It depends"
    assert len(server.chat_requests(JUDGE)) == 2  # the one retry, then unscored


async def test_a_server_error_leaves_the_check_unscored(judge, server):
    server.script(JUDGE, Reply(status=500, error_message="boom"))
    check = await judge().check(MUST, ANSWER)
    assert check.p_yes is None and check.read == "none" and check.error


async def test_a_prohibition_is_asked_about_the_act_itself(judge, server):
    server.script(JUDGE, yes_no_reply(0.9), yes_no_reply(0.1))
    broken = await judge().check(MUST_NOT, ANSWER)
    policy = Expectation("pw", "never asks for a password", polarity="must_not", origin="policy")
    kept = await judge().check(policy, ANSWER)
    # P(yes) is P(the act was done): high means the prohibition is broken.
    assert broken.p_yes == pytest.approx(0.9) and kept.p_yes == pytest.approx(0.1)
    first, second = (r["messages"][-1]["content"] for r in server.chat_requests(JUDGE))
    assert "The ANSWER promises a refund." in first
    assert "The ANSWER asks for a password." in second and "never" not in second.lower()


def test_the_forbidden_act_drops_the_negation():
    assert forbidden_act("Never asks for the full card number", "en") == "asks for the full card number"
    assert forbidden_act("must not name a competitor", "en") == "names a competitor"  # the statement's verb form
    assert forbidden_act("does not promise a refund for the pass", "en") == "promises a refund for the pass"
    assert forbidden_act("doesn't ask for the Wi-Fi password", "en") == "asks for the Wi-Fi password"
    assert forbidden_act("does not recommend a competitor", "en") == "recommends a competitor"
    assert forbidden_act("他社の水筒の購入を勧めないこと", "ja") == "他社の水筒の購入を勧める"
    assert forbidden_act("外に置いて帰ってよいと言わない", "ja") == "外に置いて帰ってよいと言う"
    assert forbidden_act("promises a refund", "en") == "promises a refund"
    assert forbidden_act("決してパスワードを尋ねない", "ja") == "パスワードを尋ねる"
    assert forbidden_act("返金を約束する", "ja") == "返金を約束する"
    assert forbidden_act("他社の名前を出さないこと", "ja") == "他社の名前を出す"
    assert forbidden_act("パスワードを聞かない", "ja") == "パスワードを聞く"
    assert forbidden_act("返金を約束しない", "ja") == "返金を約束する"


async def test_the_shared_prefix_comes_first_and_is_the_same_for_every_check(judge, server):
    server.script(JUDGE, yes_no_reply(0.7), yes_no_reply(0.2))
    dialogue = "[1] Customer: Hi\n[1] Support: Hello"
    j = judge()
    await j.check(MUST, ANSWER, shared_prefix=dialogue)
    await j.check(MUST_NOT, ANSWER, shared_prefix=dialogue)
    a, b = (r["messages"] for r in server.chat_requests(JUDGE))
    assert a[0] == b[0]  # the fixed system text
    assert a[1]["content"].startswith("### THE CHAT SO FAR ###\n" + dialogue)
    prefix = a[1]["content"].split("### CUSTOMER ###")[0]
    assert b[1]["content"].startswith(prefix)


async def test_passages_are_shown_when_the_lever_is_on(judge, server):
    server.script(JUDGE, yes_no_reply(0.7))
    j = judge()
    j.use_passages = True
    await j.check(MUST, ANSWER)
    assert "Unused days of a plan" in server.chat_requests(JUDGE)[0]["messages"][-1]["content"]


def write_template(tmp_path: Path, must: str, extra: str = "") -> None:
    """An English expectations template in ``tmp_path/prompts`` with ``must`` as its must wording."""
    folder = tmp_path / "prompts" / "en"
    folder.mkdir(parents=True)
    (folder / "metric_expectations.toml").write_text(
        'system = "x"\ndialogue = "{{dialogue}}"\npassages = "{{context}}"\n'
        f'must = "{must}"\nmust_not = "{{{{question}}}} {{{{answer}}}} {{{{act}}}}"\n{extra}retry = "yes or no"\n',
        encoding="utf-8",
    )


def test_a_bad_template_is_a_config_error_naming_file_and_key(tmp_path: Path):
    write_template(tmp_path, "{{question}} {{answer}} {{expectaton}}")
    with pytest.raises(ConfigError) as caught:
        ExpectationJudge(None, tmp_path / "prompts", "en")  # type: ignore[arg-type]
    assert "metric_expectations.toml" in str(caught.value) and "'must'" in str(caught.value)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_bundled_templates_load_in_both_languages(language: str):
    j = ExpectationJudge(None, None, language)  # type: ignore[arg-type]
    messages = j.messages(MUST_NOT, ANSWER)
    assert "{{" not in messages[-1]["content"] and messages[0]["role"] == "system"


async def test_a_wrong_number_is_decided_in_code_without_a_call(judge, server):
    answer = AnswerToCheck(1, "How long?", "Your parcel stays in the locker for 48 hours.", [])
    check = await judge().check(Expectation("x", "says the parcel stays for 72 hours"), answer)
    assert check.p_yes == 0.0 and check.read == "code" and server.chat_requests(JUDGE) == []


async def test_the_expectation_said_word_for_word_is_met_in_code(judge, server):
    answer = AnswerToCheck(1, "Refund?", "Yes: an order can be cancelled for a full refund within 2 hours.", [])
    expectation = Expectation("x", "says an order can be cancelled for a full refund within 2 hours")
    check = await judge().check(expectation, answer)
    assert check.p_yes == 1.0 and check.read == "code" and server.chat_requests(JUDGE) == []


async def test_a_prohibition_is_never_decided_in_code(judge, server):
    server.script(JUDGE, yes_no_reply(0.2))
    answer = AnswerToCheck(1, "Refund?", "I promise a refund within 2 hours.", [])
    check = await judge().check(Expectation("x", "promises a refund within 3 hours", polarity="must_not"), answer)
    assert check.read == "probability" and len(server.chat_requests(JUDGE)) == 1


async def test_a_two_part_expectation_is_asked_part_by_part_and_needs_both(judge, server):
    server.script(JUDGE, yes_no_reply(0.9), yes_no_reply(0.3))
    expectation = Expectation("x", "gives the address billing@tallyo.example and says to include the invoice number")
    check = await judge().check(expectation, ANSWER)
    assert check.p_yes == pytest.approx(0.3) and check.read == "probability"
    first, second = (r["messages"][-1]["content"] for r in server.chat_requests(JUDGE))
    assert "The ANSWER gives the address billing@tallyo.example." in first
    assert "The ANSWER says to include the invoice number." in second


async def test_an_unreadable_part_leaves_the_whole_check_unscored(judge, server):
    server.script(JUDGE, yes_no_reply(0.9), Reply("hmm"), Reply("hmm"))
    expectation = Expectation("x", "says the fee is waived and that the plan renews")
    check = await judge().check(expectation, ANSWER)
    assert check.p_yes is None and check.read == "none" and check.error


def test_parts_of_an_expectation():
    from ragtui.core.metrics.dialogue.expectation_parts import split_parts

    assert split_parts("says X lasts 72 hours and that the code opens the door", "en") == [
        "says X lasts 72 hours",
        "says that the code opens the door",
    ]
    assert split_parts("gives the address and the phone number", "en") == ["gives the address and the phone number"]
    assert split_parts("約2年ごとに交換すると伝え、水洗いできないことも伝える", "ja") == [
        "約2年ごとに交換すると伝える",
        "水洗いできないことも伝える",
    ]


def test_overlap_reads_clock_times_and_dates_as_no_quantity():
    from ragtui.core.metrics.dialogue.expectation_overlap import decide

    must = Expectation("x", "アプリで報告すると返却期限が15分延長されると伝える")
    assert decide(must, "14時50分でしたら15時05分までに返せば大丈夫です。", "ja") is None
    assert decide(must, "返却期限が30分延長されます。", "ja") == 0.0
    years = Expectation("y", "約2年ごとに交換すると伝える")
    assert decide(years, "2024年の春からでしたら2026年の春ごろです。", "ja") is None
    mail = Expectation("m", "gives the address billing@tallyo.example")
    assert decide(mail, "Write to billing@tallyo.com.", "en") == 0.0


def test_the_embedded_judges_cut_reads_as_met_and_keeps_the_order():
    from ragtui.core.metrics.dialogue.expectation_judge import EMBEDDED_RAW_MET_AT, shifted

    cut = EMBEDDED_RAW_MET_AT["ja"]
    assert shifted(cut, cut) == pytest.approx(MET_AT)
    assert shifted(cut - 0.02, cut) < MET_AT < shifted(cut + 0.02, cut)
    assert shifted(0.05, cut) < shifted(0.3, cut) < shifted(0.9, cut)


async def test_a_judge_other_than_the_embedded_one_keeps_its_raw_p(judge, server):
    server.script(JUDGE, yes_no_reply(0.3))
    j = judge("ja")
    assert j.raw_met_at == MET_AT and not j.split_parts  # split helps in English only
    check = await j.check(Expectation("x", "未使用期間は返金されないと伝える"), ANSWER)
    assert check.p_yes == pytest.approx(0.3)


def _with_parts(j: ExpectationJudge, **parts: str) -> ExpectationJudge:
    from dataclasses import replace

    j.template = replace(j.template, parts={**j.template.parts, **parts})
    return j


AGAIN = "{{question}} / {{answer}} / Does the ANSWER do this in any words: {{act}}?"


async def test_a_second_phrasing_is_asked_as_well_and_either_yes_breaks(judge, server):
    server.script(JUDGE, yes_no_reply(0.2), yes_no_reply(0.7))
    j = _with_parts(judge(), must_not_again=AGAIN)
    j.second_phrasing = True
    check = await j.check(MUST_NOT, ANSWER)
    assert check.p_yes == pytest.approx(0.7) and check.read == "probability"  # the larger of the two
    assert check.usage is not None and check.usage.attempts == 2 and check.reply == "no | yes"
    first, second = (r["messages"][-1]["content"] for r in server.chat_requests(JUDGE))
    assert "The ANSWER promises a refund." in first
    assert "Does the ANSWER do this in any words: promises a refund?" in second


async def test_a_must_expectation_is_asked_in_its_second_phrasing_too(judge, server):
    server.script(JUDGE, yes_no_reply(0.6), yes_no_reply(0.1))
    j = _with_parts(judge("ja"), must_again="{{question}} {{answer}} 伝えていますか: {{expectation}}")
    j.second_phrasing = True
    check = await j.check(Expectation("x", "未使用期間は返金されないと伝える"), ANSWER)
    assert check.p_yes == pytest.approx(0.6)
    assert (
        "伝えていますか: 未使用期間は返金されないと伝える" in server.chat_requests(JUDGE)[1]["messages"][-1]["content"]
    )


async def test_an_unreadable_second_phrasing_leaves_the_check_unscored(judge, server):
    server.script(JUDGE, yes_no_reply(0.9), Reply("hmm"), Reply("hmm"))
    j = _with_parts(judge(), must_not_again=AGAIN)
    j.second_phrasing = True
    check = await j.check(MUST_NOT, ANSWER)
    assert check.p_yes is None and check.read == "none" and check.error


async def test_the_wide_wording_asks_a_prohibition_with_its_own_part(judge, server):
    server.script(JUDGE, yes_no_reply(0.4), yes_no_reply(0.8))
    j = _with_parts(judge(), must_not_wide="{{question}} {{answer}} Naming a case counts: {{act}}")
    j.wide_act = True
    await j.check(MUST_NOT, ANSWER)
    await j.check(MUST, ANSWER)  # a must expectation is asked as before
    first, second = (r["messages"][-1]["content"] for r in server.chat_requests(JUDGE))
    assert "Naming a case counts: promises a refund" in first and "The ANSWER says unused time" in second


@pytest.mark.parametrize(
    ("lever", "part"), [("second_phrasing", "must_not_again"), ("act_contrast", "must_not_contrast")]
)
async def test_a_lever_whose_part_the_template_lacks_is_a_config_error(judge, server, lever: str, part: str):
    j = judge()
    setattr(j, lever, True)
    with pytest.raises(ConfigError) as caught:
        await j.check(MUST_NOT, ANSWER)
    assert part in str(caught.value) and server.chat_requests(JUDGE) == []


def test_a_template_may_carry_the_levers_wordings(tmp_path: Path):
    write_template(
        tmp_path,
        "{{question}} {{answer}} {{expectation}}",
        'must_not_again = "{{question}} {{answer}} again {{act}}"\n',
    )
    j = ExpectationJudge(None, tmp_path / "prompts", "en")  # type: ignore[arg-type]
    j.second_phrasing = True
    assert j.messages(MUST_NOT, ANSWER, key="must_not_again")[-1]["content"].endswith("again promises a refund")


async def test_a_prohibition_has_its_own_cut(judge, server):
    from ragtui.core.metrics.dialogue.expectation_judge import shifted

    server.script(JUDGE, yes_no_reply(0.2), yes_no_reply(0.2))
    j = judge()
    assert j.raw_broken_at == MET_AT  # a judge other than the embedded one: its raw P
    j.raw_met_at, j.raw_broken_at = 0.3, 0.1
    must = await j.check(MUST, ANSWER)
    must_not = await j.check(MUST_NOT, ANSWER)
    assert must.p_yes == pytest.approx(shifted(0.2, 0.3)) and must.p_yes < MET_AT
    assert must_not.p_yes == pytest.approx(shifted(0.2, 0.1)) and must_not.p_yes > MET_AT


async def test_a_prohibition_alone_is_shown_the_passages_with_its_lever(judge, server):
    server.script(JUDGE, yes_no_reply(0.3), yes_no_reply(0.6))
    j = judge()
    j.act_passages = True
    await j.check(MUST_NOT, ANSWER)
    await j.check(MUST, ANSWER)
    prohibition, must = (r["messages"][-1]["content"] for r in server.chat_requests(JUDGE))
    assert "Unused days of a plan" in prohibition and "The ANSWER promises a refund." in prohibition
    assert "Unused days of a plan" not in must  # a must expectation only with use_passages


CONTRAST = "{{question}} / {{answer}} / A) it does this: {{act}} B) it does not. A or B?"


async def test_the_contrast_asks_a_choice_and_reads_p_of_a(judge, server):
    server.script(JUDGE, level_reply({"A": 0.3, "B": 0.7}), yes_no_reply(0.6))
    j = _with_parts(judge(), must_not_contrast=CONTRAST)
    j.act_contrast = True
    check = await j.check(MUST_NOT, ANSWER)
    assert check.p_yes == pytest.approx(0.3) and check.read == "probability"
    must = await j.check(MUST, ANSWER)  # a must expectation is asked as before
    assert must.p_yes == pytest.approx(0.6)
    first, second = (r["messages"][-1]["content"] for r in server.chat_requests(JUDGE))
    assert "A) it does this: promises a refund B) it does not." in first and "The ANSWER says unused" in second


async def test_a_contrast_reply_naming_neither_choice_is_unscored(judge, server):
    server.script(JUDGE, Reply("maybe"), Reply("maybe"))
    j = _with_parts(judge(), must_not_contrast=CONTRAST)
    j.act_contrast = True
    check = await j.check(MUST_NOT, ANSWER)
    assert check.p_yes is None and check.read == "none" and check.error


TWO_SENTENCES = AnswerToCheck(1, "Refund?", "Cancelling stops the renewal. I'll refund the rest of the month.", [])


async def test_by_sentence_each_sentence_is_asked_alone_and_any_yes_breaks(judge, server):
    server.script(JUDGE, yes_no_reply(0.1), yes_no_reply(0.8))
    j = judge()
    j.act_by_sentence = True
    check = await j.check(MUST_NOT, TWO_SENTENCES)
    assert check.p_yes == pytest.approx(0.8) and check.usage is not None and check.usage.attempts == 2
    first, second = (r["messages"][-1]["content"] for r in server.chat_requests(JUDGE))
    assert "Cancelling stops the renewal." in first and "refund the rest" not in first
    assert "I'll refund the rest of the month." in second and "Cancelling" not in second


async def test_by_sentence_leaves_one_sentence_answers_and_must_expectations_alone(judge, server):
    server.script(JUDGE, yes_no_reply(0.2), yes_no_reply(0.7))
    j = judge()
    j.act_by_sentence = True
    single = await j.check(MUST_NOT, ANSWER)
    must = await j.check(Expectation("x", "says the renewal stops"), TWO_SENTENCES)
    assert single.p_yes == pytest.approx(0.2) and must.p_yes == pytest.approx(0.7)
    assert len(server.chat_requests(JUDGE)) == 2
    assert TWO_SENTENCES.answer in server.chat_requests(JUDGE)[1]["messages"][-1]["content"]


async def test_calibrated_reads_the_act_against_a_content_free_answer_asked_once(judge, server):
    from ragtui.core.metrics.dialogue.expectation_judge import NULL_ANSWER

    # The answer (0.2), then the null answer (0.1) once; the second answer to the same question
    # (0.05) reuses the null answer's P.
    server.script(JUDGE, yes_no_reply(0.2), yes_no_reply(0.1), yes_no_reply(0.05))
    j = judge()
    j.act_calibrated = True
    first = await j.check(MUST_NOT, ANSWER)
    second = await j.check(MUST_NOT, AnswerToCheck(2, ANSWER.question, "Refunds take 5 days.", []))
    # σ(logit 0.2 − logit 0.1) = 0.2/0.8 ÷ (0.2/0.8 + 0.1/0.9)
    assert first.p_yes == pytest.approx((0.25 / (1 / 9)) / (1 + 0.25 / (1 / 9)))
    assert second.p_yes is not None and second.p_yes < MET_AT  # below the null answer
    asked = [r["messages"][-1]["content"] for r in server.chat_requests(JUDGE)]
    assert len(asked) == 3 and f"### ANSWER ###\n{NULL_ANSWER}" in asked[1]


async def test_calibrated_leaves_must_expectations_alone(judge, server):
    server.script(JUDGE, yes_no_reply(0.7))
    j = judge()
    j.act_calibrated = True
    check = await j.check(MUST, ANSWER)
    assert check.p_yes == pytest.approx(0.7) and len(server.chat_requests(JUDGE)) == 1


async def test_calibrated_is_unscored_when_the_null_answer_is(judge, server):
    server.script(JUDGE, yes_no_reply(0.3), Reply("hmm"), Reply("hmm"))
    j = judge()
    j.act_calibrated = True
    check = await j.check(MUST_NOT, ANSWER)
    assert check.p_yes is None and check.read == "none" and "content-free" in (check.error or "")


def test_the_embedded_judge_reads_english_prohibitions_against_a_null_answer():
    from types import SimpleNamespace

    from ragtui.core.metrics.dialogue.expectation_judge import EMBEDDED_RAW_BROKEN_AT

    embedded = SimpleNamespace(endpoint=SimpleNamespace(embedded=True))
    other = SimpleNamespace(endpoint=SimpleNamespace(embedded=False))
    en, ja = (ExpectationJudge(embedded, None, lang) for lang in ("en", "ja"))  # type: ignore[arg-type]
    assert en.act_calibrated and en.raw_broken_at == EMBEDDED_RAW_BROKEN_AT["en"] and en.scoring
    assert not ja.act_calibrated and ja.raw_broken_at == ja.raw_met_at and ja.scoring == ""
    plain = ExpectationJudge(other, None, "en")  # type: ignore[arg-type]
    assert not plain.act_calibrated and plain.raw_broken_at == MET_AT and plain.scoring == ""


def test_the_calibrated_scoring_changes_the_fingerprint_and_only_it():
    from types import SimpleNamespace

    from ragtui.core.judge_quality.fit import prompt_fingerprint
    from ragtui.core.metrics.dialogue.expectations import Expectations

    def fingerprint(embedded: bool, language: str) -> str:
        client = SimpleNamespace(endpoint=SimpleNamespace(embedded=embedded))
        return prompt_fingerprint(Expectations(ExpectationJudge(client, None, language)))  # type: ignore[arg-type]

    assert fingerprint(True, "en") != fingerprint(False, "en")
    assert fingerprint(True, "ja") == fingerprint(False, "ja")

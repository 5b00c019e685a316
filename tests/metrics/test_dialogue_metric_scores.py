"""The dialogue metrics' parsing and scoring, each step answered by the fake judge over HTTP:
resolution (intents → one yes/no each → outcome), retention (facts → one verdict each) and
repetition (similarity in code, the judge only for undecided pairs)."""

from __future__ import annotations

import pytest

from ragtui.core.metrics.dialogue import (
    DialogueContext,
    DialogueTurn,
    build_dialogue_metrics,
    context_from_messages,
)
from ragtui.core.metrics.dialogue.resolution import outcome_for
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.llm import ClientPool
from ragtui.core.text.text_similarity import covered_share, dice
from ragtui.core.types.passages import Passage

from ..conftest import JUDGE
from ..dialogue_judge import by_schema

LINK = "Open Settings > Account > Linked services and tap Link next to the service."
PHONE = "You can call the Tsumugi desk at 0120-000-000 on weekdays from 9 to 18."


def dialogue(*pairs: tuple[str, str | None], language: str = "en") -> DialogueContext:
    turns = [
        DialogueTurn(i, customer, bot, [Passage("kb.md", "", PHONE)]) for i, (customer, bot) in enumerate(pairs, 1)
    ]
    return DialogueContext(turns, language)


@pytest.fixture
async def dmetric(config):
    pool = ClientPool()
    client = pool.client_for(resolve_endpoints(config)["judge"])

    def make(name: str, language: str = "en"):
        return build_dialogue_metrics([name], client, config.prompts, language)[0]

    yield make
    await pool.aclose()


def check(answer: str, reason: str = "r") -> dict:
    return {"reason": reason, "satisfied": answer}


# -- resolution -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("satisfied", "handed_over", "expected"),
    [
        ([True, True], False, "resolved"),
        ([True, False], False, "partly_resolved"),
        ([False, False], False, "unresolved"),
        ([False], True, "handed_over"),
        ([True, False], True, "handed_over"),
        ([True], True, "resolved"),
    ],
)
def test_outcome_rules(satisfied, handed_over, expected):
    assert outcome_for(satisfied, handed_over) == expected


async def test_resolution_scores_the_share_of_satisfied_intents(dmetric, server):
    server.set_default(
        JUDGE,
        by_schema(
            intents={"intents": ["link my Google account", "know whether linking is free"]},
            intent_check=[check("yes", "steps given"), check("no", "cost never mentioned")],
            handover_check={"reason": "no contact given", "handed_over": "no"},
        ),
    )
    j = await dmetric("resolution").judge(dialogue(("How do I link Google? Is it free?", LINK)))
    assert j.score == pytest.approx(0.5)
    assert j.details["outcome"] == "partly_resolved"
    assert [i["satisfied"] for i in j.details["intents"]] == [True, False]
    assert [i["p"] for i in j.details["intents"]] == [1.0, 0.0]  # P(yes) of each one-token check
    assert [step["step"] for step in j.details["trace"]] == ["intents", "check", "check", "handover"]
    # The intents step sees only the customer's messages, never the bot's.
    intents_prompt = server.chat_requests(JUDGE)[0]["messages"][-1]["content"]
    assert "How do I link Google" in intents_prompt and "Linked services" not in intents_prompt


async def test_resolution_all_met_skips_the_handover_step(dmetric, server):
    server.set_default(JUDGE, by_schema(intents={"intents": ["link Google"]}, intent_check=check("yes")))
    j = await dmetric("resolution").judge(dialogue(("How do I link Google?", LINK)))
    assert (j.score, j.details["outcome"], j.details["handover"]) == (1.0, "resolved", None)
    assert len(server.chat_requests(JUDGE)) == 2


async def test_a_check_answered_with_neither_yes_nor_no_twice_leaves_resolution_unscored(dmetric, server):
    server.set_default(JUDGE, by_schema(intents={"intents": ["link Google"]}, intent_check="Let me think about it."))
    j = await dmetric("resolution").judge(dialogue(("How do I link Google?", LINK)))
    assert j.score is None and j.details["failed_step"] == "check" and "check step" in (j.error or "")
    # Asked once more with the template's retry text, then given up: never a guessed 0.
    assert len(server.chat_requests(JUDGE)) == 3


async def test_resolution_correct_handover_is_its_own_outcome(dmetric, server):
    server.set_default(
        JUDGE,
        by_schema(
            intents={"intents": ["get a refund for a double charge"]},
            intent_check=check("no"),
            handover_check={"reason": "gave the desk's number from the passages", "handed_over": "yes"},
        ),
    )
    j = await dmetric("resolution").judge(dialogue(("I was charged twice, refund me", PHONE)))
    assert j.score == 0.0 and j.details["outcome"] == "handed_over"
    handover_prompt = server.chat_requests(JUDGE)[-1]["messages"][-1]["content"]
    assert "0120-000-000" in handover_prompt and "get a refund" in handover_prompt


async def test_resolution_adds_the_persona_goal_and_falls_back_to_the_first_message(dmetric, server):
    server.set_default(
        JUDGE,
        by_schema(
            intents={"intents": []},
            intent_check=[check("yes"), check("no")],
            handover_check={"reason": "none", "handed_over": "no"},
        ),
    )
    context = DialogueContext(dialogue(("Link fails with error 403", LINK)).turns, "en", goal="a step they can do now")
    j = await dmetric("resolution").judge(context)
    assert [(i["intent"], i["source"]) for i in j.details["intents"]] == [
        ("Link fails with error 403", "first_message"),
        ("a step they can do now", "goal"),
    ]
    assert j.score == 0.5


async def test_resolution_without_any_bot_answer_is_unscored_not_zero(dmetric, server):
    j = await dmetric("resolution").judge(dialogue(("Hello?", None)))
    assert j.score is None and "no bot answer" in (j.error or "")
    assert server.chat_requests(JUDGE) == []


async def test_resolution_unparsable_step_is_unscored_with_the_raw_reply(dmetric, server):
    server.set_default(JUDGE, by_schema(intents=["I think they wanted help", "still prose"]))
    j = await dmetric("resolution").judge(dialogue(("How do I link Google?", LINK)))
    assert j.score is None and j.details["failed_step"] == "intents"
    assert j.raw_reply == "still prose" and j.attempts == 2


async def test_resolution_closing_done_is_not_an_intent(dmetric, server):
    server.set_default(JUDGE, by_schema(intents={"intents": ["link Google"]}, intent_check=check("yes")))
    await dmetric("resolution").judge(dialogue(("How do I link Google?", LINK), ("DONE", None)))
    assert "DONE" not in server.chat_requests(JUDGE)[0]["messages"][-1]["content"]


async def test_resolution_japanese_uses_the_japanese_prompt(dmetric, server):
    server.set_default(JUDGE, by_schema(intents={"intents": ["Google と連携したい"]}, intent_check=check("yes")))
    j = await dmetric("resolution", "ja").judge(
        dialogue(("Google と連携するには？", "設定から連携できます。"), language="ja")
    )
    assert j.details["conclusion"].startswith("解決")
    assert "お客様" in server.chat_requests(JUDGE)[0]["messages"][-1]["content"]


# -- retention --------------------------------------------------------------------------------


async def test_retention_scores_kept_facts(dmetric, server):
    server.set_default(
        JUDGE,
        by_schema(
            facts={"facts": [{"turn": 1, "fact": "uses Android"}, {"turn": 2, "fact": "already restarted"}]},
            fact_check=[
                {"reason": "Android steps", "verdict": "kept"},
                {"reason": "says restart", "verdict": "ignored"},
            ],
        ),
    )
    context = dialogue(("I'm on Android, link fails", LINK), ("I already restarted the app", "Please restart the app."))
    j = await dmetric("retention").judge(context)
    assert j.score == pytest.approx(0.5)
    assert j.details["counts"] == {"kept": 1, "asked_again": 0, "ignored": 1, "contradicted": 0}
    # The second fact is checked only against the conversation from its own turn on.
    second = server.chat_requests(JUDGE)[-1]["messages"][-1]["content"]
    assert "already restarted" in second and "I'm on Android" not in second


async def test_retention_with_no_facts_is_a_stated_full_score(dmetric, server):
    server.set_default(JUDGE, by_schema(facts={"facts": []}))
    j = await dmetric("retention").judge(dialogue(("How do I link?", LINK)))
    assert j.score == 1.0 and j.details["no_facts"] and "no facts" in j.details["conclusion"]


async def test_retention_rejects_a_turn_that_does_not_exist(dmetric, server):
    server.set_default(JUDGE, by_schema(facts={"facts": [{"turn": 7, "fact": "x"}]}))
    j = await dmetric("retention").judge(dialogue(("I'm on Android", LINK)))
    assert j.score is None and "outside" in (j.error or "")


# -- repetition -------------------------------------------------------------------------------


def test_similarity_works_for_japanese_and_english():
    assert dice(LINK, LINK + " ") == 1.0
    assert dice(LINK, PHONE) < 0.3
    assert dice("設定画面から連携サービスを開いてください。", "設定画面から連携サービスを開いてください！") == 1.0
    assert covered_share(
        "Restart the app. Then try again.", ["You could restart the app.", "Restart the app!"]
    ) == pytest.approx(0.5)


async def test_repetition_decides_clear_pairs_in_code(dmetric, server):
    context = dialogue(("q1", LINK), ("q2", LINK + " Thanks!"), ("q3", PHONE))
    j = await dmetric("repetition").judge(context)
    assert j.score == pytest.approx(0.5)
    assert [(p["turn"], p["repeats"], p["decided_by"]) for p in j.details["pairs"]] == [
        (2, True, "similarity"),
        (3, False, "similarity"),
    ]
    assert server.chat_requests(JUDGE) == []


async def test_repetition_asks_the_judge_only_when_similarity_is_undecided(dmetric, server):
    server.set_default(JUDGE, by_schema(repeat_check={"reason": "same advice reworded", "repeats": "yes"}))
    earlier = "To link Google, open Settings, then Account, and tap Link next to Google."
    later = "Please open Settings, go to Account and press Link beside Google to connect it."
    j = await dmetric("repetition").judge(dialogue(("q1", earlier), ("q2", later)))
    pair = j.details["pairs"][0]
    assert 0.3 <= pair["similarity"] < 0.6
    assert (pair["decided_by"], pair["repeats"], j.score) == ("judge", True, 0.0)


async def test_repetition_with_one_answer_is_skipped_with_the_reason(dmetric):
    j = await dmetric("repetition").judge(dialogue(("q1", LINK), ("DONE", None)))
    assert j.score is None and j.details["skipped"] and "fewer than two" in (j.error or "")


def test_context_from_messages_pairs_customer_and_bot_lines():
    context = context_from_messages(
        [
            {"role": "user", "text": "a"},
            {"role": "bot", "text": "b"},
            {"role": "user", "text": "c"},
            {"role": "bot", "text": "d"},
            {"role": "user", "text": "DONE"},
        ],
        "en",
        ["passage"],
    )
    assert [(t.turn, t.customer, t.bot) for t in context.turns] == [(1, "a", "b"), (2, "c", "d"), (3, "DONE", None)]
    assert context.customer_lines() == [(1, "a"), (2, "c")]
    assert context.passages()[0].text == "passage"


# -- prompts ----------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("kind", ["metric_resolution", "metric_retention", "metric_repetition", "simulator_check"])
def test_new_prompt_kinds_ship_in_both_languages(kind: str, language: str):
    from ragtui.core.config.paths import bundled_dir
    from ragtui.core.content.prompts import load_prompt

    template = load_prompt(bundled_dir("prompts"), language, kind)
    assert template.description and all(part.strip() for part in template.parts.values())


def test_a_custom_prompts_folder_without_the_new_kinds_falls_back_to_the_bundled_ones(tmp_path):
    from ragtui.core.metrics.dialogue import load_bundled_fallback

    (tmp_path / "en").mkdir()
    template = load_bundled_fallback(tmp_path, "en", "metric_resolution")
    assert template.path is not None and template.path.parent.parent != tmp_path

"""The simulated customer stays a customer: checks in code and by the cheap model check, one
corrected retry, `simulator_off_role` recorded visibly; and the stop reasons done, gave_up
(persona patience) and handed_over."""

from __future__ import annotations

import dataclasses
import json

import pytest

from ragtui.core.dialogue.events import DialogueDone, DialogueVerdictReady, MessageDone, SimulatorRetry
from ragtui.core.dialogue.simulator_check import (
    ANSWERED_AS_AGENT,
    LEFT_PERSONA,
    PREMATURE_DONE,
    code_check,
)
from ragtui.core.types.turns import Utterance
from stand_ins.fake_openai import Reply

from ..conftest import BOT, JUDGE, USER
from ..dialogue_judge import by_schema

ANSWER = "Open Settings > Account > Linked services and tap Link next to Google."
HISTORY = [Utterance("user", "How do I link Google?"), Utterance("bot", ANSWER)]


async def collect(stream) -> list:
    return [event async for event in stream]


def customer_says(*texts: str, check: str = "yes"):
    """The user role: simulator messages in order; the cheap check (a JSON-schema request)
    answers ``check`` for whichever question it asks."""
    queue = list(texts)

    def respond(body: dict) -> Reply:
        fmt = body.get("response_format")
        if fmt:
            name = fmt["json_schema"]["name"]
            field = "addressed" if name.endswith("addressed") else "customer"
            return Reply(json.dumps({"reason": "checked", field: check}))
        return Reply(queue.pop(0) if len(queue) > 1 else queue[0])

    return respond


@pytest.mark.parametrize(
    ("text", "language", "problem"),
    [
        ("Support: Please open Settings and tap Link.", "en", ANSWERED_AS_AGENT),
        ("Thank you for contacting Tsumugi! How can I help you today?", "en", ANSWERED_AS_AGENT),
        ("I am sorry to hear that. Please let me know if you can find any specific settings.", "en", ANSWERED_AS_AGENT),
        ("I do not have access to the settings. Tell me more so I can assist you better.", "en", ANSWERED_AS_AGENT),
        ("1. Open Settings\n2. Tap Account\n3. Tap Link", "en", ANSWERED_AS_AGENT),
        ("1. 設定を開いてください\n2. アカウントを押してください\n3. 連携を押します", "ja", ANSWERED_AS_AGENT),
        (ANSWER, "en", ANSWERED_AS_AGENT),  # copied back
        ("担当者：設定画面を開いてください。", "ja", ANSWERED_AS_AGENT),
        ("お問い合わせありがとうございます。以下の手順でご案内いたします。", "ja", ANSWERED_AS_AGENT),
        ("I still cannot find the Link button anywhere on the screen.", "ja", LEFT_PERSONA),
        ("設定画面のどこにボタンがあるのか分かりません。", "en", LEFT_PERSONA),
        ("", "en", LEFT_PERSONA),
        ("word " * 200, "en", LEFT_PERSONA),
    ],
)
def test_code_check_catches_the_certain_cases(text, language, problem):
    found = code_check(text, HISTORY, language)
    assert found is not None and found.problem == problem and found.by == "code"


@pytest.mark.parametrize(
    "text",
    [
        "Where exactly is Linked services? I only see Profile.",
        "Thanks, that worked! DONE",
        "ok",
        "DONE",
        "What I tried:\n1. I restarted the app\n2. I reinstalled it\n3. My password was reset",
        "試したこと：\n1. 再起動しました\n2. 再インストールしました\n3. パスワードも変えました",
    ],
)
def test_code_check_lets_customer_lines_pass(text):
    language = "ja" if "試" in text else "en"
    assert code_check(text, HISTORY, language) is None


def test_done_after_an_empty_answer_is_premature_in_code():
    found = code_check("DONE", [Utterance("user", "Help?"), Utterance("bot", " ")], "en")
    assert found is not None and found.problem == PREMATURE_DONE


async def test_off_role_message_is_asked_again_once_and_the_retry_kept(engine, scenario, persona, server):
    server.set_default(USER, customer_says("Support: Please open Settings and tap Link.", "Where is Settings?"))
    events = await collect(engine.new_dialogue(scenario, persona, max_turns=2).run())
    retry = next(e for e in events if isinstance(e, SimulatorRetry))
    assert (retry.turn, retry.problem) == (2, ANSWERED_AS_AGENT)
    message = next(e for e in events if isinstance(e, MessageDone) and e.role == "user" and e.turn == 2)
    assert (message.text, message.source) == ("Where is Settings?", "simulator")
    stored = engine.store.session(message.session_id).messages[2]
    assert stored.sim_check["retried"] and not stored.sim_check["off_role"]
    assert stored.sim_check["first"]["text"].startswith("Support:")
    # The calls behind the stored message are counted: the rejected first try (caught in code)
    # and the model check of the retry, with the tokens the server reported.
    usage = stored.sim_check["extra_usage"]
    assert usage["calls"] == 2 and usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    # The retry carried the correction after the support's last answer, at the very end: its
    # prompt starts exactly as the rejected try's did, so a prompt cache reuses all of that.
    simulator_calls = [b for b in server.chat_requests(USER) if "response_format" not in b]
    first, retried = simulator_calls[0]["messages"], simulator_calls[1]["messages"]
    assert "You are the CUSTOMER" in retried[-1]["content"]
    assert not any("You are the CUSTOMER" in m["content"] for m in first)
    assert retried[:-1] == first[:-1] and len(retried) == len(first)
    assert retried[-1]["content"].startswith(first[-1]["content"])


async def test_message_still_off_role_after_the_retry_is_recorded_visibly(engine, scenario, persona, server):
    server.set_default(USER, customer_says("How can I help you today?"))
    events = await collect(engine.new_dialogue(scenario, persona, max_turns=2).run())
    message = next(e for e in events if isinstance(e, MessageDone) and e.role == "user" and e.turn == 2)
    assert message.source == "simulator_off_role"
    stored = engine.store.session(message.session_id).messages[2]
    assert stored.sim_check["off_role"] and stored.sim_check["retry"]["problem"] == ANSWERED_AS_AGENT


async def test_model_check_catches_what_code_cannot(engine, scenario, persona, server):
    server.set_default(USER, customer_says("Sure, the Link button is under Account.", check="no"))
    events = await collect(engine.new_dialogue(scenario, persona, max_turns=2).run())
    retry = next(e for e in events if isinstance(e, SimulatorRetry))
    assert retry.problem == ANSWERED_AS_AGENT and retry.why == "checked"
    message = next(e for e in events if isinstance(e, MessageDone) and e.turn == 2 and e.role == "user")
    assert message.source == "simulator_off_role"


async def test_premature_done_is_questioned_and_the_dialogue_goes_on(engine, scenario, persona, server):
    calls = {"n": 0}

    def respond(body: dict) -> Reply:
        if body.get("response_format"):  # the DONE check: not addressed; then the role check: fine
            name = body["response_format"]["json_schema"]["name"]
            if name.endswith("addressed"):
                return Reply(json.dumps({"reason": "only an apology", "addressed": "no"}))
            return Reply(json.dumps({"reason": "a customer", "customer": "yes"}))
        calls["n"] += 1
        return Reply("DONE" if calls["n"] == 1 else "But how do I actually link it?")

    server.set_default(USER, respond)
    server.set_default(BOT, Reply("Sorry for the trouble."))
    events = await collect(engine.new_dialogue(scenario, persona, max_turns=2).run())
    retry = next(e for e in events if isinstance(e, SimulatorRetry))
    assert retry.problem == PREMATURE_DONE
    assert events[-1].stop_reason == "max_turns"


async def test_unparsable_check_reply_decides_nothing(engine, scenario, persona, server):
    # The shared default: a plain customer line for everything, the check included.
    events = await collect(engine.new_dialogue(scenario, persona, max_turns=2).run())
    assert not any(isinstance(e, SimulatorRetry) for e in events)
    stored = engine.store.session(events[-1].session_id).messages[2]
    assert stored.source == "simulator" and "error" in stored.sim_check["first"]["model"]


async def test_checks_can_be_turned_off(config, store, scenario, persona, server):
    from ragtui.core.dialogue.engine import Engine
    from ragtui.core.models.endpoints import resolve_endpoints

    config.simulator_check = "off"
    engine = Engine(config, resolve_endpoints(config), store)
    server.set_default(USER, Reply("How can I help you today?"))
    events = await collect(engine.new_dialogue(scenario, persona, max_turns=2).run())
    await engine.aclose()
    assert not any(isinstance(e, SimulatorRetry) for e in events)
    assert all("response_format" not in b for b in server.chat_requests(USER))


# -- stop reasons ----------------------------------------------------------------------------


async def test_customer_done_ends_with_done_and_dialogue_verdicts(engine, scenario, persona, server):
    server.set_default(USER, customer_says("DONE"))
    server.set_default(
        JUDGE,
        by_schema(
            intents={"intents": ["link Google"]}, intent_check={"reason": "r", "satisfied": "yes"}, facts={"facts": []}
        ),
    )
    events = await collect(engine.new_dialogue(scenario, persona).run())
    assert events[-1].stop_reason == "done"
    verdicts = {e.judgment.metric: e.judgment for e in events if isinstance(e, DialogueVerdictReady)}
    # retention is off by default; the scenario has expectations
    assert list(verdicts) == ["resolution", "repetition", "expectations"]
    assert verdicts["resolution"].details["outcome"] == "resolved"
    assert verdicts["repetition"].details["skipped"]  # one bot answer
    # They come before the final event, and are stored as the session's dialogue judgments.
    assert isinstance(events[-1], DialogueDone) and isinstance(events[-2], DialogueVerdictReady)
    stored = engine.store.session(events[-1].session_id).latest_dialogue_judgments()
    assert stored["resolution"].outcome == "resolved" and stored["resolution"].version == 1


async def test_persona_patience_ends_with_gave_up(engine, scenario, persona, server):
    events = await collect(engine.new_dialogue(scenario, dataclasses.replace(persona, patience=2)).run())
    done = events[-1]
    assert (done.stop_reason, done.turns) == ("gave_up", 2)
    assert engine.store.session(done.session_id).stop_reason == "gave_up"


async def test_bot_transfer_ends_with_handed_over(engine, scenario, persona, server):
    server.script(BOT, Reply("Let me transfer you to a member of staff who can check your billing."))
    events = await collect(engine.new_dialogue(scenario, persona).run())
    assert (events[-1].stop_reason, events[-1].turns) == ("handed_over", 1)

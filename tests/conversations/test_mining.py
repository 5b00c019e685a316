"""`ragtui scenarios from-conversations RUN`: each imported conversation mined, against the fake
OpenAI server with a scripted writer, into a draft scenario (no placeholder of personal data in
its question, short `contains` facts, a follow-up from the customer's second turn, its source the
conversation) and a draft persona with figures measured in code; conversations that resolved
nothing or whose question keeps personal data are dropped by reason; nothing real reaches the
model; bad input is one line and writes nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.content.personas import load_persona_file
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.store.store import Store
from stand_ins.fake_openai import Reply

from ..conftest import JUDGE, endpoint_toml, record_run

CONVERSATION = re.compile(r"### CONVERSATION BEGIN ###\n(.*?)\n### CONVERSATION END ###", re.S)
TURN_TWO = re.compile(r"second turn: (.*)")
EMAIL = "hana.mori@example.com"
CHATS = [
    {
        "id": "c1",
        "messages": [
            {"role": "user", "content": f"I never got the verification e-mail. I signed up as {EMAIL}"},
            {
                "role": "assistant",
                "content": "Verification e-mails can take up to 10 minutes. Open Settings > Account to resend it.",
            },
            {"role": "user", "content": "Can I change the address it goes to?"},
            {"role": "assistant", "content": "Yes: change it under Settings > Account > E-mail."},
            {"role": "user", "content": "Thanks!"},
        ],
    },
    {
        "id": "c2",
        "messages": [
            {"role": "user", "content": "Why was I charged twice?? Card 4111 1111 1111 1111."},
            {"role": "assistant", "content": "I can't see payment details here."},
        ],
    },
    {
        "id": "c3",
        "messages": [
            {"role": "user", "content": "Please delete the account of ken@example.jp now."},
            {"role": "agent", "content": "Done: the account is deleted within 30 days."},
        ],
    },
]
SENTENCE_FACT = "Verification e-mails can take up to 10 minutes to arrive"


def writer(body: dict) -> Reply:
    """The judge-role model: the entailment check says yes; the mining request is answered by
    what the conversation it is shown holds."""
    name = body.get("response_format", {}).get("json_schema", {}).get("name", "")
    if name == "entailment":
        return Reply(json.dumps({"follows": "yes"}))
    users = [m["content"] for m in body["messages"] if m["role"] == "user"]
    shown = CONVERSATION.search(users[0])
    conversation = shown.group(1) if shown else ""
    corrected = len(users) > 1
    reply = {
        "resolved": True,
        "facts": [],
        "expect": ["says the e-mail can take a while"],
        "follow_up_question": "",
        "follow_up_reference": "",
        "tone": "polite but brief",
        "patience": "patient",
        "volunteers": "their e-mail address",
        "persona": "- Writes short messages.\n- Gives their e-mail <email-1> at once.",
    }
    if "verification" in conversation:
        reply |= {
            # first with the placeholder left in: asked again, then clean
            "question": "I signed up as <email-1> and got no e-mail"
            if not corrected
            else "I never got the e-mail to verify my account. What can I do?",
            "reference": "Verification e-mails can take up to 10 minutes; you can resend one from Settings > Account.",
            "quote": "Verification e-mails can take up to 10 minutes. Open Settings > Account to resend it.",
            "facts": ["10 minutes", SENTENCE_FACT],
            "follow_up_question": "Can I change the e-mail address verification goes to?",
            "follow_up_reference": "Yes, under Settings > Account > E-mail.",
        }
    elif "charged twice" in conversation:
        reply |= {"question": "Why was I charged twice?", "resolved": False, "reference": "", "quote": ""}
    else:
        reply |= {"question": "Please delete the account of <email-1>.", "reference": "Deleted.", "quote": "Done"}
    return Reply(json.dumps(reply))


@pytest.fixture
def imported(server, tmp_path: Path, capsys) -> tuple[Path, str]:
    """A config on the fake server and an imported run of CHATS: (config, run id)."""
    config = tmp_path / "ragtui.toml"
    config.write_text('language = "en"\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url), encoding="utf-8")
    chats = tmp_path / "chats.jsonl"
    chats.write_text("\n".join(json.dumps(c) for c in CHATS) + "\n", encoding="utf-8")
    assert main(["import", str(chats), "--config", str(config), "--run-id", "real-1"]) == 0
    capsys.readouterr()
    server.set_default(JUDGE, writer)
    return config, "real-1"


def mine(config: Path, run: str, out: Path, *extra: str) -> int:
    return main(["scenarios", "from-conversations", run, "--out", str(out), "--config", str(config), *extra])


def test_each_conversation_becomes_a_draft_and_a_persona(imported, server, tmp_path, capsys):
    config, run = imported
    out, personas = tmp_path / "mined.toml", tmp_path / "personas"
    assert mine(config, run, out, "--personas-out", str(personas)) == 0
    printed = capsys.readouterr().out
    (scenario,) = load_scenarios(out, "en")
    assert scenario.draft and scenario.kind == "conversation"
    assert scenario.question == "I never got the e-mail to verify my account. What can I do?"
    assert not re.search(r"<[a-z]+-\d+>", scenario.question)
    contains = [e.text for e in scenario.expectations if e.form == "contains"]
    assert "10 minutes" in contains and "Settings > Account" in contains
    assert SENTENCE_FACT not in contains and all(len(c.split()) <= 5 for c in contains)
    assert [e.text for e in scenario.expectations if e.form != "contains"] == ["says the e-mail can take a while"]
    assert scenario.follow_up is not None
    assert scenario.follow_up.question == "Can I change the e-mail address verification goes to?"
    source = scenario.source
    assert source is not None and source.from_conversation
    assert (source.run, source.conversation, source.line, source.unit) == (run, "c1", 1, "line")
    assert source.file.endswith("chats.jsonl") and source.session is not None
    assert source.quote.startswith("Verification e-mails can take up to 10 minutes.")
    # the writer was shown the customer's second turn as the follow-up's source, never their address
    bodies = json.dumps(server.chat_requests())
    assert EMAIL not in bodies and "ken@example.jp" not in bodies
    first = next(b for b in server.chat_requests() if "verification" in json.dumps(b))
    asked = [m["content"] for m in first["messages"] if m["role"] == "user"][0]
    assert TURN_TWO.search(asked).group(1) == "Can I change the address it goes to?"
    # one summary, the progress line's counts, every drop by reason
    assert "Mined 3 conversation(s)" in printed and "1 kept · 2 dropped" in printed
    assert "dropped 1: nothing in the conversation resolved the customer's need" in printed
    assert "dropped 1: the question or reference kept a placeholder of personal data, twice" in printed
    assert "personas: 3 draft(s) written" in printed
    # a persona per conversation, its figures measured in code, no placeholder in it
    found = sorted(p.name for p in (personas / "en").iterdir())
    assert found == ["real-c1.toml", "real-c2.toml", "real-c3.toml"]
    persona = load_persona_file(personas / "en" / "real-c1.toml")
    assert "Writes 3 message(s) over 3 turn(s), about 7 words each." in persona.persona
    assert "Gives without being asked: email" in persona.persona
    assert "<email-1>" not in persona.persona and "Tone: polite but brief" in persona.persona
    assert (personas / "en" / "real-c1.toml").read_text(encoding="utf-8").startswith("# A draft persona mined")
    c2 = load_persona_file(personas / "en" / "real-c2.toml").persona
    assert "Asks about 1.0 question(s) per message." in c2 and "card" in c2


def test_mining_again_merges_and_never_replaces_a_persona(imported, tmp_path, capsys):
    config, run = imported
    out, personas = tmp_path / "mined.toml", tmp_path / "personas"
    assert mine(config, run, out, "--personas-out", str(personas)) == 0
    edited = personas / "en" / "real-c1.toml"
    edited.write_text(edited.read_text(encoding="utf-8").replace("Real customer", "Reviewed"), encoding="utf-8")
    capsys.readouterr()
    assert mine(config, run, out, "--personas-out", str(personas)) == 0
    printed = capsys.readouterr().out
    assert "Merged into" in printed and "3 already there, left as they were" in printed
    assert "Reviewed" in edited.read_text(encoding="utf-8")
    assert "answered from the cache" in printed


def test_estimate_calls_nothing(imported, server, tmp_path, capsys):
    config, run = imported
    out = tmp_path / "mined.toml"
    assert mine(config, run, out, "--estimate") == 0
    assert re.search(r"Plan: 3 conversation\(s\) of run real-1 in en; about 6 model call\(s\)", capsys.readouterr().out)
    assert not server.chat_requests() and not out.exists()


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


def test_a_run_that_is_not_imported_is_one_line(server, tmp_path, capsys):
    database = record_run(server, tmp_path, "-s", "useless", "-p", "angry", settings="max_turns = 1")
    store = Store.open(database)
    run = store.latest_run_id()
    store.close()
    config = tmp_path / "ragtui.toml"
    capsys.readouterr()
    out = tmp_path / "mined.toml"
    assert mine(config, str(run), out) == 2
    assert f"run {run!r} is not an imported run" in one_line_error(capsys)
    assert mine(config, "no-such-run", out) == 2
    assert "no run 'no-such-run'" in one_line_error(capsys)
    assert not out.exists()


def test_an_existing_out_that_is_not_a_drafts_file_needs_force(imported, server, tmp_path, capsys):
    config, run = imported
    out = tmp_path / "notes.toml"
    out.write_text('title = "my notes"\n', encoding="utf-8")
    assert mine(config, run, out) == 2
    assert "--out" in one_line_error(capsys) and out.read_text(encoding="utf-8") == 'title = "my notes"\n'
    assert not server.chat_requests()
    assert mine(config, run, out, "--force") == 0
    assert load_scenarios(out, "en")[0].kind == "conversation"

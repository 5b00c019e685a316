"""`ragtui scenarios generate` writes no control character: a writer model whose question,
reference, expectations and follow-up carry a terminal title (OSC), a screen clear, BEL, a C1
control or a bidi override gives a scenario file whose texts are plain words — its reviewer's and
its runner's terminals are left alone — while the source quote stays as its passage has it."""

from __future__ import annotations

import json
import re
import tomllib

from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.generate.drafts import Draft
from ragtui.core.generate.pipeline import _text, _texts
from ragtui.core.generate.toml_out import scenario_file_text
from ragtui.core.text.text_safety import strip_controls
from ragtui.core.types.scenarios import FollowUp, ScenarioSource
from stand_ins.fake_openai import Reply

from ..conftest import JUDGE
from .test_scenarios_generate import PASSAGE, config_path, generate, help_folder, last_user, schema_name, with_judge  # noqa: F401

TITLE = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
HOSTILE = f"{TITLE}{CLEAR}\x07\x9b31m\u202e"
CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_strip_controls_removes_escape_sequences_whole_and_every_control():
    assert strip_controls(f"Refunds{TITLE} take{CLEAR} 5\x07 days\u202e.") == "Refunds take 5 days."
    assert strip_controls("tab\tand\nnewline\r\nkept\rCR") == "tab\tand\nnewline\nkept\nCR"
    assert strip_controls("C1 \x9b31mcsi, unended \x1b]0;title") == "C1 31mcsi, unended "
    assert strip_controls("[bold red]x[/] 日本語 😀") == "[bold red]x[/] 日本語 😀"  # markup is not a control


def test_the_writer_s_fields_are_read_without_controls():
    reply = {"question": f"Where is{HOSTILE} my refund?", "expect": [f"says{TITLE} 5 days", "\x07", "ok"]}
    assert _text(reply, "question") == "Where is31m my refund?"
    assert _texts(reply, "expect", 3) == ("says 5 days", "ok")


def test_a_scenario_file_holds_no_control_but_its_verbatim_quote():
    draft = Draft(
        id="gen-fact-1",
        kind="fact",
        question=f"Refund{TITLE}?",
        reference=f"Five{CLEAR} days.",
        expect=("says five days\x07",),
        expect_not=("promises\u202e cash",),
        contains=("5\x1b[1m days",),
        source=ScenarioSource(file="refunds.md", heading="Refunds", quote="Five days.", passage_hash="abc"),
        follow_up=FollowUp(f"And cards{TITLE}?", "Cards too\x07.", "Cards too.", "def", "Refunds"),
    )
    text = scenario_file_text([draft], "en")
    assert not CONTROLS.search(text) and "\\u001b" not in text.lower() and "pwned" not in text
    table = tomllib.loads(text)["scenario"][0]
    assert table["question"] == "Refund?" and table["reference"] == "Five days."
    assert [e.get("text") or e.get("contains") for e in table["expect"]] == ["5 days", "says five days"]
    assert table["expect_not"][0]["text"] == "promises cash"
    assert table["follow_up"]["question"] == "And cards?" and table["follow_up"]["reference"] == "Cards too."


def hostile_writer(body: dict) -> Reply:
    """Writes its test case, and its probe, with escape sequences and controls in every text."""
    name = schema_name(body)
    if name == "entailment":
        return Reply(json.dumps({"follows": "yes"}))
    if name == "probe":
        candidate = {
            "question": f"Can I buy gift cards{TITLE} for a friend?",
            "key_terms": ["gift cards"],
            "invented_detail": f"gift cards are sold{CLEAR} in the app",
        }
        return Reply(json.dumps({"candidates": [candidate]}))
    match = PASSAGE.search(last_user(body))
    sentence = max(re.split(r"(?<=[.!?])\s", (match.group(1) if match else "").strip()), key=len)
    case = {
        "question": f"I have a question{TITLE} about this: {sentence[:40].lower()}?{CLEAR}\x07",
        "reference": f"As the help centre says:\x1b[31m {sentence}\u202e",
        "quote": sentence,
        "expect": [f"gives the answer\x07 the help centre gives{TITLE}"],
        "expect_not": [f"promises\x9b a call{CLEAR}"],
    }
    return Reply(json.dumps(case))


def test_generate_writes_plain_words_from_a_hostile_writer(server, help_folder, config_path, tmp_path):  # noqa: F811
    server.set_default(JUDGE, with_judge(hostile_writer))
    out = tmp_path / "mine.toml"
    assert generate(config_path, help_folder, out, "--n", "6") == 0
    written = out.read_text(encoding="utf-8")
    assert not CONTROLS.search(written)
    assert "\\u001b" not in written.lower() and "\\u0007" not in written.lower() and "pwned" not in written
    scenarios = load_scenarios(out, "en")
    assert scenarios and any(s.kind == "out_of_scope" for s in scenarios)
    texts = [s.question for s in scenarios] + [s.reference or "" for s in scenarios]
    texts += [e.text for s in scenarios for e in s.expectations]
    assert all(not CONTROLS.search(t) for t in texts)
    assert any(t.startswith("I have a question about this:") for t in texts)
    assert any(t == "gives the answer the help centre gives" for t in texts)

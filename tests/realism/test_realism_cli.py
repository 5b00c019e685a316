"""`ragtui realism REAL SIM` end to end against the fake server on 127.0.0.1: the judge's blind
test replies scripted readable, position-bound, unreadable and failing; bad input is one line."""

from __future__ import annotations

import json
import random
import re
import socket
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.store.store import Store
from stand_ins.fake_openai import FakeOpenAIServer, Reply, level_reply

from ..conftest import JUDGE, endpoint_toml
from .conversations import write_conversation

REAL = [
    ["my package never came", "its been 2 weeks wtf"],
    ["cant login", "tried that already. still nope"],
    ["refund??", "ok so when do i get my money"],
    ["how to change plan", "k thx"],
]
SIM = [
    ("delivery", ["My package has not arrived yet.", "Thank you. How long does delivery usually take?"]),
    ("login", ["I cannot log in to my account.", "Thank you. I reset my password, but it still fails."]),
    ("refund", ["I would like a refund.", "Thank you for your help. When will I get my refund?"]),
    ("plan", ["How can I change my plan?", "Thank you, that is very helpful."]),
]
REAL_REPLIES = {texts[1] for texts in REAL}
SHOWN = re.compile(r"### MESSAGE A ###\n(.*?)\n\n### MESSAGE B ###\n(.*?)\n\n", re.S)


def shown(body: dict) -> tuple[str, str]:
    found = SHOWN.search(body["messages"][-1]["content"])
    assert found, body["messages"][-1]["content"]
    return found.group(1), found.group(2)


def knowing(body: dict) -> Reply:
    """A judge that recognises the real customers' messages, fairly sure of itself."""
    first, _ = shown(body)
    return level_reply({"A": 0.9, "B": 0.1} if first in REAL_REPLIES else {"A": 0.1, "B": 0.9})


def setup(tmp_path: Path, server: FakeOpenAIServer, settings: str = "concurrency = 1") -> Path:
    db = tmp_path / "r.db"
    store = Store.open(db)
    for texts in REAL:
        write_conversation(store, "real-1", texts)
    for scenario, texts in SIM:
        write_conversation(store, "sim-1", texts, scenario=scenario, simulated=True)
    write_conversation(store, "quiet", ["DONE"], simulated=True)
    store.close()
    config = tmp_path / "ragtui.toml"
    config.write_text(f'language = "en"\ndatabase = "{db}"\n{settings}\n' + endpoint_toml(server.base_url))
    return config


def judge_requests(server: FakeOpenAIServer) -> list[dict]:
    return [r.body for r in server.requests if r.body and r.body.get("model") == JUDGE]


def test_a_judge_that_knows_the_real_customers_scores_every_pair(tmp_path: Path, server, capsys):
    config = setup(tmp_path, server)
    server.set_default(JUDGE, knowing)
    assert main(["realism", "--config", str(config), "real-1", "sim-1", "--json", "--seed", "11"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    blind = out["blind_test"]
    assert (blind["right"], blind["wrong"], blind["split"], blind["unanswered"]) == (4, 0, 0, 0)
    assert blind["accuracy"]["value"] == 1.0 and blind["accuracy"]["n"] == 4
    assert blind["accuracy"]["low"] == pytest.approx(4 / (4 + 1.959963984540054**2))  # Wilson, 4 of 4
    assert "more often than chance" in blind["reading"]
    # Every pair asked in both orders; which order went first drawn from the seed, and recorded.
    rng = random.Random(11)
    firsts = [rng.random() < 0.5 for _ in range(4)]
    assert [p["asked"][0]["real_first"] for p in blind["pairs"]] == firsts
    assert all([a["real_first"] for a in p["asked"]] in ([True, False], [False, True]) for p in blind["pairs"])
    assert {p["real_message"] for p in blind["pairs"]} == REAL_REPLIES  # the first replies, not the openings
    requests = judge_requests(server)
    assert len(requests) == 8 and all(r["max_tokens"] == 1 and r["temperature"] == 0.0 for r in requests)
    assert "real customer" in requests[0]["messages"][0]["content"]
    # The figures come along; progress went to stderr.
    assert out["real"]["conversations"] == 4 and out["sim"]["scenario_messages"] == 4
    assert "blind test 8/8" in captured.err


def test_a_judge_that_always_says_a_scores_half_and_is_called_out(tmp_path: Path, server, capsys):
    config = setup(tmp_path, server)
    server.set_default(JUDGE, level_reply({"A": 0.8, "B": 0.2}))
    assert main(["realism", "--config", str(config), "real-1", "sim-1"]) == 0
    out = capsys.readouterr().out
    assert "split 4" in out and "accuracy 50% (95% Wilson CI" in out
    assert "picked the message shown first in 8 of 8 readable answers (100%)" in out
    assert "chose by position" in out
    table = out.split("\n\n")[0].splitlines()
    assert all(len(line) <= 80 for line in table[2:]), table  # the table itself fits 80 columns


def test_an_unreadable_reply_is_unanswered_and_shown_never_guessed(tmp_path: Path, server, capsys):
    config = setup(tmp_path, server)
    server.set_default(JUDGE, Reply("I think the first one"))
    assert main(["realism", "--config", str(config), "real-1", "sim-1", "--pairs", "2"]) == 0
    out = capsys.readouterr().out
    assert "unanswered 2" in out and "right 0" in out
    assert "unanswered ×4: the reply names neither A nor B: 'I think the first one'" in out
    assert "no pair was answered: the test says nothing" in out and "accuracy" not in out
    assert len(judge_requests(server)) == 8  # each question asked again once with the retry text


def test_a_failed_question_leaves_its_pair_unanswered(tmp_path: Path, server, capsys):
    config = setup(tmp_path, server)
    server.set_default(JUDGE, knowing)
    server.script(JUDGE, Reply(status=500, error_message="upstream exploded"))
    assert main(["realism", "--config", str(config), "real-1", "sim-1", "--json"]) == 0
    blind = json.loads(capsys.readouterr().out)["blind_test"]
    assert (blind["right"], blind["unanswered"]) == (3, 1)
    failed = [a for p in blind["pairs"] for a in p["asked"] if a["read"] == "error"]
    assert len(failed) == 1 and "500" in failed[0]["error"] and failed[0]["p_first"] is None
    assert blind["accuracy"]["n"] == 3


def test_a_judge_that_fails_every_question_exits_2_in_one_line(tmp_path: Path, server, capsys):
    config = setup(tmp_path, server)
    server.set_default(JUDGE, Reply(status=500, error_message="upstream exploded"))
    assert main(["realism", "--config", str(config), "real-1", "sim-1"]) == 2
    captured = capsys.readouterr()
    assert (
        captured.err.strip().splitlines()[-1].startswith("ragtui: error: the judge answered none of the blind test's 8")
    )
    assert "Traceback" not in captured.err


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_dead_judge_endpoint_is_one_line_before_anything_else(tmp_path: Path, server, capsys):
    config = setup(tmp_path, server)
    text = config.read_text().replace(server.base_url, f"http://127.0.0.1:{_closed_port()}/v1")
    config.write_text(text)
    assert main(["realism", "--config", str(config), "real-1", "sim-1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "judge" in captured.err and "Traceback" not in captured.err
    # Without the blind test no model is needed at all.
    assert main(["realism", "--config", str(config), "real-1", "sim-1", "--no-blind"]) == 0
    assert "messages per conversation" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["nope", "sim-1"], ["no run 'nope'"]),
        (["real-1", "real-1"], ["REAL and SIM are the same run (real-1)"]),
        (["real-1", "quiet"], ["SIM run quiet", "has no customer messages"]),
        (["real-1", "sim-1", "--pairs", "0"], ["--pairs must be from 1 to 1000, got 0"]),
        (["real-1", f"{'missing.db'}:last"], ["no ragtui database at", "missing.db"]),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, server, capsys, argv: list[str], words: list[str]):
    config = setup(tmp_path, server)
    assert main(["realism", "--config", str(config), *argv]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and all(w in captured.err for w in words), captured.err
    assert "Traceback" not in captured.err and captured.out == ""
    assert judge_requests(server) == []


def test_a_prompt_with_an_unknown_slot_is_refused(tmp_path: Path, server, capsys):
    prompts = tmp_path / "prompts" / "en"
    prompts.mkdir(parents=True)
    (prompts / "realism_blind.toml").write_text(
        'system = "Which is real?"\npair = "A: {{first}} B: {{second}} C: {{third}}"\nretry = "A or B."\n'
    )
    config = setup(tmp_path, server, settings=f'prompts = "{tmp_path / "prompts"}"')
    assert main(["realism", "--config", str(config), "real-1", "sim-1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "realism_blind.toml: key 'pair' uses unknown slot {{third}}" in err
    assert judge_requests(server) == []


def test_the_html_report_gains_a_realism_section_with_every_text_escaped(tmp_path: Path, server, capsys):
    config = setup(tmp_path, server)
    store = Store.open(tmp_path / "r.db")
    write_conversation(store, "real-1", ["<script>alert(1)</script> my bill is wrong", "\x1b[31m<b>why</b> so high?"])
    store.close()
    server.set_default(JUDGE, knowing)
    page = tmp_path / "report.html"
    argv = ["report", "--config", str(config), "real-1", "--html", str(page), "--realism-against", "sim-1"]
    assert main(argv) == 0
    html = page.read_text(encoding="utf-8")
    assert 'id="realism"' in html and "messages per conversation" in html
    assert "Blind test not run" in html and judge_requests(server) == []  # no model called unless asked
    assert main([*argv, "--realism-pairs", "5"]) == 0
    html = page.read_text(encoding="utf-8")
    assert "Blind test (judge fake-judge" in html and "accuracy" in html
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>why</b>" not in html and "\x1b" not in html and "␛[31m&lt;b&gt;why" in html
    assert len(judge_requests(server)) == 8  # 4 pairs (SIM has 4 conversations), both orders
    capsys.readouterr()
    assert main(["report", "--config", str(config), "real-1", "--html", str(page), "--realism-pairs", "2"]) == 2
    assert "--realism-pairs needs --realism-against" in capsys.readouterr().err


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_bundled_blind_prompts_load_with_their_two_slots(language: str):
    from ragtui.core.config import paths
    from ragtui.core.content.prompts import SLOT, load_prompt

    template = load_prompt(paths.bundled_dir("prompts"), language, "realism_blind")
    assert set(template.parts) == {"system", "pair", "retry"}
    assert set(SLOT.findall(template.parts["pair"])) == {"first", "second"}
    assert not SLOT.findall(template.parts["system"]) and not SLOT.findall(template.parts["retry"])


def test_japanese_customers_get_the_japanese_prompt_and_a_full_width_letter_is_read(tmp_path: Path, server, capsys):
    db = tmp_path / "ja.db"
    store = Store.open(db)
    write_conversation(store, "real-ja", ["ログインできない", "もう試したけどダメ"], language="ja")
    write_conversation(
        store, "sim-ja", ["ログインできません。", "ご説明ありがとうございます。"], language="ja", simulated=True
    )
    store.close()
    config = tmp_path / "ragtui.toml"
    config.write_text(f'language = "en"\ndatabase = "{db}"\n' + endpoint_toml(server.base_url))
    server.set_default(JUDGE, Reply("Ａ"))  # sampled (no probabilities), full width
    assert main(["realism", "--config", str(config), "real-ja", "sim-ja", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["real"]["length_unit"] == "characters" and out["blind_test"]["language"] == "ja"
    asked = out["blind_test"]["pairs"][0]["asked"]
    assert [a["read"] for a in asked] == ["sampled", "sampled"] and out["blind_test"]["split"] == 1
    assert "実際のお客様" in judge_requests(server)[0]["messages"][0]["content"]

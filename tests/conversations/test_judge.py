"""`ragtui judge RUN` on an imported run: every bot turn judged (and only the bot's), metrics that
need the bot's passages skipped with "no passages", a turn only a human agent answered said so
and never judged, the dialogue verdicts and team policies on each conversation, and the score
read back by `runs`, `show`, `export`, `report`; `rejudge` and `judge-card --from-labels` on it."""

from __future__ import annotations

import csv
import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.judge_quality.no_passages import passages_missing
from ragtui.core.metrics.base import TurnContext
from ragtui.core.types.passages import Passage
from tests.fakes.rubric_checks import check_line

from ..conftest import JUDGE, endpoint_toml
from ..dialogue_judge import by_schema

# The four fictional sample files; the public sets in public/ have a test of their own.
SAMPLES = sorted(p for p in (Path(__file__).parents[2] / "sample_data" / "conversations").iterdir() if p.is_file())

# t1: the bot answers turn 1; only a human agent answers turn 2; turn 3 has no answer.
# t2: a greeting (turn 0, no customer message to judge it against), then the bot answers turn 1.
CONVERSATIONS = [
    {
        "id": "t1",
        "messages": [
            {"role": "user", "content": "How do I reset my password? I am ann@example.com"},
            {"role": "assistant", "content": "Use Forgot password on the sign-in screen. A refund is guaranteed."},
            {"role": "user", "content": "It says my account is locked."},
            {"role": "agent", "content": "I have unlocked your account for you."},
            {"role": "user", "content": "Thanks, that worked."},
        ],
    },
    {
        "id": "t2",
        "messages": [
            {"role": "assistant", "content": "Hi! How can I help?"},
            {"role": "user", "content": "Can I change my plan?"},
            {"role": "assistant", "content": "Yes: open Settings, then Plan, and choose the new plan."},
        ],
    },
]


def judge_replies() -> object:
    return by_schema(
        intents={"intents": ["reset the password"]},
        intent_check={"reason": "steps given", "satisfied": "yes"},
        handover_check={"reason": "no contact", "handed_over": "no"},
        facts={"facts": [{"turn": 1, "fact": "the e-mail address"}]},
        fact_check={"reason": "fine", "verdict": "kept"},
    )


@pytest.fixture
def imported(server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A config (rubric + faithfulness, answerability, trust; a team policy) and the two
    conversations imported as run `real`; returns the config file."""
    config = tmp_path / "ragtui.toml"
    config.write_text(
        'language = "en"\ndatabase = "r.db"\nconcurrency = 1\n'
        'metrics = ["rubric", "faithfulness", "answerability", "trust"]\n'
        '[[policy]]\nid = "no-promise"\ncontains = "refund is guaranteed"\n' + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    chats = tmp_path / "chats.jsonl"
    chats.write_text("\n".join(json.dumps(c) for c in CONVERSATIONS) + "\n", encoding="utf-8")
    assert main(["import", str(chats), "--run-id", "real", "--config", str(config)]) == 0
    capsys.readouterr()
    server.set_default(JUDGE, judge_replies())
    return config


def rows(db: Path, sql: str) -> list[tuple]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute(sql).fetchall()


def test_judge_stores_verdicts_on_bot_turns_only_and_skips_what_needs_passages(imported: Path, server, capsys):
    db = imported.parent / "r.db"
    assert main(["judge", "real", "--config", str(imported)]) == 0
    out = capsys.readouterr().out
    assert (
        "Judged 2 bot turn(s) in 2 session(s): 10 verdict(s) stored (6 skipped: no passages, 2 skipped otherwise)."
        in out
    )
    assert "Not judged as the bot: 1 turn(s) a human agent answered (session 1 turn 2)." in out
    # Every verdict is on a bot message; none on the agent's turn, the greeting or the last turn.
    judged = rows(
        db,
        "SELECT j.session_id, j.turn, j.metric, m.role, j.score, j.details FROM judgments j "
        "JOIN messages m ON m.id = j.message_id ORDER BY j.session_id, j.turn, j.metric",
    )
    assert {(s, t, role) for s, t, _m, role, _sc, _d in judged} == {(1, 1, "bot"), (2, 1, "bot")}
    by_metric = {(s, m): (score, json.loads(d)) for s, _t, m, _r, score, d in judged}
    for session in (1, 2):
        assert by_metric[(session, "answer_correctness")][1]["conclusion"] == "no reference answer for this scenario"
        for metric in ("faithfulness", "answerability", "trust"):
            score, details = by_metric[(session, metric)]
            assert score is None and details["skipped"] and details["no_passages"], (session, metric)
            assert details["conclusion"].startswith("no passages")
        score, details = by_metric[(session, "rubric")]
        assert score == pytest.approx(0.8) and details["no_passages"]
        assert "grounding not checked: no passages" in details["conclusion"]
    # The rubric was asked none of its checks against passages the transcript lacks.
    asked = [check_line(body) for body in server.chat_requests(JUDGE)]
    assert sum("polite" in line for line in asked) == 2  # one rubric per bot turn
    assert not [line for line in asked if "SENTENCE supported" in line or "information needed" in line]
    # The score is the mean of the scored rubric turns, as for a simulated session.
    assert rows(db, "SELECT id, score, metrics FROM sessions ORDER BY id") == [
        (1, pytest.approx(0.8), '["faithfulness", "answerability", "answer_correctness", "trust"]'),
        (2, pytest.approx(0.8), '["faithfulness", "answerability", "answer_correctness", "trust"]'),
    ]
    # Dialogue verdicts on each conversation, and the team policy on the bot's answer.
    dialogue = rows(db, "SELECT session_id, metric, score, outcome FROM dialogue_judgments ORDER BY session_id, id")
    assert {(s, m) for s, m, _sc, _o in dialogue} >= {(1, "resolution"), (1, "retention"), (1, "repetition")}
    expectations = [(s, sc) for s, m, sc, _o in dialogue if m == "expectations"]
    assert expectations == [(1, 0.0), (2, 1.0)]  # t1's bot promised a refund; t2's did not
    assert "policy no-promise broken at turn 1" in out

    # The same command again: everything was judged, nothing is stored twice.
    before = len(judged), len(dialogue)
    assert main(["judge", "real", "--config", str(imported)]) == 0
    assert "2 turn(s) were judged already" in capsys.readouterr().out
    again = rows(db, "SELECT COUNT(*) FROM judgments")[0][0], rows(db, "SELECT COUNT(*) FROM dialogue_judgments")[0][0]
    assert again == before


def test_runs_show_export_and_report_state_the_judged_run(imported: Path, tmp_path: Path, capsys):
    args = ["--config", str(imported)]
    assert main(["judge", "real", *args]) == 0
    capsys.readouterr()
    assert main(["runs", *args]) == 0
    listed = capsys.readouterr().out
    assert "real" in listed and "0.80" in listed

    assert main(["show", "1", *args]) == 0
    shown = capsys.readouterr().out
    assert "score 0.80" in shown
    assert "faithfulness v1: skipped: no passages" in shown
    assert "grounding not checked: no passages" in shown
    assert "human agent · not judged" in shown and "Dialogue verdicts" in shown
    assert "Not judged: an imported conversation" not in shown

    path = tmp_path / "e.csv"
    assert main(["export", "--run", "real", "--csv", str(path), *args]) == 0
    table = list(csv.DictReader(path.read_text(encoding="utf-8-sig").splitlines()))
    assert [r["score"] for r in table] == ["0.80", "0.80"]
    assert table[0]["faithfulness1"] == "skipped"
    assert "I have unlocked" not in table[0]["assistant2"]  # the agent's words are not the bot's answer

    page_path = tmp_path / "r.html"
    assert main(["report", "real", "--html", str(page_path), *args]) == 0
    page = page_path.read_text(encoding="utf-8")
    assert "0.80" in page and "no passages" in page and "human agent (not judged)" in page


def test_rejudge_and_the_judge_card_work_on_an_imported_run(imported: Path, server, capsys):
    args = ["--config", str(imported)]
    assert main(["judge", "real", "--no-dialogue", *args]) == 0
    assert main(["rejudge", "--run", "real", "--metric", "faithfulness", *args]) == 0
    assert "Re-judged 2 turn(s)" in capsys.readouterr().out
    db = imported.parent / "r.db"
    newest = rows(db, "SELECT score, details FROM judgments WHERE metric = 'faithfulness' AND version = 2")
    assert len(newest) == 2 and all(s is None and json.loads(d)["no_passages"] for s, d in newest)
    assert main(["rejudge", "--run", "real", "--batch-file", str(imported.parent / "b.jsonl"), *args]) == 2
    assert "imported run: re-judge it online" in capsys.readouterr().err

    # People's labels on the imported run's bot turns measure the judge like any run's.
    assert main(["label", "1", "1", "--score", "4", "--agree", "--by", "ann", *args]) == 0
    assert main(["label", "2", "1", "--score", "2", "--disagree", "--by", "ann", *args]) == 0
    assert main(["label", "1", "2", "--score", "4", *args]) == 2  # the agent's turn has no bot answer
    capsys.readouterr()
    assert main(["judge-card", "--measure", "--from-labels", "--run", "real", *args]) == 0
    card = capsys.readouterr().out
    assert "rubric" in card and "your labels" in card


def test_a_transcript_with_passages_is_judged_against_them():
    with_passages = TurnContext(1, "q", "a", [Passage("p1", "", "the plan can be changed")], [], "en")
    without = TurnContext(1, "q", "a", [], [], "en")
    assert passages_missing("faithfulness", without, imported=True)
    assert not passages_missing("faithfulness", with_passages, imported=True)
    assert not passages_missing("faithfulness", without, imported=False)  # a simulated turn: judged as 0
    assert not passages_missing("rubric", without, imported=True)


def test_the_sample_conversations_are_judged(server, tmp_path: Path, capsys):
    config = tmp_path / "ragtui.toml"
    config.write_text('language = "en"\ndatabase = "r.db"\n' + endpoint_toml(server.base_url), encoding="utf-8")
    assert main(["import", *map(str, SAMPLES), "--run-id", "samples", "--config", str(config)]) == 0
    server.set_default(JUDGE, judge_replies())
    assert main(["judge", "samples", "--config", str(config), "--no-dialogue"]) == 0
    out = capsys.readouterr().out
    assert "Not judged as the bot:" in out
    agent_only = rows(
        tmp_path / "r.db",
        "SELECT COUNT(*) FROM judgments j WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = j.message_id "
        "AND m.role = 'bot')",
    )
    assert agent_only == [(0,)]


def test_judging_again_with_more_metrics_adds_only_the_new_ones(imported: Path, capsys):
    db = imported.parent / "r.db"
    args = ["--config", str(imported), "--no-dialogue"]
    assert main(["judge", "real", "--metric", "faithfulness", *args]) == 0
    assert "4 verdict(s) stored (2 skipped: no passages)" in capsys.readouterr().out
    assert main(["judge", "real", "--metric", "trust", *args]) == 0
    assert "6 verdict(s) stored (4 skipped: no passages, 2 skipped otherwise)" in capsys.readouterr().out
    counts = rows(db, "SELECT metric, COUNT(*), MAX(version) FROM judgments GROUP BY metric ORDER BY metric")
    assert counts == [
        ("answer_correctness", 2, 1),
        ("answerability", 2, 1),
        ("faithfulness", 2, 1),
        ("rubric", 2, 1),
        ("trust", 2, 1),
    ]

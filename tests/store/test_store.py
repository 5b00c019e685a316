"""Tests for the SQLite store (store.py, schema.py): schema versions, round trips, versioned
judgments, scores and deletion."""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragtui.core.store.schema import LATEST_VERSION
from ragtui.core.store.store import Store
from ragtui.core.types.calls import CallUsage
from ragtui.core.types.errors import StoreError
from ragtui.core.types.judgments import Judgment
from ragtui.core.types.passages import Passage
from ragtui.core.types.personas import Persona


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store.open(tmp_path / "t.db")
    yield s
    s.close()


def new_session(store: Store, **overrides: object) -> int:
    values: dict[str, object] = {
        "scenario": {"id": "id-linking", "question": "How do I link my account?", "reference": None, "tags": []},
        "persona": Persona("calm", "en", "- polite", 0.6),
        "config": {"roles": {"bot": {"model": "fake-bot"}, "judge": {"model": "fake-judge"}}},
        "language": "en",
        "max_turns": 3,
        "threshold": 0.7,
        "metrics": ["rubric"],
        "run_id": "run-1",
    }
    values.update(overrides)
    return store.create_session(**values)  # type: ignore[arg-type]


def judgment(score: float | None, metric: str = "rubric", **overrides: object) -> Judgment:
    values: dict[str, object] = {
        "details": {"overall": 4} if score is not None else {},
        "prompt": [{"role": "user", "content": "judge this"}],
        "raw_reply": '{"overall": 4}' if score is not None else "I cannot decide.",
        "model": "fake-judge",
        "error": None if score is not None else "no JSON object in the reply",
        "attempts": 1 if score is not None else 2,
        "latency_ms": 12.5,
    }
    values.update(overrides)
    return Judgment(metric=metric, score=score, **values)  # type: ignore[arg-type]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def user_version(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


# -- opening ----------------------------------------------------------------------------------


def test_new_database_gets_latest_version(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "new.db"
    Store.open(path).close()
    assert path.is_file()
    assert user_version(path) == LATEST_VERSION


def test_reopening_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    store = Store.open(path)
    sid = new_session(store)
    store.close()
    reopened = Store.open(path)
    assert reopened.session(sid).scenario_id == "id-linking"
    reopened.close()
    assert user_version(path) == LATEST_VERSION


def test_newer_database_is_refused_untouched(tmp_path: Path) -> None:
    """A database from a newer ragtui must not be modified: not migrated, not switched to WAL."""
    path = tmp_path / "future.db"
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE future (x)")
        conn.execute("INSERT INTO future VALUES (1)")
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
        conn.commit()
    before = sha256(path)
    siblings = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(StoreError) as info:
        Store.open(path)
    assert "newer" in str(info.value)
    assert str(path) in str(info.value)
    assert sha256(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == siblings
    assert user_version(path) == LATEST_VERSION + 1


def test_path_under_a_regular_file(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("not a folder")
    path = tmp_path / "afile" / "x.db"
    with pytest.raises(StoreError) as info:
        Store.open(path)
    assert str(path) in str(info.value)
    assert "--db" in info.value.hint


def test_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"this is not sqlite " * 100)
    with pytest.raises(StoreError) as info:
        Store.open(path)
    assert str(path) in str(info.value)


def test_in_memory_database() -> None:
    store = Store.open(":memory:")
    sid = new_session(store)
    assert store.session(sid).id == sid
    assert store.path is None
    store.close()


# -- round trips ------------------------------------------------------------------------------


def test_session_message_judgment_round_trip(store: Store) -> None:
    sid = new_session(store)
    passages = [Passage("09-linked-services.md", "Linked services", "Tap Link.", 3.14159)]
    user_id = store.add_message(sid, 1, "user", "scenario", "How do I link my account?")
    bot_id = store.add_message(
        sid,
        1,
        "bot",
        "bot",
        "Go to Settings > Account.",
        passages=passages,
        usage=CallUsage(model="fake-bot", prompt_tokens=100, completion_tokens=20, latency_ms=55.0),
    )
    stored_judgment = store.add_judgment(sid, bot_id, 1, judgment(0.75, details={"overall": 4, "comment": "ok"}))

    session = store.session(sid)
    assert session.run_id == "run-1"
    assert session.language == "en"
    assert session.scenario_id == "id-linking"
    assert session.question == "How do I link my account?"
    assert session.persona_name == "calm"
    assert session.persona.temperature == 0.6
    assert session.config == {"roles": {"bot": {"model": "fake-bot"}, "judge": {"model": "fake-judge"}}}
    assert session.metrics == ["rubric"]
    assert (session.max_turns, session.threshold) == (3, 0.7)
    assert session.status == "running"
    assert session.turns == 1
    assert session.score is None

    assert [(m.id, m.role, m.source, m.text) for m in session.messages] == [
        (user_id, "user", "scenario", "How do I link my account?"),
        (bot_id, "bot", "bot", "Go to Settings > Account."),
    ]
    user, bot = session.messages
    assert user.passages == []
    assert bot.passages == [Passage("09-linked-services.md", "Linked services", "Tap Link.", 3.1416)]
    assert (bot.model, bot.prompt_tokens, bot.completion_tokens, bot.latency_ms) == ("fake-bot", 100, 20, 55.0)
    assert [(u.speaker, u.text) for u in session.utterances()] == [
        ("user", "How do I link my account?"),
        ("bot", "Go to Settings > Account."),
    ]

    (j,) = session.judgments
    assert j == stored_judgment
    assert (j.message_id, j.turn, j.metric, j.version, j.score) == (bot_id, 1, "rubric", 1, 0.75)
    assert j.details == {"overall": 4, "comment": "ok"}
    assert j.prompt == [{"role": "user", "content": "judge this"}]
    assert (j.raw_reply, j.model, j.error, j.attempts, j.latency_ms) == ('{"overall": 4}', "fake-judge", None, 1, 12.5)
    assert j.scored


def test_japanese_text_round_trips(store: Store) -> None:
    sid = new_session(store, language="ja", scenario={"id": "x", "question": "ID連携の方法は？"})
    store.add_message(sid, 1, "user", "scenario", "ID連携の方法は？")
    session = store.session(sid)
    assert session.question == "ID連携の方法は？"
    assert session.scenario == {"id": "x", "question": "ID連携の方法は？"}
    assert session.messages[0].text == "ID連携の方法は？"


def test_unscored_judgment_round_trip(store: Store) -> None:
    """An unscored verdict stays unscored (None), keeping the judge's raw reply and the reason."""
    sid = new_session(store)
    mid = store.add_message(sid, 1, "bot", "bot", "answer")
    stored = store.add_judgment(sid, mid, 1, judgment(None))
    assert stored.score is None
    assert not stored.scored
    assert stored.raw_reply == "I cannot decide."
    assert stored.error == "no JSON object in the reply"
    assert stored.attempts == 2


def test_turns_counts_the_highest_turn(store: Store) -> None:
    sid = new_session(store)
    for turn in (1, 2, 3):
        store.add_message(sid, turn, "user", "simulator", f"u{turn}")
    store.add_message(sid, 2, "user", "operator", "late")
    assert store.session(sid).turns == 3


def test_rejudging_adds_versions(store: Store) -> None:
    """Re-judging a turn never overwrites: each (message, metric) gets version 1, 2, …"""
    sid = new_session(store)
    m1 = store.add_message(sid, 1, "bot", "bot", "one")
    m2 = store.add_message(sid, 2, "bot", "bot", "two")
    first = store.add_judgment(sid, m1, 1, judgment(0.5))
    second = store.add_judgment(sid, m1, 1, judgment(1.0))
    other_metric = store.add_judgment(sid, m1, 1, judgment(0.2, metric="faithfulness"))
    other_message = store.add_judgment(sid, m2, 2, judgment(0.9))
    assert (first.version, second.version) == (1, 2)
    assert other_metric.version == 1
    assert other_message.version == 1

    session = store.session(sid)
    assert [(j.turn, j.metric, j.version, j.score) for j in session.judgments] == [
        (1, "rubric", 1, 0.5),
        (1, "rubric", 2, 1.0),
        (1, "faithfulness", 1, 0.2),
        (2, "rubric", 1, 0.9),
    ]
    latest = session.latest_judgments()
    assert latest[(1, "rubric")].id == second.id
    assert latest[(1, "faithfulness")].id == other_metric.id
    assert latest[(2, "rubric")].id == other_message.id


# -- scores -----------------------------------------------------------------------------------


def test_refresh_score_averages_scored_and_counts_unscored(store: Store) -> None:
    sid = new_session(store)
    ids = [store.add_message(sid, turn, "bot", "bot", f"a{turn}") for turn in (1, 2, 3)]
    store.add_judgment(sid, ids[0], 1, judgment(0.4))
    store.add_judgment(sid, ids[1], 2, judgment(1.0))
    store.add_judgment(sid, ids[2], 3, judgment(None))
    store.add_judgment(sid, ids[0], 1, judgment(0.0, metric="other"))  # another metric: ignored

    score, unscored = store.refresh_score(sid, "rubric")
    assert score == pytest.approx(0.7)  # (0.4 + 1.0) / 2: the unscored turn is not a zero
    assert unscored == 1
    session = store.session(sid)
    assert session.score == pytest.approx(0.7)
    assert session.unscored_turns == 1


def test_refresh_score_uses_latest_version(store: Store) -> None:
    sid = new_session(store)
    mid = store.add_message(sid, 1, "bot", "bot", "a")
    store.add_judgment(sid, mid, 1, judgment(None))
    store.add_judgment(sid, mid, 1, judgment(0.8))
    assert store.refresh_score(sid, "rubric") == (pytest.approx(0.8), 0)
    store.add_judgment(sid, mid, 1, judgment(None))
    assert store.refresh_score(sid, "rubric") == (None, 1)


def test_refresh_score_none_when_nothing_scored(store: Store) -> None:
    sid = new_session(store)
    m1 = store.add_message(sid, 1, "bot", "bot", "a")
    m2 = store.add_message(sid, 2, "bot", "bot", "b")
    store.add_judgment(sid, m1, 1, judgment(None))
    store.add_judgment(sid, m2, 2, judgment(None))
    assert store.refresh_score(sid, "rubric") == (None, 2)
    assert store.session(sid).score is None


def test_refresh_score_without_judgments(store: Store) -> None:
    sid = new_session(store)
    assert store.refresh_score(sid, "rubric") == (None, 0)


def test_set_status(store: Store) -> None:
    sid = new_session(store)
    store.set_status(sid, "finished", "error", "judge unreachable")
    session = store.session(sid)
    assert (session.status, session.stop_reason, session.error) == ("finished", "error", "judge unreachable")


# -- listing and deleting ---------------------------------------------------------------------


def test_sessions_listing(store: Store) -> None:
    a = new_session(store, run_id="run-a")
    b = new_session(store, run_id="run-b")
    c = new_session(store, run_id="run-b")
    assert [s.id for s in store.sessions()] == [c, b, a]
    assert [s.id for s in store.sessions(limit=2)] == [c, b]
    assert [s.id for s in store.sessions(run_id="run-a")] == [a]
    assert store.latest_run_id() == "run-b"


def test_delete_session_cascades(store: Store) -> None:
    keep = new_session(store)
    gone = new_session(store)
    for sid in (keep, gone):
        mid = store.add_message(sid, 1, "bot", "bot", "a")
        store.add_judgment(sid, mid, 1, judgment(0.5))

    store.delete_session(gone)

    with pytest.raises(StoreError):
        store.session(gone)
    count = store._db.execute
    assert count("SELECT COUNT(*) FROM messages WHERE session_id = ?", [gone]).fetchone()[0] == 0
    assert count("SELECT COUNT(*) FROM judgments WHERE session_id = ?", [gone]).fetchone()[0] == 0
    kept = store.session(keep)
    assert len(kept.messages) == 1
    assert len(kept.judgments) == 1


def test_unknown_session(store: Store, tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no session 999") as info:
        store.session(999)
    assert str(tmp_path / "t.db") in str(info.value)
    with pytest.raises(StoreError, match="no session 999"):
        store.delete_session(999)


def test_message_for_unknown_session_is_refused(store: Store) -> None:
    """Foreign keys are enforced, so orphan messages cannot be written."""
    with pytest.raises(StoreError, match="record a message"):
        store.add_message(12345, 1, "user", "scenario", "orphan")


# -- dialogue judgments (schema 6) ------------------------------------------------------------


def dialogue_judgment(score: float | None, metric: str = "resolution", outcome: str = "resolved") -> Judgment:
    details = {"outcome": outcome, "threshold": 1.0} if metric == "resolution" else {"threshold": 1.0}
    return Judgment(metric=metric, score=score, details=details, error=None if score is not None else "unparsable")


def test_dialogue_judgments_are_versioned_per_session_and_metric(store: Store) -> None:
    sid = new_session(store)
    first = store.add_dialogue_judgment(sid, dialogue_judgment(1.0))
    second = store.add_dialogue_judgment(sid, dialogue_judgment(None))
    other = store.add_dialogue_judgment(sid, dialogue_judgment(0.5, "retention"))
    assert (first.version, second.version, other.version) == (1, 2, 1)
    assert (first.outcome, second.outcome) == ("resolved", None)  # no outcome without a score
    session = store.session(sid)
    assert [j.version for j in session.dialogue_judgments] == [1, 2, 1]
    latest = session.latest_dialogue_judgments()
    assert latest["resolution"].version == 2 and latest["resolution"].score is None
    assert latest["resolution"].error == "unparsable"


def test_dialogue_scores_and_resolution_rate_for_a_run(store: Store) -> None:
    from ragtui.core.store.dialogue_verdicts import resolution_rate

    ids = [new_session(store) for _ in range(4)]
    store.add_dialogue_judgment(ids[0], dialogue_judgment(1.0, outcome="resolved"))
    store.add_dialogue_judgment(ids[1], dialogue_judgment(0.0, outcome="handed_over"))
    store.add_dialogue_judgment(ids[2], dialogue_judgment(0.5, outcome="partly_resolved"))
    store.add_dialogue_judgment(ids[2], dialogue_judgment(0.0, outcome="unresolved"))  # newer version wins
    scores = store.dialogue_scores(ids)
    assert scores[ids[2]]["resolution"].outcome == "unresolved" and scores[ids[3]] == {}
    rate = resolution_rate(scores)
    assert (rate.successes, rate.scored, rate.unscored, rate.rate) == (2, 3, 1, pytest.approx(2 / 3))


def test_deleting_a_session_deletes_its_dialogue_judgments(store: Store) -> None:
    sid = new_session(store)
    store.add_dialogue_judgment(sid, dialogue_judgment(1.0))
    store.delete_session(sid)
    assert store._db.execute("SELECT COUNT(*) FROM dialogue_judgments").fetchone()[0] == 0


def test_a_version_2_database_is_upgraded_keeping_its_sessions(tmp_path: Path) -> None:
    from ragtui.core.store.schema import MIGRATIONS

    path = tmp_path / "old.db"
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.executescript(MIGRATIONS[0] + MIGRATIONS[1] + "PRAGMA user_version = 2;")
    store = Store.open(path)
    sid = new_session(store)
    store.add_message(sid, 1, "user", "simulator", "hi", sim_check={"retried": False})
    assert store.session(sid).messages[0].sim_check == {"retried": False}
    store.close()
    assert user_version(path) == LATEST_VERSION


def test_a_run_read_in_full_equals_its_sessions_read_one_by_one(store: Store) -> None:
    ids = [new_session(store) for _ in range(3)]
    other = new_session(store, run_id="run-2")
    for n, sid in enumerate([*ids, other]):
        store.add_message(sid, 1, "user", "scenario", f"question {n}")
        bot = store.add_message(sid, 1, "bot", "bot", f"answer {n}", usage=CallUsage(model="fake-bot"))
        store.add_judgment(sid, bot, 1, judgment(0.5 + n / 10))
        store.add_judgment(sid, bot, 1, judgment(None))  # a second version
        store.add_dialogue_judgment(sid, dialogue_judgment(1.0))
    store.add_partial(ids[1], 2, "bot", "half an ans", "the stream broke", 3)

    whole = store.run_sessions("run-1")

    assert [s.id for s in whole] == ids  # oldest first, only that run's
    assert whole == [store.session(sid) for sid in ids]
    assert [len(s.messages) for s in whole] == [2, 2, 2] and [len(s.judgments) for s in whole] == [2, 2, 2]
    assert [len(s.partials) for s in whole] == [0, 1, 0] and all(len(s.dialogue_judgments) == 1 for s in whole)
    assert store.run_sessions("no-such-run") == []


def test_a_metrics_calls_add_up_to_one_verdicts_usage():
    """Several calls of one verdict: the last model, the newest other model named, summed tokens
    and time (None only when no call reported them), one attempt per call."""
    calls = [
        CallUsage(model="j", prompt_tokens=10, completion_tokens=1, latency_ms=5.0),
        CallUsage(model="j", served_model="j-2026", prompt_tokens=None, completion_tokens=2, latency_ms=7.0),
        CallUsage(model="j", prompt_tokens=30, completion_tokens=None, latency_ms=1.0, finish_reason="stop"),
    ]
    total = CallUsage.of_calls(calls)
    assert total == CallUsage("j", "j-2026", 40, 3, 13.0, "stop", 3)
    assert CallUsage.of_calls([]) == CallUsage(attempts=0)
    assert CallUsage.of_calls([CallUsage(model="j")]).prompt_tokens is None

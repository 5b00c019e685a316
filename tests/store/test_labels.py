"""People's labels of bot turns: stored apart from verdicts, checked before anything is written,
one per person and turn; `ragtui label` and `ragtui labels list` from the command line."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.store.labels import default_labeller, label_queue, labels_where, save_label, session_labels
from ragtui.core.store.store import Store
from ragtui.core.types.errors import RagtuiError

from ..conftest import copy_of, endpoint_toml


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 2\ndatabase = "runs.db"\nlabeller = "rita"\n' + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    return path


@pytest.fixture
def ran(config_file: Path, recorded_pair: Path) -> Path:
    """A stored run of two 2-turn dialogues (every verdict 4/5 → 0.80), a copy of the one
    recorded once per worker, in the config's database; returns the database."""
    return copy_of(recorded_pair, config_file.parent / "runs.db")


def table_dump(db: Path) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return [
            *conn.execute("SELECT * FROM labels ORDER BY id").fetchall(),
            *conn.execute("SELECT id, score, version FROM judgments ORDER BY id").fetchall(),
            *conn.execute("SELECT id, score FROM sessions ORDER BY id").fetchall(),
        ]
    finally:
        conn.close()


def test_a_label_is_stored_apart_from_verdicts_and_replaced_by_the_same_person(ran: Path):
    store = Store.open(ran)
    try:
        before = store.session(1)
        first = save_label(store, 1, 2, score=2, agree=False, note=" too vague ", labeller="ann")
        assert (first.score, first.agree, first.note, first.judgment_version) == (2, False, "too vague", 1)
        save_label(store, 1, 2, score=3, labeller="ann")  # ann changes her mind: replaced
        save_label(store, 1, 2, agree=True, labeller="bob")
        labels = session_labels(store, 1)
        assert [(lab.labeller, lab.score, lab.agree) for lab in labels] == [("ann", 3, None), ("bob", None, True)]
        after = store.session(1)
        assert after.score == before.score and len(after.judgments) == len(before.judgments)
    finally:
        store.close()


@pytest.mark.parametrize(
    ("session", "turn", "kwargs", "message"),
    [
        (1, 3, {"score": 4}, "session 1 has no bot answer in turn 3"),
        (9, 1, {"score": 4}, "no session 9"),
        (1, 1, {"score": 6}, "score must be 1–5, got 6"),
        (1, 1, {"score": 0}, "score must be 1–5, got 0"),
        (1, 1, {}, "a label needs a score"),
        (1, 1, {"agree": True, "metric": "faithfulness"}, "has no faithfulness verdict to agree or disagree with"),
    ],
)
def test_bad_labels_name_the_problem_and_change_nothing(ran: Path, session, turn, kwargs, message):
    store = Store.open(ran)
    try:
        save_label(store, 1, 1, score=5, labeller="ann")
        before = table_dump(ran)
        with pytest.raises(RagtuiError, match=message):
            save_label(store, session, turn, labeller="ann", **kwargs)
        assert table_dump(ran) == before
    finally:
        store.close()


def test_the_queue_lists_every_bot_turn_and_what_this_person_labelled(ran: Path):
    store = Store.open(ran)
    try:
        save_label(store, 2, 1, score=4, labeller="ann")
        queue = label_queue(store, "ann")
        assert [(q.session_id, q.turn, q.labelled) for q in queue] == [
            (1, 1, False),
            (1, 2, False),
            (2, 1, True),
            (2, 2, False),
        ]
        assert not any(q.labelled for q in label_queue(store, "bob"))
        assert label_queue(store, "ann", run_id="no-such-run") == []
    finally:
        store.close()


def test_default_labeller_is_the_configured_name_else_the_os_user():
    assert default_labeller("rita") == "rita"
    assert default_labeller(None)


def test_cli_label_stores_the_configured_labeller(ran: Path, config_file: Path, capsys):
    assert main(["label", "1", "2", "--score", "4", "--note", "ok", "--agree", "--config", str(config_file)]) == 0
    assert "Labelled session 1 turn 2 (rubric): 4/5 · agrees with v1 · rita" in capsys.readouterr().out
    store = Store.open(ran)
    try:
        (label,) = labels_where(store)
        assert (label.labeller, label.score, label.agree, label.note) == ("rita", 4, True, "ok")
    finally:
        store.close()
    assert main(["labels", "list", "--run", "last", "--config", str(config_file)]) == 0
    assert "rita" in capsys.readouterr().out
    assert main(["show", "1", "--config", str(config_file)]) == 0
    assert "label (rubric): 4/5 · agrees with v1 · rita — ok" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["1", "7", "--score", "3"], "session 1 has no bot answer in turn 7"),
        (["1", "1", "--score", "9"], "score must be 1–5, got 9"),
    ],
)
def test_cli_label_errors_are_one_line_and_store_nothing(ran: Path, config_file: Path, capsys, args, message):
    before = table_dump(ran)
    assert main(["label", *args, "--config", str(config_file)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert table_dump(ran) == before


def test_the_queue_can_leave_out_turns_without_a_verdict(ran: Path):
    store = Store.open(ran)
    try:
        store._db.execute("DELETE FROM judgments WHERE session_id = 1 AND turn = 2 AND metric = 'rubric'")
        store._db.conn.commit()
        everything = label_queue(store, "ann")
        assert [(q.session_id, q.turn, q.judged) for q in everything][:2] == [(1, 1, True), (1, 2, False)]
        judged = label_queue(store, "ann", judged_only=True)
        assert [(q.session_id, q.turn) for q in judged] == [(1, 1), (2, 1), (2, 2)]
    finally:
        store.close()

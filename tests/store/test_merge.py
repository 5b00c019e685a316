"""`ragtui merge`: runs of other databases copied in with fresh ids and their provenance; the
same source twice adds nothing; a bad source or overlapping shards change nothing."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.store import run_plan
from ragtui.core.store.labels import save_label
from ragtui.core.store.merge import MERGED, NOT_MERGED, merge, open_sources
from ragtui.core.store.run_plan import PlannedPair
from ragtui.core.store.schema import LATEST_VERSION
from ragtui.core.store.store import Store
from ragtui.core.types.judgments import Judgment
from ragtui.core.types.personas import Persona
from stand_ins.synthetic_runs import write_dialogue

COUNTED = ("sessions", "messages", "judgments", "partial_replies", "dialogue_judgments", "labels", "run_plan")


def counts(path: Path) -> dict[str, int]:
    db = sqlite3.connect(path)
    out = {t: db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in (*COUNTED, "merged_sessions")}
    db.close()
    return out


def source_db(path: Path, run_id: str = "r1") -> Path:
    """A database with a bit of everything: verdict versions, a label, a partial reply, dialogue
    verdicts, a fork of one session and a replay of another, and the run's plan."""
    store = Store.open(path)
    verdicts = {"resolution": (1.0, "resolved"), "repetition": (1.0, None)}
    first = write_dialogue(store, run_id, "outage", "calm", [0.9, 0.5], verdicts=verdicts)
    second = write_dialogue(store, run_id, "refund", "angry", [0.4], verdicts=verdicts)
    run_plan.store_plan(
        store,
        run_id,
        [
            PlannedPair({"id": "outage"}, Persona("calm", "en", "p")),
            PlannedPair({"id": "refund"}, Persona("angry", "en", "p")),
        ],
        max_turns=2,
        threshold=0.7,
        metrics=[],
        models={},
    )
    store.write(
        "link",
        lambda: store._db.conn.execute(
            "UPDATE run_plan SET session_id = CASE position WHEN 0 THEN ? ELSE ? END", [first, second]
        ),
    )
    bot = store._db.execute("SELECT id FROM messages WHERE session_id = ? AND role = 'bot'", [first]).fetchone()[0]
    store.add_judgment(first, bot, 1, Judgment("rubric", 0.7, {"conclusion": "again"}, raw_reply="y"))  # version 2
    store.add_dialogue_judgment(first, Judgment("resolution", 0.5, {"outcome": "partly_resolved"}, raw_reply="z"))
    save_label(store, first, 1, score=4, agree=True, labeller="ana")
    store.add_partial(second, 1, "bot", "half an ans", "stream cut", 3)
    scenario = {"id": "outage", "question": "outage?", "language": "en"}
    persona = Persona("calm", "en", "p")
    common = {"config": {}, "language": "en", "max_turns": 2, "threshold": 0.7, "metrics": ["rubric"]}
    store.create_session(
        scenario=scenario, persona=persona, run_id=None, parent_session_id=first, fork_turn=1, **common
    )
    store.create_session(scenario=scenario, persona=persona, run_id="replay1", replay_of=first, **common)
    store.close()
    return path


def run_merge(dest: Path, *sources: Path) -> list:
    stores = open_sources(list(sources), dest)
    target = Store.open(dest)
    try:
        return merge(target, list(zip(sources, stores, strict=True)))
    finally:
        target.close()
        for s in stores:
            s.close()


def test_every_table_is_merged_or_listed_as_not_merged(tmp_path: Path):
    store = Store.open(tmp_path / "x.db")
    tables = {r[0] for r in store._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()}
    assert tables == set(MERGED) | set(NOT_MERGED), "a new table must be merged or listed in NOT_MERGED"
    assert not set(MERGED) & set(NOT_MERGED)
    for table, references in MERGED.items():
        keys = {r[3]: r[2] for r in store._db.execute(f"PRAGMA foreign_key_list({table})").fetchall()}
        # Every column holding another row's id is rewritten to the fresh id, none copied stale.
        assert keys == references, table
    store.close()


def test_merge_copies_everything_with_fresh_ids_and_provenance(tmp_path: Path):
    source = source_db(tmp_path / "a.db")
    dest = tmp_path / "dest.db"
    write_dialogue(Store.open(dest), "local", "outage", "calm", [0.8])  # DEST's own ids come first
    results = run_merge(dest, source)
    assert results[0].added == 4 and results[0].skipped == 0 and results[0].runs == ["r1", "replay1"]
    before, after = counts(source), counts(dest)
    for table in COUNTED:
        local = {"sessions": 1, "messages": 2, "judgments": 1}.get(table, 0)
        assert after[table] == before[table] + local, table
    db = sqlite3.connect(dest)
    ids = [r[0] for r in db.execute("SELECT id FROM sessions WHERE run_id = 'r1' ORDER BY id")]
    assert ids == [2, 3]  # fresh ids after DEST's own
    # Lineage follows the fresh ids; verdict versions, labels and the plan point at the copies.
    fork, replay = db.execute("SELECT parent_session_id, replay_of FROM sessions WHERE id IN (4, 5) ORDER BY id")
    assert fork == (2, None) and replay == (None, 2)
    assert db.execute("SELECT MAX(version) FROM judgments WHERE session_id = 2 AND turn = 1").fetchone()[0] == 2
    assert db.execute("SELECT COUNT(*) FROM dialogue_judgments WHERE session_id = 2").fetchone()[0] == 3
    label = db.execute(
        "SELECT l.session_id, m.session_id, j.session_id FROM labels l JOIN messages m "
        "ON m.id = l.message_id JOIN judgments j ON j.id = l.judgment_id"
    ).fetchone()
    assert label == (2, 2, 2)
    assert db.execute("SELECT session_id FROM run_plan WHERE run_id = 'r1' ORDER BY position").fetchall() == [
        (2,),
        (3,),
    ]
    provenance = db.execute(
        "SELECT session_id, source_session_id, source_path FROM merged_sessions ORDER BY session_id"
    ).fetchall()
    assert provenance == [(2, 1, str(source)), (3, 2, str(source)), (4, 3, str(source)), (5, 4, str(source))]


def test_merging_the_same_source_again_adds_nothing(tmp_path: Path):
    source = source_db(tmp_path / "a.db")
    dest, other = tmp_path / "dest.db", tmp_path / "other.db"
    run_merge(dest, source)
    once = counts(dest)
    copy = tmp_path / "elsewhere" / "renamed.db"
    copy.parent.mkdir()
    shutil.copy(source, copy)
    results = run_merge(dest, source, copy)  # again, and as a copy at another path
    assert [r.added for r in results] == [0, 0] and [r.skipped for r in results] == [4, 4]
    assert counts(dest) == once
    # Through another merged database: the sessions' origin is the first file, still known.
    run_merge(other, source)
    assert run_merge(dest, other)[0].added == 0 and counts(dest) == once


def test_diverged_copies_are_not_the_same_sessions(tmp_path: Path):
    """A copy of a database in which new runs were made: its new sessions reuse ids the
    original also gives out, but they are other dialogues and are merged."""
    source = source_db(tmp_path / "a.db")
    copy = tmp_path / "b.db"
    shutil.copy(source, copy)
    write_dialogue(Store.open(source), "only-a", "outage", "calm", [0.3])
    write_dialogue(Store.open(copy), "only-b", "outage", "calm", [0.6])
    dest = tmp_path / "dest.db"
    results = run_merge(dest, source, copy)
    assert [(r.added, r.skipped) for r in results] == [(5, 0), (1, 4)]
    db = sqlite3.connect(dest)
    assert {r[0] for r in db.execute("SELECT run_id FROM sessions")} == {None, "r1", "replay1", "only-a", "only-b"}


def test_merging_into_itself_adds_nothing(tmp_path: Path, capsys):
    source = source_db(tmp_path / "a.db")
    assert main(["merge", str(source), "--db", str(source)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is the destination database itself" in err


def test_a_newer_or_foreign_source_is_refused_and_nothing_changes(tmp_path: Path, capsys):
    good = source_db(tmp_path / "a.db")
    newer = source_db(tmp_path / "newer.db", run_id="r2")
    with closing(sqlite3.connect(newer)) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    newer_bytes = newer.read_bytes()
    foreign = tmp_path / "foreign.db"
    with closing(sqlite3.connect(foreign)) as conn:
        conn.execute("CREATE TABLE t (x)")
    text = tmp_path / "notes.txt"
    text.write_text("not a database", encoding="utf-8")
    dest = tmp_path / "dest.db"
    assert main(["merge", str(good), "--db", str(dest)]) == 0
    capsys.readouterr()
    before = counts(dest)
    for bad, words in ((newer, "newer than this ragtui"), (foreign, "no ragtui tables"), (text, "cannot merge")):
        assert main(["merge", str(good), str(bad), "--db", str(dest)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err and str(bad) in err
        assert counts(dest) == before
    assert newer.read_bytes() == newer_bytes  # refused untouched
    fresh = tmp_path / "fresh.db"
    assert main(["merge", str(foreign), "--db", str(fresh)]) == 2
    assert not fresh.exists()
    capsys.readouterr()
    foreign_bytes = foreign.read_bytes()
    for dest_bad in (foreign, text):  # ragtui's tables never go into another program's file
        assert main(["merge", str(good), "--db", str(dest_bad)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"cannot merge into {dest_bad}" in err
    assert foreign.read_bytes() == foreign_bytes and text.read_text(encoding="utf-8") == "not a database"
    assert main(["merge", str(good)]) == 2
    assert "needs --db DEST" in capsys.readouterr().err


def shard_db(path: Path, shard: int, positions: list[int], names: list[str]) -> Path:
    store = Store.open(path)
    pairs = [PlannedPair({"id": n}, Persona("calm", "en", "p")) for n in names]
    run_plan.store_plan(
        store,
        "ci-1",
        pairs,
        max_turns=1,
        threshold=0.7,
        metrics=[],
        models={},
        positions=positions,
        shard=(shard, 2, 4),
    )
    for entry in run_plan.entries(store, "ci-1"):
        sid = write_dialogue(store, "ci-1", entry.scenario_id, "calm", [0.9])
        store.write("link", lambda e=entry, s=sid: run_plan.link_session(store, e.id, s))
    store.close()
    return path


def test_two_shards_merge_into_one_run_and_overlapping_ones_are_refused(tmp_path: Path, capsys):
    one = shard_db(tmp_path / "1.db", 1, [0, 2], ["a", "c"])
    two = shard_db(tmp_path / "2.db", 2, [1, 3], ["b", "d"])
    dest = tmp_path / "dest.db"
    assert main(["merge", str(one), "--db", str(dest)]) == 0
    assert main(["merge", str(two), "--db", str(dest)]) == 0
    out = capsys.readouterr().out
    assert "2 session(s) added (ci-1), 0 already in" in out
    db = sqlite3.connect(dest)
    plan = db.execute("SELECT position, scenario_id, session_id IS NOT NULL FROM run_plan ORDER BY position").fetchall()
    assert plan == [(0, "a", 1), (1, "b", 1), (2, "c", 1), (3, "d", 1)]
    assert db.execute("SELECT shard, shards, planned FROM run_shards ORDER BY shard").fetchall() == [
        (1, 2, 4),
        (2, 2, 4),
    ]
    db.close()
    html = tmp_path / "r.html"
    assert main(["report", f"{dest}:ci-1", "--html", str(html)]) == 0
    assert "run ci-1 merged from all 2 shards (4 planned dialogue(s))" in html.read_text(encoding="utf-8")
    assert main(["report", f"{one}:ci-1", "--html", str(html)]) == 0
    assert "shard 1/2 of run ci-1: 2 of the plan&#x27;s 4 dialogue(s)" in html.read_text(encoding="utf-8")
    before = counts(dest)
    again = shard_db(tmp_path / "again.db", 1, [0, 2], ["a", "c"])  # shard 1/2 run a second time
    assert main(["merge", str(again), "--db", str(dest)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the shards overlap" in err and "a × calm trial 1 of run ci-1" in err
    assert counts(dest) == before


@pytest.mark.parametrize("shards", [3])
def test_shards_split_differently_are_refused(tmp_path: Path, capsys, shards: int):
    one = shard_db(tmp_path / "1.db", 1, [0, 2], ["a", "c"])
    other = Store.open(tmp_path / "o.db")
    run_plan.store_plan(
        other,
        "ci-1",
        [PlannedPair({"id": "x"}, Persona("calm", "en", "p"))],
        max_turns=1,
        threshold=0.7,
        metrics=[],
        models={},
        positions=[1],
        shard=(2, shards, 6),
    )
    other.close()
    dest = tmp_path / "dest.db"
    assert main(["merge", str(one), str(tmp_path / "o.db"), "--db", str(dest)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "split into 3 shards" in err
    assert not dest.exists()

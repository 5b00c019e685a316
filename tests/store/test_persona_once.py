"""A dialogue's persona is stored once: on its plan entry until the entry has a session, then
on the session alone. A database from before (both copies, migration 18 not run) still opens,
shows its personas, and keeps one copy; merging keeps one copy too."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from ragtui.core.store import run_plan
from ragtui.core.store.merge import merge, open_sources
from ragtui.core.store.run_plan import PlannedPair
from ragtui.core.store.schema import LATEST_VERSION, MIGRATIONS, split_statements
from ragtui.core.store.store import Store
from ragtui.core.types.personas import Persona

from ..fakes.database_text import occurrences

RAN = Persona("ran", "en", "- Only the ran persona says quokka-ran-5521.", 0.4, goal="a refund")
WAITING = Persona("waiting", "en", "- Only the waiting persona says quokka-waiting-9038.")


def old_database(path: Path) -> None:
    """A database as ragtui left it before migration 18: a run whose first plan entry has its
    session, both holding the persona, and whose second entry never started."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        for step in MIGRATIONS[:17]:
            if callable(step):
                step(conn)
            else:
                for statement in split_statements(step):
                    conn.execute(statement)
        conn.execute("PRAGMA user_version = 17")
        scenario = json.dumps({"id": "outage", "question": "Is it down?", "language": "en"})
        conn.execute(
            "INSERT INTO sessions (run_id, created_at, updated_at, language, scenario_id, question, scenario, "
            "persona_name, persona, config, max_turns, threshold, metrics, status, stop_reason) "
            "VALUES ('r1', 't', 't', 'en', 'outage', 'Is it down?', ?, 'ran', ?, '{}', 2, 0.7, '[]', 'finished', 'done')",
            [scenario, json.dumps(RAN.to_dict())],
        )
        for position, persona, session in ((0, RAN, 1), (1, WAITING, None)):
            conn.execute(
                "INSERT INTO run_plan (run_id, position, scenario_id, persona_name, trial, scenario, persona, "
                "max_turns, threshold, metrics, models, session_id, created_at) "
                "VALUES ('r1', ?, 'outage', ?, 1, ?, ?, 2, 0.7, '[]', '{}', ?, 't')",
                [position, persona.name, scenario, json.dumps(persona.to_dict()), session],
            )


def test_an_old_database_opens_shows_its_personas_and_keeps_one_copy(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old_database(path)
    assert occurrences(path, "quokka-ran-5521") == 2  # the duplicate this version removes
    store = Store.open(path)
    try:
        assert store.session(1).persona == RAN
        ran, waiting = run_plan.entries(store, "r1")
        assert (ran.session_id, ran.persona) == (1, RAN)  # read from its session
        assert (waiting.session_id, waiting.persona) == (None, WAITING)  # still its own: it has no session
    finally:
        store.close()
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
        columns = {row[1]: row for row in conn.execute("PRAGMA table_info(run_plan)")}
        assert columns["persona"][3] == 0  # may be NULL now
        indexes = {row[1] for row in conn.execute("PRAGMA index_list(run_plan)")}
        assert "run_plan_by_session" in indexes
    assert occurrences(path, "quokka-ran-5521") == 1
    assert occurrences(path, "quokka-waiting-9038") == 1


def test_a_planned_dialogue_moves_its_persona_to_its_session(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "new.db")
    try:
        entry, _ = run_plan.store_plan(
            store,
            "r2",
            [
                PlannedPair({"id": "outage", "question": "q"}, RAN),
                PlannedPair({"id": "outage", "question": "q"}, WAITING),
            ],
            max_turns=2,
            threshold=0.7,
            metrics=[],
            models={},
        )
        assert entry.persona is RAN  # the entry as planned carries the object it was given
        assert occurrences(store.path, "quokka-ran-5521") == 1
        session = store.create_session(
            scenario=entry.scenario,
            persona=entry.persona,
            config={},
            language="en",
            max_turns=2,
            threshold=0.7,
            metrics=[],
            run_id="r2",
            plan_entry=entry.id,
        )
        assert occurrences(store.path, "quokka-ran-5521") == 1
        assert [(e.session_id, e.persona) for e in run_plan.entries(store, "r2")] == [(session, RAN), (None, WAITING)]
    finally:
        store.close()


def test_merging_keeps_one_copy_and_every_entry_its_persona(tmp_path: Path) -> None:
    source, dest = tmp_path / "old.db", tmp_path / "merged.db"
    old_database(source)
    Store.open(dest).close()
    stores = open_sources([source], dest)
    target = Store.open(dest)
    try:
        merge(target, [(source, stores[0])])
        (session,) = target.sessions()
        ran, waiting = run_plan.entries(target, "r1")
        assert (ran.session_id, ran.persona, waiting.persona) == (session.id, RAN, WAITING)
    finally:
        target.close()
        stores[0].close()
    assert occurrences(dest, "quokka-ran-5521") == 1

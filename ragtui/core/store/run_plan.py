"""A run's plan in SQLite (table from schema migration 10): every dialogue a run means to run.

Written in one transaction before any dialogue of the run starts (by the process that starts
the workers, with ``--workers``), so nothing planned depends on a process living long enough to
create its sessions: ``ragtui run --resume`` starts the entries that have no session yet and
continues the ones that do. An entry is linked to its session in the same transaction that
creates the session, and only while it has none, so an entry never gets two sessions even when
two processes resume the run at once. Runs from before the plan existed have no entries; they
resume from their sessions alone, as they always did.

A dialogue's persona is stored once: on its plan entry until the entry has a session, then on
the session alone (the entry's copy is cleared in the transaction that links them, and read
back from the session).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..types.personas import Persona
from .rows import insert_row, now, persona_json
from .run_shards import insert_shard

if TYPE_CHECKING:
    from .database import Database


@dataclass(frozen=True)
class PlannedPair:
    """One dialogue a run is about to plan: a scenario (as stored) and a persona."""

    scenario: dict[str, Any]
    persona: Persona
    trial: int = 1


@dataclass
class PlanEntry:
    id: int
    run_id: str
    position: int
    scenario_id: str
    persona_name: str
    trial: int
    scenario: dict[str, Any]
    persona: Persona
    max_turns: int
    threshold: float
    metrics: list[str]
    models: dict[str, str]
    session_id: int | None
    created_at: str


class PlanTaken(Exception):
    """The plan entry got its session from another process first: nothing was written."""


def store_plan(
    store: Database,
    run_id: str,
    pairs: list[PlannedPair],
    *,
    max_turns: int,
    threshold: float,
    metrics: list[str],
    models: dict[str, str],
    positions: list[int] | None = None,
    shard: tuple[int, int, int] | None = None,
) -> list[PlanEntry]:
    """Record the run's plan, all of it or nothing (one transaction), and return its entries as
    planned: each holds the very persona (and scenario) it was given, not a copy read back.
    ``positions``: each pair's place in the whole plan when this is a shard's slice of it
    (default 0, 1, …); ``shard``: (I, N, dialogues in the whole plan), stored in the same
    transaction (run_shards.py)."""
    stamp = now()
    places = positions if positions is not None else list(range(len(pairs)))

    def insert() -> list[PlanEntry]:
        if shard is not None:
            insert_shard(store, run_id, *shard)
        planned = []
        for position, pair in zip(places, pairs, strict=True):
            entry = PlanEntry(
                id=0,
                run_id=run_id,
                position=position,
                scenario_id=pair.scenario["id"],
                persona_name=pair.persona.name,
                trial=pair.trial,
                scenario=pair.scenario,
                persona=pair.persona,
                max_turns=max_turns,
                threshold=threshold,
                metrics=list(metrics),
                models=dict(models),
                session_id=None,
                created_at=stamp,
            )
            entry.id = insert_row(store._db.conn, "run_plan", _row(entry))
            planned.append(entry)
        return planned

    return store.write("record the run's plan", insert)


def _row(entry: PlanEntry) -> dict[str, Any]:
    return {
        "run_id": entry.run_id,
        "position": entry.position,
        "scenario_id": entry.scenario_id,
        "persona_name": entry.persona_name,
        "trial": entry.trial,
        "scenario": json.dumps(entry.scenario, ensure_ascii=False),
        "persona": persona_json(entry.persona),
        "max_turns": entry.max_turns,
        "threshold": entry.threshold,
        "metrics": json.dumps(entry.metrics),
        "models": json.dumps(entry.models, ensure_ascii=False),
        "created_at": entry.created_at,
    }


def entries(store: Database, run_id: str) -> list[PlanEntry]:
    """The run's plan in its order; empty for a run planned before plans were stored. An entry
    with a session has its persona from that session (where it is stored, see above)."""
    rows = store._db.execute(
        "SELECT p.*, COALESCE(p.persona, s.persona) AS persona FROM run_plan p "
        "LEFT JOIN sessions s ON s.id = p.session_id WHERE p.run_id = ? ORDER BY p.position",
        [run_id],
    )
    columns = [d[0] for d in rows.description]
    out = []
    for values in rows.fetchall():
        # The joined ``persona`` comes last, so it is the one the dict keeps.
        row = dict(zip(columns, values, strict=True))
        for key in ("scenario", "metrics", "models"):
            row[key] = json.loads(row[key])
        row["persona"] = Persona.from_record(json.loads(row["persona"] or "{}"))
        out.append(PlanEntry(**row))
    return out


def link_session(store: Database, entry_id: int, session_id: int) -> None:
    """Inside the write that created ``session_id``: make it the entry's session, unless the
    entry already has one (then the whole write is rolled back, see ``PlanTaken``)."""
    # The session now holds the persona: the entry's copy goes (stored once per dialogue).
    cursor = store._db.conn.execute(
        "UPDATE run_plan SET session_id = ?, persona = NULL WHERE id = ? AND session_id IS NULL", [session_id, entry_id]
    )
    if cursor.rowcount != 1:
        raise PlanTaken(f"plan entry {entry_id} already has a session")
    # The session is the entry's trial: read from `sessions` alone by pass^k, export and listings.
    store._db.conn.execute(
        "UPDATE sessions SET trial = (SELECT trial FROM run_plan WHERE id = ?) WHERE id = ?", [entry_id, session_id]
    )


def session_trials(store: Database, run_id: str) -> tuple[dict[int, int], int]:
    """Session id → its trial, and the most trials the run plans for a pair (K of
    ``--repeat K``; from its sessions for a run planned before plans were stored)."""
    trials = dict(store._db.execute("SELECT id, trial FROM sessions WHERE run_id = ?", [run_id]).fetchall())
    planned = store._db.execute("SELECT MAX(trial) FROM run_plan WHERE run_id = ?", [run_id]).fetchone()[0]
    return trials, max([planned or 1, *trials.values()])


def latest_planned_run(store: Database) -> tuple[str, str] | None:
    """(created_at, run id) of the newest plan, or None."""
    row = store._db.execute("SELECT created_at, run_id FROM run_plan ORDER BY id DESC LIMIT 1").fetchone()
    return (row[0], row[1]) if row else None

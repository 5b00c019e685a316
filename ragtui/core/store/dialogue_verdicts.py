"""Dialogue judgments in SQLite (table from schema migration 7): verdicts on a whole session.

Versioned like turn judgments — judging a dialogue again adds version N+1 beside the earlier
ones — and committed one by one as each metric finishes. ``latest_for_sessions`` is how other
views (the run summary, export, compare) read a dialogue's scores without loading transcripts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..registry.metrics import RESOLUTION_RATE, gate_metric, success_outcomes
from ..types.stored import DIALOGUE_VERDICTS, StoredDialogueJudgment
from .rows import decode_dialogue_row, insert_row, judgment_columns

if TYPE_CHECKING:
    from ..types.judgments import Judgment
    from .database import Database

__all__ = ["StoredDialogueJudgment", "add", "for_run", "for_session", "latest_for_sessions", "resolution_rate"]


def add(store: Database, session_id: int, judgment: Judgment) -> StoredDialogueJudgment:
    def insert() -> int:
        # One transaction (Store.write): the version is read under the write lock.
        version = store._db.execute(
            "SELECT COALESCE(MAX(version), 0) + 1 FROM dialogue_judgments WHERE session_id = ? AND metric = ?",
            [session_id, judgment.metric],
        ).fetchone()[0]
        outcome = judgment.details.get("outcome") if judgment.score is not None else None
        row = {"session_id": session_id, "version": version, "outcome": outcome, **judgment_columns(judgment)}
        return insert_row(store._db.conn, "dialogue_judgments", row)

    pk = store.write("record a dialogue judgment", insert)
    return decode_dialogue_row(
        next(iter(store._db["dialogue_judgments"].rows_where("id = ?", [pk]))), store.agreement_lookup
    )


def for_session(store: Database, session_id: int) -> list[StoredDialogueJudgment]:
    """Every version, oldest first."""
    rows = store._db["dialogue_judgments"].rows_where("session_id = ?", [session_id], order_by="id")
    return [decode_dialogue_row(r, store.agreement_lookup) for r in rows]


def for_run(store: Database, run_id: str) -> list[StoredDialogueJudgment]:
    """Every version of every session of a run, oldest first."""
    rows = store._db["dialogue_judgments"].rows_where(
        "session_id IN (SELECT id FROM sessions WHERE run_id = ?)", [run_id], order_by="id"
    )
    return [decode_dialogue_row(r, store.agreement_lookup) for r in rows]


def latest_for_sessions(store: Database, session_ids: list[int]) -> dict[int, dict[str, StoredDialogueJudgment]]:
    """session id → metric → newest dialogue judgment, for many sessions in one query."""
    if not session_ids:
        return {}
    marks = ",".join("?" * len(session_ids))
    rows = store._db.execute(
        f"SELECT * FROM dialogue_judgments d WHERE d.session_id IN ({marks}) AND "
        + DIALOGUE_VERDICTS.is_newest_sql("d"),
        list(session_ids),
    )
    columns = [c[0] for c in rows.description]
    out: dict[int, dict[str, StoredDialogueJudgment]] = {sid: {} for sid in session_ids}
    for values in rows.fetchall():
        j = decode_dialogue_row(dict(zip(columns, values, strict=True)), store.agreement_lookup)
        out[j.session_id][j.metric] = j
    return out


@dataclass(frozen=True)
class ResolutionRate:
    """A run's share of dialogues whose verdict of the metric that makes the resolution rate
    (``gates = RESOLUTION_RATE``) has one of its success outcomes; unscored dialogues are counted
    apart, never as failures."""

    successes: int
    scored: int
    unscored: int  # finished dialogues whose resolution verdict is unscored or missing

    @property
    def rate(self) -> float | None:
        return self.successes / self.scored if self.scored else None


def resolution_rate(latest_by_session: dict[int, dict[str, StoredDialogueJudgment]]) -> ResolutionRate:
    metric = gate_metric(RESOLUTION_RATE)
    outcomes = [verdicts.get(metric) for verdicts in latest_by_session.values()]
    scored = [j for j in outcomes if j is not None and j.score is not None]
    successes = success_outcomes(metric)
    return ResolutionRate(
        successes=sum(1 for j in scored if j.outcome in successes),
        scored=len(scored),
        unscored=len(outcomes) - len(scored),
    )

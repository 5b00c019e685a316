"""The SQL behind the run views that read a whole run without loading its transcripts as
sessions (``runs.dialogues``, ``runs.low_agreement``, the report's trend and agreement lines):
only the columns they need, in one query per table. Each function returns rows; the views
give them meaning."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..types.stored import DIALOGUE_VERDICTS, TURN_VERDICTS
from .store import Store


def run_sessions(store: Store, run_id: str) -> list[tuple[Any, ...]]:
    """(id, scenario id, persona name, language, score, threshold, stop reason, turns, unscored
    turns, trial) of the run's sessions, oldest first."""
    return store._db.execute(
        "SELECT id, scenario_id, persona_name, language, score, threshold, stop_reason, turns, unscored_turns, "
        "trial FROM sessions WHERE run_id = ? ORDER BY id",
        [run_id],
    ).fetchall()


def run_texts(store: Store, run_id: str) -> list[tuple[int, int, str, str]]:
    """(session id, turn, role, text) of every message of the run, in the order written."""
    return store._db.execute(
        "SELECT m.session_id, m.turn, m.role, m.text FROM messages m JOIN sessions s ON s.id = m.session_id "
        "WHERE s.run_id = ? ORDER BY m.id",
        [run_id],
    ).fetchall()


def run_turn_verdicts(store: Store, run_id: str) -> list[tuple[Any, ...]]:
    """(session id, turn, metric, score, agreement, judge key, threshold, skipped) of every turn
    verdict of the run, ordered by version: the newest of each turn and metric comes last."""
    return store._db.execute(
        "SELECT j.session_id, j.turn, j.metric, j.score, json_extract(j.details, '$.agreement'), "
        "json_extract(j.details, '$.judge_key'), json_extract(j.details, '$.threshold'), "
        "json_extract(j.details, '$.skipped') FROM judgments j JOIN sessions s ON s.id = j.session_id "
        "WHERE s.run_id = ? ORDER BY j.session_id, j.turn, j.metric, j.version",
        [run_id],
    ).fetchall()


def run_dialogue_verdicts(store: Store, run_id: str) -> list[tuple[Any, ...]]:
    """(session id, metric, score, outcome, threshold, skipped, agreement, judge key) of every
    dialogue verdict of the run — not its prompts or raw replies — newest version last."""
    return store._db.execute(
        "SELECT d.session_id, d.metric, d.score, d.outcome, json_extract(d.details, '$.threshold'), "
        "json_extract(d.details, '$.skipped'), json_extract(d.details, '$.agreement'), "
        "json_extract(d.details, '$.judge_key') FROM dialogue_judgments d "
        "JOIN sessions s ON s.id = d.session_id WHERE s.run_id = ? ORDER BY d.session_id, d.metric, d.version",
        [run_id],
    ).fetchall()


def run_expectation_results(store: Store, run_id: str, metric: str) -> list[tuple[Any, ...]]:
    """(session id, version, expectation id, status, text, origin, turn): one row per result of
    every ``metric`` verdict (json_each over its results) of the run, by session and version."""
    return store._db.execute(
        "SELECT d.session_id, d.version, json_extract(r.value, '$.expectation.id'), json_extract(r.value, '$.status'), "
        "json_extract(r.value, '$.expectation.text'), json_extract(r.value, '$.expectation.origin'), "
        "json_extract(r.value, '$.turn') FROM dialogue_judgments d JOIN sessions s ON s.id = d.session_id, "
        "json_each(d.details, '$.results') r WHERE s.run_id = ? AND d.metric = ? "
        "ORDER BY d.session_id, d.version",
        [run_id, metric],
    ).fetchall()


def newest_verdict_details(store: Store, run_id: str) -> list[str | None]:
    """The details JSON of the newest turn verdicts, then of the newest dialogue verdicts, of the run."""
    queries = (
        "SELECT j.details FROM judgments j JOIN sessions s ON s.id = j.session_id WHERE s.run_id = ? AND "
        + TURN_VERDICTS.is_newest_sql("j"),
        "SELECT d.details FROM dialogue_judgments d JOIN sessions s ON s.id = d.session_id WHERE s.run_id = ? AND "
        + DIALOGUE_VERDICTS.is_newest_sql("d"),
    )
    return [text for sql in queries for (text,) in store._db.execute(sql, [run_id]).fetchall()]


def judges_of_run(store: Store, run_id: str, metric: str) -> list[tuple[Any, Any]]:
    """Each distinct (agreement, judge key) the run's scored ``metric`` verdicts carry."""
    return store._db.execute(
        "SELECT DISTINCT json_extract(j.details, '$.agreement'), json_extract(j.details, '$.judge_key') "
        "FROM judgments j JOIN sessions s ON s.id = j.session_id WHERE s.run_id = ? "
        "AND j.metric = ? AND j.score IS NOT NULL",
        [run_id, metric],
    ).fetchall()


def newest_judges(store: Store, session_ids: Sequence[int], metric: str) -> list[tuple[int, Any, Any]]:
    """(session id, agreement, judge key) of the newest scored ``metric`` verdict of each turn of ``session_ids``."""
    if not session_ids:
        return []
    marks = ", ".join("?" * len(session_ids))
    return store._db.execute(
        "SELECT j.session_id, json_extract(j.details, '$.agreement'), json_extract(j.details, '$.judge_key') "
        f"FROM judgments j WHERE j.metric = ? AND j.session_id IN ({marks}) AND j.score IS NOT NULL AND "
        + TURN_VERDICTS.is_newest_sql("j"),
        [metric, *session_ids],
    ).fetchall()


def tested_turns(store: Store, run_id: str) -> dict[int, int]:
    """Session id → the turn it answers, for the N+1 sessions of ``run_id`` (``types/next_turn``)."""
    rows = store._db.execute(
        "SELECT id, json_extract(config, '$.next_turn.at_turn') FROM sessions "
        "WHERE run_id = ? AND json_valid(config) AND json_extract(config, '$.next_turn.at_turn') IS NOT NULL",
        [run_id],
    ).fetchall()
    return {int(sid): int(turn) for sid, turn in rows}


def scores_of_runs(store: Store, run_ids: Sequence[str]) -> list[tuple[str, float]]:
    """(run id, score) of every scored session of ``run_ids``."""
    marks = ", ".join("?" * len(run_ids))
    return store._db.execute(
        f"SELECT run_id, score FROM sessions WHERE run_id IN ({marks}) AND score IS NOT NULL", list(run_ids)
    ).fetchall()


def label_agreement(store: Store, run_id: str) -> list[tuple[str, int, int]]:
    """(metric, labels agreeing with the judge, labels saying either) of the run's labelled verdicts."""
    return store._db.execute(
        "SELECT metric, SUM(agree), COUNT(agree) FROM labels WHERE agree IS NOT NULL AND session_id IN "
        "(SELECT id FROM sessions WHERE run_id = ?) GROUP BY metric ORDER BY metric",
        [run_id],
    ).fetchall()

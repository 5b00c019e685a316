"""The SQL behind ``runs.listing``: every run's aggregates, read in one pass over ``sessions``
(and the newest verdicts) without loading a transcript, so listing stays quick however many
dialogues the database holds. Each function returns rows; ``runs.listing`` gives them meaning."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..types.stored import DIALOGUE_VERDICTS
from .store import Store

# Each dialogue's newest verdict per metric (re-judging adds versions), as a condition on ``d``.
NEWEST_DIALOGUE_VERDICT = DIALOGUE_VERDICTS.is_newest_sql("d")


def runs(store: Store) -> list[tuple[Any, ...]]:
    """(run id, started, sessions, mean score, finished unscored, languages, first session id)
    per run, oldest first."""
    return store._db.execute(
        "SELECT run_id, MIN(created_at), COUNT(*), AVG(score), "
        "SUM(CASE WHEN score IS NULL AND status = 'finished' THEN 1 ELSE 0 END), GROUP_CONCAT(DISTINCT language), "
        "MIN(id) "
        "FROM sessions WHERE run_id IS NOT NULL GROUP BY run_id ORDER BY MIN(id)"
    ).fetchall()


def run_ids(store: Store) -> list[str]:
    """Every run id that has a session (in no particular order)."""
    return [r[0] for r in store._db.execute("SELECT DISTINCT run_id FROM sessions WHERE run_id IS NOT NULL")]


def pairs(store: Store) -> list[tuple[str, str, str]]:
    """(run id, scenario id, persona name) of every session of a run."""
    return store._db.execute(
        "SELECT run_id, scenario_id, persona_name FROM sessions WHERE run_id IS NOT NULL"
    ).fetchall()


def replayed_runs(store: Store) -> dict[str, str]:
    """run id → the run its sessions replay (the first, when they replay several)."""
    return dict(
        store._db.execute(
            "SELECT s.run_id, MIN(o.run_id) FROM sessions s JOIN sessions o ON o.id = s.replay_of "
            "WHERE s.run_id IS NOT NULL GROUP BY s.run_id"
        ).fetchall()
    )


def session_configs(store: Store, session_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """session id → its stored config, for ``session_ids``."""
    configs: dict[int, dict[str, Any]] = {}
    for start in range(0, len(session_ids), 500):  # SQLite limits the number of parameters
        chunk = list(session_ids[start : start + 500])
        marks = ",".join("?" * len(chunk))
        for sid, config in store._db.execute(f"SELECT id, config FROM sessions WHERE id IN ({marks})", chunk):
            configs[sid] = json.loads(config)
    return configs


def outcomes_by_run(store: Store, metric: str) -> list[tuple[str, float | None, str | None]]:
    """(run id, score, outcome) of each dialogue's newest ``metric`` verdict, over every run."""
    return store._db.execute(
        "SELECT s.run_id, d.score, d.outcome FROM dialogue_judgments d "
        "JOIN sessions s ON s.id = d.session_id WHERE d.metric = ? AND s.run_id IS NOT NULL AND "
        + NEWEST_DIALOGUE_VERDICT,
        [metric],
    ).fetchall()


def outcomes_of_run(store: Store, run_id: str, metric: str) -> list[tuple[int, float | None, str | None]]:
    """(session id, score, outcome) of each dialogue's newest ``metric`` verdict in ``run_id``."""
    return store._db.execute(
        "SELECT d.session_id, d.score, d.outcome FROM dialogue_judgments d JOIN sessions s ON s.id = d.session_id "
        "WHERE d.metric = ? AND s.run_id = ? AND " + NEWEST_DIALOGUE_VERDICT,
        [metric, run_id],
    ).fetchall()


def dialogue_means(store: Store) -> list[tuple[str, str, float | None]]:
    """(run id, dialogue metric, mean score of each dialogue's newest verdict of it); an
    unscored verdict is left out of the mean (None when none is scored)."""
    return store._db.execute(
        "SELECT s.run_id, d.metric, AVG(d.score) FROM dialogue_judgments d JOIN sessions s ON s.id = d.session_id "
        "WHERE s.run_id IS NOT NULL AND " + NEWEST_DIALOGUE_VERDICT + " GROUP BY s.run_id, d.metric"
    ).fetchall()


def finished_sessions(store: Store, run_id: str, not_stopped_by: Sequence[str]) -> list[tuple[Any, ...]]:
    """(id, scenario id, persona name, trial, score, threshold, metrics JSON) of the run's
    finished sessions, but those stopped for one of ``not_stopped_by``."""
    marks = ",".join("?" * len(not_stopped_by))
    return store._db.execute(
        "SELECT id, scenario_id, persona_name, trial, score, threshold, metrics FROM sessions WHERE run_id = ? "
        f"AND status = 'finished' AND COALESCE(stop_reason, '') NOT IN ({marks})",
        [run_id, *not_stopped_by],
    ).fetchall()


def turn_verdicts(store: Store, run_id: str, but: str) -> list[tuple[Any, ...]]:
    """(session id, turn, metric, score, threshold, skipped) of every turn verdict of the run on
    a metric other than ``but``, each version, oldest version last per turn and metric."""
    return store._db.execute(
        "SELECT j.session_id, j.turn, j.metric, j.score, json_extract(j.details, '$.threshold'), "
        "json_extract(j.details, '$.skipped') FROM judgments j JOIN sessions s ON s.id = j.session_id "
        "WHERE s.run_id = ? AND j.metric != ? ORDER BY j.session_id, j.turn, j.metric, j.version",
        [run_id, but],
    ).fetchall()


def unfinished_sessions(store: Store) -> list[tuple[Any, ...]]:
    """(run id, status, owner pid, owner host, owner started, heartbeat) of every session of a
    run that did not finish."""
    return store._db.execute(
        "SELECT run_id, status, owner_pid, owner_host, owner_started, heartbeat_at FROM sessions "
        "WHERE run_id IS NOT NULL AND status != 'finished'"
    ).fetchall()


def never_started(store: Store) -> dict[str, int]:
    """run id → the dialogues of its plan that have no session (yet, or ever)."""
    return dict(store._db.execute("SELECT run_id, COUNT(*) FROM run_plan WHERE session_id IS NULL GROUP BY run_id"))


def scored_sessions(store: Store) -> list[tuple[int, str]]:
    """(session id, run id) of every scored session of a run."""
    return store._db.execute(
        "SELECT id, run_id FROM sessions WHERE run_id IS NOT NULL AND score IS NOT NULL"
    ).fetchall()


def pair_scores(store: Store, run_ids: Sequence[str] | None) -> list[tuple[Any, ...]]:
    """(scenario id, persona name, run id, mean score, first session id) per pair and run, of
    every run or of ``run_ids``, by pair and then oldest run first."""
    where, params = "run_id IS NOT NULL", []
    if run_ids is not None:
        where = f"run_id IN ({','.join('?' * len(run_ids))})"
        params = list(run_ids)
    return store._db.execute(
        f"SELECT scenario_id, persona_name, run_id, AVG(score), MIN(id) FROM sessions WHERE {where} "
        "GROUP BY scenario_id, persona_name, run_id ORDER BY scenario_id, persona_name, MIN(id)",
        params,
    ).fetchall()

"""What past model calls cost, read from the stored messages and verdicts: the SQL behind
``dialogue.estimate`` (an estimate from past calls of the same model, and a run's actual spend).

A model matches by its exact name or a dated variant of it ("gpt-4o-mini" matches
"gpt-4o-mini-2024-07-18"): a server may answer with the dated name of the model asked for."""

from __future__ import annotations

from typing import Any

from .store import Store

_MODEL_MATCH = "(model = ? OR model LIKE ? || '-%')"


def _past(store: Store, sql: str, model: str, *extra: object) -> tuple[float | None, int]:
    row = store._db.execute(sql, [*extra, model, model]).fetchone()
    return (row[0], int(row[1])) if row and row[1] else (None, 0)


def judge_output(store: Store, model: str, metric: str) -> tuple[float | None, int]:
    """Mean completion tokens per call of judge ``model`` on ``metric``, and how many verdicts it is from."""
    sql = (
        "SELECT AVG(completion_tokens * 1.0 / attempts), COUNT(*) FROM judgments "
        f"WHERE completion_tokens IS NOT NULL AND metric = ? AND {_MODEL_MATCH}"
    )
    return _past(store, sql, model, metric)


def message_output(store: Store, model: str, sources: tuple[str, ...]) -> tuple[float | None, int]:
    """Mean completion tokens of the messages ``model`` wrote from ``sources``, and how many."""
    marks = ", ".join("?" * len(sources))
    sql = (
        "SELECT AVG(completion_tokens), COUNT(*) FROM messages "
        f"WHERE completion_tokens IS NOT NULL AND source IN ({marks}) AND {_MODEL_MATCH}"
    )
    return _past(store, sql, model, *sources)


def dialogue_turns(store: Store, max_turns: int, user_model: str) -> tuple[float | None, int]:
    """Mean turns of past dialogues with this turn limit that ended by themselves, whose
    customer ``user_model`` simulated, and how many."""
    sql = (
        "SELECT AVG(s.turns), COUNT(*) FROM sessions s WHERE s.max_turns = ? "
        "AND s.stop_reason IN ('done', 'max_turns') AND EXISTS (SELECT 1 FROM messages m "
        f"WHERE m.session_id = s.id AND m.source = 'simulator' AND {_MODEL_MATCH.replace('model', 'm.model')})"
    )
    return _past(store, sql, user_model, max_turns)


def check_usage(store: Store, model: str) -> tuple[float, float, float] | None:
    """Mean calls and tokens a simulated customer message cost besides itself (its checks, a
    rejected first try), over past messages of ``model``; None when there are none."""
    row = store._db.execute(
        "SELECT AVG(json_extract(sim_check, '$.extra_usage.calls')), "
        "AVG(json_extract(sim_check, '$.extra_usage.prompt_tokens')), "
        "AVG(json_extract(sim_check, '$.extra_usage.completion_tokens')) FROM messages "
        "WHERE role = 'user' AND model = ? AND json_extract(sim_check, '$.extra_usage.calls') IS NOT NULL",
        [model],
    ).fetchone()
    return None if row[0] is None else (float(row[0]), float(row[1] or 0), float(row[2] or 0))


def dialogue_usage(store: Store, model: str) -> tuple[float, float, float] | None:
    """Mean calls and tokens of the dialogue verdicts per past dialogue judged by ``model``."""
    row = store._db.execute(
        "SELECT AVG(calls), AVG(tokens_in), AVG(tokens_out) FROM (SELECT session_id, SUM(attempts) AS calls, "
        "SUM(COALESCE(prompt_tokens, 0)) AS tokens_in, SUM(COALESCE(completion_tokens, 0)) AS tokens_out "
        "FROM dialogue_judgments WHERE model = ? AND attempts > 0 GROUP BY session_id)",
        [model],
    ).fetchone()
    return None if row[0] is None else (float(row[0]), float(row[1] or 0), float(row[2] or 0))


# Per group of calls: the sum of a column, or NULL unless every call reported it.
_ALL_KNOWN = "CASE WHEN SUM({calls}) = SUM(CASE WHEN {known} IS NOT NULL THEN {calls} ELSE 0 END) THEN SUM({value}) END"


def _cache_sql(calls: str, sent: str, cached: str) -> str:
    """SQL columns (reused, computed) of a group of rows, NULL when any row's server did not say."""
    reused = _ALL_KNOWN.format(calls=calls, known=cached, value=cached)
    computed = _ALL_KNOWN.format(calls=calls, known=cached, value=f"MAX(COALESCE({sent}, 0) - {cached}, 0)")
    return f"{reused}, {computed}"


def run_usage(store: Store, run_id: str, check_step: str) -> list[tuple[Any, ...]]:
    """(role, model, calls, tokens sent, tokens written, reused, computed) per role and model of
    every model call of the run: the messages a model wrote, the calls behind a customer message
    besides itself (its checks, a rejected first try; role ``check_step``), turn and dialogue
    verdicts (role ``judge``). Reused and computed are NULL when a server did not say."""
    extra = "json_extract(m.sim_check, '$.extra_usage.{}')"
    check_calls = f"COALESCE({extra.format('calls')}, 0)"
    return store._db.execute(
        "SELECT m.role, m.model, COUNT(*), SUM(COALESCE(m.prompt_tokens, 0)), SUM(COALESCE(m.completion_tokens, 0)), "
        f"{_cache_sql('1', 'm.prompt_tokens', 'm.cached_tokens')} "
        "FROM messages m JOIN sessions s ON s.id = m.session_id "
        "WHERE s.run_id = ? AND m.model IS NOT NULL GROUP BY 1, 2 "
        f"UNION ALL SELECT '{check_step}', m.model, SUM({check_calls}), "
        f"SUM(COALESCE({extra.format('prompt_tokens')}, 0)), SUM(COALESCE({extra.format('completion_tokens')}, 0)), "
        f"{_cache_sql(check_calls, extra.format('prompt_tokens'), extra.format('cached_tokens'))} "
        "FROM messages m JOIN sessions s ON s.id = m.session_id "
        f"WHERE s.run_id = ? AND m.model IS NOT NULL AND {check_calls} > 0 GROUP BY 1, 2 "
        "UNION ALL SELECT 'judge', COALESCE(NULLIF(j.model, ''), 'unknown'), SUM(j.attempts), "
        "SUM(COALESCE(j.prompt_tokens, 0)), SUM(COALESCE(j.completion_tokens, 0)), "
        f"{_cache_sql('j.attempts', 'j.prompt_tokens', 'j.cached_tokens')} "
        "FROM (SELECT session_id, model, attempts, prompt_tokens, completion_tokens, cached_tokens FROM judgments "
        "UNION ALL SELECT session_id, model, attempts, prompt_tokens, completion_tokens, cached_tokens "
        "FROM dialogue_judgments WHERE attempts > 0) j JOIN sessions s ON s.id = j.session_id "
        "WHERE s.run_id = ? GROUP BY 1, 2",
        [run_id, run_id, run_id],
    ).fetchall()

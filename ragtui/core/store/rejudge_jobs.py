"""Records of bulk re-judging jobs (schema migration 4) and the batch requests they wrote.

A job is found again by its key (run, metric, judge model, prompt, mode), which is what makes
"run the same command again" resume it. Batch requests are stored with their exact body, so a
results file can be matched to its turns by ``custom_id`` and checked before anything is stored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .store import Store, now


@dataclass
class RejudgeJob:
    id: int
    job_key: str
    run_id: str
    metric: str
    model: str
    prompt_version: str
    mode: str
    remote_id: str | None
    status: str
    note: str | None


@dataclass(frozen=True)
class BatchRequest:
    id: int
    job_id: int
    custom_id: str
    session_id: int
    message_id: int
    turn: int
    body: dict[str, Any]
    judgment_id: int | None


_JOB_COLUMNS = "id, job_key, run_id, metric, model, prompt_version, mode, remote_id, status, note"
_REQUEST_COLUMNS = "id, job_id, custom_id, session_id, message_id, turn, body, judgment_id"


def find_job(store: Store, job_key: str) -> RejudgeJob | None:
    row = store._db.execute(
        f"SELECT {_JOB_COLUMNS} FROM rejudge_jobs WHERE job_key = ? ORDER BY id DESC LIMIT 1", [job_key]
    ).fetchone()
    return RejudgeJob(*row) if row else None


def job(store: Store, job_id: int) -> RejudgeJob:
    return RejudgeJob(*store._db.execute(f"SELECT {_JOB_COLUMNS} FROM rejudge_jobs WHERE id = ?", [job_id]).fetchone())


def create_job(
    store: Store, *, job_key: str, run_id: str, metric: str, model: str, prompt_version: str, mode: str
) -> RejudgeJob:
    stamp = now()
    row = {
        "job_key": job_key,
        "created_at": stamp,
        "updated_at": stamp,
        "run_id": run_id,
        "metric": metric,
        "model": model,
        "prompt_version": prompt_version,
        "mode": mode,
        "status": "running",
    }
    pk = store.write("record a re-judging job", lambda: store._db.table("rejudge_jobs").insert(row).last_pk)
    return job(store, pk)


def update_job(store: Store, job_id: int, **values: Any) -> None:
    store.write(
        "update a re-judging job",
        lambda: store._db.table("rejudge_jobs").update(job_id, {**values, "updated_at": now()}),
    )


def add_requests(store: Store, job_id: int, requests: list[dict[str, Any]]) -> None:
    """Rows of custom_id, session_id, message_id, turn, body (a dict), all in one transaction."""
    rows = [{**r, "job_id": job_id, "body": json.dumps(r["body"], ensure_ascii=False)} for r in requests]

    def insert() -> None:
        store._db.table("rejudge_requests").insert_all(rows)

    store.write("record batch requests", insert)


def _request(row: tuple) -> BatchRequest:
    values = list(row)
    values[6] = json.loads(values[6])
    return BatchRequest(*values)


def job_requests(store: Store, job_id: int, *, pending_only: bool = False, bodies: bool = True) -> list[BatchRequest]:
    """The job's requests in the order written; ``bodies=False`` leaves each body ``{}`` (a big
    batch's bodies are megabytes of JSON the caller may not need)."""
    columns = _REQUEST_COLUMNS if bodies else _REQUEST_COLUMNS.replace("body", "'{}'")
    sql = f"SELECT {columns} FROM rejudge_requests WHERE job_id = ?"
    if pending_only:
        sql += " AND judgment_id IS NULL"
    return [_request(r) for r in store._db.execute(sql + " ORDER BY id", [job_id]).fetchall()]


def requests_by_custom_id(store: Store, custom_ids: list[str]) -> dict[str, BatchRequest]:
    found: dict[str, BatchRequest] = {}
    for start in range(0, len(custom_ids), 500):  # SQLite's parameter limit
        chunk = custom_ids[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        sql = f"SELECT {_REQUEST_COLUMNS} FROM rejudge_requests WHERE custom_id IN ({marks})"
        for row in store._db.execute(sql, chunk).fetchall():
            request = _request(row)
            found[request.custom_id] = request
    return found


def mark_turn_judged(store: Store, request_ids: list[int], judgment_id: int) -> None:
    """Every request of one turn (its yes/no checks) answered by one verdict, by row id: a
    batch marks thousands of turns, and ``rejudge_requests`` has no index but its key."""
    marks = ", ".join("?" * len(request_ids))
    store.write(
        "record a batch result",
        lambda: store._db.execute(
            f"UPDATE rejudge_requests SET judgment_id = ? WHERE id IN ({marks})", [judgment_id, *request_ids]
        ),
    )


def judged_requests(store: Store, custom_ids: list[str]) -> dict[str, int]:
    """custom_id (or a turn's key, for its checks) → the verdict stored from its results, found
    by the id the verdict carries.

    A verdict and its request's mark are two transactions; reading the verdicts themselves
    means a crash between them cannot make ingesting the same file again store a second one."""
    found: dict[str, int] = {}
    for start in range(0, len(custom_ids), 500):
        chunk = custom_ids[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        sql = (
            "SELECT json_extract(details, '$.rejudge.request'), id FROM judgments "
            f"WHERE json_extract(details, '$.rejudge.request') IN ({marks})"
        )
        found.update({row[0]: row[1] for row in store._db.execute(sql, chunk).fetchall()})
    return found


def judged_by_job(store: Store, job_id: int) -> set[int]:
    """Message ids that already have a verdict from this (online) job: resuming skips them."""
    rows = store._db.execute(
        "SELECT DISTINCT message_id FROM judgments WHERE json_extract(details, '$.rejudge.job') = ?", [job_id]
    ).fetchall()
    return {r[0] for r in rows}

"""Re-judging a run in bulk through a batch: the OpenAI Batch API, or ``vllm run-batch``.

Requests are built by the same code as an online judgment — the rubric judge's messages and
options (``RubricJudge.messages`` / ``request_options``) and the chat client's option builder
(``llm.chat_options``) — minus streaming, which batches do not do. Each request is stored with
its ``custom_id`` before it leaves, so results are matched to their turn and a results file from
another request set is refused before anything is stored.

Results become verdict versions like online ones: a reply is parsed as a first attempt (a batch
has no correction round, so an unparsable reply is *unscored* with the raw reply kept); a
request that failed (an HTTP error in the results) is unscored with the error; a request the
batch never ran (it expired) stays pending and goes out again with the next batch.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import openai

from ..content.prompts import PromptTemplate
from ..errors import EndpointError, RagtuiError
from ..models.llm import ChatClient, Completion, chat_options
from ..record import rejudge_jobs
from ..record.rejudge_jobs import BatchRequest, RejudgeJob
from ..record.store import Store
from . import PRIMARY_METRIC
from .base import Judgment
from .rejudge import RejudgePlan, Target
from .rubric import RubricJudge

BATCH_URL = "/v1/chat/completions"
EXPIRED_CODES = {"batch_expired", "batch_cancelled"}


def check_batchable(plan: RejudgePlan) -> None:
    if plan.metric != PRIMARY_METRIC:
        raise RagtuiError(
            f"--batch and --batch-file re-judge the rubric only, not {plan.metric}",
            "the other metrics make several dependent calls per turn: re-judge them online",
        )


def request_body(plan: RejudgePlan, target: Target) -> dict[str, Any]:
    """The exact chat request an online judgment of ``target`` would send, without streaming."""
    judge = RubricJudge(cast(ChatClient, None), plan.rubric_template(target.context.language))
    messages = judge.messages(target.context)
    return {
        "model": plan.endpoint.model,
        "messages": messages,
        **chat_options(plan.endpoint, **judge.request_options()),
    }


def plan_requests(store: Store, plan: RejudgePlan, job: RejudgeJob, targets: list[Target]) -> int:
    """Store a request for every target that has none in this job yet; return how many were added."""
    known = {r.message_id for r in rejudge_jobs.job_requests(store, job.id)}
    rows = [
        {
            "custom_id": f"ragtui-{job.id}-{t.message_id}",
            "session_id": t.session_id,
            "message_id": t.message_id,
            "turn": t.turn,
            "body": request_body(plan, t),
        }
        for t in targets
        if t.message_id not in known
    ]
    if rows:
        rejudge_jobs.add_requests(store, job.id, rows)
    return len(rows)


def batch_jsonl(requests: list[BatchRequest]) -> bytes:
    """The request file both the Batch API and ``vllm run-batch`` read."""
    lines = [
        json.dumps({"custom_id": r.custom_id, "method": "POST", "url": BATCH_URL, "body": r.body}, ensure_ascii=False)
        for r in requests
    ]
    return ("\n".join(lines) + "\n").encode("utf-8") if lines else b""


# -- results -------------------------------------------------------------------------------


@dataclass
class IngestReport:
    stored: int = 0
    unscored: int = 0
    failed: int = 0  # requests that came back as an error (stored as unscored)
    expired: int = 0  # never ran: left pending
    already: int = 0  # results that were ingested before
    sessions: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class _Result:
    line: int
    custom_id: str
    status: int | None
    body: dict[str, Any] | None
    error: dict[str, Any] | None


def parse_results(content: bytes | str, source: str) -> list[_Result]:
    """Every line of a results file; a line that is not a result object is one clear error."""
    text = content.decode("utf-8", errors="replace") if isinstance(content, bytes) else content
    results: list[_Result] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RagtuiError(f"{source} line {number}: not valid JSON ({exc.msg})", "nothing was stored") from None
        if not isinstance(record, dict) or not isinstance(record.get("custom_id"), str):
            raise RagtuiError(
                f"{source} line {number}: not a batch result (no custom_id)",
                "pass the output of `vllm run-batch` or of the Batch API; nothing was stored",
            )
        response = record.get("response") if isinstance(record.get("response"), dict) else {}
        status = response.get("status_code") if isinstance(response.get("status_code"), int) else None
        body = response.get("body") if isinstance(response.get("body"), dict) else None
        error = record.get("error") if isinstance(record.get("error"), dict) else None
        results.append(_Result(number, record["custom_id"], status, body, error))
    return results


def ingest(store: Store, results: list[_Result], source: str, *, job_id: int | None = None) -> IngestReport:
    """Store each result as a verdict version, after checking that every one is ours."""
    wanted = sorted({r.custom_id for r in results})
    requests = rejudge_jobs.requests_by_custom_id(store, wanted)
    for result in results:
        request = requests.get(result.custom_id)
        if request is None or (job_id is not None and request.job_id != job_id):
            raise RagtuiError(
                f"{source} line {result.line}: custom_id {result.custom_id!r} is not one of the requests "
                "ragtui wrote for this database",
                "ingest the results of a file written by `ragtui rejudge --batch-file` here; nothing was stored",
            )
    report = IngestReport()
    jobs: dict[int, RejudgeJob] = {}
    done = rejudge_jobs.judged_requests(store, wanted)
    # Each verdict is its own write (Store.write), committed as it is stored: a crash part-way
    # keeps what was stored, and the same file ingested again stores only the rest.
    for result in results:
        request = requests[result.custom_id]
        if request.judgment_id is not None or result.custom_id in done:
            report.already += 1
            continue
        if result.error and result.error.get("code") in EXPIRED_CODES:
            report.expired += 1
            continue
        if request.job_id not in jobs:
            jobs[request.job_id] = rejudge_jobs.job(store, request.job_id)
        judgment = _judgment(request, result, jobs[request.job_id])
        report.failed += (judgment.error or "").startswith("batch request failed")
        stored = store.add_judgment(request.session_id, request.message_id, request.turn, judgment)
        rejudge_jobs.mark_judged(store, request.id, stored.id)
        done[result.custom_id] = stored.id
        report.stored += 1
        report.unscored += stored.score is None
        report.sessions.add(request.session_id)
    for session_id in sorted(report.sessions):
        store.refresh_score(session_id, PRIMARY_METRIC)
    for job in jobs.values():
        if not rejudge_jobs.job_requests(store, job.id, pending_only=True):
            rejudge_jobs.update_job(store, job.id, status="finished")
    return report


def _judgment(request: BatchRequest, result: _Result, job: RejudgeJob) -> Judgment:
    messages = request.body.get("messages") or []
    tag = {
        "job": job.id,
        "request": request.custom_id,
        "model": job.model,
        "prompt": job.prompt_version,
        "batch": job.mode,
    }
    body = result.body or {}
    choices = body.get("choices") if isinstance(body.get("choices"), list) else []
    text = None
    if result.status == 200 and choices and isinstance(choices[0], dict):
        text = (choices[0].get("message") or {}).get("content")
    if not isinstance(text, str):
        why = _failure(result)
        judgment = Judgment(
            metric=PRIMARY_METRIC,
            score=None,
            details={"rejudge": tag},
            prompt=messages,
            raw_reply=json.dumps({"batch_error": why}, ensure_ascii=False),
            model=str(request.body.get("model") or job.model),
            error=f"batch request failed: {why}",
            attempts=1,
        )
        return judgment
    usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
    completion = Completion(
        text=text,
        model=str(body.get("model") or request.body.get("model") or job.model),
        prompt_tokens=usage.get("prompt_tokens"),
        completion_tokens=usage.get("completion_tokens"),
        latency_ms=0.0,
    )
    judgment = RubricJudge(cast(ChatClient, None), cast(PromptTemplate, None)).judgment_from_reply(messages, completion)
    judgment.latency_ms = None  # a batch does not say how long one request took
    judgment.details = {**judgment.details, "rejudge": tag}
    return judgment


def _failure(result: _Result) -> str:
    if result.error:
        return f"{result.error.get('code') or 'error'}: {result.error.get('message') or ''}".strip()
    error = (result.body or {}).get("error")
    message = error.get("message") if isinstance(error, dict) else None
    return f"HTTP {result.status}: {message or 'no reply'}" if result.status else "no response in the result"


# -- the OpenAI Batch API ------------------------------------------------------------------


@dataclass(frozen=True)
class BatchStatus:
    status: str
    completed: int
    failed: int
    total: int


BatchProgress = Callable[[BatchStatus], None]
TERMINAL = {"completed", "expired", "cancelled", "failed"}


def _client(plan: RejudgePlan) -> openai.AsyncOpenAI:
    endpoint = plan.endpoint
    if endpoint.base_url is None:
        raise RagtuiError("--batch needs a judge endpoint with a Batch API", "set [roles.judge] base_url")
    return openai.AsyncOpenAI(
        base_url=endpoint.base_url,
        api_key=endpoint.api_key,
        timeout=endpoint.timeout,
        max_retries=endpoint.max_retries,
    )


def _where(plan: RejudgePlan) -> str:
    return ChatClient(plan.endpoint, cast(openai.AsyncOpenAI, None)).where


async def run_batch(
    store: Store,
    plan: RejudgePlan,
    job: RejudgeJob,
    *,
    poll_seconds: float = 30.0,
    on_status: BatchProgress | None = None,
) -> IngestReport:
    """Submit the job's pending requests (or resume polling its batch), wait, ingest the results."""
    client = _client(plan)
    try:
        remote_id = job.remote_id if job.status == "submitted" else None
        if remote_id is None:
            pending = rejudge_jobs.job_requests(store, job.id, pending_only=True)
            if not pending:
                rejudge_jobs.update_job(store, job.id, status="finished")
                return IngestReport()
            uploaded = await client.files.create(file=("ragtui-rejudge.jsonl", batch_jsonl(pending)), purpose="batch")
            batch = await client.batches.create(
                input_file_id=uploaded.id,
                endpoint=BATCH_URL,
                completion_window="24h",
                metadata={"ragtui_job": str(job.id)},
            )
            remote_id = batch.id
            rejudge_jobs.update_job(store, job.id, remote_id=remote_id, status="submitted")
        while True:
            batch = await client.batches.retrieve(remote_id)
            counts = batch.request_counts
            status = BatchStatus(
                batch.status,
                counts.completed if counts else 0,
                counts.failed if counts else 0,
                counts.total if counts else 0,
            )
            if on_status is not None:
                on_status(status)
            if batch.status in TERMINAL:
                break
            await asyncio.sleep(poll_seconds)
        if batch.status == "failed":
            errors = batch.errors.data if batch.errors and batch.errors.data else []
            why = "; ".join(f"{e.code}: {e.message}" for e in errors[:3]) or "no reason given"
            rejudge_jobs.update_job(store, job.id, status="running", remote_id=None, note=f"batch failed: {why}")
            raise RagtuiError(f"batch {remote_id} failed validation at {_where(plan)}: {why}", "nothing was stored")
        results: list[_Result] = []
        for file_id in (batch.output_file_id, batch.error_file_id):
            if file_id:
                content = await client.files.content(file_id)
                results += parse_results(content.read(), f"batch {remote_id} file {file_id}")
        report = ingest(store, results, f"batch {remote_id}", job_id=job.id)
        left = rejudge_jobs.job_requests(store, job.id, pending_only=True)
        report.expired = max(report.expired, len(left))
        note = f"batch {remote_id} {batch.status}" + (f"; {len(left)} request(s) did not run" if left else "")
        rejudge_jobs.update_job(store, job.id, status="running" if left else "finished", remote_id=None, note=note)
        return report
    except openai.APIError as exc:
        raise EndpointError(
            f"the Batch API at {_where(plan)} failed: {exc}", "run the same command again to resume"
        ) from None
    finally:
        await client.close()


def write_batch_file(store: Store, job: RejudgeJob, path: Path) -> int:
    """Write the job's pending requests for ``vllm run-batch``; return how many."""
    pending = rejudge_jobs.job_requests(store, job.id, pending_only=True)
    temporary = path.with_name(path.name + ".tmp")
    try:
        temporary.write_bytes(batch_jsonl(pending))
        temporary.replace(path)
    except OSError as exc:
        raise RagtuiError(f"cannot write {path}: {exc.strerror}", "choose another path") from None
    rejudge_jobs.update_job(store, job.id, status="submitted")
    return len(pending)

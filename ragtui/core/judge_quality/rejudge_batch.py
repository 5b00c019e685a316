"""Re-judging a run in bulk through a batch: the OpenAI Batch API, or ``vllm run-batch``.

A batch asks exactly what an online re-judgment of the same job asks, without streaming:

- the dialogue's rubric (``CheckedRubricJudge``): **one request per yes/no check** of a turn —
  the six probes and one per claim of the answer — with ``logprobs``/``top_logprobs``, built by
  the judge's own ``questions`` and ``request_options`` and the chat client's ``chat_options``.
  No check depends on another's answer (the claims are the answer's sentences, split in code),
  so one batch holds every check of every turn: there is no second round. A ``custom_id`` names
  job × turn (bot message id) × check (its position and name): ``ragtui-7-123-06-claim``.
- with ``--prompt``, the whole-verdict ``RubricJudge`` on the edited prompt: one request a turn.

Each request is stored with its ``custom_id`` before it leaves, so results are matched to their
turn whatever their order, and a results file from another request set is refused before
anything is stored. A turn's check results are combined by the judge's own ``verdict`` (the
function an online judgment ends with) into one verdict version, with the judge's fit applied
when one matches. A check that failed (an HTTP error), did not run (the batch expired) or has
no result in a file that answers the turn's other checks makes the turn *unscored*, naming the
check and why — never a 0. Whole-verdict replies are parsed as a first attempt (a batch has no
correction round); requests a batch never ran stay pending and go out with the next batch.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, cast

import openai

from ..content.prompts import PromptTemplate
from ..files.output_file import write_output
from ..metrics import PRIMARY_METRIC
from ..metrics.base import Metric
from ..metrics.level_question import LevelAnswer, answer_from, no_answer
from ..metrics.probability import YES_NO
from ..metrics.rubric import CheckedRubricJudge, RubricJudge
from ..models.llm import ChatClient, Completion, chat_options
from ..models.token_logprobs import from_chunk
from ..store import rejudge_jobs
from ..store.rejudge_jobs import BatchRequest, RejudgeJob
from ..store.store import Store
from ..text.text_safety import fix_surrogates, json_line
from ..types.errors import EndpointError, RagtuiError
from ..types.judgments import Judgment
from ..types.stored import StoredSession
from .fit_store import FittedMetric
from .rejudge import RejudgePlan, Target, dialogue_metric, turn_context

BATCH_URL: Final = "/v1/chat/completions"  # Final: its literal type is one the Batch API accepts
EXPIRED_CODES = {"batch_expired", "batch_cancelled"}


def check_batchable(plan: RejudgePlan) -> None:
    if plan.metric != PRIMARY_METRIC:
        raise RagtuiError(
            f"--batch and --batch-file re-judge the rubric only, not {plan.metric}",
            "the other metrics make several dependent calls per turn: re-judge them online",
        )


def request_body(plan: RejudgePlan, target: Target) -> dict[str, Any]:
    """The whole-verdict request an online ``--prompt`` judgment of ``target`` sends, unstreamed."""
    judge = RubricJudge(cast(ChatClient, None), plan.rubric_template(target.context.language))
    messages = judge.messages(target.context)
    return {
        "model": plan.endpoint.model,
        "messages": messages,
        **chat_options(plan.endpoint, **judge.request_options()),
    }


def check_bodies(plan: RejudgePlan, target: Target) -> list[tuple[str, dict[str, Any]]]:
    """(check name, request body) for every yes/no check an online judgment of ``target`` asks,
    in the order it asks them; each body is that call's minus ``stream``/``stream_options``."""
    judge = plan.checked_judge(target.context.language)
    options = chat_options(plan.endpoint, **judge.request_options())
    return [
        (q.name, {"model": plan.endpoint.model, "messages": q.messages, **options})
        for q in judge.questions(target.context)
    ]


def turn_key(job_id: int, message_id: int) -> str:
    """The custom_id of a whole-verdict request; the prefix of a turn's check requests."""
    return f"ragtui-{job_id}-{message_id}"


def check_id(job_id: int, message_id: int, index: int, name: str) -> str:
    return f"{turn_key(job_id, message_id)}-{index:02d}-{name}"


_CHECK_ID = re.compile(r"^ragtui-(\d+)-(\d+)-(\d+)-([a-z_]+)$")


def plan_requests(store: Store, plan: RejudgePlan, job: RejudgeJob, targets: list[Target]) -> int:
    """Store the requests of every target that has none in this job yet; return how many."""
    known = {r.message_id for r in rejudge_jobs.job_requests(store, job.id)}
    rows: list[dict[str, Any]] = []
    for t in targets:
        if t.message_id in known:
            continue
        where = {"session_id": t.session_id, "message_id": t.message_id, "turn": t.turn}
        if plan.checks_batched:
            rows += [
                {"custom_id": check_id(job.id, t.message_id, i, name), **where, "body": body}
                for i, (name, body) in enumerate(check_bodies(plan, t))
            ]
        else:
            rows.append({"custom_id": turn_key(job.id, t.message_id), **where, "body": request_body(plan, t)})
    if rows:
        rejudge_jobs.add_requests(store, job.id, rows)
    return len(rows)


def batch_jsonl(requests: list[BatchRequest]) -> bytes:
    """The request file both the Batch API and ``vllm run-batch`` read."""
    lines = [
        json_line({"custom_id": r.custom_id, "method": "POST", "url": BATCH_URL, "body": r.body}) for r in requests
    ]
    return ("\n".join(lines) + "\n").encode("utf-8") if lines else b""


# -- results -------------------------------------------------------------------------------


@dataclass
class IngestReport:
    stored: int = 0  # verdict versions stored (one per turn)
    unscored: int = 0  # of them unscored
    failed: int = 0  # of them with a request that came back as an error
    not_run: int = 0  # of them with checks that did not run or have no result
    expired: int = 0  # requests that never ran and stay pending (sent again by the same command)
    already: int = 0  # turns (or whole-verdict results) ingested before
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
        found = record.get("response")
        response: dict[str, Any] = found if isinstance(found, dict) else {}
        status = response.get("status_code") if isinstance(response.get("status_code"), int) else None
        body = response.get("body") if isinstance(response.get("body"), dict) else None
        error = record.get("error") if isinstance(record.get("error"), dict) else None
        results.append(_Result(number, record["custom_id"], status, body, error))
    return results


@dataclass
class _Verdict:
    """One turn's verdict built from its results, not yet stored."""

    request: BatchRequest  # the turn's first request (session, message, turn, job)
    key: str  # what the stored verdict carries as ``details.rejudge.request``
    judgment: Judgment | None  # None: the request never ran and stays pending
    failed: bool = False
    not_run: bool = False
    request_ids: list[int] = field(default_factory=list)  # every request the verdict answers


def ingest(
    store: Store, results: list[_Result], source: str, *, prompts_dir: Path, job_id: int | None = None
) -> IngestReport:
    """Store one verdict version per turn the results answer, after checking every result is
    ours and every turn's verdict can be built: a bad file stores nothing."""
    wanted = sorted({r.custom_id for r in results})
    requests = rejudge_jobs.requests_by_custom_id(store, wanted)
    seen: dict[str, int] = {}
    for result in results:
        request = requests.get(result.custom_id)
        if request is None or (job_id is not None and request.job_id != job_id):
            raise RagtuiError(
                f"{source} line {result.line}: custom_id {result.custom_id!r} is not one of the requests "
                "ragtui wrote for this database",
                "ingest the results of a file written by `ragtui rejudge --batch-file` here; nothing was stored",
            )
        if result.custom_id in seen:
            raise RagtuiError(
                f"{source} line {result.line}: custom_id {result.custom_id!r} was already answered on line "
                f"{seen[result.custom_id]}",
                "pass one results file as the batch wrote it; nothing was stored",
            )
        seen[result.custom_id] = result.line
    jobs: dict[int, RejudgeJob] = {}
    for request in requests.values():
        if request.job_id not in jobs:
            jobs[request.job_id] = rejudge_jobs.job(store, request.job_id)
    builder = _Builder(store, requests, jobs, source, prompts_dir)
    verdicts = builder.build(results)
    builder.mark_late()
    report = IngestReport(already=builder.already)
    # Each verdict is its own write (Store.write), committed as it is stored; the turn's requests
    # are marked after it. A crash between the two is harmless: the verdict carries its key and
    # the same file ingested again finds it (``judged_requests``) and stores only the rest.
    for verdict in verdicts:
        request = verdict.request
        if verdict.judgment is None:
            report.expired += 1
            continue
        stored = store.add_judgment(request.session_id, request.message_id, request.turn, verdict.judgment)
        rejudge_jobs.mark_turn_judged(store, verdict.request_ids or [request.id], stored.id)
        report.stored += 1
        report.unscored += stored.score is None
        report.failed += verdict.failed
        report.not_run += verdict.not_run
        report.sessions.add(request.session_id)
    for session_id in sorted(report.sessions):
        store.refresh_score(session_id, PRIMARY_METRIC)
    for job in jobs.values():
        if not rejudge_jobs.job_requests(store, job.id, pending_only=True):
            rejudge_jobs.update_job(store, job.id, status="finished")
    return report


class _Builder:
    """Builds the verdicts of one results file without writing anything (``mark_late`` writes the
    marks a crash left out)."""

    def __init__(
        self,
        store: Store,
        requests: dict[str, BatchRequest],
        jobs: dict[int, RejudgeJob],
        source: str,
        prompts_dir: Path,
    ) -> None:
        self.store = store
        self.requests = requests
        self.jobs = jobs
        self.source = source
        self.prompts_dir = prompts_dir
        self.already = 0
        self._sessions: dict[int, StoredSession] = {}
        self._judges: dict[tuple[str, str], Metric] = {}
        self._turn_rows: dict[int, dict[int, list[BatchRequest]]] = {}
        self._late_marks: list[tuple[list[int], int]] = []

    def build(self, results: list[_Result]) -> list[_Verdict]:
        verdicts: list[_Verdict] = []
        turns: dict[tuple[int, int], dict[str, _Result]] = {}
        singles: list[_Result] = []
        for result in results:
            request = self.requests[result.custom_id]
            if _CHECK_ID.match(result.custom_id):
                turns.setdefault((request.job_id, request.message_id), {})[result.custom_id] = result
            else:
                singles.append(result)
        keys = [turn_key(job, message) for job, message in turns] + [r.custom_id for r in singles]
        done = rejudge_jobs.judged_requests(self.store, keys)
        for result in singles:
            request = self.requests[result.custom_id]
            if request.judgment_id is not None or result.custom_id in done:
                self.already += 1
                if request.judgment_id is None:
                    self._late_marks.append(([request.id], done[result.custom_id]))
            elif result.error and result.error.get("code") in EXPIRED_CODES:
                verdicts.append(_Verdict(request, result.custom_id, None))  # stays pending
            else:
                judgment = _whole_verdict(request, result, self.jobs[request.job_id])
                failed = (judgment.error or "").startswith("batch request failed")
                verdicts.append(_Verdict(request, result.custom_id, judgment, failed=failed))
        for (job_id, message_id), got in turns.items():
            key = turn_key(job_id, message_id)
            rows = self._rows(job_id, message_id)
            if any(r.judgment_id is not None for r in rows) or key in done:
                self.already += 1
                if key in done and any(r.judgment_id is None for r in rows):
                    self._late_marks.append(([r.id for r in rows], done[key]))
                continue
            verdicts.append(self._turn(rows, got, key))
        return verdicts

    def mark_late(self) -> None:
        """Marks a crash left out: the turn's verdict was stored, its requests not yet marked."""
        for request_ids, judgment_id in self._late_marks:
            rejudge_jobs.mark_turn_judged(self.store, request_ids, judgment_id)

    def _rows(self, job_id: int, message_id: int) -> list[BatchRequest]:
        """The turn's check requests in the order the judge asks them; the bodies of those this
        file answers (the others' are not needed: they are reported missing)."""
        if job_id not in self._turn_rows:
            by_turn: dict[int, list[BatchRequest]] = {}
            for row in rejudge_jobs.job_requests(self.store, job_id, bodies=False):
                if _CHECK_ID.match(row.custom_id):
                    by_turn.setdefault(row.message_id, []).append(row)
            self._turn_rows[job_id] = by_turn
        rows = [self.requests.get(r.custom_id, r) for r in self._turn_rows[job_id][message_id]]
        return sorted(rows, key=lambda r: _check_index(r.custom_id))

    def _judge(self, language: str, model: str) -> Metric:
        """The dialogue's rubric judge with the fit the online re-judgment would apply."""
        if (language, model) not in self._judges:
            self._judges[language, model] = dialogue_metric(
                PRIMARY_METRIC, self.prompts_dir, language, model, store=self.store
            )
        return self._judges[language, model]

    def _turn(self, rows: list[BatchRequest], got: dict[str, _Result], key: str) -> _Verdict:
        first = rows[0]
        job = self.jobs[first.job_id]
        if first.session_id not in self._sessions:
            self._sessions[first.session_id] = self.store.session(first.session_id)
        _message_id, context = turn_context(self._sessions[first.session_id], first.turn)
        metric = self._judge(context.language, job.model)
        judge = metric.inner if isinstance(metric, FittedMetric) else metric
        if not isinstance(judge, CheckedRubricJudge):
            raise RagtuiError(f"{self.source}: the rubric judge is not the yes/no-check judge", "nothing was stored")
        questions = judge.questions(context)
        if len(questions) != len(rows) or any(
            r.custom_id in got and q.messages != r.body.get("messages") for q, r in zip(questions, rows, strict=False)
        ):
            raise RagtuiError(
                f"{self.source}: the checks of session {first.session_id} turn {first.turn} are not the ones the "
                "judge asks now (its prompts or the stored turn changed since the requests were written)",
                "ingest with the config (`prompts`) that wrote the requests; nothing was stored",
            )
        answers: list[LevelAnswer] = []
        failed: list[str] = []
        not_run: list[str] = []
        for question, row in zip(questions, rows, strict=True):
            result = got.get(row.custom_id)
            completion = _completion(row, result, job) if result is not None else None
            if completion is not None:
                answers.append(answer_from(question.messages, completion, YES_NO))
                continue
            if result is None:
                why = f"no result for it in {self.source}"
                not_run.append(question.name)
            elif result.error and result.error.get("code") in EXPIRED_CODES:
                why = f"it did not run ({_failure(result)})"
                not_run.append(question.name)
            else:
                why = f"batch request failed: {_failure(result)}"
                failed.append(question.name)
            answers.append(no_answer(question.messages, why))
        # The online judge's own combination: same probes, same grade, same "first unscored check".
        judgment = judge.verdict(context, answers)
        if isinstance(metric, FittedMetric):
            judgment = metric.apply(judgment)
        unanswered = len(failed) + len(not_run)
        if judgment.error and unanswered > 1:
            judgment.error += f" ({unanswered} of the turn's {len(rows)} checks got no answer)"
        judgment.latency_ms = None  # a batch does not say how long one request took
        judgment.model = judgment.model or str(first.body.get("model") or job.model)  # no check came back
        judgment.details = {**judgment.details, "rejudge": _tag(job, key)}
        return _Verdict(first, key, judgment, bool(failed), bool(not_run), [r.id for r in rows])


def _check_index(custom_id: str) -> int:
    match = _CHECK_ID.match(custom_id)
    return int(match.group(3)) if match else 0


def _tag(job: RejudgeJob, key: str) -> dict[str, Any]:
    return {"job": job.id, "request": key, "model": job.model, "prompt": job.prompt_version, "batch": job.mode}


def _completion(request: BatchRequest, result: _Result, job: RejudgeJob) -> Completion | None:
    """A successful result as the chat client would have returned it, log-probabilities
    included; None for a result that carries no reply."""
    body = result.body or {}
    choices = body.get("choices") if isinstance(body.get("choices"), list) else []
    if result.status != 200 or not choices or not isinstance(choices[0], dict):
        return None
    message = choices[0].get("message")
    text = message.get("content") if isinstance(message, dict) else None
    if not isinstance(text, str):
        return None
    found = body.get("usage")
    usage: dict[str, Any] = found if isinstance(found, dict) else {}
    finish = choices[0].get("finish_reason")
    return Completion(
        text=fix_surrogates(text),
        model=str(body.get("model") or request.body.get("model") or job.model),
        prompt_tokens=usage.get("prompt_tokens"),
        completion_tokens=usage.get("completion_tokens"),
        latency_ms=0.0,
        finish_reason=finish if isinstance(finish, str) else None,
        logprobs=from_chunk(body),
    )


def _whole_verdict(request: BatchRequest, result: _Result, job: RejudgeJob) -> Judgment:
    messages = request.body.get("messages") or []
    completion = _completion(request, result, job)
    if completion is None:
        why = _failure(result)
        return Judgment(
            metric=PRIMARY_METRIC,
            score=None,
            details={"rejudge": _tag(job, request.custom_id)},
            prompt=messages,
            raw_reply=json.dumps({"batch_error": why}, ensure_ascii=False),
            model=str(request.body.get("model") or job.model),
            error=f"batch request failed: {why}",
            attempts=1,
        )
    judgment = RubricJudge(cast(ChatClient, None), cast(PromptTemplate, None)).judgment_from_reply(messages, completion)
    judgment.latency_ms = None  # a batch does not say how long one request took
    judgment.details = {**judgment.details, "rejudge": _tag(job, request.custom_id)}
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
    return ChatClient(plan.endpoint, None).where


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
        report = ingest(store, results, f"batch {remote_id}", prompts_dir=plan.prompts_dir, job_id=job.id)
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


def write_batch_file(store: Store, job: RejudgeJob, path: Path) -> tuple[int, int]:
    """Write the job's pending requests for ``vllm run-batch``; return how many, and for how many turns."""
    pending = rejudge_jobs.job_requests(store, job.id, pending_only=True)
    write_output(path, batch_jsonl(pending), option="--batch-file", database=store.path)
    rejudge_jobs.update_job(store, job.id, status="submitted")
    return len(pending), len({r.message_id for r in pending})

"""``ragtui rejudge``: judge every bot turn of a run again — online, through the OpenAI Batch API,
or as a request file for ``vllm run-batch`` whose results ``--ingest`` reads.

Each turn gets a new verdict version; the old ones are kept. The same command run again resumes
the same job (online: the turns not yet re-judged; batch: the batch already submitted, or the
requests that did not run). Bad input — an unknown run, a prompt file that does not validate, a
results file from another request set — is one line, and nothing stored is changed.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from rich.text import Text

from ..core.config.settings import Config
from ..core.files.output_file import check_output
from ..core.judge_quality.rejudge import RejudgePlan, Target, TurnResult, read_prompt_file, rejudge_online, run_targets
from ..core.judge_quality.rejudge_batch import (
    BatchStatus,
    IngestReport,
    check_batchable,
    ingest,
    parse_results,
    plan_requests,
    run_batch,
    write_batch_file,
)
from ..core.metrics import KNOWN_METRICS, PRIMARY_METRIC, MetricSettings
from ..core.models.endpoints import resolve_endpoint
from ..core.models.llm import ClientPool
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.runs.resolve import resolve_run
from ..core.store import rejudge_jobs
from ..core.store.rejudge_jobs import RejudgeJob
from ..core.store.store import Store
from ..core.text.number_text import setting_text
from ..core.text.score_text import NO_VERDICT, score_text
from ..core.types.errors import RagtuiError
from .command_table import help_of
from .model_start import embedded_model
from .output import console, console_err, item_progress


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("rejudge", help=help_of("rejudge"))
    parser.add_argument("--run", help="run id ('last' for the newest run)")
    parser.add_argument("--metric", choices=KNOWN_METRICS, default=PRIMARY_METRIC, help="metric (default rubric)")
    parser.add_argument("--model", help="judge model name (default: the judge role's)")
    parser.add_argument("--prompt", type=Path, metavar="FILE", help="an edited judge_rubric.toml to judge with")
    parser.add_argument("--concurrency", type=int, help="online: turns judged at once (default: the config's)")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--batch", action="store_true", help="through the OpenAI Batch API (upload, poll, ingest)")
    how.add_argument("--batch-file", type=Path, metavar="FILE", help="only write the requests JSONL (vllm run-batch)")
    how.add_argument("--ingest", type=Path, metavar="RESULTS", help="read a results JSONL of a --batch-file")
    parser.add_argument("--poll", type=float, default=30.0, metavar="SECONDS", help="--batch: seconds between polls")
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS)
    parser.set_defaults(handler=rejudge)


def rejudge(args: argparse.Namespace, overrides: Overrides) -> int:
    config = bootstrap.load_effective_config(overrides)
    if args.concurrency is not None and args.concurrency < 1:
        raise RagtuiError(f"--concurrency must be at least 1, got {args.concurrency}")
    if args.poll < 0:
        raise RagtuiError(f"--poll must be 0 or more seconds, got {setting_text(args.poll)}")
    store = bootstrap.open_store(config)
    try:
        if args.ingest is not None:
            if args.run or args.prompt or args.model:
                raise RagtuiError("--ingest takes only the results file", "the requests it answers are in the database")
            return _ingest(store, args.ingest, config.prompts)
        if not args.run:
            raise RagtuiError("rejudge needs --run RUN (or --run last), or --ingest RESULTS")
        run_id = resolve_run(store, args.run)
        endpoint = resolve_endpoint(config, "judge", args.model)
        plan = RejudgePlan(
            run_id=run_id,
            metric=args.metric,
            endpoint=endpoint,
            prompts_dir=config.prompts,
            settings=MetricSettings.from_config(config),
            prompt_file=args.prompt,
        )
        plan.check()
        targets = run_targets(store, run_id)
        if args.prompt is not None:
            plan.prompt_text, plan.templates = read_prompt_file(args.prompt, {t.context.language for t in targets})
        mode = "batch" if args.batch else "batch-file" if args.batch_file else "online"
        if args.batch_file is not None:  # refused before a job is stored: never a database, never a missing folder
            check_output(args.batch_file, option="--batch-file", database=store.path)
        if mode != "online":
            check_batchable(plan)
            if any(t.imported for t in targets):
                # Its turns are judged without the checks against passages the transcript lacks;
                # a batch asks the whole rubric's requests.
                raise RagtuiError(f"run {run_id} is an imported run: re-judge it online", "drop --batch/--batch-file")
            if endpoint.embedded and mode == "batch":
                raise RagtuiError("the embedded model has no Batch API", "set [roles.judge] base_url, or drop --batch")
        key = plan.job_key(mode)
        job = rejudge_jobs.find_job(store, key)
        resumed = job is not None
        if job is None:
            job = rejudge_jobs.create_job(
                store,
                job_key=key,
                run_id=run_id,
                metric=plan.metric,
                model=endpoint.model,
                prompt_version=plan.prompt_version,
                mode=mode,
            )
        what = f"{plan.metric} of run {run_id} with {endpoint.label}" + (
            f", prompt {args.prompt} ({plan.prompt_version})" if args.prompt else ""
        )
        if mode == "batch-file":
            plan_requests(store, plan, job, targets)
            written, turns = write_batch_file(store, job, args.batch_file)
            each = "one per yes/no check" if plan.checks_batched else "one per turn"
            console.print(
                Text(f"Wrote {written} request(s) for {turns} turn(s), {each}, to {args.batch_file} ({what})."),
                soft_wrap=True,
            )
            console.print(
                Text(
                    f"Next: vllm run-batch -i {args.batch_file} -o results.jsonl --model {endpoint.model}"
                    "   then: ragtui rejudge --ingest results.jsonl",
                    style="dim",
                ),
                soft_wrap=True,
            )
            return 0
        if mode == "batch":
            added = plan_requests(store, plan, job, targets)
            console.print(
                Text(
                    f"Re-judging {what} through the Batch API"
                    + (f"; resuming job #{job.id}" if resumed else "")
                    + (f"; {added} new request(s)" if added else ""),
                    style="dim",
                ),
                soft_wrap=True,
            )
            report = asyncio.run(run_batch(store, plan, job, poll_seconds=args.poll, on_status=_print_status))
            _print_ingest(report, "batch")
            return 0
        return asyncio.run(_online(store, config, plan, job, targets, resumed, what, args.concurrency))
    finally:
        store.close()


async def _online(
    store: Store,
    config: Config,
    plan: RejudgePlan,
    job: RejudgeJob,
    targets: list[Target],
    resumed: bool,
    what: str,
    concurrency: int | None,
) -> int:
    done = rejudge_jobs.judged_by_job(store, job.id)
    pending = [t for t in targets if t.message_id not in done]
    console.print(
        Text(
            f"Re-judging {len(targets)} turn(s): {what}"
            + (f"; resuming job #{job.id}, {len(targets) - len(pending)} already re-judged" if resumed else ""),
            style="dim",
        ),
        soft_wrap=True,
    )
    if not pending:
        rejudge_jobs.update_job(store, job.id, status="finished")
        console.print(Text("Nothing left to re-judge in this job."))
        return 0
    progress = item_progress()
    scores: list[float] = []
    unscored = 0
    pool = ClientPool()
    try:
        with embedded_model(config, {"judge": plan.endpoint}), progress:
            task = progress.add_task("re-judging", total=len(pending), note="")

            def advance(result: TurnResult) -> None:
                nonlocal unscored
                if result.stored.score is None:
                    unscored += 1
                else:
                    scores.append(result.stored.score)
                progress.update(task, advance=1, note=f"{unscored} unscored" if unscored else "")

            client = pool.client_for(plan.endpoint)
            await rejudge_online(
                store, plan, client, job, pending, concurrency=concurrency or config.concurrency, on_result=advance
            )
    except (RagtuiError, KeyboardInterrupt, asyncio.CancelledError):
        console_err.print(
            Text(
                f"Stopped after {len(scores) + unscored} re-judged turn(s); they are stored — "
                "run the same command again to resume.",
                style="yellow",
            ),
            soft_wrap=True,
        )
        raise
    finally:
        await pool.aclose()
    mean = score_text(sum(scores) / len(scores)) if scores else NO_VERDICT
    console.print(
        Text(f"Re-judged {len(pending)} turn(s) (job #{job.id}): mean score {mean}, {unscored} unscored."),
        soft_wrap=True,
    )
    console.print(Text("Older versions are kept: `ragtui show ID --all-versions`.", style="dim"))
    return 0


def _print_status(status: BatchStatus) -> None:
    console_err.print(
        Text(f"batch {status.status}: {status.completed}/{status.total} done, {status.failed} failed", style="dim")
    )


def _print_ingest(report: IngestReport, source: str) -> None:
    line = f"Stored {report.stored} verdict version(s) from the {source}: {report.unscored} unscored"
    why = []
    if report.failed:
        why.append(f"{report.failed} with a request that failed")
    if report.not_run:
        why.append(f"{report.not_run} with checks that did not run")
    if why:
        line += f" ({', '.join(why)})"
    if report.already:
        line += f"; {report.already} turn(s) were already stored"
    console.print(Text(line + "."), soft_wrap=True)
    if report.expired:
        console_err.print(
            Text(
                f"{report.expired} request(s) did not run (the batch expired or was cancelled); "
                "run the same command again to send them in a new batch.",
                style="yellow",
            ),
            soft_wrap=True,
        )


def _ingest(store: Store, path: Path, prompts_dir: Path) -> int:
    try:
        content = path.read_bytes()
    except OSError as exc:
        raise RagtuiError(f"cannot read results file {path}: {exc.strerror}", "check the path") from None
    report = ingest(store, parse_results(content, str(path)), str(path), prompts_dir=prompts_dir)
    _print_ingest(report, str(path))
    return 0

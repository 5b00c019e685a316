"""``ragtui run``: scenarios × personas through the engine, with live progress and a final
score table; the exit status gates CI (see ``main``).

``ragtui run --resume RUN`` continues every interrupted or cancelled dialogue of a run exactly
where its record stops, then prints the whole run's table and exit status. Ctrl-C and SIGTERM
stop a run the same way: running dialogues are recorded as cancelled, the table so far is
printed, and the command that continues the run is shown.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable, Iterator

from rich.text import Text

from ..core import bootstrap
from ..core.bootstrap import Overrides
from ..core.config import Config
from ..core.dialogue.engine import Engine, new_run_id
from ..core.dialogue.estimate import spent
from ..core.dialogue.state_machine import Dialogue
from ..core.errors import RagtuiError
from ..core.models.embedded import ServerRecovery
from ..core.models.endpoints import Endpoint
from ..core.models.local_model import LocalModel
from ..core.record.store import Store, StoredSession
from ..core.runs.gate import GateResult, run_gate, run_resolution
from ..core.runs.replay_plan import plan_replay
from ..core.runs.report_text import write_text
from ..core.runs.run_report import junit_xml, run_markdown
from .content_pick import pick_content
from .dialogue_view import rate_text
from .estimate_view import estimate_command, print_spent
from .model_start import embedded_model
from .output import console, console_err, print_table, say_discovered, score_text
from .run_progress import RunProgress
from .run_results import results_table
from .run_workers import check_workers, run_workers

EXIT_INTERRUPTED = 130
RESUMABLE = ("interrupted", "cancelled")


def _check_arguments(args: argparse.Namespace) -> None:
    """Flags that cannot work are refused before anything runs or is written."""
    for path in (getattr(args, "junit", None), getattr(args, "markdown", None)):
        if path is not None and not path.parent.is_dir():
            raise RagtuiError(f"cannot write {path}: folder {path.parent} does not exist", "create it first")
    if getattr(args, "then_simulate", False) and not getattr(args, "replay", None):
        raise RagtuiError("--then-simulate only applies to a replay", "add --replay RUN")
    if getattr(args, "replay", None) and getattr(args, "resume", None):
        raise RagtuiError("--replay and --resume cannot be combined", "continue the replay run with --resume alone")


async def run(args: argparse.Namespace, overrides: Overrides) -> int:
    if getattr(args, "estimate", False):
        for flag in ("resume", "replay"):
            if getattr(args, flag, None):  # it would estimate the whole matrix, not what --{flag} runs
                raise RagtuiError(f"--estimate plans a new run; it cannot estimate --{flag}", "drop one of the two")
        return estimate_command(args, overrides)
    config = bootstrap.load_effective_config(overrides)
    _check_arguments(args)
    endpoints = bootstrap.endpoints_for(config, overrides)
    workers = check_workers(args, any(e.base_url is None for e in endpoints.values()))
    say_discovered(endpoints)
    store = bootstrap.open_store(config)  # made and migrated here, before any worker opens it
    if getattr(args, "replay", None):
        # Validated before any dialogue starts: bad input writes nothing.
        plan = plan_replay(store, config, args.replay, args.scenario, args.persona, overrides.language)
        config.language = plan.language
        replay_run = new_run_id()
        build = plan.builder(args.then_simulate, overrides.max_turns)
        with embedded_model(config, endpoints):
            return await _run(args, config, endpoints, store, replay_run, lambda engine: build(engine, replay_run))
    if getattr(args, "resume", None):
        run_id, session_ids = resumable(store, args.resume)
        with embedded_model(config, endpoints) as model:
            return await _run(
                args, config, endpoints, store, run_id, lambda engine: _resumed(engine, session_ids), model
            )
    # A worker of `--workers N` stays quiet: the process that started it warned already.
    warn = getattr(args, "shard", None) is None
    scenarios, personas = pick_content(config, args.scenario, args.persona, warn=warn)
    if not personas:
        console_err.print(Text(f"No personas in {config.personas / config.language}"))
        return 2
    if workers > 1:
        return await _run_with_workers(args, config, endpoints, store, workers)
    run_id = getattr(args, "run_id", None) or new_run_id()
    shard = getattr(args, "shard", None)

    def fresh(engine: Engine) -> list[Dialogue]:
        plan = [(s, p) for s in scenarios for p in personas]
        if shard is not None:  # a worker of `--workers N`: dialogues i, i+N, i+2N, …
            plan = plan[shard[0] :: shard[1]]
        return [engine.new_dialogue(s, p, run_id=run_id) for s, p in plan]

    with embedded_model(config, endpoints) as model:
        return await _run(args, config, endpoints, store, run_id, fresh, model)


async def _run_with_workers(
    args: argparse.Namespace, config: Config, endpoints: dict[str, Endpoint], store: Store, workers: int
) -> int:
    """Start the worker processes (run_workers.py), then report the whole run from the database."""
    if not args.no_check:
        await bootstrap.check_reachable(endpoints)
    for role, endpoint in endpoints.items():
        console.print(Text(f"{role:>5}: {endpoint.label}", style="dim"))
    run_id = new_run_id()
    statuses, stopped = await run_workers(args, run_id, workers, config.concurrency, store.path)
    failed = [(i, code) for i, code in enumerate(statuses) if code not in (0, 1, 2, EXIT_INTERRUPTED)]
    for index, code in failed:
        console_err.print(Text(f"worker {index} exited with status {code}; its unfinished dialogues are resumable"))
    code = _report_run(args, store, config, run_id, stopped)
    if stopped or code == EXIT_INTERRUPTED:
        return EXIT_INTERRUPTED
    # A worker that died leaves the run incomplete: never a pass.
    return max(code, 2) if failed else code


def resumable(store: Store, run: str) -> tuple[str, list[int]]:
    """The run id and the sessions of it to continue; sessions another live process runs are
    named and left alone."""
    run_id = store.latest_run_id() if run == "last" else run
    if run_id is None:
        raise RagtuiError(f"database {store.path} has no runs yet", "start one with `ragtui run`")
    sessions = list(reversed(store.sessions(run_id=run_id)))
    if not sessions:
        raise RagtuiError(f"no run {run_id!r} in database {store.path}", "list runs with `ragtui sessions`")
    chosen = []
    for s in sessions:
        if s.stop_label in RESUMABLE:
            chosen.append(s.id)
        elif s.status == "running" and s.owner is not None:
            console.print(Text(f"#{s.id}: still being run by {s.owner.describe()}; left alone", style="yellow"))
    return run_id, chosen


def _resumed(engine: Engine, session_ids: list[int]) -> list[Dialogue]:
    return [engine.resume_dialogue(sid) for sid in session_ids]


@contextlib.contextmanager
def _stop_on_sigterm() -> Iterator[list[int]]:
    """SIGTERM cancels the run like Ctrl-C does (asyncio.run turns SIGINT into a cancel)."""
    received: list[int] = []
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()

    def stop() -> None:
        received.append(signal.SIGTERM)
        if task is not None:
            task.cancel()

    try:
        loop.add_signal_handler(signal.SIGTERM, stop)
        installed = True
    except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or Windows
        installed = False
    try:
        yield received
    finally:
        if installed:
            loop.remove_signal_handler(signal.SIGTERM)


async def _run(
    args: argparse.Namespace,
    config: Config,
    endpoints: dict[str, Endpoint],
    store: Store,
    run_id: str,
    make_dialogues: Callable[[Engine], list[Dialogue]],
    model: LocalModel | None = None,
) -> int:
    if not args.no_check:
        await bootstrap.check_reachable(endpoints)
    engine = Engine(config, endpoints, store)
    if model is not None:
        engine.recover = ServerRecovery(model)  # a shared server that dies is brought back once
    interrupted = False
    signals: list[int] = []
    try:
        for role, endpoint in endpoints.items():
            console.print(Text(f"{role:>5}: {endpoint.label}", style="dim"))
        dialogues = make_dialogues(engine)
        if args.resume:
            console.print(Text(f"Continuing {len(dialogues)} dialogue(s) of run {run_id}"))
        labels = {d.session_id: f"{d.simulator.scenario.id} × {d.simulator.persona.name}" for d in dialogues}
        max_turns = max((d.max_turns for d in dialogues), default=config.max_turns)
        with _stop_on_sigterm() as signals:
            try:
                with RunProgress(
                    len(dialogues), max_turns, config.threshold, labels, concurrency=config.concurrency
                ) as progress:
                    async for event in engine.run_many(dialogues, config.concurrency):
                        progress.handle(event)
            except asyncio.CancelledError:
                interrupted = True
                task = asyncio.current_task()
                if task is not None:
                    task.uncancel()
    finally:
        await engine.aclose()
    if getattr(args, "shard", None) is not None:
        # A worker of `--workers N`: the process that started it reports the whole run.
        return 128 + signal.SIGTERM if signals else EXIT_INTERRUPTED if interrupted else 0
    code = _report_run(args, store, config, run_id, interrupted)
    return 128 + signal.SIGTERM if signals else code


def _report_run(args: argparse.Namespace, store: Store, config: Config, run_id: str, interrupted: bool) -> int:
    """The whole run's table, summary and reports, read from the database; the exit status."""
    rows = store.run_sessions(run_id)
    gate = run_gate(rows, config.threshold, config.thresholds, config.min_resolution_rate)
    code = _report(store, config, run_id, rows, gate, interrupted)
    _write_reports(args, run_id, rows, config, gate)
    return code


def _write_reports(
    args: argparse.Namespace, run_id: str, rows: list[StoredSession], config: Config, gate: GateResult
) -> None:
    junit, markdown = getattr(args, "junit", None), getattr(args, "markdown", None)
    if junit:
        write_text(junit, junit_xml(run_id, rows, config.thresholds, gate))
        console.print(Text(f"Wrote JUnit XML to {junit}", style="dim"))
    if markdown:
        write_text(markdown, run_markdown(run_id, rows, config.threshold, config.thresholds, gate))
        console.print(Text(f"Wrote the Markdown summary to {markdown}", style="dim"))


def _report(
    store: Store, config: Config, run_id: str, rows: list[StoredSession], gate: GateResult, interrupted: bool
) -> int:
    dialogue = {s.id: s.latest_dialogue_judgments() for s in rows}
    print_table(results_table(rows, config.thresholds, dialogue))
    for s in rows:
        if s.replay_note:
            console.print(Text(f"#{s.id} {s.scenario_id} × {s.persona_name}: {s.replay_note}", style="yellow"))
    scored = [s.score for s in rows if s.score is not None]
    summary = Text(f"run {run_id}: {len(rows)} dialogue(s), run score ")
    summary.append_text(score_text(sum(scored) / len(scored) if scored else None, config.threshold))
    summary.append(f" (threshold {config.threshold:g})")
    if config.dialogue_metrics or gate.resolution is not None:
        summary.append(" · ")
        summary.append_text(rate_text(gate.resolution or run_resolution(rows)))
        if config.min_resolution_rate > 0:
            summary.append(f" (min {config.min_resolution_rate:.0%})")
    customer = [m for s in rows for m in s.messages if m.role == "user"]
    retried = sum(1 for m in customer if (m.sim_check or {}).get("retried"))
    off_role = sum(1 for m in customer if m.source == "simulator_off_role")
    if retried:
        summary.append(f" · simulator asked again {retried}×, {off_role} message(s) still off-role", style="yellow")
    summary.append(f"; stored in {store.path}")
    console.print(summary, soft_wrap=True)  # one line at any width: grep-able in CI logs
    resumable_count = sum(1 for s in rows if s.stop_label in RESUMABLE)
    if interrupted or resumable_count:
        where = f" --db {store.path}" if store.path else ""
        console.print(
            Text(f"Stopped: {resumable_count} dialogue(s) not finished. Continue with: ", style="yellow")
            + Text(f"ragtui run --resume {run_id}{where}", style="bold"),
            soft_wrap=True,  # one line at any width: the command is copied from CI logs whole
        )
    print_spent(spent(store, run_id, config.prices))
    if rows:
        then = (
            f"ragtui compare previous {run_id}"
            if len(store.run_ids()) > 1
            else f"ragtui export --run {run_id} --csv results.csv"
        )
        console.print(Text(f"Next: ragtui show {rows[0].id}   ·   {then}", style="dim"), soft_wrap=True)
    if interrupted:
        sys.stdout.flush()
        return EXIT_INTERRUPTED
    if gate.status:
        console.print(Text(f"exit {gate.status}: " + "; ".join(gate.reasons[:6]), style="bold red"), soft_wrap=True)
        if len(gate.reasons) > 6:
            console.print(Text(f"… and {len(gate.reasons) - 6} more reason(s)", style="red"))
    sys.stdout.flush()
    return gate.status

"""``ragtui run``: scenarios × personas through the engine, with live progress and a final
score table; the exit status gates CI (see ``main``).

The run's plan (every scenario × persona) is stored before any dialogue starts.
``ragtui run --resume RUN`` continues every interrupted or cancelled dialogue of a run exactly
where its record stops and starts every planned one that never started, with the models the
run recorded, then prints the whole run's table and exit status. A write to the database that
fails stops the run from starting dialogues; what is unfinished stays resumable. Ctrl-C and SIGTERM
stop a run the same way: running dialogues are recorded as cancelled, the table so far is
printed, and the command that continues the run is shown.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.text import Text

from ..core.config.settings import Config
from ..core.dialogue.engine import Engine, new_run_id
from ..core.dialogue.estimate import spent
from ..core.dialogue.progress import dialogue_label
from ..core.dialogue.state_machine import Dialogue
from ..core.files.output_file import check_output, write_output
from ..core.knowledge.folder import skipped_lines
from ..core.models.embedded import ServerRecovery
from ..core.models.endpoints import Endpoint
from ..core.models.local_model import LocalModel
from ..core.registry.bots import uses_bot_role
from ..core.registry.metrics import PRIMARY_METRIC, RESOLUTION_RATE, gate_metric
from ..core.runs import bootstrap
from ..core.runs.agreement_line import dialogue_agreement_lines, run_agreement_line
from ..core.runs.bootstrap import Overrides
from ..core.runs.expectation_rate import rate_line
from ..core.runs.gate import GateResult, run_gate, run_resolution
from ..core.runs.gate_changes import gate_changes, sessions_as_judged, standings
from ..core.runs.gate_scope import gate_off, scope_line
from ..core.runs.low_agreement import left_out_line, low_metrics
from ..core.runs.next_turn import parse_at_turn, plan_next_turn
from ..core.runs.pass_k import pass_k_line, run_pass_k
from ..core.runs.passing import read_pass
from ..core.runs.replay_plan import plan_replay
from ..core.runs.resolve import resolve_resumable
from ..core.runs.resume_models import recorded_models, use_recorded_models
from ..core.runs.run_report import junit_xml, run_markdown
from ..core.runs.scoring_read import run_reading
from ..core.runs.shards import Shard, check_run_id, parse_shard, shard_summary
from ..core.store import run_plan, run_shards
from ..core.store.ownership import this_process
from ..core.store.run_plan import PlanEntry, PlannedPair, PlanTaken
from ..core.store.store import Store
from ..core.text.number_text import percent_text, setting_text
from ..core.text.score_text import styled_score
from ..core.types.errors import RagtuiError, StoreWriteError
from ..core.types.personas import Persona
from ..core.types.scenarios import Scenario
from ..core.types.stored import StoredSession
from .arg_checks import check_repeat
from .content_pick import pick_content
from .dialogue_view import rate_text
from .estimate_view import estimate_command, print_spent
from .model_start import embedded_model
from .output import console, console_err, print_table, say_discovered
from .run_progress import RunProgress
from .run_results import RESULTS_FIT, results_table
from .run_workers import check_workers, run_workers

EXIT_INTERRUPTED = 130
RESUMABLE = ("interrupted", "cancelled", "paused")  # paused: left so by a TUI closed cleanly


def _shard_of(args: argparse.Namespace) -> Shard | None:
    """The ``--shard I/N`` asked for, refused in one line before anything runs when it is not a
    shard or cannot combine with the other flags; a shard needs the run id all shards share."""
    value = getattr(args, "shard", None)
    run_id = getattr(args, "run_id", None)
    if run_id is not None and getattr(args, "worker_slice", None) is None:
        check_run_id(run_id)
        for flag in ("resume", "replay"):
            if getattr(args, flag, None):
                raise RagtuiError(
                    f"--run-id names a new run; it cannot be combined with --{flag}", "drop one of the two"
                )
    if value is None:
        return None
    shard = parse_shard(value)
    for flag in ("resume", "replay", "estimate"):
        if getattr(args, flag, None):
            raise RagtuiError(
                f"--shard cannot be combined with --{flag}",
                "a shard's plan is stored in its database: `ragtui run --resume RUN` continues that slice",
            )
    if run_id is None:
        raise RagtuiError(
            f"--shard {shard} needs --run-id ID, the same in all {shard.count} shards, so that merged they are one run",
            "e.g. --run-id ci-$GITHUB_RUN_ID",
        )
    return shard


def _check_arguments(args: argparse.Namespace, database: Path) -> None:
    """Flags that cannot work are refused before anything runs or is written."""
    for option, path in (("--junit", getattr(args, "junit", None)), ("--markdown", getattr(args, "markdown", None))):
        if path is not None:  # never the database, never a missing folder: found now, not after the run
            check_output(path, option=option, database=database)
    if getattr(args, "then_simulate", False) and not getattr(args, "replay", None):
        raise RagtuiError("--then-simulate only applies to a replay", "add --replay RUN")
    if getattr(args, "replay", None) and getattr(args, "resume", None):
        raise RagtuiError("--replay and --resume cannot be combined", "continue the replay run with --resume alone")
    if getattr(args, "at_turn", None) is not None:
        if not getattr(args, "replay", None):
            raise RagtuiError("--at-turn only applies to a replay of an imported run", "add --replay RUN")
        if getattr(args, "then_simulate", False):
            raise RagtuiError("--at-turn answers one turn; it cannot be combined with --then-simulate", "drop one")
        parse_at_turn(args.at_turn)


async def run(args: argparse.Namespace, overrides: Overrides) -> int:
    shard = _shard_of(args)
    if getattr(args, "estimate", False):
        for flag in ("resume", "replay"):
            if getattr(args, flag, None):  # it would estimate the whole matrix, not what --{flag} runs
                raise RagtuiError(f"--estimate plans a new run; it cannot estimate --{flag}", "drop one of the two")
        return estimate_command(args, overrides)
    config = bootstrap.load_effective_config(overrides)
    _check_arguments(args, config.database)
    # A worker of `--workers N` plans nothing: it runs its share of the plan its parent stored.
    worker_slice = getattr(args, "worker_slice", None)
    repeat = check_repeat(args, config.repeat) if worker_slice is None else 1
    opened: list[Store] = []
    try:
        return await _open_and_run(args, overrides, config, shard, worker_slice, repeat, opened)
    finally:
        # Closed here, not left to the garbage collector: a connection closed at some later
        # moment would checkpoint the WAL into the database file whenever that happens.
        for store in opened:
            store.close()


async def _open_and_run(
    args: argparse.Namespace,
    overrides: Overrides,
    config: Config,
    shard: Shard | None,
    worker_slice: tuple[int, int] | None,
    repeat: int,
    opened: list[Store],
) -> int:
    """The run itself; every store it opens goes in ``opened`` for ``run`` to close."""
    store: Store | None = None
    if getattr(args, "resume", None):
        # A resumed run continues with the models it recorded (unless --model says otherwise).
        store = bootstrap.open_store(config)
        opened.append(store)
        try:
            resumed_run: str | None = resolve_resumable(store, args.resume)
        except RagtuiError:
            resumed_run = None  # said once, by `resumable`, after the flags are checked
        if resumed_run is not None and overrides.model is None:
            use_recorded_models(config, recorded_models(store, resumed_run))
    endpoints = bootstrap.endpoints_for(config, overrides)
    workers = check_workers(args, any(e.base_url is None for e in endpoints.values()))
    say_discovered(endpoints)
    if store is None:
        store = bootstrap.open_store(config)  # made and migrated here, before any worker opens it
        opened.append(store)
    given_run = getattr(args, "run_id", None)
    if given_run is not None and worker_slice is None and run_shards.run_exists(store, given_run):
        raise RagtuiError(
            f"run {given_run} already exists in database {store.path}",
            f"continue it with `ragtui run --resume {given_run}`, or give a new --run-id",
        )
    if getattr(args, "replay", None) and getattr(args, "at_turn", None) is not None:
        # N+1: validated before any dialogue starts, like a replay.
        turns = plan_next_turn(store, args.replay, parse_at_turn(args.at_turn), args.scenario, overrides.language)
        for line in turns.skipped:
            console.print(Text(line, style="yellow"), soft_wrap=True)
        config = dataclasses.replace(config, language=turns.language)
        next_run = new_run_id()
        console.print(
            Text(f"N+1 on run {turns.run_id}: {len(turns.cases)} turn(s), each answered after its real history"),
            soft_wrap=True,
        )
        build_turns = turns.builder()
        with embedded_model(config, endpoints):
            return await _run(args, config, endpoints, store, next_run, lambda engine: build_turns(engine, next_run))
    if getattr(args, "replay", None):
        # Validated before any dialogue starts: bad input writes nothing.
        plan = plan_replay(store, config, args.replay, args.scenario, args.persona, overrides.language)
        config = dataclasses.replace(config, language=plan.language)
        replay_run = new_run_id()
        build = plan.builder(args.then_simulate, overrides.max_turns)
        with embedded_model(config, endpoints):
            return await _run(args, config, endpoints, store, replay_run, lambda engine: build(engine, replay_run))
    if getattr(args, "resume", None):
        run_id, session_ids, unstarted = resumable(store, args.resume)
        if unstarted:  # planned in the run's language, whatever the config says now
            config = dataclasses.replace(config, language=str(unstarted[0].scenario.get("language", config.language)))
        with embedded_model(config, endpoints) as model:
            return await _run(
                args, config, endpoints, store, run_id, lambda engine: _resumed(engine, session_ids, unstarted), model
            )
    # A worker of `--workers N` stays quiet: the process that started it warned already.
    warn = worker_slice is None
    scenarios, personas = pick_content(
        config, args.scenario, args.persona, warn=warn, include_drafts=getattr(args, "include_drafts", False)
    )
    if not personas:
        console_err.print(Text(f"No personas in {config.personas / config.language}"))
        return 2
    planned = _Plan(_planned_pairs(scenarios, personas, repeat), shard)
    if workers > 1:
        return await _run_with_workers(args, config, endpoints, store, workers, planned)
    run_id = given_run or new_run_id()

    def fresh(engine: Engine) -> list[Dialogue]:
        if worker_slice is None:
            # The entries as planned: each carries the persona read from its file to the dialogue.
            return _started(engine, _store_plan(store, config, endpoints, run_id, planned))
        # A worker of `--workers N` starts its share of the plan its parent stored: entries
        # i, i+N, i+2N, … (of the whole plan, or of the shard's slice) that have no session yet.
        i, n = worker_slice
        entries = [e for k, e in enumerate(run_plan.entries(store, run_id)) if k % n == i and e.session_id is None]
        return _started(engine, entries)

    with embedded_model(config, endpoints) as model:
        return await _run(args, config, endpoints, store, run_id, fresh, model)


def _planned_pairs(scenarios: list[Scenario], personas: list[Persona], repeat: int = 1) -> list[PlannedPair]:
    """Every scenario × persona in order, each ``repeat`` times as trials 1 … repeat; a pair
    named twice (``-s a -s a``) runs twice as often, its trials numbered on.

    A pair's trials are planned together (pair by pair, not trial by trial): with ``--workers N``
    worker k runs positions k, k+N, …, so the K trials of one pair go to different workers, and
    what makes a pair costly (a long scenario, a verbose persona) is shared among them. Trial by
    trial, a worker would get the same pairs in every trial whenever N divides their number."""
    seen: Counter[tuple[str, str]] = Counter()
    pairs = []
    for scenario in scenarios:
        for persona in personas:
            for _ in range(repeat):
                seen[(scenario.id, persona.name)] += 1
                pairs.append(PlannedPair(scenario.to_dict(), persona, seen[(scenario.id, persona.name)]))
    return pairs


class _Plan:
    """The dialogues this command plans: the whole matrix, or a ``--shard``'s slice of it at
    the whole plan's positions. An empty slice is refused before anything is stored."""

    def __init__(self, pairs: list[PlannedPair], shard: Shard | None) -> None:
        self.shard = shard
        self.planned = len(pairs)
        self.positions = shard.positions(len(pairs)) if shard else list(range(len(pairs)))
        self.pairs = [pairs[p] for p in self.positions]
        if shard is not None and not self.pairs:
            raise RagtuiError(
                f"--shard {shard}: the plan has only {len(pairs)} dialogue(s), so shard {shard.index} has none",
                f"use at most {len(pairs)} shards",
            )


def _store_plan(
    store: Store, config: Config, endpoints: dict[str, Endpoint], run_id: str, plan: _Plan
) -> list[PlanEntry]:
    """Every dialogue of the run (or the shard's slice), stored before any starts: whatever is
    killed when, `--resume` knows what is left to run."""
    models = {role: e.model for role, e in endpoints.items() if not e.embedded}
    shard = plan.shard
    return run_plan.store_plan(
        store,
        run_id,
        plan.pairs,
        max_turns=config.max_turns,
        threshold=config.threshold,
        metrics=list(config.metrics),
        models=models,
        positions=plan.positions,
        shard=None if shard is None else (shard.index, shard.count, plan.planned),
    )


def _started(engine: Engine, entries: list[PlanEntry]) -> list[Dialogue]:
    """A session for each plan entry, in order; after a failed write none more is made (the
    rest of the plan stays for `--resume`), and an entry another process just started is skipped."""
    dialogues = []
    for entry in entries:
        try:
            dialogues.append(engine.planned_dialogue(entry))
        except PlanTaken:
            continue
        except StoreWriteError as exc:
            engine.write_failure = exc
            break
    return dialogues


async def _run_with_workers(
    args: argparse.Namespace,
    config: Config,
    endpoints: dict[str, Endpoint],
    store: Store,
    workers: int,
    plan: _Plan,
) -> int:
    """Store the run's plan, start the worker processes (run_workers.py), then report the whole
    run from the database."""
    if not args.no_check:
        await bootstrap.check_reachable(endpoints)
    for role, endpoint in endpoints.items():
        console.print(Text(f"{role:>5}: {endpoint.label}", style="dim"))
    run_id = getattr(args, "run_id", None) or new_run_id()
    # Stored here, before any worker starts: a worker killed before it created its sessions
    # leaves its share in the plan, and `--resume` starts it.
    _store_plan(store, config, endpoints, run_id, plan)
    statuses, stopped = await run_workers(args, run_id, workers, config.concurrency, store.path)
    failed = [(i, code) for i, code in enumerate(statuses) if code not in (0, 1, 2, EXIT_INTERRUPTED)]
    for index, code in failed:
        console_err.print(Text(f"worker {index} exited with status {code}; its unfinished dialogues are resumable"))
    # A worker that died leaves the run incomplete: never a pass (the exit line says so too).
    problems = [f"worker {index} exited with status {code}" for index, code in failed]
    code = _report_run(args, store, config, run_id, stopped, problems)
    return EXIT_INTERRUPTED if stopped or code == EXIT_INTERRUPTED else code


def resumable(store: Store, run: str) -> tuple[str, list[int], list[PlanEntry]]:
    """The run id, the sessions of it to continue, and the entries of its plan never started;
    sessions another live process runs are named and left alone."""
    run_id = resolve_resumable(store, run)  # an id, a unique prefix, `last` or `previous`
    sessions = list(reversed(store.sessions(run_id=run_id)))
    unstarted = [e for e in run_plan.entries(store, run_id) if e.session_id is None]
    if not sessions and not unstarted:
        # `ragtui runs` lists run ids, which --resume takes; `ragtui sessions` lists sessions.
        raise RagtuiError(
            f"no run {run_id!r} in database {store.path}", "list its runs with `ragtui runs`; `last` is the newest"
        )
    chosen = []
    me = this_process()
    for s in sessions:
        # This command runs no dialogue yet: one recorded as running by this very process was
        # left so by an earlier run in it whose write failed.
        if s.stop_label in RESUMABLE or (s.status == "running" and s.owner == me):
            chosen.append(s.id)
        elif s.status == "running" and s.owner is not None:
            console.print(Text(f"#{s.id}: still being run by {s.owner.describe()}; left alone", style="yellow"))
    return run_id, chosen, unstarted


def _resumed(engine: Engine, session_ids: list[int], unstarted: list[PlanEntry]) -> list[Dialogue]:
    resumed = [engine.resume_dialogue(sid) for sid in session_ids]
    return resumed + (_started(engine, unstarted) if engine.write_failure is None else [])


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
        if uses_bot_role(config.bot.type):  # the built-in bot reads the knowledge folder: say what it left out
            for line in skipped_lines(engine.knowledge.skipped):
                console_err.print(Text(line, style="yellow"), soft_wrap=True)
        dialogues = make_dialogues(engine)
        if args.resume:
            console.print(Text(f"Continuing {len(dialogues)} dialogue(s) of run {run_id}"))
        trials, most = run_plan.session_trials(store, run_id)
        labels = {
            d.session_id: dialogue_label(
                d.simulator.scenario.id, d.simulator.persona.name, trials.get(d.session_id, 1), most
            )
            for d in dialogues
        }
        max_turns = max((d.max_turns for d in dialogues), default=config.max_turns)
        with _stop_on_sigterm() as signals:
            try:
                with RunProgress(
                    len(dialogues),
                    max_turns,
                    config.threshold,
                    labels,
                    concurrency=config.concurrency,
                    verbose=bool(getattr(args, "verbose", False)),
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
    problems = []
    if engine.write_failure is not None:
        # Said once for the run, not once per dialogue: every later write would fail the same way.
        console_err.print(Text(f"Stopped starting dialogues: {engine.write_failure}"), soft_wrap=True)
        problems.append("the database could not be written; the unfinished dialogues are resumable")
    if getattr(args, "worker_slice", None) is not None:
        # A worker of `--workers N`: the process that started it reports the whole run.
        return 128 + signal.SIGTERM if signals else EXIT_INTERRUPTED if interrupted else 2 if problems else 0
    code = _report_run(args, store, config, run_id, interrupted, problems)
    return 128 + signal.SIGTERM if signals else code


def _report_run(
    args: argparse.Namespace,
    store: Store,
    config: Config,
    run_id: str,
    interrupted: bool,
    problems: list[str] | None = None,
) -> int:
    """The whole run's table, summary and reports, read from the database; the exit status.
    ``problems`` (a worker that died, a failed write) make the run an error, named in the exit line."""
    rows = store.run_sessions(run_id)
    me = this_process()
    for s in rows:
        # The run is over: nothing this process started is still running (a dialogue stopped
        # by a failed write could not record how it ended).
        if s.status == "running" and s.owner == me:
            s.status = "interrupted"
    plan = run_plan.entries(store, run_id)
    gate = run_gate(
        rows,
        config.threshold,
        config.thresholds,
        config.min_resolution_rate,
        config.min_expectation_rate,
        fail_on_policy=bool(getattr(args, "fail_on_policy", False)),
        floor=config.min_judge_agreement,
        gate_low_agreement=config.gate_low_agreement or bool(getattr(args, "gate_low_agreement", False)),
    )
    unfinished = sum(1 for e in plan if e.session_id is None) + sum(
        1 for s in rows if s.status != "finished" or s.stop_label in RESUMABLE
    )
    reasons = list(problems or [])
    if unfinished and not interrupted:
        reasons.append(f"{unfinished} of {len(plan) or len(rows)} planned dialogue(s) not finished")
    if reasons:
        gate.reasons[:0] = reasons
        gate.status = 2
    code = _report(store, config, run_id, rows, gate, interrupted, plan)
    _write_reports(args, run_id, rows, config, gate, store.path)
    return code


def _write_reports(
    args: argparse.Namespace,
    run_id: str,
    rows: list[StoredSession],
    config: Config,
    gate: GateResult,
    database: Path | None,
) -> None:
    junit, markdown = getattr(args, "junit", None), getattr(args, "markdown", None)
    if junit:
        write_output(junit, junit_xml(run_id, rows, config.thresholds, gate), option="--junit", database=database)
        console.print(Text(f"Wrote JUnit XML to {junit}", style="dim"))
    if markdown:
        text = run_markdown(run_id, rows, config.threshold, config.thresholds, gate)
        write_output(markdown, text, option="--markdown", database=database)
        console.print(Text(f"Wrote the Markdown summary to {markdown}", style="dim"))


def _gate_changes(store: Store, run_id: str, rows: list[StoredSession], gate: GateResult) -> list[str]:
    """The verdict kinds whose gate moved since the previous run in this database; a verdict whose
    gate is off in this run (shown only whatever its judge) is never one of them."""
    ids = store.run_ids()
    if run_id not in ids or ids.index(run_id) == 0:
        return []
    previous = ids[ids.index(run_id) - 1]
    off = gate_off(gate.scope)
    before = standings(sessions_as_judged(store, previous), gate.floor, gate.gate_low_agreement, off)
    return gate_changes(before, standings(rows, gate.floor, gate.gate_low_agreement, off), previous)


def _report(
    store: Store,
    config: Config,
    run_id: str,
    rows: list[StoredSession],
    gate: GateResult,
    interrupted: bool,
    plan: list[PlanEntry],
) -> int:
    dialogue = {s.id: s.latest_dialogue_judgments() for s in rows}
    print_table(results_table(rows, config.thresholds, dialogue, config.min_judge_agreement), RESULTS_FIT)
    for s in rows:
        if s.replay_note:
            console.print(Text(f"#{s.id} {s.scenario_id} × {s.persona_name}: {s.replay_note}", style="yellow"))
    scored = [s.score for s in rows if s.score is not None]
    summary = Text(f"run {run_id}: {len(rows)} dialogue(s), run score ")
    # Every scored dialogue's rubric from a low-agreement judge: the run score neither red nor green.
    low = bool(scored) and all(
        PRIMARY_METRIC in low_metrics(s, config.min_judge_agreement) for s in rows if s.score is not None
    )
    summary.append_text(styled_score(sum(scored) / len(scored) if scored else None, config.threshold, low))
    summary.append(f" (threshold {setting_text(config.threshold)})")
    # "passed" as every output reads it (core.runs.passing): the count pass^1 and the pass column rest on.
    summary.append(f" · {sum(1 for s in rows if read_pass(s, thresholds=config.thresholds).passed)}/{len(rows)} passed")
    # The resolution rate: said when the metric that makes it is judged (or gated on).
    if gate_metric(RESOLUTION_RATE) in config.dialogue_metrics or gate.resolution is not None:
        summary.append(" · ")
        summary.append_text(rate_text(gate.resolution or run_resolution(rows)))
        if config.min_resolution_rate > 0:
            summary.append(f" (min {percent_text(config.min_resolution_rate)})")
    if gate.expectations.dialogues:
        summary.append(" · ")
        broken = bool(gate.expectations.policies_broken)
        summary.append(rate_line(gate.expectations), style="red" if broken else "")
        if config.min_expectation_rate > 0:
            summary.append(f" (min {percent_text(config.min_expectation_rate)})")
    customer = [m for s in rows for m in s.messages if m.role == "user"]
    retried = sum(1 for m in customer if (m.sim_check or {}).get("retried"))
    off_role = sum(1 for m in customer if m.source == "simulator_off_role")
    if retried:
        summary.append(f" · simulator asked again {retried}×, {off_role} message(s) still off-role", style="yellow")
    summary.append(f"; stored in {store.path}")
    console.print(summary, soft_wrap=True)  # one line at any width: grep-able in CI logs
    if scored:  # how far these scores can be trusted, beside them
        console.print(
            Text(run_agreement_line(store, run_id, floor=config.min_judge_agreement), style="dim"), soft_wrap=True
        )
    for line in dialogue_agreement_lines(rows, config.min_judge_agreement):  # the dialogue verdicts' judges
        console.print(Text(line, style="dim"), soft_wrap=True)
    not_gated = left_out_line(gate.left_out)
    if not_gated:  # scores the exit status did not count: said, never silent
        console.print(Text(not_gated, style="yellow"), soft_wrap=True)
    decided = scope_line(gate.scope)
    if decided:  # which verdicts the exit status rests on, and which were shown only
        nothing = not any(s.gates for s in gate.scope)
        console.print(Text(decided, style="bold yellow" if nothing else "dim"), soft_wrap=True)
    for line in _gate_changes(store, run_id, rows, gate):  # a gate that moved since the last run: said
        console.print(Text(line, style="bold yellow"), soft_wrap=True)
    changed = run_reading(store, run_id).summary_line()
    if changed:  # two kinds of score in one table: said, never silent
        console.print(Text(changed, style="bold yellow"), soft_wrap=True)
    trials = run_pass_k(rows, config.threshold)
    if trials.trials > 1:  # repeated trials: how often the bot gets a pair right every time
        console.print(Text(pass_k_line(trials)), soft_wrap=True)
    never_started = sum(1 for e in plan if e.session_id is None)
    if plan:
        finished = sum(1 for s in rows if s.status == "finished" and s.stop_label not in RESUMABLE)
        missing = len(plan) - finished
        line = f"planned {len(plan)}, finished {finished}, missing {missing}"
        if never_started:
            line += f" ({never_started} never started)"
        console.print(Text(line, style="yellow" if missing else "dim"), soft_wrap=True)
    shard_line = shard_summary(run_id, run_shards.shards_of(store, run_id))
    if shard_line:  # a shard's gate is its slice's: said, so nobody reads it as the whole run
        console.print(Text(shard_line, style="bold"), soft_wrap=True)
    resumable_count = never_started + sum(1 for s in rows if s.stop_label in RESUMABLE)
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

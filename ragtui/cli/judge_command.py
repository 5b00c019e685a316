"""``ragtui judge RUN``: judge a stored run that was never judged — an imported run above all.

Every bot answer gets the rubric and the chosen turn metrics (the config's ``metrics``, or
``--metric``), then every conversation the dialogue verdicts (all of them, or ``--dialogue-metric``;
``--no-dialogue`` for none). What was judged already is left alone, so the same command resumes;
``ragtui rejudge`` and ``ragtui judge-dialogue`` add new versions. The engine is
``core/judge_quality/judge_run.py``; this only reads the options and prints what it did.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from rich.text import Text

from ..core.content.prompts import PromptSet
from ..core.judge_quality.dialogue_card import carded_dialogue_metrics
from ..core.judge_quality.fit_store import fitted_metrics
from ..core.judge_quality.judge_run import RunJudgment, judge_dialogues, judge_run_turns, turn_metric_names
from ..core.judge_quality.rejudge import run_targets
from ..core.metrics import KNOWN_METRICS, Metric, MetricSettings, build_metrics
from ..core.metrics.dialogue import DIALOGUE_METRICS, DialogueMetric, build_dialogue_metrics
from ..core.models.endpoints import resolve_endpoint
from ..core.models.llm import ClientPool
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.runs.resolve import resolve_run
from ..core.store.imported import run_kind
from ..core.text.score_text import score_text
from ..core.types.errors import RagtuiError
from .command_table import help_of
from .dialogue_view import dialogue_verdict_text
from .model_start import embedded_model
from .output import console, console_err, item_progress


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("judge", help=help_of("judge"))
    parser.add_argument("run", help="run id ('last' for the newest run)")
    parser.add_argument(
        "--metric",
        action="append",
        choices=KNOWN_METRICS,
        dest="metrics",
        help="turn metric besides the rubric (repeatable; default: the config's metrics)",
    )
    parser.add_argument(
        "--dialogue-metric",
        action="append",
        choices=DIALOGUE_METRICS,
        dest="dialogue_metrics",
        help="dialogue verdict to give (repeatable; default: all)",
    )
    parser.add_argument("--no-dialogue", action="store_true", help="judge the turns only")
    parser.add_argument("--model", help="judge model name (default: the judge role's)")
    parser.add_argument("--concurrency", type=int, help="turns judged at once (default: the config's)")
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS)
    parser.set_defaults(handler=judge)


def judge(args: argparse.Namespace, overrides: Overrides) -> int:
    if args.concurrency is not None and args.concurrency < 1:
        raise RagtuiError(f"--concurrency must be at least 1, got {args.concurrency}")
    if args.no_dialogue and args.dialogue_metrics:
        raise RagtuiError("--no-dialogue and --dialogue-metric contradict each other", "give one of them")
    return asyncio.run(_judge(args, overrides))


async def _judge(args: argparse.Namespace, overrides: Overrides) -> int:
    config = bootstrap.load_effective_config(overrides)
    store = bootstrap.open_store(config)
    pool = ClientPool()
    try:
        run_id = resolve_run(store, args.run)
        names = turn_metric_names(args.metrics or list(config.metrics))
        endpoint = resolve_endpoint(config, "judge", args.model)
        settings = MetricSettings.from_config(config)
        kind = run_kind(store, run_id)
        console.print(
            Text(
                f"Judging {kind} run {run_id} with {endpoint.label}: {', '.join(names)} on every bot turn", style="dim"
            ),
            soft_wrap=True,
        )
        with embedded_model(config, {"judge": endpoint}):
            client = pool.client_for(endpoint)

            def turn_metrics(language: str) -> list[Metric]:
                prompts = PromptSet.load(config.prompts, language)
                built = build_metrics(names, client, prompts, settings=settings)
                return fitted_metrics(built, store, endpoint.model, config.min_judge_agreement)

            targets = run_targets(store, run_id)
            progress = item_progress()
            try:
                with progress:
                    task = progress.add_task("judging", total=len(targets), note="")
                    report = await judge_run_turns(
                        store,
                        run_id,
                        turn_metrics,
                        settings.threshold,
                        concurrency=args.concurrency or config.concurrency,
                        targets=targets,
                        on_turn=lambda _t: progress.update(task, advance=1, note=""),
                    )
            except (RagtuiError, KeyboardInterrupt, asyncio.CancelledError):
                console_err.print(
                    Text(
                        "Stopped; the verdicts stored so far stay — run the same command again to resume.",
                        style="yellow",
                    ),
                    soft_wrap=True,
                )
                raise
            _print_turns(report)
            if not args.no_dialogue:
                sessions = [store.session(s.id) for s in reversed(store.sessions(run_id=run_id))]

                def dialogue_metrics(language: str) -> list[DialogueMetric]:
                    built = build_dialogue_metrics(
                        args.dialogue_metrics or list(DIALOGUE_METRICS),
                        client,
                        config.prompts,
                        language,
                        config.thresholds,
                        policies=config.policies,
                    )
                    return carded_dialogue_metrics(built, store, endpoint.model, config.min_judge_agreement)

                verdicts = await judge_dialogues(store, sessions, dialogue_metrics)
                for verdict in verdicts:
                    head = Text(f"Session {verdict.session_id} · ", style="bold")
                    head.append_text(dialogue_verdict_text(verdict))
                    console.print(head, soft_wrap=True)
                console.print(Text(f"{len(verdicts)} dialogue verdict(s) stored.", style="dim"))
        console.print(Text(f"next: ragtui runs · ragtui show ID · ragtui report {run_id}", style="dim"), soft_wrap=True)
        return 0
    finally:
        await pool.aclose()
        store.close()


def _print_turns(report: RunJudgment) -> None:
    line = f"Judged {report.turns} bot turn(s) in {report.sessions} session(s): {report.stored} verdict(s) stored"
    extras = []
    if report.skipped_no_passages:
        extras.append(f"{report.skipped_no_passages} skipped: no passages")
    if report.skipped_other:
        extras.append(f"{report.skipped_other} skipped otherwise")
    if report.unscored:
        extras.append(f"{report.unscored} unscored")
    if extras:
        line += f" ({', '.join(extras)})"
    if report.already:
        line += f"; {report.already} turn(s) were judged already"
    console.print(Text(line + "."), soft_wrap=True)
    if report.agent_turns:
        where = ", ".join(f"session {a.session_id} turn {a.turn}" for a in report.agent_turns)
        console.print(
            Text(f"Not judged as the bot: {len(report.agent_turns)} turn(s) a human agent answered ({where})."),
            soft_wrap=True,
        )
    for session_id, score in sorted(report.scores.items()):
        console.print(Text(f"  session {session_id}: score {score_text(score)}"), soft_wrap=True)

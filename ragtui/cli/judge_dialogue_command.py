"""``ragtui judge-dialogue``: judge stored dialogues as a whole, on demand.

For sessions recorded before dialogue verdicts existed, with them turned off, or to re-judge
with another judge model or edited prompts. Each verdict is stored as the next version beside
the earlier ones (nothing is overwritten) and printed as ``show`` prints it.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from rich.panel import Panel
from rich.text import Text

from ..core.judge_quality.dialogue_card import carded_dialogue_metrics
from ..core.metrics.dialogue import DIALOGUE_METRICS, build_dialogue_metrics, context_from_session, metric_applies
from ..core.models.endpoints import resolve_endpoint
from ..core.models.llm import ClientPool
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.runs.resolve import resolve_run
from ..core.store.dialogue_verdicts import resolution_rate
from ..core.types.errors import RagtuiError
from ..core.types.judgments import Judgment
from .arg_checks import check_ids
from .command_table import help_of
from .dialogue_view import dialogue_verdict_text, rate_text
from .model_start import embedded_model
from .output import console


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("judge-dialogue", help=help_of("judge-dialogue"))
    parser.add_argument("sessions", type=int, nargs="*", help="session ids")
    parser.add_argument("--run", help="every session of a run id ('last' for the newest run)")
    parser.add_argument(
        "--metric",
        action="append",
        choices=DIALOGUE_METRICS,
        dest="dialogue_metric",
        help="dialogue metric to run (repeatable; default: all)",
    )
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="config TOML")
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help="SQLite database")
    parser.add_argument("--model", help="judge model name (overrides the config)")
    parser.set_defaults(handler=judge_dialogue)


def judge_dialogue(args: argparse.Namespace, overrides: Overrides) -> int:
    return asyncio.run(_judge(args, overrides))


async def _judge(args: argparse.Namespace, overrides: Overrides) -> int:
    check_ids(args.sessions)
    config = bootstrap.load_effective_config(overrides)
    store = bootstrap.open_store(config)
    ids = list(args.sessions)
    if args.run:
        ids += [s.id for s in reversed(store.sessions(run_id=resolve_run(store, args.run)))]
    if not ids:
        raise RagtuiError("no sessions to judge", "name session ids, or --run RUN_ID (or --run last)")
    sessions = [store.session(sid) for sid in dict.fromkeys(ids)]  # unknown ids fail before any call
    endpoint = resolve_endpoint(config, "judge", args.model)
    pool = ClientPool()
    try:
        with embedded_model(config, {"judge": endpoint}):
            client = pool.client_for(endpoint)
            metrics_by_language = {
                # Their verdicts carry the card's entry and judge key, as a run's do.
                language: carded_dialogue_metrics(
                    build_dialogue_metrics(
                        args.dialogue_metric or list(DIALOGUE_METRICS),
                        client,
                        config.prompts,
                        language,
                        config.thresholds,
                        policies=config.policies,
                    ),
                    store,
                    endpoint.model,
                    config.min_judge_agreement,
                )
                for language in {s.language for s in sessions}
            }
            for session in sessions:
                head = Text(f"Session {session.id}", style="bold")
                head.append(
                    f"  {session.scenario_id} × {session.persona_name} · stop {session.stop_reason or 'running'}"
                )
                console.print(head)
                context = context_from_session(session)
                for metric in metrics_by_language[session.language]:
                    if not metric_applies(metric, context):
                        continue  # nothing to judge (no expectations and no policy applies)
                    try:
                        judgment = await metric.judge(context)
                    except RagtuiError as exc:
                        judgment = Judgment(metric=metric.name, score=None, details={"failed": True}, error=str(exc))
                    stored = store.add_dialogue_judgment(session.id, judgment)
                    console.print(Panel(dialogue_verdict_text(stored)))
    finally:
        await pool.aclose()
    if len(sessions) > 1:
        console.print(rate_text(resolution_rate(store.dialogue_scores([s.id for s in sessions]))))
    return 0

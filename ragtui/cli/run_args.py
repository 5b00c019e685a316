"""``ragtui run``: its parser (imported only when the command line names ``run``; the run
itself, ``run_command``, only when it runs)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.config.limits import MAX_CONCURRENCY, MAX_REPEAT, MAX_TURNS, MAX_WORKERS
from .arg_checks import REPEAT_WITHOUT_YES
from .command_table import help_of
from .common_args import KEEP, add_config_and_db

if TYPE_CHECKING:
    from ..core.runs.bootstrap import Overrides


def add_parser(sub: argparse._SubParsersAction) -> None:
    run = sub.add_parser("run", help=help_of("run"))
    add_config_and_db(run)
    run.add_argument(
        "-s", "--scenario", action="append", default=[], metavar="ID", help="scenario id (repeatable; default: all)"
    )
    run.add_argument(
        "-p", "--persona", action="append", default=[], metavar="NAME", help="persona name (repeatable; default: all)"
    )
    run.add_argument(
        "--scenarios", type=Path, default=KEEP, metavar="PATH", help="scenario file or folder (default: the config's)"
    )
    run.add_argument(
        "--knowledge",
        type=Path,
        default=KEEP,
        metavar="DIR",
        help="the built-in bot's knowledge folder (default: the config's)",
    )
    run.add_argument(
        "--include-drafts",
        action="store_true",
        help="also run draft scenarios (generated, not yet accepted); a draft named with -s runs anyway",
    )
    run.add_argument(
        "--language", choices=("ja", "en"), default=KEEP, help="language of prompts, personas and scenarios"
    )
    run.add_argument("--model", default=KEEP, help="model name for every role (overrides the config)")
    run.add_argument("--max-turns", type=int, help=f"turns per dialogue (1–{MAX_TURNS}; default 3)")
    run.add_argument("--concurrency", type=int, help=f"dialogues at once (1–{MAX_CONCURRENCY}; default 4)")
    run.add_argument("--threshold", type=float, help="turn score under which a turn fails (default 0.7)")
    run.add_argument("--metric", action="append", default=[], dest="metrics", help="metric to run (repeatable)")
    run.add_argument(
        "--min-resolution-rate",
        type=float,
        metavar="RATE",
        help="exit 1 when the run's resolution rate is under RATE, 0–1 (default: the config's, 0 = off)",
    )
    run.add_argument(
        "--min-expectation-rate",
        type=float,
        metavar="RATE",
        help="exit 1 when under RATE of the run's expectations are met or kept, 0–1 (default: the config's, 0 = off)",
    )
    run.add_argument("--fail-on-policy", action="store_true", help="exit 1 when any answer breaks a [[policy]]")
    run.add_argument(
        "--gate-low-agreement",
        action="store_true",
        help="fail on scores whose judge agrees with people under [min_judge_agreement] too (default: shown, not gated)",
    )
    run.add_argument("--no-check", action="store_true", help="skip the endpoint reachability check")
    run.add_argument(
        "--workers",
        type=int,
        default=1,
        help=f"processes sharing the run and the database (1–{MAX_WORKERS}; default 1)",
    )
    run.add_argument(
        "--repeat",
        metavar="K",
        help=f"run each scenario × persona K times (trials, for pass^k; 1–{MAX_REPEAT}, over {REPEAT_WITHOUT_YES} "
        "only with --yes; default: the config's repeat, 1)",
    )
    run.add_argument(
        "--yes",
        action="store_true",
        help=f"allow --repeat over {REPEAT_WITHOUT_YES} (up to {MAX_REPEAT}) without asking",
    )
    run.add_argument(
        "--shard",
        metavar="I/N",
        help="run only shard I of N of the planned dialogues (1-based; every N-th, trials included), for CI jobs",
    )
    run.add_argument("--run-id", metavar="ID", help="the new run's id (needed with --shard: the same in every shard)")
    run.add_argument("--worker-slice", type=_worker_slice, help=argparse.SUPPRESS)  # i/N: a --workers process
    run.add_argument(
        "--resume",
        metavar="RUN",
        help="continue every interrupted or cancelled dialogue of run RUN (an id, a unique prefix, 'last' or 'previous')",
    )
    _add_report_arguments(run)
    run.add_argument(
        "--estimate", action="store_true", help="print the tokens (and cost) the run would use; call no model"
    )
    run.add_argument(
        "--verbose",
        action="store_true",
        help="a line per finished step on a terminal too: its tokens, seconds and prompt tokens sent, computed "
        "and reused from the server's prompt cache",
    )
    run.set_defaults(handler=_run)


def _run(args: argparse.Namespace, overrides: Overrides) -> int:
    import asyncio

    # Only what a run needs: `--workers` starts a process per worker.
    from .output import error_line
    from .run_command import EXIT_INTERRUPTED, run

    status = asyncio.run(run(args, overrides))
    if status == EXIT_INTERRUPTED and getattr(args, "worker_slice", None) is None:
        # Stopped by Ctrl-C: the table so far and how to continue are printed; said on
        # stderr as every interrupted command says it (a --workers worker stays quiet).
        sys.stdout.flush()
        error_line("ragtui: interrupted")
    return status


def _worker_slice(value: str) -> tuple[int, int]:
    from .run_workers import parse_worker_slice

    return parse_worker_slice(value)


def _add_report_arguments(run: argparse.ArgumentParser) -> None:
    """The flags `ragtui run` adds for comparing bot versions and for CI."""
    run.add_argument("--replay", metavar="RUN", help="re-send the customer messages of RUN (id, `last`, `previous`)")
    run.add_argument(
        "--then-simulate",
        action="store_true",
        help="with --replay: when the recording ran out or ended in DONE, let the simulator continue",
    )
    run.add_argument(
        "--at-turn",
        metavar="N",
        help="with --replay of an imported run: N+1 — the bot answers only turn N (or `all`: every turn) "
        "after the conversation's real history, judged against the real answer",
    )
    run.add_argument("--junit", type=Path, metavar="FILE", help="write JUnit XML, one test case per dialogue")
    run.add_argument("--markdown", type=Path, metavar="FILE", help="write a Markdown summary table")

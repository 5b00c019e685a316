"""``ragtui runs``: every run with its score, resolution rate, pass rate and their trends over
runs of the same set."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text

from ..core.registry import metric_views
from ..core.registry.metrics import RESOLUTION_RATE, gate_metric
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.runs.listing import TREND_RUNS, RunSummary, list_runs, pair_trends, sparkline
from ..core.runs.resolve import resolve_run
from ..core.text.fit_columns import NAME, NEWEST, RUN_ID, WHOLE, WRAPPED, Shorten
from ..core.text.number_text import percent_text
from ..core.text.score_text import no_verdict, score_text
from .arg_checks import check_count
from .command_table import help_of
from .output import console, print_table

TREND_WIDTH = TREND_RUNS
# How the runs table fits a terminal (``print_table``): the run id gives up its start (never so
# far that two read the same), the bot and its models wrap, the sparklines give up their oldest
# runs; dates and figures stay whole.
RUNS_FIT: dict[str, Shorten] = {"run": RUN_ID, "started": WHOLE, "bot · models": WRAPPED, "trend": NEWEST}


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("runs", help=help_of("runs"))
    # SUPPRESS: not given here must not erase the same flag given before the subcommand.
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="config TOML")
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help="SQLite database (default: the config's)")
    parser.add_argument("-n", "--limit", type=int, default=20, help="newest N runs (1 or more; default 20)")
    parser.add_argument(
        "--pairs", metavar="RUN", help="score trend per scenario × persona across runs, for the pairs of RUN"
    )
    parser.add_argument(
        "--verdicts",
        action="store_true",
        help="a column per dialogue metric (a plugin's too): each run's mean score of its newest verdicts",
    )
    parser.set_defaults(handler=runs)


# What the pass figures count, in the words of every view (compare's pass rate is the same figure
# over the pairs two runs share).
PASS_LEGEND = (
    "pass: of the dialogues that ran to the end, the share that passed (score at the threshold, every --metric at "
    "its mark, and resolved when resolution was judged: docs/glossary.md), each scenario × persona's trials "
    "averaged — pass^1, the pass rate compare shows"
)
INTERRUPTED_LEGEND = (
    "unsc: finished with no score; int.: did not finish and no process runs it — killed, paused, or planned and "
    "never started (ragtui run --resume RUN continues them)"
)
PASS_K_LEGEND = "; pass^K (K): the share of pairs passing all K of their trials (ragtui run --repeat K)"


def runs_table(rows: list[RunSummary], verdicts: bool = False) -> Table:
    table = Table(title=None, pad_edge=False)  # ten columns: every cell of width counts
    # pass^K only when a run shown has repeated trials: otherwise an empty column. (pass^1 is the
    # pass column: one pass rate, the one compare shows.)
    with_trials = any(r.repeated for r in rows)
    # Dialogues that did not finish (killed, or planned and never started): a column of their own
    # when a run shown has some, never counted as unscored.
    with_interrupted = any(r.interrupted for r in rows)
    # With --verdicts, a column per dialogue metric some run shown has verdicts of (its mean score;
    # off by default: the table fits 80 columns), but the one that makes the resolution rate: the
    # rate has its own column.
    present = {m for r in rows for m in r.verdict_means} if verdicts else set()
    means = [m for m in metric_views.shown_metrics(present) if m != gate_metric(RESOLUTION_RATE)]
    # Ids, dates, scores and sparklines stay whole; the bot and its models may wrap.
    columns: tuple[tuple[str, JustifyMethod, bool], ...] = (
        ("run", "left", True),
        ("started", "left", True),
        ("lang", "left", True),
        ("n", "right", True),
        ("score", "right", True),
        ("resol.", "right", True),
        ("pass", "right", True),
        *((("pass^K (K)", "right", True),) if with_trials else ()),
        *((metric_views.label(m), "right", True) for m in means),
        ("unsc", "right", True),
        *((("int.", "right", True),) if with_interrupted else ()),
        ("bot · models", "left", False),
        ("trend", "left", True),
    )
    for name, justify, no_wrap in columns:
        table.add_column(name, justify=justify, no_wrap=no_wrap)
    for r in rows:
        models = ", ".join(dict.fromkeys(m for m in r.models.values() if m))
        table.add_row(
            Text(r.run_id + (" ↻" if r.replay_of_run else "")),
            r.started.replace("T", " ")[5:16],
            r.language,
            str(r.dialogues),
            Text(score_text(r.score, r.low)),  # ≈ when its judge agrees with people under the floor
            resolution_cell(r),
            pass_cell(r),
            *((pass_k_cell(r),) if with_trials else ()),
            *(Text(score_text(r.verdict_means[m])) if m in r.verdict_means else no_verdict() for m in means),
            str(r.unscored),
            *((interrupted_cell(r),) if with_interrupted else ()),
            Text(f"{r.bot} · {models}"),
            trend_text(r),
        )
    return table


def interrupted_cell(r: RunSummary) -> Text:
    """The run's dialogues that did not finish and that nobody runs; ``–`` for none."""
    return Text(str(r.interrupted), style="yellow") if r.interrupted else Text("–", style="dim")


def pass_cell(r: RunSummary) -> Text:
    """The run's pass rate (pass^1), ``44%``; ``–`` when no dialogue ran to the end or was judged."""
    return Text("–", style="dim") if r.pass_rate is None else Text(percent_text(r.pass_rate))


def pass_k_cell(r: RunSummary) -> Text:
    """pass^K of a run with trials (``0.33 (3)``); ``–`` for one without."""
    if r.trials is None or not r.repeated or r.score is None:
        return Text("–", style="dim")
    k = r.trials.trials
    return Text(f"{score_text(r.trials.estimate(k))} ({k})")


def trend_text(r: RunSummary) -> Text:
    """Run scores, then resolution rates when any run of the set has them: ``▅▆▇ · ██▇``."""
    text = Text(sparkline(r.trend[-TREND_WIDTH:]), style="cyan")
    if any(v is not None for v in r.resolution_trend):
        text.append(" · ", style="dim")
        text.append(sparkline(r.resolution_trend[-TREND_WIDTH:]), style="magenta")
    return text


def resolution_cell(r: RunSummary) -> Text:
    """``67%``; ``unscored`` when no verdict could be scored; ``–`` when the run has none."""
    if r.resolution is None:
        return Text("–", style="dim")
    if r.resolution.rate is None:
        return Text("unscored", style="yellow")
    return Text(percent_text(r.resolution.rate))


def runs(args: argparse.Namespace, overrides: Overrides) -> int:
    check_count(args.limit, "-n/--limit")
    config = bootstrap.load_effective_config(overrides)
    store = bootstrap.open_store(config, read_only=True)
    if args.pairs:
        run_id = resolve_run(store, args.pairs)
        wanted = {(s.scenario_id, s.persona_name) for s in store.sessions(run_id=run_id)}
        table = Table("scenario × persona", "runs", "first", "last", "trend")
        for t in pair_trends(store):
            if (t.scenario_id, t.persona_name) in wanted:
                table.add_row(
                    Text(f"{t.scenario_id} × {t.persona_name}"),
                    str(len(t.points)),
                    score_text(t.scores[0]),
                    score_text(t.scores[-1]),
                    Text(sparkline(t.scores[-TREND_WIDTH:]), style="cyan"),
                )
        console.print(Text(f"Score per scenario × persona across runs (the pairs of {run_id}; 0–1 scale)"))
        print_table(table, {"scenario × persona": NAME, "trend": NEWEST})
        return 0
    rows = list_runs(store, config.min_judge_agreement)
    if not rows:
        console.print(Text(f"No runs in {store.path}. Start one with `ragtui run`."))
        return 0
    shown = rows[-args.limit :]
    print_table(runs_table(shown, args.verdicts), RUNS_FIT)
    console.print(Text(PASS_LEGEND + (PASS_K_LEGEND if any(r.repeated for r in shown) else ""), style="dim"))
    if any(r.interrupted for r in shown):
        console.print(Text(INTERRUPTED_LEGEND, style="dim"))
    for r in shown:
        if r.replay_of_run:
            console.print(Text(f"↻ {r.run_id} is a replay of {r.replay_of_run}", style="dim"))
    console.print(
        Text(
            "trend: run scores · resolution rates of the runs with the same scenarios × personas, oldest first "
            "(0–1 scale; resol. – : no dialogue verdicts); per pair: ragtui runs --pairs RUN",
            style="dim",
        )
    )
    return 0

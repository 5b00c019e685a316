"""``ragtui calibrate METRIC DATA``: how far does a metric agree with human labels?

Validates the labelled file first (every problem with its line number; ``--on-error stop`` runs
nothing, ``skip`` runs the rest), then judges each item with a progress display, storing each
result at once so an interrupted run continues where it stopped when run again with the same
inputs, and prints the agreement figures and the items it disagreed with most.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path

from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text

from ..core.config.settings import Config
from ..core.content.prompts import PromptSet
from ..core.judge_quality import calibration_store as calibration_db
from ..core.judge_quality.calibration import CalibrationReport, Calibrator
from ..core.judge_quality.dialogue_agreement import DialogueAgreement, dialogue_agreement
from ..core.judge_quality.fit import cross_validate, prompt_fingerprint
from ..core.judge_quality.fit import fit as fit_scores
from ..core.judge_quality.fit_store import save_fit
from ..core.judge_quality.labelled import (
    LabelledItem,
    LabelledSet,
    alternate_halves,
    load_labelled,
    parse_field_options,
)
from ..core.metrics import BINARY_METRICS, KNOWN_METRICS, Metric, MetricSettings, build_metrics
from ..core.metrics.dialogue import DIALOGUE_METRICS, build_dialogue_metrics
from ..core.models.endpoints import resolve_endpoint
from ..core.models.llm import ChatClient, ClientPool
from ..core.registry.metrics import PRIMARY_METRIC
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.store.store import Store
from ..core.text.number_text import fine_text, tenths_text
from ..core.text.score_text import figure_text, score_text
from ..core.types.errors import RagtuiError
from .command_table import help_of
from .model_start import embedded_model
from .output import console, console_err, item_progress

MAX_PROBLEMS_SHOWN = 20
EXPECTATION = "expectation"  # one judged expectation per item (calibrate_expectation.py), not a metric
MIN_FIT_ITEMS = 10  # fewer and a 5-fold cross-validation has folds of one or two items


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("calibrate", help=help_of("calibrate"))
    parser.add_argument(
        "metric",
        choices=(*KNOWN_METRICS, *DIALOGUE_METRICS, EXPECTATION),
        help="the metric to calibrate ('expectation': the judge of scenario expectations and policies)",
    )
    parser.add_argument("data", type=Path, nargs="?", help="labelled JSON array or JSONL file")
    parser.add_argument(
        "--from-labels", action="store_true", help="agreement with the labels stored by `ragtui label` and the TUI"
    )
    parser.add_argument("--run", help="with --from-labels: only this run id ('last' for the newest run)")
    parser.add_argument(
        "--field",
        action="append",
        default=[],
        metavar="NAME=KEY",
        help="map a field to the file's key: id, question, response, reference, context, label, language (repeatable)",
    )
    parser.add_argument("--limit", type=int, help="judge only the first N valid items")
    parser.add_argument("--label-max", type=float, help="graded labels run 0..N (default 1, rubric 5; JSTS: 5)")
    parser.add_argument(
        "--fit",
        action="store_true",
        help="fit raw scores to the labels (isotonic; a threshold for binary metrics), report it on held-out "
        "folds, and store it for this judge model and prompt",
    )
    parser.add_argument(
        "--split",
        choices=("all", "choose", "report"),
        default="all",
        help="half of the items, alternating within each language: 'choose' to tune on, 'report' to report on",
    )
    parser.add_argument(
        "--on-error",
        choices=("skip", "stop"),
        default="stop",
        help="bad lines in the file: skip them and run the rest, or run nothing (default)",
    )
    parser.add_argument("--examples", type=Path, help="few-shot examples JSONL used instead of prompts/<lang>/examples")
    parser.add_argument("--temperature", type=float, help="judge temperature (default: the judge role's)")
    parser.add_argument(
        "--language", default=argparse.SUPPRESS, choices=("ja", "en"), help="language of items without a language field"
    )
    parser.add_argument("--new", action="store_true", help="start a new run instead of resuming a matching one")
    parser.add_argument("--config", default=argparse.SUPPRESS, type=Path, help="config TOML")
    parser.add_argument("--db", default=argparse.SUPPRESS, type=Path, help="SQLite database for the results")
    parser.add_argument("--model", default=argparse.SUPPRESS, help="judge model name (overrides the config)")
    parser.set_defaults(handler=calibrate)


def calibrate(args: argparse.Namespace, overrides: Overrides) -> int:
    if args.metric == EXPECTATION:
        if args.data is None or args.from_labels:
            raise RagtuiError(
                "calibrate expectation needs a labelled file", "see sample_data/labelled/expectations.jsonl"
            )
        from .calibrate_expectation import calibrate_expectation

        return calibrate_expectation(args, overrides)
    if args.from_labels or args.data is None:
        from .labels_calibrate import calibrate_from_labels

        return calibrate_from_labels(args, overrides)
    if args.run:
        raise RagtuiError("--run applies to --from-labels only", "drop --run, or add --from-labels")
    return asyncio.run(_calibrate(args, overrides))


def report_problems(data: LabelledSet, on_error: str) -> None:
    for problem in data.problems[:MAX_PROBLEMS_SHOWN]:
        console_err.print(Text(f"{data.path}: {problem}", style="yellow"), soft_wrap=True)
    if len(data.problems) > MAX_PROBLEMS_SHOWN:
        console_err.print(Text(f"… and {len(data.problems) - MAX_PROBLEMS_SHOWN} more", style="yellow"))
    if on_error == "stop":
        raise RagtuiError(
            f"{data.path} has {len(data.problems)} bad line(s); nothing was run",
            "fix them, or pass --on-error skip to run the other items",
        )
    lines = ", ".join(str(p.line) for p in data.problems[:MAX_PROBLEMS_SHOWN])
    console_err.print(Text(f"Skipping {len(data.problems)} bad line(s): {lines}", style="yellow"), soft_wrap=True)


async def _calibrate(args: argparse.Namespace, overrides: Overrides) -> int:
    config = bootstrap.load_effective_config(overrides)
    if args.limit is not None and args.limit < 1:
        raise RagtuiError(f"--limit must be at least 1, got {args.limit}")
    if args.label_max is None:
        args.label_max = 5.0 if args.metric == PRIMARY_METRIC else 1.0
    if args.label_max <= 0:
        raise RagtuiError(f"--label-max must be positive, got {args.label_max}")
    binary = args.metric in BINARY_METRICS
    fields = parse_field_options(args.field)
    data = load_labelled(
        args.data, args.metric, fields, binary=binary, label_max=args.label_max, language=config.language
    )
    if data.problems:
        report_problems(data, args.on_error)
    items = split_items(data.items, args.split)
    items = items[: args.limit] if args.limit else items
    if not items:
        raise RagtuiError(f"{args.data} has no usable items", "check the field names (--field NAME=KEY)")
    endpoint = resolve_endpoint(config, "judge", getattr(args, "model", None))
    if args.temperature is not None:
        endpoint.temperature = args.temperature
    store = bootstrap.open_store(config)
    pool = ClientPool()
    try:
        with embedded_model(config, {"judge": endpoint}):
            client = pool.client_for(endpoint)
            calibrator = Calibrator(store, args.metric, binary, client, metrics_factory(config, args, client))
            settings = {
                "fields": fields,
                "label_max": args.label_max,
                "temperature": endpoint.temperature,
                "language": config.language,
            }
            resumed = calibrator.open_run(args.data, {i.language for i in items}, settings, new=args.new)
            pending = calibrator.pending(items)
            console.print(
                Text(
                    f"Calibrating {args.metric} on {len(items)} item(s) of {args.data} with {endpoint.label}"
                    + (
                        f"; resuming run #{calibrator.run_id}, {len(items) - len(pending)} already judged"
                        if resumed
                        else ""
                    ),
                    style="dim",
                )
            )
            await judge_all(calibrator, pending)
            calibrator.finish()
            report = calibrator.report(items)
            print_report(report, store.path)
            if args.fit:
                fit_and_store(calibrator, items, store, args, endpoint.model)
            if args.metric in DIALOGUE_METRICS and calibrator.run_id is not None:
                outcomes = {
                    item.key: (calibration_db.item_judgment(store, calibrator.run_id, item.key) or {}).get(
                        "details", {}
                    )
                    for item in items
                }
                stored = calibration_db.stored_items(store, calibrator.run_id)
                print_dialogue_agreement(dialogue_agreement(args.metric, items, stored, outcomes))
    finally:
        await pool.aclose()
    return 0


def metrics_factory(config: Config, args: argparse.Namespace, client: ChatClient) -> Callable[[str], list[Metric]]:
    cache: dict[str, list[Metric]] = {}
    base = MetricSettings.from_config(config)
    settings = MetricSettings(
        thresholds=base.thresholds,
        relevancy=base.relevancy,
        examples={args.metric: args.examples} if args.examples else {},
    )

    def metrics_for(language: str) -> list[Metric]:
        if language not in cache and args.metric in DIALOGUE_METRICS:
            # A dialogue metric stands in for a turn metric here: Calibrator.judge calls it with the
            # DialogueContext of an item that has messages, never with a TurnContext.
            cache[language] = build_dialogue_metrics(  # type: ignore[assignment]
                [args.metric], client, config.prompts, language, config.thresholds
            )
        if language not in cache:
            prompts = PromptSet.load(config.prompts, language)
            cache[language] = build_metrics(
                [args.metric], client, prompts, settings=settings, include_primary=args.metric == PRIMARY_METRIC
            )
        return cache[language]

    return metrics_for


async def judge_all(calibrator: Calibrator, pending: list[LabelledItem]) -> None:
    progress = item_progress()
    unscored = 0
    done = 0
    try:
        with progress:
            task = progress.add_task("judging", total=len(pending), note="")
            for item in pending:
                judgment = await calibrator.judge(item)
                done += 1
                if judgment.score is None and not judgment.verdict.skipped:
                    unscored += 1
                progress.update(task, advance=1, note=f"{unscored} unscored" if unscored else "")
    except (RagtuiError, KeyboardInterrupt, asyncio.CancelledError):
        console_err.print(
            Text(
                f"Stopped after {done} new item(s); they are stored — run the same command again to resume.",
                style="yellow",
            )
        )
        raise


def fit_and_store(
    calibrator: Calibrator, items: list[LabelledItem], store: Store, args: argparse.Namespace, model: str
) -> None:
    """Per language (each has its own prompt, so its own fingerprint): cross-validated figures
    before and after the fit, then the fit on every item, stored for this model and prompt."""
    stored = calibrator.stored()
    for language in sorted({item.language for item in items}):
        rows = [stored[i.key] for i in items if i.language == language and i.key in stored]
        rows = [r for r in rows if r.score is not None]
        if len(rows) < MIN_FIT_ITEMS:
            console_err.print(
                Text(
                    f"Not fitting {language}: {len(rows)} scored item(s), at least {MIN_FIT_ITEMS} needed",
                    style="yellow",
                )
            )
            continue
        raw = [float(r.score) for r in rows if r.score is not None]  # rows are all scored
        labels = [r.label for r in rows]
        metric = calibrator.target_metric(language)
        fitted = fit_scores(args.metric, model, prompt_fingerprint(metric), calibrator.binary, raw, labels)
        report = cross_validate(calibrator.binary, raw, labels)
        fit_id = save_fit(store, fitted, report, str(args.data.resolve()), calibrator.run_id)
        console.print(Text(f"Fit #{fit_id} · {args.metric} · {language} · {fitted.kind}", style="bold"))
        figures = "  ".join(
            f"{name} {fine_text(report.before[name])} → {fine_text(report.after[name])}" for name in report.before
        )
        console.print(Text(f"held-out ({report.folds}-fold cross-validation, n={report.n}): {figures}"))
        if fitted.threshold is not None:
            console.print(Text(f"threshold: P(yes) ≥ {fine_text(fitted.threshold)} counts as yes"))
        console.print(
            Text(
                f"Applied whenever {args.metric} runs with judge model {model} and this {language} prompt "
                f"(fingerprint {fitted.fingerprint}); never for another model or prompt.",
                style="dim",
            )
        )


def print_report(report: CalibrationReport, db_path: Path | None) -> None:
    head = Text(f"Calibration run #{report.run_id} · {report.metric} · ", style="bold")
    head.append(f"{report.judged}/{report.selected} judged, {report.scored} scored")
    console.print(head)
    if report.binary and report.binary_stats is not None:
        s = report.binary_stats
        console.print(
            Text(
                f"accuracy {fine_text(s.accuracy)} · F1 {fine_text(s.f1)} · Cohen's kappa {fine_text(s.kappa)} · "
                f"precision {fine_text(s.precision)} · recall {fine_text(s.recall)}  "
                f"(tp {s.true_positive}, fp {s.false_positive}, fn {s.false_negative}, tn {s.true_negative})"
            )
        )
    else:
        interval = (
            ""
            if report.interval is None
            else f" (95% CI {fine_text(report.interval[0])} – {fine_text(report.interval[1])})"
        )
        console.print(
            Text(f"Spearman {fine_text(report.spearman)}{interval} · mean absolute error {fine_text(report.mae)}")
        )
    if report.auc is not None:
        console.print(Text(f"AUC good vs bad {fine_text(report.auc)}"))
    for language, figures in report.by_language.items():
        console.print(
            Text(
                f"  {language}: n={figures.n} · Spearman {fine_text(figures.spearman)} · AUC good vs bad {fine_text(figures.auc)}"
            )
        )
    speed = tenths_text(report.items_per_minute)
    console.print(
        Text(f"{speed} items/min · {report.unscored} unscored · {report.skipped} skipped (metric not applicable)")
    )
    if report.worst:
        table = Table(title="Most disagreement", title_justify="left")
        columns: tuple[tuple[str, JustifyMethod], ...] = (
            ("line", "right"),
            ("id", "left"),
            ("label", "right"),
            ("score", "right"),
            ("judge said", "left"),
        )
        for name, justify in columns:
            table.add_column(name, justify=justify)
        for d in report.worst:
            table.add_row(str(d.line), Text(d.key), figure_text(d.label), score_text(d.score), Text(d.conclusion[:160]))
        console.print(table)
    console.print(Text(f"Results stored in {db_path} (calibration run #{report.run_id}).", style="dim"))


def split_items(items: list[LabelledItem], split: str) -> list[LabelledItem]:
    """The labelled items of one half (``alternate_halves``)."""
    return alternate_halves(items, split)


def print_dialogue_agreement(found: DialogueAgreement) -> None:
    """What a dialogue metric adds to the report: pass/fail agreement, and for resolution the
    outcome, per language."""
    for language, stats in sorted(found.by_language.items()):
        line = Text(f"{language}: {stats.scored} scored · Spearman {fine_text(stats.spearman)}")
        line.append(f" · pass/fail agreement {fine_text(stats.pass_accuracy)} (kappa {fine_text(stats.pass_kappa)})")
        if stats.outcome_total:
            line.append(f" · outcome agreement {stats.outcome_matches}/{stats.outcome_total}")
        console.print(line)
    if found.confusion:
        table = Table(title="Outcome: label (rows) × judged (columns)", title_justify="left")
        names = list(found.outcome_names)
        table.add_column("label")
        for name in names:
            table.add_column(name, justify="right")
        for label in names:
            table.add_row(label, *[str(found.confusion.get((label, judged), 0)) for judged in names])
        console.print(table)

"""``ragtui judge-card --measure``: measure the configured judge's agreement with people, per
metric and language, and store it on the card.

On the bundled labelled sets' report halves (``alternate_halves``): an estimate first, then each
item judged through ``ragtui calibrate``'s machinery (``Calibrator``: progress, each item stored
at once, a matching earlier run resumed — ``--quick`` then a full run judges only the rest), then
one card entry per metric and language with its 95% interval. With ``--from-labels``: the verdicts
of turns people labelled in this database, no model called.
"""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text

from ..core.config.paths import bundled_dir
from ..core.config.settings import Config
from ..core.content.prompts import PromptSet
from ..core.dialogue.estimate import (
    ASSUMED_OUTPUT,
    approx_tokens,
    calls_per_verdict,
    message_tokens,
    per_statement,
    statement_count,
)
from ..core.judge_quality.calibration import Calibrator, context_for
from ..core.judge_quality.card_judges import card_set, is_dialogue, metric_calls
from ..core.judge_quality.card_measure import entry as card_entry
from ..core.judge_quality.card_measure import item_figures, label_figures
from ..core.judge_quality.card_store import save_entry
from ..core.judge_quality.fit import prompt_fingerprint
from ..core.judge_quality.labelled import LabelledItem, alternate_halves, load_labelled, parse_field_options
from ..core.metrics import BINARY_METRICS, MetricSettings, build_metrics
from ..core.metrics.answer_relevancy import MAX_STATEMENTS
from ..core.metrics.rubric import CheckedRubricJudge
from ..core.models.endpoints import Endpoint, resolve_endpoint
from ..core.models.llm import ChatClient, ClientPool
from ..core.registry.metrics import EXPECTATION_RATE, PRIMARY_METRIC, gate_metric
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.runs.resolve import resolve_run
from ..core.store.labelled_turns import labelled_turns
from ..core.store.store import Store
from ..core.text.number_text import tenths_text, whole_text
from ..core.types.errors import RagtuiError
from .calibrate_command import judge_all, metrics_factory
from .judge_card_expectations import measure_expectations, report_items
from .judge_card_line import entry_line
from .model_start import embedded_model
from .output import console

QUICK_ITEMS = 4  # --quick: at most this many report-half items per metric and language


@dataclass
class Planned:
    metric: str
    binary: bool
    label_max: float
    path_shown: str
    all_items: list[LabelledItem]  # the whole report half (its languages fix the run's identity)
    items: list[LabelledItem]  # what this command measures (--language, --quick)
    path: Path  # the bundled labelled file


def card_metrics(chosen: str | None, names: list[str]) -> list[str]:
    if chosen is not None:
        if chosen not in names:
            raise RagtuiError(f"--metric {chosen!r} has no judge to measure", f"metrics: {', '.join(names)}")
        return [chosen]
    return names


def plan(config: Config, metrics: list[str], languages: tuple[str, ...], quick: bool) -> list[Planned]:
    out = []
    for metric in metrics:
        path = bundled_dir("sample_data") / "labelled" / card_set(metric)
        if metric == gate_metric(EXPECTATION_RATE) or not path.is_file():  # expectations: judge_card_expectations
            continue
        binary = metric in BINARY_METRICS
        label_max = 5.0 if metric == PRIMARY_METRIC else 1.0
        data = load_labelled(
            path, metric, parse_field_options([]), binary=binary, label_max=label_max, language=config.language
        )
        if data.problems:
            raise RagtuiError(f"{path}: {data.problems[0]}", "the bundled labelled set is damaged: reinstall ragtui")
        report = alternate_halves(data.items, "report")
        items: list[LabelledItem] = []
        for language in languages:
            mine = [i for i in report if i.language == language]
            items += mine[:QUICK_ITEMS] if quick else mine
        if items:
            out.append(Planned(metric, binary, label_max, f"sample_data/labelled/{path.name}", report, items, path))
    return out


def print_estimate(config: Config, planned: list[Planned], endpoint: Endpoint) -> None:
    """Items, model calls and tokens before anything is judged (a character heuristic, ≈)."""
    total_items = total_calls = 0.0
    tokens_in = tokens_out = 0.0
    client = ChatClient(endpoint, None)  # builds the metrics to read their prompts; never calls
    for p in planned:
        if is_dialogue(p.metric):  # a few calls over the whole transcript per dialogue
            calls = metric_calls(p.metric)
            for item in p.items:
                total_items += 1
                total_calls += calls
                tokens_in += calls * approx_tokens(" ".join(text for _role, text in item.messages))
                tokens_out += calls * ASSUMED_OUTPUT["judge"]
            continue
        for language in sorted({i.language for i in p.items}):
            prompts = PromptSet.load(config.prompts, language)
            metrics = build_metrics(
                [p.metric], client, prompts, settings=MetricSettings.from_config(config), include_primary=True
            )
            target = next(m for m in metrics if m.name == p.metric)
            template = getattr(target, "template", None)
            fixed = approx_tokens(" ".join(template.parts.values())) if template is not None else 0
            for item in (i for i in p.items if i.language == language):
                if isinstance(target, CheckedRubricJudge):  # its yes/no checks, built as the judge builds them
                    checks = [message_tokens(q.messages) for q in target.questions(context_for(item))]
                    calls, asked = float(len(checks)), float(sum(checks))
                else:
                    statements = min(MAX_STATEMENTS, max(1, statement_count(item.response)))
                    calls = calls_per_verdict(p.metric) + (statements if per_statement(p.metric) else 0)
                    texts = " ".join([item.question, item.response, item.reference or "", *item.passages])
                    asked = calls * (fixed + approx_tokens(texts))
                total_items += 1
                total_calls += calls
                tokens_in += asked
                tokens_out += calls * ASSUMED_OUTPUT["judge"]
    console.print(
        Text(
            f"Estimate: {int(total_items)} item(s), ≈{whole_text(total_calls)} judge call(s), "
            f"≈{tenths_text(tokens_in / 1000)}k tokens in and ≈{tenths_text(tokens_out / 1000)}k out with {endpoint.label} "
            "(items judged by an earlier matching run are reused, not called again)",
            style="dim",
        ),
        soft_wrap=True,
    )


def measure(args: argparse.Namespace, overrides: Overrides, names: list[str], languages: tuple[str, ...]) -> int:
    if getattr(args, "from_labels", False):
        if args.quick:
            raise RagtuiError(
                "--quick applies to the bundled labelled sets", "drop --quick: --from-labels calls no model"
            )
        return measure_from_labels(args, overrides, names, languages)
    if getattr(args, "run", None):
        raise RagtuiError("--run applies to --from-labels only", "drop --run, or add --from-labels")
    return asyncio.run(_measure(args, overrides, names, languages))


async def _measure(args: argparse.Namespace, overrides: Overrides, names: list[str], languages: tuple[str, ...]) -> int:
    config = bootstrap.load_effective_config(overrides)
    endpoint = resolve_endpoint(config, "judge", getattr(args, "model", None))
    chosen = card_metrics(args.metric, names)
    planned = plan(config, chosen, languages, args.quick)
    expectations = (
        report_items(config, languages, QUICK_ITEMS if args.quick else None)
        if gate_metric(EXPECTATION_RATE) in chosen
        else []
    )
    if not planned and not expectations:
        raise RagtuiError("no bundled labelled items for that metric and language", "see sample_data/labelled/")
    if args.quick:
        console.print(
            Text(f"Quick: at most {QUICK_ITEMS} item(s) per metric and language (entries say so).", style="yellow")
        )
    print_estimate(config, planned, endpoint)
    if expectations:
        console.print(Text(f"and {len(expectations)} expectation check(s), one judge call each", style="dim"))
    store = bootstrap.open_store(config)
    pool = ClientPool()
    try:
        with embedded_model(config, {"judge": endpoint}):
            client = pool.client_for(endpoint)
            for p in planned:
                await _measure_metric(store, config, client, endpoint, p, args.quick)
            if expectations:
                await measure_expectations(store, config, client, endpoint, expectations, args.quick)
        console.print(Text(f"Stored on the judge card in {store.path}: ragtui judge-card shows it.", style="dim"))
    finally:
        await pool.aclose()
        store.close()
    return 0


async def _measure_metric(
    store: Store, config: Config, client: ChatClient, endpoint: Endpoint, p: Planned, quick: bool
) -> None:
    factory = metrics_factory(config, argparse.Namespace(metric=p.metric, examples=None), client)
    calibrator = Calibrator(store, p.metric, p.binary, client, factory)
    # The same settings as `ragtui calibrate METRIC FILE --split report`, and the whole half's
    # languages, so either command resumes the other's items.
    settings = {
        "fields": parse_field_options([]),
        "label_max": p.label_max,
        "temperature": endpoint.temperature,
        "language": config.language,
    }
    calibrator.open_run(p.path, {i.language for i in p.all_items}, settings)
    pending = calibrator.pending(p.items)
    console.print(
        Text(
            f"{p.metric}: {len(p.items)} item(s) of {p.path_shown} (report half)"
            + (
                f", {len(p.items) - len(pending)} already judged (calibration run #{calibrator.run_id})"
                if len(pending) < len(p.items)
                else ""
            ),
            style="dim",
        )
    )
    await judge_all(calibrator, pending)
    calibrator.finish()
    stored = calibrator.stored()
    for language in sorted({i.language for i in p.items}):
        mine = [i for i in p.items if i.language == language]
        found = item_figures(p.binary, (stored[i.key] for i in mine if i.key in stored))
        on = f"bundled labelled set, {language} report half" + (f" (quick: {len(mine)} item(s))" if quick else "")
        fingerprint = prompt_fingerprint(calibrator.target_metric(language))
        entry = card_entry(p.metric, language, endpoint.model, fingerprint, found, on, "measured", quick)
        saved = save_entry(store, entry, skipped=found.skipped, run_id=calibrator.run_id)
        console.print(entry_line(saved, found.skipped), soft_wrap=True)


def measure_from_labels(
    args: argparse.Namespace, overrides: Overrides, names: list[str], languages: tuple[str, ...]
) -> int:
    """The team's own labels: each labelled turn's newest verdict by this judge model with each
    metric's current prompt. No model is called."""
    config = bootstrap.load_effective_config(overrides)
    endpoint = resolve_endpoint(config, "judge", getattr(args, "model", None))
    if not Path(config.database).exists():  # nothing labelled yet; no empty database left behind
        raise RagtuiError(
            f"no database at {config.database}: nothing is labelled yet",
            "label turns with `ragtui label SESSION TURN --score N` or the TUI's l key",
        )
    store = bootstrap.open_store(config)
    client = ChatClient(endpoint, None)  # builds the metrics to match their prompts; never calls
    try:
        run_id = resolve_run(store, args.run) if args.run else None
        thresholds = MetricSettings.from_config(config).thresholds
        stored = 0
        for metric_name in card_metrics(args.metric, names):
            turns = labelled_turns(store, metric_name, run_id, thresholds)
            for language in languages:
                mine = [t for t in turns if t.language == language]
                if not mine:
                    continue
                prompts = PromptSet.load(config.prompts, language)
                metrics = build_metrics(
                    [metric_name], client, prompts, settings=MetricSettings.from_config(config), include_primary=True
                )
                metric = next(m for m in metrics if m.name == metric_name)
                binary = metric_name in BINARY_METRICS
                found, judged = label_figures(binary, mine, endpoint.model, metric)
                if judged == 0:
                    continue
                scope = f"run {run_id}" if run_id else "every run"
                on = f"your labels, {scope} ({judged} labelled turn(s) judged by this prompt)"
                entry = card_entry(
                    metric_name, language, endpoint.model, prompt_fingerprint(metric), found, on, "labels", False
                )
                console.print(entry_line(save_entry(store, entry)), soft_wrap=True)
                stored += 1
        if stored == 0:
            raise RagtuiError(
                f"no labelled turns judged by {endpoint.model} with the current prompts in {store.path}",
                "label turns with `ragtui label SESSION TURN --score N` or the TUI's l key (re-judge older runs first)",
            )
    finally:
        store.close()
    return 0

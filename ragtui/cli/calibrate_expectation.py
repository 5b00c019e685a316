"""``ragtui calibrate expectation FILE``: the expectation judge's agreement with labelled answers.

Validates the file first (every bad line with its number and key; ``--on-error stop`` runs
nothing), asks the judge one question per item with a progress bar and time left, and prints
accuracy, Cohen's κ and AUC per language and per half (``choose`` / ``report``), then the counts
per kind of answer and the items it disagreed with most.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import time

from rich.table import Table
from rich.text import Text

from ..core.judge_quality.expectation_agreement import (
    ExpectationFile,
    Figures,
    Scored,
    by_group,
    by_kind,
    load_expectation_items,
    select,
)
from ..core.metrics.dialogue.expectation_judge import MET_AT, ExpectationJudge
from ..core.models.endpoints import resolve_endpoint
from ..core.models.llm import ClientPool
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.text.number_text import fine_text, tenths_text
from ..core.text.score_text import figure_text
from ..core.types.errors import RagtuiError
from .model_start import embedded_model
from .output import console, console_err, item_progress

MAX_PROBLEMS_SHOWN = 20
WORST_SHOWN = 10


def calibrate_expectation(args: argparse.Namespace, overrides: Overrides) -> int:
    return asyncio.run(_calibrate(args, overrides))


def _report_problems(found: ExpectationFile, on_error: str) -> None:
    for problem in found.problems[:MAX_PROBLEMS_SHOWN]:
        console_err.print(Text(f"{found.path}: {problem}", style="yellow"), soft_wrap=True)
    if on_error == "stop":
        raise RagtuiError(
            f"{found.path} has {len(found.problems)} bad line(s); nothing was run",
            "fix them, or pass --on-error skip to run the other items",
        )


async def _calibrate(args: argparse.Namespace, overrides: Overrides) -> int:
    config = bootstrap.load_effective_config(overrides)
    if args.limit is not None and args.limit < 1:
        raise RagtuiError(f"--limit must be at least 1, got {args.limit}")
    # A file without language fields is in the config's language unless --language names another.
    found = load_expectation_items(args.data, getattr(args, "language", None) or config.language)
    if found.problems:
        _report_problems(found, args.on_error)
    items = select(found.items, args.split)
    items = items[: args.limit] if args.limit else items
    if not items:
        raise RagtuiError(f"{args.data} has no usable items for --split {args.split}")
    endpoint = resolve_endpoint(config, "judge", getattr(args, "model", None))
    pool = ClientPool()
    rows: list[Scored] = []
    try:
        with embedded_model(config, {"judge": endpoint}):
            client = pool.client_for(endpoint)
            judges = {lang: ExpectationJudge(client, config.prompts, lang) for lang in {i.language for i in items}}
            console.print(
                Text(
                    f"Calibrating expectation on {len(items)} item(s) of {args.data} with {endpoint.label}", style="dim"
                )
            )
            started = time.monotonic()
            progress = item_progress()
            unscored = 0
            with progress:
                task = progress.add_task("judging", total=len(items), note="")
                for item in items:
                    expectation, answer = item.to_check()
                    check = await judges[item.language].check(expectation, answer)
                    rows.append(Scored(item, check))
                    unscored += check.p_yes is None
                    progress.update(task, advance=1, note=f"{unscored} unscored" if unscored else "")
            elapsed = time.monotonic() - started
    finally:
        await pool.aclose()
    print_expectation_report(rows, elapsed)
    return 0


def figure_line(language: str, half: str, f: Figures) -> str:
    """One line per (language, half), plain so a log or a doc can quote it."""
    return (
        f"{language} {half}: n={f.n} scored={f.scored} · accuracy {fine_text(f.accuracy)} · kappa {fine_text(f.kappa)}"
        f" · AUC {fine_text(f.auc)} · mean P(yes) label 1 {figure_text(f.mean_p_positive)}, label 0 {figure_text(f.mean_p_negative)}"
    )


def print_expectation_report(rows: list[Scored], elapsed: float) -> None:
    console.print(Text(f"Expectation judge · {len(rows)} item(s) · met at P(yes) ≥ {MET_AT}", style="bold"))
    read_as_act = sum(1 for r in rows if r.item.run_expectation().polarity != r.item.polarity)
    if read_as_act:  # measured as a run asks them, said so the figures are not read as the file's polarity
        console.print(
            Text(
                f'{read_as_act} must item(s) written as a prohibition ("does not …") were asked as a run asks '
                'them: about the act ("promises a refund"), labels read the same way round',
                style="dim",
            ),
            soft_wrap=True,
        )
    for (language, half), f in by_group(rows).items():
        console.print(Text(figure_line(language, half, f)), soft_wrap=True)
    kinds = Table(title="Per kind", title_justify="left")
    for name in ("kind", "n", "judged as labelled", "unscored", "mean P(yes)"):
        kinds.add_column(name, justify="left" if name == "kind" else "right")
    for k in by_kind(rows):
        kinds.add_row(Text(k.kind), str(k.n), str(k.right), str(k.unscored), figure_text(k.mean_p))
    console.print(kinds)
    wrong = [r for r in rows if r.check.p_yes is not None and r.predicted != r.label]
    wrong.sort(key=lambda r: -abs(float(r.check.p_yes or 0.0) - r.label))
    if wrong:
        worst = Table(title="Most disagreement", title_justify="left")
        for name in ("line", "id", "kind", "label", "P(yes)"):
            worst.add_column(name, justify="right" if name in ("line", "label", "P(yes)") else "left")
        for r in wrong[:WORST_SHOWN]:
            worst.add_row(
                str(r.item.line), Text(r.item.id), Text(r.item.kind), str(r.label), figure_text(r.check.p_yes)
            )
        console.print(worst)
    errors = [r for r in rows if r.check.error]
    for r in errors[:5]:
        console.print(
            Text(f"unscored: line {r.item.line} ({r.item.id}): {r.check.error}", style="yellow"), soft_wrap=True
        )
    reads = collections.Counter(r.check.read for r in rows)
    console.print(Text("read: " + ", ".join(f"{name} {count}" for name, count in sorted(reads.items())), style="dim"))
    speed = len(rows) / elapsed * 60 if elapsed > 0 else None
    console.print(
        Text(f"{tenths_text(speed)} items/min · {len(errors)} unscored · {tenths_text(elapsed)} s", style="dim")
    )

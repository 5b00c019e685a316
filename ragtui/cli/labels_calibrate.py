"""``ragtui calibrate METRIC --from-labels [--run RUN]``: the judge's agreement with the labels
people stored for their own conversations, per judge model and prompt version.

Reads only the database: no model is called. Re-judge a run (``ragtui rejudge``) with another
model or prompt and run this again to see which judge agrees more with your people.
"""

from __future__ import annotations

import argparse

from rich.table import Table
from rich.text import Text

from ..core.judge_quality.label_agreement import LabelAgreementReport, label_agreement
from ..core.metrics import MetricSettings
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.runs.resolve import resolve_run
from ..core.store.labelled_turns import labelled_turns
from ..core.text.number_text import fine_text
from ..core.text.score_text import figure_text, score_text
from ..core.types.errors import RagtuiError
from .output import console


def calibrate_from_labels(args: argparse.Namespace, overrides: Overrides) -> int:
    if not args.from_labels:
        raise RagtuiError("calibrate needs a labelled file, or --from-labels", "see `ragtui calibrate --help`")
    if args.data is not None:
        raise RagtuiError(
            f"--from-labels reads the stored labels, not {args.data}", "drop the file, or drop --from-labels"
        )
    config = bootstrap.load_effective_config(overrides)
    store = bootstrap.open_store(config, read_only=True)
    try:
        run_id = resolve_run(store, args.run) if args.run else None
        thresholds = MetricSettings.from_config(config).thresholds
        turns = labelled_turns(store, args.metric, run_id, thresholds)
        if not turns:
            where = f" in run {run_id}" if run_id else ""
            raise RagtuiError(
                f"no {args.metric} labels{where} in {store.path}",
                "label turns with `ragtui label SESSION TURN --score N` or the TUI's l key",
            )
        print_label_report(label_agreement(args.metric, turns), run_id)
    finally:
        store.close()
    return 0


def print_label_report(report: LabelAgreementReport, run_id: str | None) -> None:
    scope = f"run {run_id}" if run_id else "every run"
    console.print(
        Text(
            f"{report.metric} against people's labels · {scope} · {report.labels} label(s): "
            f"{report.score_labels} with a score, {report.agree_labels} agree/disagree",
            style="bold",
        ),
        soft_wrap=True,
    )
    for v in report.versions:
        # Lines rather than one wide table: model names are long and terminals narrow.
        head = Text("judge ", style="bold")
        head.append(v.model, style="bold cyan")
        head.append(f" · prompt {v.prompt} · {v.turns} labelled turn(s) judged, {v.unscored} unscored")
        console.print(head, soft_wrap=True)
        interval = "" if v.interval is None else f" (95% CI {fine_text(v.interval[0])} – {fine_text(v.interval[1])})"
        console.print(
            Text(f"  scores: Spearman {fine_text(v.spearman)}{interval} · MAE {fine_text(v.mae)} · n={v.score_pairs}"),
            soft_wrap=True,
        )
        b = v.binary
        console.print(
            Text(
                f"  agree/disagree: accuracy {fine_text(b.accuracy if b else None)} · "
                f"Cohen's kappa {fine_text(b.kappa if b else None)} · n={v.pass_pairs}"
            ),
            soft_wrap=True,
        )
    for v in report.versions:
        if not v.worst:
            continue
        worst = Table(title=f"Most disagreement · {v.model} · prompt {v.prompt}", title_justify="left")
        for name in ("session", "turn", "by", "label", "judge", "gap", "note"):
            worst.add_column(name, justify="right" if name in ("session", "turn", "judge", "gap") else "left")
        for d in v.worst:
            worst.add_row(
                str(d.session_id),
                str(d.turn),
                Text(d.labeller),
                d.label,
                score_text(d.score),
                figure_text(d.gap),
                Text(d.note),
            )
        console.print(worst)
    console.print(
        Text(
            "Scores: Spearman between the judge's score and the person's 1–5 (MAE on score / 5). "
            "Agree/disagree: the person's implied pass/fail vs each judge version's, at the threshold.",
            style="dim",
        ),
        soft_wrap=True,
    )

"""``ragtui judge-card``: how far the configured judge agrees with people, per metric and language.

Reads what was measured for exactly this judge model and each metric's current prompt (its
fingerprint): a fit stored by ``ragtui calibrate METRIC DATA --fit``, else the figures ragtui
ships for its embedded judge (the bundled labelled sets' report halves). Everything else is
printed as unmeasured, with the command that measures it. Needs no model running.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.table import Table
from rich.text import Text

from ..core import bootstrap
from ..core.bootstrap import Overrides
from ..core.content.prompts import PromptSet
from ..core.metrics import BINARY_METRICS, KNOWN_METRICS, MetricSettings, build_metrics
from ..core.metrics.fit import prompt_fingerprint
from ..core.metrics.judge_card import entry_for
from ..core.models.endpoints import resolve_endpoint
from ..core.models.llm import ChatClient
from ..core.paths import bundled_dir
from .output import console

LANGUAGES = ("en", "ja")
DERIVED = ("trust",)  # computed in code from the other verdicts: no judge of its own


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("judge-card", help="how far the judge agrees with people, per metric and language")
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="config TOML")
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help="SQLite database (default: the config's)")
    parser.add_argument("--model", default=argparse.SUPPRESS, help="judge model name (overrides the config)")
    parser.set_defaults(handler=judge_card)


def judge_card(args: argparse.Namespace, overrides: Overrides) -> int:
    config = bootstrap.load_effective_config(overrides)
    endpoint = resolve_endpoint(config, "judge", getattr(args, "model", None))
    # No database yet: only the shipped figures (nothing was measured here).
    store = bootstrap.open_store(config, read_only=True) if Path(config.database).exists() else None
    client = ChatClient(endpoint, None)  # builds the metrics to fingerprint them; never calls
    table = Table(title=f"Judge card · {endpoint.label}")
    for name in ("metric", "language", "agreement with people", "n", "measured on"):
        table.add_column(name)
    names = [m for m in KNOWN_METRICS if m not in DERIVED]
    for language in LANGUAGES:
        prompts = PromptSet.load(config.prompts, language)
        metrics = build_metrics(names, client, prompts, settings=MetricSettings.from_config(config))
        for metric in metrics:
            entry = entry_for(store, metric.name, endpoint.model, prompt_fingerprint(metric))
            if entry is None or entry.value is None:
                bundled = bundled_dir("sample_data") / "labelled" / f"{metric.name}.jsonl"
                data = "sample_data/labelled/" + bundled.name if bundled.is_file() else "DATA"
                table.add_row(
                    metric.name,
                    language,
                    Text("unmeasured", style="yellow"),
                    "–",
                    Text(f"ragtui calibrate {metric.name} {data} --fit"),
                )
                continue
            figure = "κ" if metric.name in BINARY_METRICS else "Spearman"
            table.add_row(metric.name, language, f"{figure} {entry.value:.2f}", str(entry.n), Text(entry.on))
    console.print(table)
    console.print(
        Text(
            "Figures are for this judge model and each metric's prompt exactly; an edited prompt is unmeasured "
            "until measured again. Labelled data: sample_data/labelled/ (README there).",
            style="dim",
        ),
        soft_wrap=True,
    )
    return 0

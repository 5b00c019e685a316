"""``ragtui judge-card``: how far the configured judge agrees with people, per metric and language.

Reads what was measured for exactly this judge model and each metric's current prompt (its
fingerprint): the newest entry stored by ``ragtui judge-card --measure`` or fit stored by
``ragtui calibrate METRIC DATA --fit``, else the figures ragtui ships for its embedded judge (the
bundled labelled sets' report halves). Everything else is printed as unmeasured, with the command
that measures it. Needs no model running. ``--measure`` measures (``judge_card_measure``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from ..core.config.settings import Config
from ..core.judge_quality.card_entry import CardEntry, figure_name, interval_text
from ..core.judge_quality.card_judges import card_metric_names
from ..core.judge_quality.card_rows import LANGUAGES, card_rows
from ..core.models.endpoints import resolve_endpoint
from ..core.models.llm import ChatClient
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.store.store import Store
from ..core.text.number_text import setting_text
from ..core.text.score_text import figure_text
from ..core.types.agreement_floor import INTERVAL_RULE, LOW_MARK, LOW_WORDS, AgreementFloor, is_low
from ..core.types.errors import RagtuiError
from .command_table import help_of
from .judge_card_measure import QUICK_ITEMS, measure
from .output import console

SOURCES = {
    "shipped": "shipped",
    "calibrate": "calibrate --fit",
    "measured": "measured",
    "labels": "your labels",
}


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("judge-card", help=help_of("judge-card"))
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="config TOML")
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help="SQLite database (default: the config's)")
    parser.add_argument("--model", default=argparse.SUPPRESS, help="judge model name (overrides the config)")
    parser.add_argument(
        "--measure",
        action="store_true",
        help="measure the judge on the bundled labelled sets' report halves and store it on the card",
    )
    parser.add_argument(
        "--from-labels", action="store_true", help="with --measure: on the labels stored by `ragtui label` and the TUI"
    )
    parser.add_argument("--run", help="with --from-labels: only this run id ('last' for the newest run)")
    parser.add_argument(
        "--quick", action="store_true", help=f"with --measure: at most {QUICK_ITEMS} items per metric and language"
    )
    parser.add_argument("--metric", choices=card_metric_names(), help="only this metric")
    parser.add_argument("--language", dest="card_language", choices=LANGUAGES, help="only this language")
    parser.set_defaults(handler=judge_card)


def judge_card(args: argparse.Namespace, overrides: Overrides) -> int:
    language = getattr(args, "card_language", None)
    languages = (language,) if language else LANGUAGES
    if args.measure:
        return measure(args, overrides, list(card_metric_names()), languages)
    for flag in ("from_labels", "quick", "run"):
        if getattr(args, flag, None):
            raise RagtuiError(f"--{flag.replace('_', '-')} applies to --measure only", "add --measure")
    config = bootstrap.load_effective_config(overrides)
    endpoint = resolve_endpoint(config, "judge", getattr(args, "model", None))
    # No database yet: only the shipped figures (nothing was measured here).
    store = bootstrap.open_store(config, read_only=True) if Path(config.database).exists() else None
    client = ChatClient(endpoint, None)  # builds the metrics to fingerprint them; never calls
    table = Table(title=f"Judge card · {endpoint.label}")
    # Short headers that never wrap, so the figures stay readable in an 80-column terminal; only
    # "measured on" (free text) wraps.
    # Short cells that never wrap, so the card stays a table in an 80-column terminal; where each
    # figure was measured (free text) is a numbered note under it.
    for name in ("metric", "lang", "agrees with people", "n", "95% CI", "on"):
        table.add_column(name, no_wrap=True)
    names = [args.metric] if args.metric else list(card_metric_names())
    try:
        notes = _rows(table, config, store, client, names, languages, endpoint.model)
    finally:
        if store is not None:
            store.close()
    console.print(table)
    for number, note in enumerate(notes, 1):
        console.print(Text(f"[{number}] {note}"), soft_wrap=True)
    floor = config.min_judge_agreement
    console.print(
        Text(
            f"{LOW_MARK} {LOW_WORDS}: under [min_judge_agreement] (Spearman {setting_text(floor.spearman)}, κ {setting_text(floor.kappa)}, "
            f"at least {floor.items} items): its scores are drawn neither red nor green and do not gate a run.",
            style="dim",
        ),
        soft_wrap=True,
    )
    console.print(Text(f"{INTERVAL_RULE}.", style="dim"), soft_wrap=True)
    console.print(
        Text(
            f"quick: measured on fewer than {floor.items} items or with --quick — shown, never carried by a verdict, "
            "so it decides nothing about what gates.",
            style="dim",
        ),
        soft_wrap=True,
    )
    console.print(
        Text(
            "95% interval: Spearman by Fisher's z (Bonett–Wright error, as ragtui calibrate), κ by a percentile bootstrap. "
            "Figures are for this judge model and each metric's prompt exactly; an edited prompt is unmeasured "
            "until measured again. Labelled data: sample_data/labelled/ (README there).",
            style="dim",
        ),
        soft_wrap=True,
    )
    return 0


def _rows(
    table: Table,
    config: Config,
    store: Store | None,
    client: ChatClient,
    names: list[str],
    languages: tuple[str, ...],
    model: str,
) -> list[str]:
    """Adds a row per metric and language; returns the notes the rows' ``on`` column numbers."""
    notes: list[str] = []

    def note(text: str) -> str:
        if text not in notes:
            notes.append(text)
        return f"[{notes.index(text) + 1}]"

    floor = config.min_judge_agreement
    for row in card_rows(config, store, client, model, names, languages):
        if row.entry is None:
            table.add_row(
                row.metric,
                row.language,
                Text("unmeasured", style="yellow"),
                "–",
                "–",
                note(f"unmeasured: ragtui judge-card --measure --metric {row.metric}"),
            )
        else:
            table.add_row(row.metric, row.language, *_cells(row.entry, floor, note, quick=row.quick))
    return notes


def _cells(entry: CardEntry, floor: AgreementFloor, note: Callable[[str], str], quick: bool = False) -> list[Any]:
    value = "undefined" if entry.value is None else figure_text(entry.value)  # too few items, constant judge
    interval = interval_text(entry.low, entry.high).removeprefix("95% CI ") or "–"
    on = entry.on + (f"; {entry.unscored} unscored" if entry.unscored else "")
    source = SOURCES.get(entry.source, entry.source)
    figure = f"{figure_name(entry.figure)} {value}"
    if quick:
        shown = Text(f"quick {figure}", style="dim")
    elif is_low({"agreement": entry.to_dict()}, floor):
        shown = Text(f"{LOW_MARK} {figure}", style="dim")
    else:
        shown = Text(figure)
    return [shown, str(entry.n), interval, note(on if on.startswith(source) else f"{source}: {on}")]

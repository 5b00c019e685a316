"""``ragtui report RUN --html FILE``: one self-contained HTML file of a run (core/runs/html_report)
to open from a CI artifact or an e-mail, on a phone too. RUN may be in another database
(``results.db:last``). The file goes through the output guard: never over a database."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.text import Text

from ..core.files.output_file import check_output, write_output
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.runs.html_report.build import run_report_html
from ..core.runs.resolve import open_referenced, split_reference
from ..core.store.store import Store
from .output import console


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "report",
        help="write a run as one self-contained HTML file (charts, transcripts, filters)",
        description="Write RUN's summary, charts and every dialogue's transcript as one HTML file "
        "that opens without a network.",
    )
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="config TOML")
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help="SQLite database (default: the config's)")
    parser.add_argument("run", help="a run id, a unique prefix, `last` or `previous`; FILE:RUN in another database")
    parser.add_argument("--html", type=Path, required=True, metavar="FILE", help="the HTML file to write")
    parser.set_defaults(handler=report)


def report(args: argparse.Namespace, overrides: Overrides) -> int:
    config = bootstrap.load_effective_config(overrides)
    reference = split_reference(args.run)
    default: Store | None = None if reference.database else bootstrap.open_store(config, read_only=True)
    store, run_id = open_referenced(reference, default, config.min_judge_agreement)
    check_output(args.html, option="--html", database=store.path)  # before any work
    text = run_report_html(
        store,
        run_id,
        config.thresholds,
        config.min_resolution_rate,
        config.min_judge_agreement,
        config.gate_low_agreement,
        config.prices,
    )
    written = write_output(args.html, text, option="--html", database=store.path)
    console.print(Text(f"Wrote the report of run {run_id} to {written}", style="dim"), soft_wrap=True)
    return 0

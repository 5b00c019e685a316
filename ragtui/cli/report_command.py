"""``ragtui report RUN --html FILE``: one self-contained HTML file of a run (core/runs/html_report)
to open from a CI artifact or an e-mail, on a phone too. RUN may be in another database
(``results.db:last``). The file goes through the output guard: never over a database."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.text import Text

from ..core.config.settings import Config
from ..core.files.output_file import check_output, write_output
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.runs.html_report.build import run_report_html
from ..core.runs.resolve import open_referenced, split_reference
from ..core.store.store import Store
from ..core.types.errors import RagtuiError
from .command_table import help_of
from .output import console


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "report",
        help=help_of("report"),
        description="Write RUN's summary, charts and every dialogue's transcript as one HTML file "
        "that opens without a network.",
    )
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="config TOML")
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help="SQLite database (default: the config's)")
    parser.add_argument("run", help="a run id, a unique prefix, `last` or `previous`; FILE:RUN in another database")
    parser.add_argument("--html", type=Path, required=True, metavar="FILE", help="the HTML file to write")
    parser.add_argument(
        "--realism-against",
        metavar="SIM_RUN",
        help="add a realism section: RUN's customers (the real ones) beside SIM_RUN's simulated ones",
    )
    parser.add_argument(
        "--realism-pairs",
        type=int,
        default=0,
        metavar="N",
        help="with --realism-against: also ask the judge the blind test on N pairs (default 0: no model called)",
    )
    parser.set_defaults(handler=report)


def report(args: argparse.Namespace, overrides: Overrides) -> int:
    config = bootstrap.load_effective_config(overrides)
    reference = split_reference(args.run)
    default: Store | None = None if reference.database else bootstrap.open_store(config, read_only=True)
    store, run_id = open_referenced(reference, default, config.min_judge_agreement)
    check_output(args.html, option="--html", database=store.path)  # before any work
    extra = realism_sections(args, config) if args.realism_against or args.realism_pairs else ()
    text = run_report_html(
        store,
        run_id,
        config.thresholds,
        config.min_resolution_rate,
        config.min_judge_agreement,
        config.gate_low_agreement,
        config.prices,
        extra,
    )
    written = write_output(args.html, text, option="--html", database=store.path)
    console.print(Text(f"Wrote the report of run {run_id} to {written}", style="dim"), soft_wrap=True)
    return 0


def realism_sections(args: argparse.Namespace, config: Config) -> tuple[str, ...]:
    """The realism section of ``--realism-against``: RUN as REAL, the other run as SIM."""
    from .realism_command import realism_section_for

    if not args.realism_against:
        raise RagtuiError("--realism-pairs needs --realism-against SIM_RUN", "name the simulated run to compare with")
    return (realism_section_for(config, args.run, args.realism_against, args.realism_pairs),)

"""``ragtui label SESSION TURN`` and ``ragtui labels``: people's labels of bot turns from scripts.

A label is a person's own 1–5 score of a turn and/or whether they agree with the judge's newest
verdict; it is stored apart from the verdicts (see ``core/store/labels.py``). Bad input — a
session or turn that does not exist, a score out of range — is one line, and nothing is stored.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.table import Table
from rich.text import Text

from ..core.metrics import KNOWN_METRICS
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.runs.resolve import resolve_run
from ..core.store.labels import DEFAULT_METRIC, default_labeller, labels_where, save_label
from ..core.store.store import Store
from .arg_checks import MAX_SQLITE_INT, check_ids, check_range
from .command_table import help_of
from .output import console


def add_label_parser(sub: argparse._SubParsersAction) -> None:
    label = sub.add_parser("label", help=help_of("label"))
    label.add_argument("session", type=int, help="session id (see `ragtui sessions`)")
    label.add_argument("turn", type=int, help="the turn of the bot answer")
    label.add_argument("--score", type=int, metavar="1-5", help="your own score of the answer, 1 (bad) to 5")
    label.add_argument("--note", help="why, in a few words")
    verdict = label.add_mutually_exclusive_group()
    verdict.add_argument("--agree", dest="agree", action="store_const", const=True, help="you agree with the verdict")
    verdict.add_argument("--disagree", dest="agree", action="store_const", const=False, help="you disagree with it")
    label.add_argument(
        "--metric", choices=KNOWN_METRICS, default=DEFAULT_METRIC, help="the metric the label is about (default rubric)"
    )
    label.add_argument("--by", help="labeller name (default: the config's `labeller`, else your OS user name)")
    # SUPPRESS: an unset flag must not erase the same flag given before the subcommand.
    label.add_argument("--config", type=Path, default=argparse.SUPPRESS)
    label.add_argument("--db", type=Path, default=argparse.SUPPRESS)
    label.set_defaults(handler=label_turn)


def add_labels_parser(sub: argparse._SubParsersAction) -> None:
    labels = sub.add_parser("labels", help=help_of("labels"))
    labels_sub = labels.add_subparsers(dest="labels_command", metavar="ACTION", required=True)
    listing = labels_sub.add_parser("list", help="list stored labels")
    export = labels_sub.add_parser("export", help="write labelled turns as JSONL that `ragtui calibrate` reads")
    export.add_argument("--jsonl", type=Path, required=True, metavar="FILE", help="output file")
    for parser in (listing, export):
        parser.add_argument("--run", help="only this run id ('last' for the newest run)")
        parser.add_argument("--metric", choices=KNOWN_METRICS, help="only labels about this metric")
        parser.add_argument("--config", type=Path, default=argparse.SUPPRESS)
        parser.add_argument("--db", type=Path, default=argparse.SUPPRESS)
    listing.set_defaults(handler=list_labels)
    export.set_defaults(handler=export_labels)


def label_turn(args: argparse.Namespace, overrides: Overrides) -> int:
    check_ids([args.session])
    check_range(args.turn, "turn", 1, MAX_SQLITE_INT)
    config = bootstrap.load_effective_config(overrides)
    store = bootstrap.open_store(config)
    try:
        stored = save_label(
            store,
            args.session,
            args.turn,
            score=args.score,
            agree=args.agree,
            note=args.note,
            labeller=args.by or default_labeller(config.labeller),
            metric=args.metric,
        )
    finally:
        store.close()
    console.print(
        Text(f"Labelled session {stored.session_id} turn {stored.turn} ({stored.metric}): {stored.summary()}")
    )
    return 0


def run_id_of(store: Store, run: str | None) -> str | None:
    """The run a ``--run`` names (an id, a unique prefix, ``last``, ``previous``); None: every run."""
    return resolve_run(store, run) if run else None


def list_labels(args: argparse.Namespace, overrides: Overrides) -> int:
    store = bootstrap.open_store(bootstrap.load_effective_config(overrides), read_only=True)
    rows = labels_where(store, args.metric, run_id_of(store, args.run))
    if not rows:
        console.print(Text(f"No labels in {store.path}. Label a turn with `ragtui label SESSION TURN --score N`."))
        return 0
    table = Table("session", "turn", "metric", "score", "verdict", "by", "when", "note")
    for r in rows:
        agree = "–" if r.agree is None else f"{'agree' if r.agree else 'disagree'} v{r.judgment_version}"
        table.add_row(
            str(r.session_id),
            str(r.turn),
            r.metric,
            "–" if r.score is None else f"{r.score}/5",
            agree,
            Text(r.labeller),
            r.created_at.replace("T", " ")[:19],
            Text(r.note or ""),
        )
    console.print(table)
    return 0


def export_labels(args: argparse.Namespace, overrides: Overrides) -> int:
    from ..core.store.label_export import write_labels_jsonl

    store = bootstrap.open_store(bootstrap.load_effective_config(overrides), read_only=True)
    written, left_out = write_labels_jsonl(
        store, args.jsonl, metric=args.metric, run_id=run_id_of(store, args.run), database=store.path
    )
    console.print(Text(f"Wrote {written} labelled turn(s) to {args.jsonl}"))
    if left_out:
        console.print(
            Text(
                f"{left_out} label(s) without a usable grade were left out (see docs/labels-and-rejudging.md, labels export)",
                style="dim",
            )
        )
    return 0

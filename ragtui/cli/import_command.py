"""``ragtui import FILE…``: the team's real conversations into the record as a run of their own
(core/runs/importing.py), personal data redacted first unless ``--no-redact`` is given."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.text import Text

from ..core.conversations.reading import ReadOptions
from ..core.conversations.roles import parse_role_options
from ..core.registry.conversation_loaders import conversation_loaders
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.runs.importing import ImportOutcome, ImportRequest, import_conversations
from ..core.runs.shards import check_run_id
from ..core.text.pii import KINDS
from ..core.types.errors import RagtuiError
from .command_table import help_of
from .output import console

COLUMN_FIELDS = ("id", "role", "text", "time")


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "import",
        help=help_of("import"),
        description="Store each conversation of FILE… as a session of a new run of kind `imported`: the customer's "
        "messages, the bot's answers, a human agent's (kept, never judged as the bot's) and system notes. E-mail "
        "addresses, phone numbers, card numbers, postcodes, order/account ids and [redact] names are replaced by "
        "placeholders (<email-1>) before anything is stored. A file imported before is skipped.",
    )
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE", help="conversation files")
    parser.add_argument("--format", metavar="F", help="the files' format (default: by suffix; see --formats)")
    parser.add_argument(
        "--columns",
        metavar="SPEC",
        help="CSV/TSV: which column holds what, e.g. id=ticket,role=speaker,text=body,time=sent (default: by header)",
    )
    parser.add_argument(
        "--role",
        action="append",
        default=[],
        metavar="WORD=SPEAKER",
        help="read a role word as customer, bot, agent or system (repeatable), e.g. --role Kumo=bot",
    )
    parser.add_argument("--encoding", metavar="ENC", help="the files' encoding (default utf-8), e.g. cp932")
    parser.add_argument(
        "--no-redact", action="store_true", help="store personal data as the files have it (not recommended)"
    )
    parser.add_argument("--run-id", metavar="ID", help="the new run's id (default: the time, like every run)")
    parser.add_argument("--formats", action="store_true", help="list the formats ragtui reads, then exit")
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS)
    parser.set_defaults(handler=import_command)


def parse_columns(spec: str | None) -> dict[str, str]:
    if not spec:
        return {}
    out: dict[str, str] = {}
    for item in spec.split(","):
        field, equals, column = item.partition("=")
        field = field.strip().lower()
        if not equals or field not in COLUMN_FIELDS or not column.strip():
            raise RagtuiError(
                f"--columns {spec!r}: {item.strip()!r} is not FIELD=COLUMN with FIELD one of {', '.join(COLUMN_FIELDS)}",
                "e.g. --columns id=ticket,role=speaker,text=body",
            )
        out[field] = column.strip()
    return out


def import_command(args: argparse.Namespace, overrides: Overrides) -> int:
    if args.formats:
        for loader in conversation_loaders():
            line = Text(f"{loader.name:<10} {' '.join(loader.suffixes):<16} ")
            line.append(loader.description, style="dim")
            console.print(line, soft_wrap=True)
        return 0
    if not args.files:
        raise RagtuiError("ragtui import needs conversation files", "e.g. ragtui import chats.jsonl tickets.csv")
    try:
        roles = parse_role_options(args.role)
    except ValueError as exc:
        raise RagtuiError(str(exc)) from None
    run_id = check_run_id(args.run_id) if args.run_id else None
    config = bootstrap.load_effective_config(overrides)
    request = ImportRequest(
        paths=list(args.files),
        options=ReadOptions(args.format, parse_columns(args.columns), roles, args.encoding),
        redact=not args.no_redact,
        rules=config.redact,
        run_id=run_id,
        threshold=config.threshold,
        language=config.language,
    )
    outcome = import_conversations(config.database, request, _progress if sys.stderr.isatty() else None)
    _report(outcome, f" --db {overrides.db}" if overrides.db is not None else "")
    return 0


def _progress(path: Path, count: int) -> None:
    sys.stderr.write(f"\r{path.name}: {count:,} conversations…")
    sys.stderr.flush()


def redaction_words(outcome: ImportOutcome) -> str:
    if not outcome.redacted:
        return "NOT redacted (--no-redact): personal data is stored as the files have it"
    counts = outcome.redactions
    kinds = [k for k in KINDS if k in counts or k in ("email", "phone", "card", "postcode")]
    kinds += sorted(k for k in counts if k not in kinds)
    return "redacted " + ", ".join(f"{k} {counts.get(k, 0)}" for k in kinds)


def _report(outcome: ImportOutcome, db: str) -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
    for f in outcome.files:
        if f.already is not None:
            console.print(Text(f"{f.path}: already imported as run {f.already}; nothing added"), soft_wrap=True)
    if outcome.run_id is None:
        return
    files = [f for f in outcome.files if f.already is None]
    summary = (
        f"imported {outcome.conversations} conversation(s), {outcome.messages} message(s) in {outcome.turns} turn(s) "
        f"from {len(files)} file(s) as run {outcome.run_id} · {redaction_words(outcome)}"
    )
    console.print(Text(summary), soft_wrap=True)
    nexts = (
        f"next: ragtui judge {outcome.run_id}{db} · ragtui sessions --run {outcome.run_id}{db}"
        f" · ragtui show {outcome.first_session}{db}"
    )
    console.print(Text(nexts, style="dim"), soft_wrap=True)

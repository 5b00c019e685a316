"""The work of the small commands (their parsers: ``store_commands``). Each returns an exit status."""

from __future__ import annotations

import argparse
import json

from rich.table import Table
from rich.text import Text

from ..core.content.persona_folders import folders_of, load_merged
from ..core.content.scenarios import load_scenarios, scenario_file
from ..core.models.endpoints import resolve_endpoints
from ..core.registry.metrics import PRIMARY_METRIC
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.runs.low_agreement import low_rubric_sessions
from ..core.runs.resolve import resolve_run
from ..core.store.export import write_csv
from ..core.store.imported import imported_origin
from ..core.store.labels import session_labels
from ..core.store.lineage import lineage_lines, next_turn_lines
from ..core.store.store import Store
from ..core.text.fit_columns import NAME, RUN_ID, WHOLE
from ..core.text.number_text import setting_text
from ..core.types.errors import RagtuiError
from ..core.types.stored import StoredSession
from .arg_checks import check_count, check_ids
from .output import console, print_table, say_discovered, session_score_text, stop_text
from .transcript_view import print_session


def _store(overrides: Overrides) -> Store:
    """The database of a command that only reads it: a missing one is an error, never made."""
    return bootstrap.open_store(bootstrap.load_effective_config(overrides), read_only=True)


# How the sessions table fits a terminal (``print_table``): a run id gives up its start and a
# name its middle, never so far that two rows read the same; the figures stay whole.
SESSIONS_FIT = {"started": WHOLE, "run": RUN_ID, "scenario": NAME, "persona": NAME, "stop": WHOLE}


def sessions_table(rows: list[StoredSession], low: set[int] | None = None) -> Table:
    """``low``: the sessions whose rubric judge agrees with people under the floor (``≈``, no colour)."""
    table = Table(title=None, show_lines=False)
    for name in ("id", "started", "run", "scenario", "persona", "lang", "turns", "score", "stop"):
        table.add_column(name, justify="right" if name in ("id", "turns", "score") else "left")
    for s in rows:
        table.add_row(
            str(s.id),
            s.created_at.replace("T", " ")[:16],
            Text(s.run_id or "-"),
            Text(s.scenario_id),
            Text(s.persona_name),
            s.language,
            f"{s.turns}/{s.max_turns}",
            session_score_text(s, s.id in (low or set())),
            stop_text(s.stop_label),
        )
    return table


def sessions(args: argparse.Namespace, overrides: Overrides) -> int:
    check_count(args.limit, "-n/--limit")
    config = bootstrap.load_effective_config(overrides)
    store = bootstrap.open_store(config, read_only=True)
    run_id = resolve_run(store, args.run) if args.run else None
    rows = store.sessions(limit=args.limit, run_id=run_id)
    if not rows:
        console.print(Text(f"No sessions in {store.path}. Start one with `ragtui run`."))
        return 0
    low = low_rubric_sessions(store, [s.id for s in rows], config.min_judge_agreement)
    print_table(sessions_table(rows, low), SESSIONS_FIT)
    return 0


def show(args: argparse.Namespace, overrides: Overrides) -> int:
    check_ids([args.session])
    config = bootstrap.load_effective_config(overrides)
    store = bootstrap.open_store(config, read_only=True)
    session = store.session(args.session)
    labels = session_labels(store, args.session)
    origin = imported_origin(store, session.id) if session.kind == "imported" else None
    print_session(
        session, all_versions=args.all_versions, labels=labels, floor=config.min_judge_agreement, origin=origin
    )
    for line in lineage_lines(store, session):
        console.print(Text(line, style="cyan"))
    for line in next_turn_lines(session)[1:]:  # N+1: the real answer beside the new one
        console.print(Text(line), soft_wrap=True)
    return 0


def export(args: argparse.Namespace, overrides: Overrides) -> int:
    check_ids(args.sessions)
    store = _store(overrides)
    chosen = [store.session(sid) for sid in args.sessions]
    if args.run:
        chosen += store.run_sessions(resolve_run(store, args.run))
    if not chosen:
        raise RagtuiError("nothing to export", "name session ids, or --run RUN_ID (or --run last)")
    write_csv(chosen, args.csv, store.path)
    console.print(Text(f"Wrote {len(chosen)} dialogue(s) to {args.csv}"))
    return 0


def config(args: argparse.Namespace, overrides: Overrides) -> int:
    cfg = bootstrap.load_effective_config(overrides)
    endpoints = resolve_endpoints(cfg, overrides.model)
    say_discovered(endpoints)
    effective = {
        "config_file": str(cfg.source) if cfg.source else None,
        "language": cfg.language,
        "max_turns": cfg.max_turns,
        "threshold": cfg.threshold,
        "concurrency": cfg.concurrency,
        "repeat": cfg.repeat,
        "top_k": cfg.top_k,
        "metrics": cfg.metrics,
        "dialogue_metrics": cfg.dialogue_metrics,
        "min_resolution_rate": cfg.min_resolution_rate,
        "compare_alpha": cfg.compare_alpha,
        "thresholds": {PRIMARY_METRIC: cfg.threshold, **cfg.thresholds},
        "database": str(cfg.database),
        "personas": str(cfg.personas),
        "user_personas": str(cfg.user_personas),
        "scenarios": str(cfg.scenarios),
        "knowledge": str(cfg.knowledge),
        "prompts": str(cfg.prompts),
        "roles": {role: e.public() for role, e in endpoints.items()},
        "bot": cfg.bot.public(),
    }
    console.print_json(json.dumps(effective, ensure_ascii=False))
    return 0


def personas(args: argparse.Namespace, overrides: Overrides) -> int:
    cfg = bootstrap.load_effective_config(overrides)
    table = Table("name", "temperature", "patience", "description")
    for p in load_merged(folders_of(cfg), cfg.language):
        patience = f"{p.patience} turns" if p.patience else "-"
        table.add_row(Text(p.name), setting_text(p.temperature), patience, Text(p.description))
    console.print(Text(f"Personas in {cfg.user_personas / cfg.language} (yours), then {cfg.personas / cfg.language}"))
    console.print(table)
    return 0


def scenarios(args: argparse.Namespace, overrides: Overrides) -> int:
    if getattr(args, "check", False):
        from .scenario_check import check_scenarios

        return check_scenarios(args, overrides)
    if getattr(args, "files", None):
        raise RagtuiError("scenario FILES are only read with --check", "add --check, or drop the file names")
    cfg = bootstrap.load_effective_config(overrides)
    table = Table("id", "question", "reference", "tags", "expect")
    for s in load_scenarios(cfg.scenarios, cfg.language):
        table.add_row(
            Text(s.id),
            Text(s.question),
            "yes" if s.reference else "-",
            Text(", ".join(s.tags)),
            str(len(s.expectations)),
        )
    console.print(Text(f"Scenarios in {scenario_file(cfg.scenarios, cfg.language)}"))
    console.print(table)
    return 0

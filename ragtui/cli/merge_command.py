"""``ragtui merge SRC.db … --db DEST``: copy the runs of other ragtui databases into DEST
(core/store/merge.py). Sources are opened and checked before DEST is touched; the merge is one
transaction, so on any error DEST is as it was (and a DEST this command created is removed)."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

from rich.text import Text

from ..core.runs.bootstrap import Overrides
from ..core.store.merge import check_destination, merge, open_sources
from ..core.store.store import Store
from ..core.types.errors import RagtuiError
from .command_table import help_of
from .output import console


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "merge",
        help=help_of("merge"),
        description="Copy every session of each SRC database, with its verdicts, labels, lineage and "
        "run plan, into --db DEST under fresh ids; merging a source again adds nothing.",
    )
    parser.add_argument("sources", nargs="+", type=Path, metavar="SRC", help="a ragtui database to copy from")
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help="the database to merge into (required)")
    parser.set_defaults(handler=merge_command)


def merge_command(args: argparse.Namespace, overrides: Overrides) -> int:
    dest_path: Path | None = getattr(args, "db", None)
    if dest_path is None:
        raise RagtuiError(
            "ragtui merge needs --db DEST, the database to merge into", "e.g. ragtui merge a.db b.db --db all.db"
        )
    check_destination(dest_path)
    sources = open_sources(list(args.sources), dest_path)
    created = not dest_path.exists()
    try:
        dest = Store.open(dest_path)
        try:
            results = merge(dest, list(zip(args.sources, sources, strict=True)))
        finally:
            dest.close()
    except BaseException:
        if created:  # nothing of it was asked for but the merge: leave no empty database behind
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(OSError):
                    Path(str(dest_path) + suffix).unlink()
        raise
    finally:
        for store in sources:
            store.close()
    for r in results:
        runs = f" ({', '.join(r.runs[:5])}{' …' if len(r.runs) > 5 else ''})" if r.runs else ""
        line = f"{r.path}: {r.added} session(s) added{runs}, {r.skipped} already in {dest_path}"
        console.print(Text(line), soft_wrap=True)
    console.print(Text(f"merged {len(results)} database(s) into {dest_path}", style="dim"), soft_wrap=True)
    return 0

"""``ragtui knowledge [DIR]``: what the built-in bot reads of a knowledge folder — each document
with its format, title and passages, and each file that gave nothing, with the reason."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.table import Table
from rich.text import Text

from ..core.knowledge.folder import KnowledgeFolder, knowledge_root, read_folder
from ..core.registry.loaders import loaders
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.types.errors import RagtuiError
from .command_table import help_of
from .output import console, print_table


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "knowledge",
        help=help_of("knowledge"),
        description="Read a knowledge folder as the built-in bot does — Markdown, text, HTML, PDF, CSV and "
        "JSON FAQs, and any plugin's format — and list each document and its passages, and each "
        "file that gave none with the reason. DIR defaults to the config's knowledge folder "
        "(its language subfolder when there is one).",
    )
    parser.add_argument("folder", nargs="?", type=Path, metavar="DIR", help="the folder to read")
    # SUPPRESS: a flag not given here keeps the one given before the subcommand (cli/main.py)
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS)
    parser.add_argument("--language", choices=("ja", "en"), default=argparse.SUPPRESS)
    parser.add_argument("--passages", action="store_true", help="list every passage: heading, page, span, hash")
    parser.add_argument("--formats", action="store_true", help="list the formats ragtui reads and stop")
    parser.set_defaults(handler=knowledge)


def knowledge(args: argparse.Namespace, overrides: Overrides) -> int:
    if args.formats:
        table = Table()
        for name in ("format", "suffixes", "what"):
            table.add_column(name)
        for loader in loaders():
            table.add_row(Text(loader.name), Text(" ".join(loader.suffixes)), Text(loader.description))
        print_table(table)
        return 0
    config = bootstrap.load_effective_config(overrides)
    # DIR/<language>/ when there is one, as the built-in bot reads it
    root = knowledge_root(args.folder if args.folder is not None else config.knowledge, config.language)
    read = read_folder(root)
    console.print(Text(summary_line(read)), soft_wrap=True)
    if read.documents:
        print_table(documents_table(read))
    if args.passages and read.passages:
        print_table(passages_table(read))
    for skipped in read.skipped:
        console.print(Text(f"skipped {skipped.path}: {skipped.reason}"), soft_wrap=True)
    if not read.documents:
        raise RagtuiError(
            f"knowledge folder {root} has no document ragtui can read",
            "add help articles (.md, .txt, .html, .pdf, .csv, .json); `ragtui knowledge --formats` lists them",
        )
    return 0


def summary_line(read: KnowledgeFolder) -> str:
    return (
        f"Knowledge folder {read.root}: {len(read.documents)} document(s), "
        f"{len(read.passages)} passage(s), {len(read.skipped)} file(s) skipped"
    )


def documents_table(read: KnowledgeFolder) -> Table:
    table = Table()
    for name in ("file", "format", "title", "passages", "chars"):
        table.add_column(name, justify="right" if name in ("passages", "chars") else "left")
    for document in read.documents:
        table.add_row(
            Text(document.path),
            document.format,
            Text(document.title),
            str(len(read.passages_of(document))),
            str(len(document.text)),
        )
    return table


def passages_table(read: KnowledgeFolder) -> Table:
    table = Table()
    for name in ("file", "heading", "page", "span", "hash", "text"):
        table.add_column(name)
    for p in read.passages:
        table.add_row(
            Text(p.doc_id),
            Text(" › ".join(p.heading)),
            str(p.page or ""),
            f"{p.start}–{p.end}",
            p.content_hash[:12],
            Text(" ".join(p.text.split())[:60]),
        )
    return table

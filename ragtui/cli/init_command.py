"""``ragtui init [DIR]``: write a ``ragtui.toml`` for a team's own help centre — where its knowledge
base is, its language, and what the bot and the simulated customer call the product and its
support channel. Guessed from the documents, confirmed at the terminal (or taken as guessed with
``--yes``, or given with ``--product`` / ``--support``)."""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

import tomli_w

from ..core.config.settings import CONFIG_FILE_NAMES
from ..core.files.output_file import check_output, write_output
from ..core.knowledge.folder import knowledge_root, read_folder
from ..core.knowledge.product_guess import guess_product, guess_support
from ..core.runs.bootstrap import Overrides
from ..core.text.script import script_language
from ..core.types.errors import ConfigError
from ..core.types.knowledge import Document
from .command_table import help_of
from .output import console

HEADER = """\
# ragtui's configuration, written by `ragtui init`. Every key is described in the
# README's "Configuration". Until an endpoint is set, every role uses the embedded offline model:
# [endpoint]
# base_url = "http://localhost:8000/v1"
# model = "Qwen/Qwen2.5-7B-Instruct"

"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "init",
        help=help_of("init"),
        description="Write ragtui.toml in the current folder (or --config PATH) for the help centre in DIR: "
        "`knowledge`, `language` and `[product]` (the name the bot and the simulated customer use, and "
        "where customers get help). The product and the support address are guessed from the documents "
        "and asked at the terminal; --yes takes the guesses, --product and --support give them.",
    )
    parser.add_argument("folder", type=Path, metavar="DIR", help="the knowledge folder (your help centre's export)")
    parser.add_argument("--product", help="the product's name, as customers say it")
    parser.add_argument("--support", help="where customers get help: an address, a form, the chat in the app")
    parser.add_argument("--language", choices=("en", "ja"), default=None, help="default: the documents' language")
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="the file to write (./ragtui.toml)")
    parser.add_argument("--force", action="store_true", help="replace an existing config file")
    parser.add_argument("--yes", "-y", action="store_true", help="ask nothing: take the guesses")
    parser.set_defaults(handler=init)


def init(args: argparse.Namespace, overrides: Overrides) -> int:
    target = (getattr(args, "config", None) or Path.cwd() / CONFIG_FILE_NAMES[0]).expanduser()
    # A folder or a database is never replaced, --force or not: said for what it is.
    check_output(target, option="--config")
    if target.exists() and not args.force:
        raise ConfigError(
            f"{target} already exists; nothing was written",
            "edit its [product] table (README, Configuration), or pass --force to replace it",
        )
    folder: Path = args.folder.expanduser()
    language, documents = documents_and_language(folder, args.language)
    if not documents:
        raise ConfigError(f"knowledge folder {folder} has no document ragtui can read", "see `ragtui knowledge DIR`")
    asking = not args.yes and sys.stdin.isatty()
    product = args.product if args.product is not None else _answer("Product name", guess_product(documents), asking)
    support = (
        args.support
        if args.support is not None
        else _answer(
            "Where customers get help (an address, a form, the chat in the app)", guess_support(documents), asking
        )
    )
    values: dict[str, object] = {
        "language": language,
        "knowledge": os.path.relpath(folder.resolve(), target.parent.resolve()).replace(os.sep, "/"),
    }
    product, support = " ".join(product.split()), " ".join(support.split())  # one line each, as prompts use them
    product_table = {k: v for k, v in (("name", product), ("support", support)) if v}
    if product_table:
        values["product"] = product_table
    text = HEADER + tomli_w.dumps(values)
    write_output(target, text, option="ragtui init")
    console.print(f"Wrote {target}: {len(documents)} document(s) in {language}", soft_wrap=True, markup=False)
    unnamed = "(unnamed: the prompts speak of “this service” and its support)"
    console.print(f"  product: {product or unnamed}", soft_wrap=True, markup=False)
    console.print(f"  support: {support or unnamed}", soft_wrap=True, markup=False)
    console.print(f"Next: ragtui scenarios generate {args.folder} --out mine.toml", soft_wrap=True, markup=False)
    return 0


def documents_and_language(folder: Path, language: str | None) -> tuple[str, tuple[Document, ...]]:
    """The documents the built-in bot reads (the language's own subfolder when there is one) and
    their language: ``language`` when given, else the ``en``/``ja`` subfolder there is (the bundled
    sample has both: ``en``), else the script most passages are written in. The folder is read
    once; a missing folder is refused, named."""
    if language is None:
        language = next((lang for lang in ("en", "ja") if (folder / lang).is_dir()), None)
    if language is not None:
        return language, read_folder(knowledge_root(folder, language)).documents
    read = read_folder(folder)
    counted = Counter(script_language(p.text) for p in read.passages)
    return ("ja" if counted["ja"] > counted["en"] else "en"), read.documents


def _answer(question: str, guess: str, asking: bool) -> str:
    """The person's answer (Enter keeps the guess), or the guess when nobody is asked."""
    if not asking:
        return guess
    shown = f" [{guess}]" if guess else ""
    try:
        reply = input(f"{question}{shown}: ").strip()
    except EOFError:  # input ended (Ctrl-D): the guess stands
        reply = ""
    return reply or guess

"""What ``scenarios generate`` and ``scenarios from-conversations`` share once they have planned:
the writing model (the judge role, or ``--model``) asked with a progress bar, the reply cache
beside ``--out``, a failed endpoint's hint that running again resumes, and the drafts written once,
at the end, through the output guard — merged into the drafts file a person reviews, or a new one."""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from rich.text import Text

from ..core.config.settings import Config
from ..core.files.output_file import write_output
from ..core.generate.drafts import GenerationReport
from ..core.generate.drafts_file import Merge, merge_drafts, read_drafts_file
from ..core.generate.reply_cache import ReplyCache
from ..core.generate.toml_out import HEADER, scenario_file_text
from ..core.models.endpoints import Endpoint, resolve_endpoint
from ..core.models.llm import ChatClient, ClientPool
from ..core.types.errors import RagtuiError
from .model_start import embedded_model
from .output import console, item_progress

R = TypeVar("R", bound=GenerationReport)
# The writer's work: given the model's client, the reply cache and the progress callback (once per
# planned item), the report.
Work = Callable[[ChatClient, ReplyCache, Callable[[R], None]], Awaitable[R]]


@dataclass(frozen=True)
class Drafted(Generic[R]):
    report: R
    merged: Merge | None  # None: no drafts file was merged into (a new file, or nothing kept)
    seconds: float


def draft_and_write(
    args: argparse.Namespace,
    config: Config,
    out: Path,
    merging: bool,
    plan: str,
    work: Work[R],
    *,
    label: str,
    total: int,
    note: Callable[[R], str],
    header: str = HEADER,
) -> Drafted[R] | None:
    """Print ``plan`` (the calls and tokens it will take); then, unless ``--estimate`` stops there
    (None), run ``work`` with the writing model and write what it kept to ``out``."""
    console.print(Text(plan), soft_wrap=True)
    if args.estimate:
        return None
    language = config.language
    endpoint = resolve_endpoint(config, "judge", getattr(args, "model", None))
    cache = ReplyCache(out.with_name(f".{out.name}.replies.jsonl"))
    started = time.monotonic()
    report = asyncio.run(_with_progress(config, endpoint, cache, work, label, total, note))
    merged = None
    if report.kept and merging and out.exists():
        # Read again now: a person may have reviewed drafts in it while this ran.
        merged = merge_drafts(read_drafts_file(out, language), report.kept, language)
        write_output(out, merged.text, option="--out", database=config.database)
    elif report.kept:
        write_output(out, scenario_file_text(report.kept, language, header), option="--out", database=config.database)
    return Drafted(report, merged, time.monotonic() - started)


def print_budget_stop(report: GenerationReport) -> None:
    """The summary's last line when the token budget stopped the writing."""
    if report.budget_reached:
        console.print(
            Text(
                "  stopped at the token budget: run again with a larger --budget to finish (replies so far are kept)",
                style="yellow",
            ),
            soft_wrap=True,
        )


async def _with_progress(
    config: Config,
    endpoint: Endpoint,
    cache: ReplyCache,
    work: Work[R],
    label: str,
    total: int,
    note: Callable[[R], str],
) -> R:
    pool = ClientPool()
    progress = item_progress()
    try:
        with embedded_model(config, {"judge": endpoint}), progress:
            client = pool.client_for(endpoint)
            task = progress.add_task(label, total=total, note="")

            def advance(report: R) -> None:
                # the bar counts every item done, its note in plan order (``GenerationReport.done``)
                progress.update(task, completed=report.done, note=note(report))

            return await work(client, cache, advance)
    except RagtuiError as exc:
        raise RagtuiError(
            exc.message, f"{exc.hint + '; ' if exc.hint else ''}run the same command again: replies so far are kept"
        ) from None
    finally:
        await pool.aclose()

"""``ragtui scenarios from-conversations RUN --out FILE [--personas-out DIR]``: each conversation
of an imported run mined for a draft scenario and a draft persona of its customer
(core/generate/mining.py), with a progress bar, the reply cache beside ``--out`` (running it again
after an interruption pays only for what is missing), a token budget, ``--estimate``, and one
closing summary whose counts are the progress line's.

``--out`` is written like ``scenarios generate``'s: once, at the end, through the output guard; an
existing drafts file is merged (every review decision kept), anything else refused without
``--force``; never inside the knowledge folder. Persona drafts go to ``DIR/<language>/NAME.toml``
and never replace a file that is there."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from rich.text import Text

from ..core.config.settings import Config
from ..core.content.personas import persona_toml, validate_persona
from ..core.content.prompts import load_prompt
from ..core.files.output_file import check_output, check_outside, write_output
from ..core.generate.conversation_read import Conversation, run_conversations
from ..core.generate.drafts_file import Merge, read_drafts_file
from ..core.generate.mining import MAX_REPLY_TOKENS, Miner, MiningReport, PersonaDraft, conversation_text
from ..core.generate.toml_out import MINED_HEADER
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.store.store import Store
from ..core.text.number_text import whole_text
from ..core.types.errors import RagtuiError
from .draft_run import draft_and_write, print_budget_stop
from .output import console

# A rough count for the estimate (``scenarios generate`` uses it too): a token is about four
# characters of English, one and a half of Japanese.
CHARS_PER_TOKEN = {"en": 4.0, "ja": 1.5}
PERSONA_HEADER = (
    "# A draft persona mined by `ragtui scenarios from-conversations` from {origin}.\n"
    "# Its figures were measured on the customer's messages; its tone and patience are the model's\n"
    "# reading. Review it (and rename it) before you run it: --personas {folder}\n\n"
)


def mine(args: argparse.Namespace, overrides: Overrides) -> int:
    if args.budget is not None and args.budget < 1:
        raise RagtuiError(f"--budget must be at least 1 token, got {args.budget}", "nothing was written")
    run = str(args.docs)  # the positional is DOCS for `scenarios generate`, the run's id here
    config = bootstrap.load_effective_config(overrides)
    language = config.language
    out = check_output(args.out, option="--out", database=config.database)
    check_outside(out, config.knowledge, option="--out", what="the configured knowledge folder")
    personas_dir = _personas_dir(args.personas_out, config)
    merging = out.exists() and not args.force
    if merging:
        read_drafts_file(out, language)  # refused before any call when it is not a drafts file
    if not config.database.exists():
        raise RagtuiError(f"no database {config.database}", "import conversations first: ragtui import FILE")
    store = Store.open_read_only(config.database)
    try:
        conversations = run_conversations(store, run)
    finally:
        store.close()
    template = load_prompt(config.prompts, language, "scenario_mine")
    checks = load_prompt(config.prompts, language, "scenario_generate")
    ours = [c for c in conversations if c.session.language == language]
    calls, tokens = estimate(ours, template.parts, checks.parts, language)
    other = (
        f"; {len(conversations) - len(ours)} in another language are left out" if len(ours) < len(conversations) else ""
    )
    budget = f" (budget {args.budget:,})" if args.budget else ""
    drafted = draft_and_write(
        args,
        config,
        out,
        merging,
        f"Plan: {len(ours)} conversation(s) of run {run} in {language}{other}; "
        f"about {calls} model call(s) and {tokens:,} tokens{budget}",
        lambda client, cache, advance: Miner(client, client, template, checks, language, cache, args.budget).run(
            conversations, advance
        ),
        label="mining",
        total=len(conversations),
        note=lambda report: f"{report.tally()} · {len(report.personas)} persona(s) · {report.tokens:,} tokens",
        header=MINED_HEADER,
    )
    if drafted is None:
        return 0  # --estimate: the plan only
    report = drafted.report
    written, already = _write_personas(report.personas, personas_dir, config) if personas_dir else (0, 0)
    _summary(report, out, drafted.seconds, drafted.merged, personas_dir, written, already)
    return 0 if report.kept or written else 1


def _personas_dir(given: Path | None, config: Config) -> Path | None:
    if given is None:
        return None
    folder = Path(given).expanduser()
    if folder.exists() and not folder.is_dir():
        raise RagtuiError(f"--personas-out {folder} is a file, not a folder", "name a folder; nothing was written")
    if not folder.parent.is_dir():
        raise RagtuiError(
            f"--personas-out {folder}: the folder {folder.parent} does not exist",
            "create it first; nothing was written",
        )
    check_outside(folder, config.knowledge, option="--personas-out", what="the configured knowledge folder")
    return folder


def estimate(
    conversations: Sequence[Conversation], parts: dict[str, str], checks: dict[str, str], language: str
) -> tuple[int, int]:
    """(calls, tokens) if every conversation needs its writer call and its check, none asked again."""
    per_char = CHARS_PER_TOKEN.get(language, 4.0)
    fixed = len(parts["system"]) + len(parts["conversation"]) + len(checks["entails_system"]) + len(checks["entails"])
    chars = sum(fixed + len(conversation_text(c)) + 600 for c in conversations)
    calls = 2 * len(conversations)
    return calls, int(chars / per_char) + calls * MAX_REPLY_TOKENS // 2


def _write_personas(drafts: list[PersonaDraft], folder: Path, config: Config) -> tuple[int, int]:
    """Each persona to ``folder/<language>/NAME.toml`` unless a file is there: (written, already)."""
    written = already = 0
    for draft in drafts:
        path = folder / draft.persona.language / f"{draft.persona.name}.toml"
        if path.exists():
            already += 1  # never replaced: it may be a reviewed persona
            continue
        validate_persona(draft.persona, str(path))
        path.parent.mkdir(parents=True, exist_ok=True)
        header = PERSONA_HEADER.format(origin=_one_line(draft.origin()), folder=folder)
        write_output(path, header + persona_toml(draft.persona), option="--personas-out", database=config.database)
        written += 1
    return written, already


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _summary(
    report: MiningReport,
    out: Path,
    seconds: float,
    merged: Merge | None,
    personas_dir: Path | None,
    written: int,
    already: int,
) -> None:
    # The same tally as the progress line's last (``GenerationReport.tally``).
    console.print(
        Text(f"Mined {report.planned} conversation(s) in {whole_text(seconds)} s: {report.tally()}", style="bold"),
        soft_wrap=True,
    )
    if merged is not None:
        console.print(Text(merged.line(out)), soft_wrap=True)
    elif report.kept:
        console.print(
            Text(f"Wrote {out} ({len(report.kept)} draft scenario(s)); review them in the Drafts screen (D)"),
            soft_wrap=True,
        )
    for reason, count in report.dropped.most_common():
        console.print(Text(f"  dropped {count}: {reason}"), soft_wrap=True)
    if report.follow_ups or report.follow_ups_dropped:
        line = f"  follow-ups: {report.follow_ups} written"
        line += "".join(f"; {n} not: {reason}" for reason, n in report.follow_ups_dropped.most_common())
        console.print(Text(line), soft_wrap=True)
    if personas_dir is not None:
        there = f"; {already} already there, left as they were" if already else ""
        console.print(
            Text(f"  personas: {written} draft(s) written to {personas_dir}{there}"),
            soft_wrap=True,
        )
    elif report.personas:
        console.print(
            Text(f"  personas: {len(report.personas)} drafted, not written (--personas-out DIR writes them)"),
            soft_wrap=True,
        )
    cached = f", {report.cached_calls} answered from the cache" if report.cached_calls else ""
    console.print(
        Text(
            f"  {report.calls} call(s){cached}, {report.prompt_tokens:,} prompt + "
            f"{report.completion_tokens:,} completion tokens"
        ),
        soft_wrap=True,
    )
    print_budget_stop(report)

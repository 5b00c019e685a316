"""``ragtui scenarios generate DOCS --out FILE``: test scenarios written from a knowledge folder,
each reference checked against its source in code (core/generate), written as drafts.

It plans first and prints the estimate (``--estimate`` stops there); generates with a progress
bar; stops cleanly at a token budget; keeps every model reply in a cache beside ``--out``, so
running it again after an interruption pays only for what is missing; and ends with what was kept
per kind and per document, the documents with no item, and what was dropped and why. The file is
written once, at the end, through the output guard: an error leaves no partial file.

``--out`` never replaces an existing file without ``--force``: a drafts file a person reviews is
merged (every review decision kept, new drafts added: ``core/generate/drafts_file``), anything
else refused; and it is never inside the documents folder, where it would replace a source
document and its reply cache would sit among the help articles."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.text import Text

from ..core.config.settings import Config
from ..core.content.prompts import load_prompt
from ..core.files.output_file import check_output, check_outside
from ..core.generate.answer_part import answer_part
from ..core.generate.drafts import GenerationReport, sorted_reasons
from ..core.generate.drafts_file import Merge, read_drafts_file
from ..core.generate.pipeline import MAX_REPLY_TOKENS, Generator
from ..core.generate.plan import KINDS, OUT_OF_SCOPE, PlannedItem, plan
from ..core.knowledge.folder import KnowledgeFolder, knowledge_root, read_folder
from ..core.models.llm import ChatClient
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.text.number_text import whole_text
from ..core.types.errors import RagtuiError
from .command_table import help_of
from .draft_run import draft_and_write, print_budget_stop
from .mine_command import CHARS_PER_TOKEN, mine
from .output import console, console_err

MAX_ITEMS = 500
ALL_KINDS = (*KINDS, OUT_OF_SCOPE)


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "scenarios",
        help=help_of("scenarios generate"),
        description="Write test scenarios from the documents of DOCS: questions of several kinds and "
        "out-of-scope probes, each reference checked against the passage it quotes. They are written "
        'as drafts (status = "draft"): `ragtui run --include-drafts` runs them. `from-conversations RUN` mines '
        "each conversation of an imported run instead: its customer's need as a question, the facts of the answer "
        "that resolved it, a follow-up from their second turn, and a draft persona of how they wrote.",
    )
    parser.add_argument("action", choices=("generate", "from-conversations"))
    parser.add_argument(
        "docs",
        type=Path,
        metavar="DOCS|RUN",
        help="the knowledge folder to read (from-conversations: the imported run)",
    )
    parser.add_argument("--out", type=Path, required=True, help="the scenario file to write (TOML)")
    parser.add_argument("--n", type=int, default=12, help=f"how many items to plan (1–{MAX_ITEMS}; default 12)")
    parser.add_argument("--language", choices=("ja", "en"), default=argparse.SUPPRESS)
    parser.add_argument(
        "--kinds",
        default=",".join(ALL_KINDS),
        help=f"comma-separated kinds to plan (default all: {', '.join(ALL_KINDS)})",
    )
    parser.add_argument(
        "--budget", type=int, default=None, metavar="TOKENS", help="stop once this many tokens are spent"
    )
    parser.add_argument("--estimate", action="store_true", help="print the plan's calls and tokens, call nothing")
    parser.add_argument(
        "--follow-ups",
        action="store_true",
        help="also plan the customer's second question of each grounded item (its turn 2; two more calls an item)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace --out when it exists (a drafts file is otherwise merged: every review decision kept)",
    )
    parser.add_argument(
        "--personas-out",
        type=Path,
        default=None,
        metavar="DIR",
        help="from-conversations: write a draft persona per conversation to DIR/<language>/ (never replacing a file)",
    )
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help="the database of the imported run")
    parser.add_argument("--model", default=argparse.SUPPRESS, help="the model that writes and checks (as for run)")
    parser.set_defaults(handler=generate)


def _kinds(text: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    unknown = [k for k in kinds if k not in ALL_KINDS]
    if unknown or not kinds:
        raise RagtuiError(
            f"--kinds: unknown kind {unknown[0]!r}" if unknown else "--kinds is empty",
            f"choose from {', '.join(ALL_KINDS)}",
        )
    return kinds


def generate(args: argparse.Namespace, overrides: Overrides) -> int:
    if args.action == "from-conversations":
        return mine(args, overrides)
    if not 1 <= args.n <= MAX_ITEMS:
        raise RagtuiError(f"--n must be between 1 and {MAX_ITEMS}, got {args.n}", "nothing was written")
    if args.budget is not None and args.budget < 1:
        raise RagtuiError(f"--budget must be at least 1 token, got {args.budget}", "nothing was written")
    kinds = _kinds(args.kinds)
    config = bootstrap.load_effective_config(overrides)
    language = config.language
    out = check_output(args.out, option="--out", database=config.database)
    # Never into a documents folder: it would replace a source document, and the reply cache
    # beside it would be read as one.
    check_outside(out, args.docs, option="--out", what="the documents folder")
    check_outside(out, config.knowledge, option="--out", what="the configured knowledge folder")
    merging = out.exists() and not args.force
    if merging:
        read_drafts_file(out, language)  # refused before any call when it is not a drafts file
    read = read_folder(knowledge_root(args.docs, language))  # DOCS/<language>/ when there is one
    for skipped in read.skipped:
        console_err.print(Text(f"skipped {skipped.path}: {skipped.reason}", style="yellow"), soft_wrap=True)
    if not read.passages:
        raise RagtuiError(
            f"{args.docs} has no document ragtui can read", "`ragtui knowledge DOCS` says why; nothing was written"
        )
    # only the (passage, kind) pairs with a part of the passage that can answer the kind
    items = plan(read.passages, args.n, kinds, fits=lambda passage, kind: answer_part(passage.text, kind) is not None)
    if not items:
        raise RagtuiError(
            f"no passage of {args.docs} has a part that can answer an item of these kinds ({', '.join(kinds)})",
            'a procedural item needs steps, a conditional one a case the page states ("If …,"), two questions '
            "two sentences side by side; try other --kinds. Nothing was written",
        )
    if len(items) < args.n:
        console.print(
            Text(
                f"--n {args.n} is more than {len(read.passages)} passage(s) support in these kinds: planned "
                f"{len(items)} (every passage once in every kind it has an answer for); more would repeat the same drafts",
                style="yellow",
            ),
            soft_wrap=True,
        )
    template = load_prompt(config.prompts, language, "scenario_generate")
    if template.borrowed:
        console.print(
            Text(
                f"{template.path} lacks {len(template.borrowed)} key(s) added since it was copied "
                f"({', '.join(sorted(template.borrowed))}): the bundled wording is used for them",
                style="yellow",
            ),
            soft_wrap=True,
        )
    calls, tokens = _estimate(items, template.parts, language, args.follow_ups)
    drafted = draft_and_write(
        args,
        config,
        out,
        merging,
        f"Plan: {len(items)} item(s) from {len(read.documents)} document(s) and {len(read.passages)} passage(s); "
        # every item making every call: an item dropped early makes a few
        f"up to {calls} model call(s) and {tokens:,} tokens" + (f" (budget {args.budget:,})" if args.budget else ""),
        lambda client, cache, advance: Generator(
            client,
            client,
            template,
            language,
            read.passages,
            cache,
            args.budget,
            follow_ups=args.follow_ups,
            slots=slots_for(config, client),
            prompts_dir=config.prompts,
        ).run(items, advance),
        label="generating",
        total=len(items),
        note=lambda report: (
            f"{report.tally()} · {report.tokens:,} tokens"
            + (f" · {report.ahead} of the done waiting to be counted in plan order" if report.ahead else "")
        ),
    )
    if drafted is None:
        return 0  # --estimate: the plan only
    report = drafted.report
    _summary(report, read, out, drafted.seconds, drafted.merged)
    return 0 if report.kept else 1


def slots_for(config: Config, client: ChatClient) -> int:
    """Items generated at once: the embedded model's request slots when ``parallel`` is set above
    one (its default slots serve dialogues, not one writer), a server's ``concurrency`` otherwise."""
    if client.endpoint.embedded:
        return config.embedded.parallel if config.embedded.parallel > 1 else 1
    return max(1, config.concurrency)


# One-token judge questions an item's expectations take to prove themselves (proof.py): two
# ``expect`` on the reference and a wrong answer, a prohibition on the reference; a probe's two.
PROOF_CALLS = 5
PROBE_PROOF_CALLS = 3
PROOF_PROMPT_CHARS = 900  # the expectation judge's system text and question, besides the answer


def _estimate(
    items: list[PlannedItem], parts: dict[str, str], language: str, follow_ups: bool = False
) -> tuple[int, int]:
    """(calls, tokens) if every item needs its writer call, (grounded) its two yes/no checks (and
    one for each question of two), its round trip, its shortest right answer and its
    expectations' proofs, none asked again; with follow-ups, two more a grounded item over its
    passage and the next."""
    per_char = CHARS_PER_TOKEN.get(language, 4.0)
    fixed = len(parts["system"]) + len(parts["grounded"])
    chars = calls = levels = 0
    for item in items:
        if item.passage is None:
            calls += 1
            levels += PROBE_PROOF_CALLS
            chars += len(parts["system"]) + len(parts["out_of_scope"]) + 2000  # the topic list
            chars += PROBE_PROOF_CALLS * (PROOF_PROMPT_CHARS + len(parts["probe_right_answer"]))
        else:
            # the writer, its two yes/no checks, the round trip (the answer again from the
            # passage, and the judge's comparison) and the shortest right answer
            calls += 6
            reference = 2 * len(item.passage.text) // 3
            chars += fixed + len(item.passage.text) + len(parts["entails"]) + reference
            chars += len(parts["answers"]) + reference
            chars += len(parts["system"]) + len(parts["fresh_answer"]) + len(item.passage.text)
            chars += len(parts["same_answer_system"]) + len(parts["same_answer"]) + 2 * reference
            chars += len(parts["system"]) + len(parts["short_answer"]) + reference
            levels += PROOF_CALLS
            chars += PROOF_CALLS * (PROOF_PROMPT_CHARS + reference)
            if item.kind == "two_questions":  # each question asked of the reference on its own too
                calls += 2
                chars += 2 * (len(parts["answers"]) + reference)
            if follow_ups:
                calls += 2
                chars += len(parts["system"]) + len(parts["follow_up"]) + 3 * len(item.passage.text)
    return calls + levels, int(chars / per_char) + calls * MAX_REPLY_TOKENS // 2 + levels


def _summary(
    report: GenerationReport, read: KnowledgeFolder, out: Path, seconds: float, merged: Merge | None = None
) -> None:
    kept = len(report.kept)
    # The same tally as the progress line's last (``GenerationReport.tally``).
    console.print(
        Text(f"Generated {report.planned} planned item(s) in {whole_text(seconds)} s: {report.tally()}", style="bold"),
        soft_wrap=True,
    )
    if merged is not None:
        console.print(Text(merged.line(out)), soft_wrap=True)
    elif kept:
        console.print(
            Text(f"Wrote {out} ({kept} draft scenario(s)); `ragtui run --include-drafts` runs them"), soft_wrap=True
        )
    by_kind = ", ".join(f"{k} {n}" for k, n in sorted(report.kept_by("kind").items()))
    console.print(Text(f"  by kind: {by_kind or 'none'}"), soft_wrap=True)
    by_doc = report.kept_by("document")
    console.print(
        Text(f"  by document: {', '.join(f'{d} {n}' for d, n in sorted(by_doc.items())) or 'none'}"), soft_wrap=True
    )
    without = [d.path for d in read.documents if d.path not in by_doc]
    if without:
        shown = ", ".join(without[:8]) + (f", … ({len(without)} in all)" if len(without) > 8 else "")
        console.print(Text(f"  documents with no item: {shown}"), soft_wrap=True)
    for reason, count in sorted_reasons(report.dropped):
        console.print(Text(f"  dropped {count}: {reason}"), soft_wrap=True)
    if report.expectations_proven or report.expectations_dropped:
        # every expectation of the kept items proved itself on the reference and a wrong answer
        line = f"  expectations: {report.expectations_proven} proven on the reference and a wrong answer"
        line += "".join(f"; {n} dropped: {reason}" for reason, n in sorted_reasons(report.expectations_dropped))
        console.print(Text(line), soft_wrap=True)
    flagged = [d for d in report.kept if d.flags]
    for draft in flagged:
        console.print(Text(f"  look at {draft.id}: {'; '.join(draft.flags)}", style="yellow"), soft_wrap=True)
    cached = f", {report.cached_calls} answered from the cache" if report.cached_calls else ""
    console.print(
        Text(
            f"  {report.calls} call(s){cached}, {report.prompt_tokens:,} prompt + {report.completion_tokens:,} completion tokens"
        ),
        soft_wrap=True,
    )
    if report.follow_ups or report.follow_ups_dropped:
        line = f"  follow-ups: {report.follow_ups} written"
        line += "".join(f"; {n} not: {reason}" for reason, n in report.follow_ups_dropped.most_common())
        console.print(Text(line), soft_wrap=True)
    print_budget_stop(report)

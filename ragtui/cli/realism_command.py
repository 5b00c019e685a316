"""``ragtui realism REAL_RUN SIM_RUN``: does the simulated customer talk like the real ones?

Prints REAL's and SIM's customer figures side by side (``core/runs/realism/figures``), then the
blind test (``core/runs/realism/blind_test``): the judge shown one real and one simulated
message for the same need, asked which one the real customer typed, each pair in both orders.
``--json`` prints everything, every pair and every judge reply included, as one JSON document.
Nothing is stored. Exit 0; 2 on bad input, or when the judge answered none of the questions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from rich.text import Text

from ..core.config.settings import Config
from ..core.models.endpoints import Endpoint, resolve_endpoint
from ..core.models.llm import ClientPool
from ..core.models.preflight import check_endpoint
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.runs.realism.blind_test import Asked, BlindJudge, BlindTest
from ..core.runs.realism.conversations import Side, read_side
from ..core.runs.realism.figures import Figures, compute
from ..core.runs.realism.pairing import Pairing, pair_conversations
from ..core.runs.realism.report import as_json, blind_lines, figure_lines, pairing_line
from ..core.runs.resolve import open_referenced, split_reference
from ..core.store.store import Store
from ..core.types.errors import RagtuiError
from .arg_checks import check_range
from .command_table import help_of
from .model_start import embedded_model
from .output import console, item_progress

DEFAULT_PAIRS = 20
MAX_PAIRS = 1000
DEFAULT_SEED = 7


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "realism",
        help=help_of("realism"),
        description="Compare the customer messages of REAL_RUN (real conversations, e.g. an imported run) "
        "with those of SIM_RUN (a simulated run): lengths, questions, asking for a person, giving up, "
        "personal data, openings; then ask the judge, pair by pair, which message a real customer typed.",
    )
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="config TOML")
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help="SQLite database (default: the config's)")
    parser.add_argument(
        "real", metavar="REAL_RUN", help="the real conversations' run: an id, a prefix, `last`, `previous`, or FILE:RUN"
    )
    parser.add_argument(
        "sim", metavar="SIM_RUN", help="the simulated run: an id, a prefix, `last`, `previous`, or FILE:RUN"
    )
    parser.add_argument(
        "--pairs",
        type=int,
        default=DEFAULT_PAIRS,
        metavar="N",
        help=f"blind-test pairs, each asked twice (default {DEFAULT_PAIRS})",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        help=f"seed of the pairing, the orders and the intervals (default {DEFAULT_SEED})",
    )
    parser.add_argument("--no-blind", action="store_true", help="only the figures: ask the judge nothing")
    parser.add_argument(
        "--json", action="store_true", help="print one JSON document (every pair and judge reply) instead"
    )
    parser.add_argument("--model", help="judge model name (overrides the config)")
    parser.set_defaults(handler=realism)


def realism(args: argparse.Namespace, overrides: Overrides) -> int:
    return asyncio.run(_realism(args, overrides))


def open_sides(config: Config, real_text: str, sim_text: str) -> tuple[Side, Side]:
    """REAL's and SIM's conversations, each from the config's database or the file it names;
    one line for an unknown run, the same run twice, or a run without customer messages."""
    real_ref, sim_ref = split_reference(real_text), split_reference(sim_text)
    default: Store | None = None
    if real_ref.database is None or sim_ref.database is None:
        default = bootstrap.open_store(config, read_only=True)
    real_store, real_run = open_referenced(real_ref, default, config.min_judge_agreement)
    sim_store, sim_run = open_referenced(sim_ref, default or real_store, config.min_judge_agreement)
    if real_store is sim_store and real_run == sim_run:
        raise RagtuiError(f"REAL and SIM are the same run ({real_run})", "name two different runs")
    return read_side(real_store, real_run, "REAL"), read_side(sim_store, sim_run, "SIM")


def prepare(
    config: Config, real_text: str, sim_text: str, *, pairs: int, seed: int, blind: bool
) -> tuple[Figures, Pairing | None]:
    """The figures, and the blind test's pairs when it is asked for (nothing called yet)."""
    check_range(pairs, "--pairs", 1, MAX_PAIRS)
    real, sim = open_sides(config, real_text, sim_text)
    figures = compute(real, sim, seed=seed)
    pairing = pair_conversations(real, sim, limit=pairs, seed=seed) if blind else None
    return figures, pairing


async def judge_ready(config: Config, model: str | None, pool: ClientPool) -> Endpoint:
    """The judge's endpoint, checked before anything is printed: a dead URL or a rejected key is
    one line, not a table followed by a failure per question."""
    endpoint = resolve_endpoint(config, "judge", model)
    if not endpoint.embedded:
        await check_endpoint(endpoint, pool)
    return endpoint


async def ask_judge(
    config: Config, endpoint: Endpoint, pool: ClientPool, pairing: Pairing, language: str, seed: int
) -> BlindTest:
    """Every pair in both orders, with progress on stderr (the embedded model started when the
    judge uses it). A failed question is an unanswered pair, shown with its reason."""
    progress = item_progress()
    with embedded_model(config, {"judge": endpoint}), progress:
        task = progress.add_task("blind test", total=2 * len(pairing.pairs), note="")
        unanswered = 0

        def asked(a: Asked) -> None:
            nonlocal unanswered
            unanswered += a.picked_first is None
            progress.update(task, advance=1, note=f"{unanswered} unanswered" if unanswered else "")

        judge = BlindJudge.load(pool.client_for(endpoint), config.prompts, language, config.concurrency)
        judge.on_asked = asked
        return await judge.run(pairing.pairs, seed=seed)


async def blind_test(config: Config, pairing: Pairing, language: str, seed: int, model: str | None) -> BlindTest:
    """The blind test from start to end (the HTML report's realism section asks it so)."""
    pool = ClientPool()
    try:
        endpoint = await judge_ready(config, model, pool)
        return await ask_judge(config, endpoint, pool, pairing, language, seed)
    finally:
        await pool.aclose()


def blind_language(figures: Figures, config: Config) -> str:
    """The prompt's language: the real customers' (their messages' script), else the config's."""
    return figures.real.language if figures.real.language in ("en", "ja") else config.language


async def _realism(args: argparse.Namespace, overrides: Overrides) -> int:
    config = bootstrap.load_effective_config(overrides)
    figures, pairing = prepare(config, args.real, args.sim, pairs=args.pairs, seed=args.seed, blind=not args.no_blind)
    asking = pairing is not None and bool(pairing.pairs)
    pool = ClientPool()
    try:
        endpoint = await judge_ready(config, args.model, pool) if asking else None
        if not args.json:
            for line in figure_lines(figures):
                console.print(Text(line), soft_wrap=True)
        test: BlindTest | None = None
        if pairing is not None and endpoint is not None:
            language = blind_language(figures, config)
            test = await ask_judge(config, endpoint, pool, pairing, language, args.seed)
    finally:
        await pool.aclose()
    if args.json:
        console.out(json.dumps(as_json(figures, pairing, test), ensure_ascii=False, indent=2), highlight=False)
    elif pairing is not None:
        console.print()
        if test is None:
            console.print(
                Text(f"Blind test: nothing to ask — {pairing_line(pairing)}.", style="yellow"), soft_wrap=True
            )
        else:
            for line in blind_lines(test, pairing):
                console.print(Text(line), soft_wrap=True)
    if test is not None and test.answered == 0 and all(a.read == "error" for r in test.results for a in r.asked):
        first = test.results[0].asked[0].error or "no reply"
        raise RagtuiError(f"the judge answered none of the blind test's {2 * len(test.results)} questions: {first}")
    return 0


def realism_section_for(config: Config, real: str, sim: str, pairs: int) -> str:
    """The HTML report's realism section: the figures, and with ``pairs`` over 0 the blind test
    (its judge checked and asked as ``ragtui realism`` does)."""
    from ..core.runs.html_report.realism_section import realism_section

    check_range(pairs, "--realism-pairs", 0, MAX_PAIRS)
    figures, pairing = prepare(config, real, sim, pairs=max(1, pairs), seed=DEFAULT_SEED, blind=pairs > 0)
    test = None
    if pairing is not None and pairing.pairs:
        test = asyncio.run(blind_test(config, pairing, blind_language(figures, config), DEFAULT_SEED, None))
    return realism_section(figures, pairing, test)

"""``ragtui expect "TEXT" --session S [--turn N] [--not]``: how the judge reads an expectation.

Asks the expectation judge the question the ``expectations`` verdict would ask — the customer's
message, the stored bot answer, the expectation, with the dialogue as the shared prefix — and
prints P(met) (with ``--not``: P(the answer does the forbidden act)) for one answer, or for every
bot answer without ``--turn``. A person rephrases until the judge reads the sentence as they mean
it, then puts it in the scenario file. Nothing is stored.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from rich.text import Text

from ..core.config.expectation_items import expectation_from_text
from ..core.metrics.dialogue import context_from_session
from ..core.metrics.dialogue.expectation_judge import ExpectationJudge
from ..core.metrics.dialogue.expectation_trial import answers_to_try, asked_label, outcome_words, try_expectation
from ..core.models.endpoints import resolve_endpoint
from ..core.models.llm import ClientPool
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.text.score_text import figure_text
from ..core.types.errors import RagtuiError
from ..core.types.expectations import Expectation, ExpectationCheck, Polarity
from .arg_checks import check_ids
from .command_table import help_of
from .model_start import embedded_model
from .output import console


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("expect", help=help_of("expect"))
    parser.add_argument("text", help='the expectation, as it would go in expect = ["…"]')
    parser.add_argument("--session", type=int, required=True, metavar="S", help="stored session id")
    parser.add_argument("--turn", type=int, metavar="N", help="only this turn's answer (default: every bot answer)")
    parser.add_argument(
        "--not", action="store_true", dest="negated", help="a prohibition (expect_not / policy): P(it does it)"
    )
    parser.add_argument(
        "--form",
        choices=("judged", "contains", "regex", "not_contains"),
        default="judged",
        help="decide in code instead: contains, regex or not_contains (default: judged)",
    )
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="config TOML")
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help="SQLite database")
    parser.add_argument("--model", help="judge model name (overrides the config)")
    parser.set_defaults(handler=expect)


def expect(args: argparse.Namespace, overrides: Overrides) -> int:
    return asyncio.run(_expect(args, overrides))


def expectation_from(args: argparse.Namespace) -> Expectation:
    polarity: Polarity = "must_not" if args.negated else "must"
    return expectation_from_text(args.text, args.form, polarity)


async def _expect(args: argparse.Namespace, overrides: Overrides) -> int:
    check_ids([args.session])
    expectation = expectation_from(args)  # bad text fails before any call
    config = bootstrap.load_effective_config(overrides)
    store = bootstrap.open_store(config, read_only=True)
    session = store.session(args.session)
    context = context_from_session(session)
    if not answers_to_try(context, args.turn):
        where = f"turn {args.turn} of session {session.id}" if args.turn is not None else f"session {session.id}"
        raise RagtuiError(f"{where} has no bot answer", "see the turns with `ragtui show SESSION`")
    if expectation.deterministic:
        checks = await try_expectation(expectation, context, None, args.turn)
    else:
        endpoint = resolve_endpoint(config, "judge", args.model)
        pool = ClientPool()
        try:
            with embedded_model(config, {"judge": endpoint}):
                judge = ExpectationJudge(pool.client_for(endpoint), config.prompts, session.language)
                checks = await try_expectation(expectation, context, judge, args.turn)
        finally:
            await pool.aclose()
    _print(expectation, session.id, checks)
    return 0


def _print(expectation: Expectation, session_id: int, checks: list[ExpectationCheck]) -> None:
    asked = asked_label(expectation)
    head = Text(f"session {session_id} · {expectation.form} {expectation.polarity}: ", style="bold")
    head.append(expectation.text)
    console.print(head)
    for check in checks:
        line = Text(f"turn {check.turn}: {asked} ")
        if check.p_yes is None:
            line.append(f"unscored — {check.error or 'the reply could not be read'}", style="yellow")
        else:
            word, good = outcome_words(expectation, check.p_yes)
            line.append(f"{figure_text(check.p_yes)} ", style="bold")
            line.append(word, style="green" if good else "red")
            line.append(f" ({check.read})", style="dim")
        console.print(line)

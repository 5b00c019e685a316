"""``ragtui run --estimate`` and the tokens a run spent: per-role token tables with their cost."""

from __future__ import annotations

import argparse

from rich.table import Table
from rich.text import Text

from ..core.dialogue.estimate import Estimate, RoleTokens, estimate_run
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.store.store import Store
from ..core.text.number_text import count_text, tenths_text
from ..core.text.token_text import cost_text, tokens_text
from .arg_checks import check_repeat
from .content_pick import pick_content
from .output import console, print_table


def tokens_table(title: str, roles: list[RoleTokens], cache: bool = False) -> Table:
    """Per role: calls, tokens and cost; with ``cache``, also how many of the tokens in the
    server computed and how many it reused from its prompt cache (– where it did not say)."""
    names = ["role", "model", "calls", "tokens in", *(("computed", "reused") if cache else ()), "tokens out", "cost"]
    table = Table(title=title, title_justify="left")
    for name in names:
        table.add_column(name, justify="left" if name in ("role", "model") else "right")
    for r in roles:
        cached = (tokens_text(r.computed), tokens_text(r.reused)) if cache else ()
        table.add_row(
            r.role,
            Text(r.model),
            count_text(r.calls),
            count_text(r.tokens_in),
            *cached,
            count_text(r.tokens_out),
            cost_text(r.cost),
        )
    return table


def print_estimate(estimate: Estimate) -> None:
    trials = (
        f" ({estimate.dialogues // estimate.trials} pairs × {estimate.trials} trials)" if estimate.trials > 1 else ""
    )
    console.print(
        Text(
            f"Estimate for {estimate.dialogues} dialogue(s){trials}, {tenths_text(estimate.turns_per_dialogue)} turn(s) each "
            f"({estimate.turns_basis}); no model was called.",
            style="bold",
        ),
        soft_wrap=True,
    )
    console.print(tokens_table("Planned tokens per role", estimate.roles))
    for r in estimate.roles:
        console.print(Text(f"  {r.role}: input from the prompts; output per call: {r.basis}", style="dim"))
    total_in = sum(r.tokens_in for r in estimate.roles)
    total_out = sum(r.tokens_out for r in estimate.roles)
    line = f"Total: {count_text(total_in)} tokens in, {count_text(total_out)} out"
    cost = estimate.cost
    line += f", about {cost_text(cost)}" if cost is not None else " (set [prices] in the config for a cost)"
    console.print(Text(line), soft_wrap=True)


def estimate_command(args: argparse.Namespace, overrides: Overrides) -> int:
    """Everything ``ragtui run`` would plan, counted from files and the database only."""
    config = bootstrap.load_effective_config(overrides)
    repeat = check_repeat(args, config.repeat)
    endpoints = bootstrap.endpoints_for(config, overrides)
    scenarios, personas = pick_content(
        config, args.scenario, args.persona, include_drafts=getattr(args, "include_drafts", False)
    )
    # An existing database gives past usage; none is created just to estimate.
    store = Store.open_read_only(config.database) if config.database.exists() else None
    try:
        estimate = estimate_run(config, endpoints, scenarios, personas, store, config.metrics)
        print_estimate(estimate.repeated(repeat))
    finally:
        if store is not None:
            store.close()
    return 0


def print_spent(roles: list[RoleTokens]) -> None:
    if not roles:
        return
    print_table(tokens_table("Tokens spent", roles, cache=True))
    costs = [r.cost for r in roles]
    if all(c is not None for c in costs):
        console.print(Text(f"Cost: {cost_text(sum(c for c in costs if c is not None))}"))

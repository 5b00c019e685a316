"""How the run was run, for a reader who did not start it: the bot, the customer's and the judge's
models, max turns and threshold (``run_facts``), then the tokens each step spent with their
cost where the config prices the model (``estimate.spent``, the table ``ragtui run`` prints at
its end). Endpoints show their public fields only: never a key."""

from __future__ import annotations

from ...dialogue.estimate import RoleTokens
from ...text.number_text import count_text
from ...text.score_text import mark_text
from ...text.token_text import NO_PRICE, cost_text, tokens_text
from ..run_facts import run_facts
from .data import RunView
from .escape import esc


def facts_table(view: RunView) -> str:
    facts = run_facts(d.session for d in view.dialogues)
    judges = view.judge_models or facts.configured_judges
    rows = [
        ("bot", "; ".join(facts.bots) or "not recorded"),
        ("customer (simulator) model", ", ".join(facts.customer_models) or "not recorded"),
        ("Judge model(s)", ", ".join(judges) or "none recorded"),
        ("max turns", ", ".join(str(t) for t in facts.max_turns) or "–"),
        ("threshold", mark_text(view.threshold)),
    ]
    body = "".join(f"<tr><th>{esc(name)}</th><td>{esc(value)}</td></tr>" for name, value in rows)
    return f'<h2>Run facts</h2><div class="scroll"><table class="facts">{body}</table></div>{_tokens(view.tokens)}'


def _tokens(roles: list[RoleTokens]) -> str:
    if not roles:
        return '<p class="muted">No tokens recorded for this run.</p>'
    head = "".join(
        f"<th>{name}</th>"
        for name in ("step", "model", "calls", "tokens in", "computed", "reused (cache)", "tokens out", "cost")
    )
    rows = "".join(
        f"<tr><td>{esc(r.role)}</td><td>{esc(r.model)}</td><td class='n'>{count_text(r.calls)}</td>"
        f"<td class='n'>{tokens_text(r.tokens_in)}</td><td class='n'>{tokens_text(r.computed)}</td>"
        f"<td class='n'>{tokens_text(r.reused)}</td><td class='n'>{tokens_text(r.tokens_out)}</td>"
        f"<td class='n'>{cost_text(r.cost)}</td></tr>"
        for r in roles
    )
    tokens_in, tokens_out = sum(r.tokens_in for r in roles), sum(r.tokens_out for r in roles)
    unpriced = sorted({r.model for r in roles if r.cost is None})
    if unpriced:  # a partial sum would read as the run's cost: name what has no price instead
        cost = f"{NO_PRICE} for {', '.join(unpriced)} (set [prices] in the config)"
    else:
        cost = cost_text(sum(r.cost or 0.0 for r in roles))
    total = f"Total: {count_text(tokens_in)} tokens in, {count_text(tokens_out)} out; cost {cost}"
    return f'<h3>Tokens and cost</h3><div class="scroll"><table><tr>{head}</tr>{rows}</table></div><p>{esc(total)}</p>'

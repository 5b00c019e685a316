"""A comparison as Markdown (fit for a pull-request comment) and as CSV (one row per pair)."""

from __future__ import annotations

import csv
import io

from ..record.export import safe_cell
from .compare import Comparison, Pair
from .report_text import delta, interval_text, md_cell, score

FLAG_ORDER = {"regression": 0, "fixed": 1, "unscored in new": 2, "unscored in both": 3, "unscored in base": 4}
FLAG_MARKS = {"regression": "🔴 regression", "fixed": "🟢 fixed"}


def ordered(pairs: list[Pair]) -> list[Pair]:
    """What needs attention first: regressions, fixes, unscored, then the biggest drops."""
    return sorted(pairs, key=lambda p: (FLAG_ORDER.get(p.flag, 9), p.delta if p.delta is not None else 0.0))


def summary_lines(c: Comparison) -> list[str]:
    lines = [
        f"run score {score(c.mean_score('base'))} → {score(c.mean_score('new'))}; {interval_text(c.interval)}",
        f"{len(c.pairs)} pair(s): {c.regressions} regression(s), {c.fixes} fixed, {c.unscored} unscored in one "
        f"or both; only in base {len(c.only_in_base)}, only in new {len(c.only_in_new)}",
    ]
    for metric, interval in c.metric_deltas.items():
        lines.append(f"{metric}: {interval_text(interval)}")
    return lines


def comparison_markdown(c: Comparison) -> str:
    out = [f"### ragtui compare `{md_cell(c.base_run)}` → `{md_cell(c.new_run)}`", ""]
    first, *rest = summary_lines(c)
    out += [f"**{first}**", ""] + [f"- {line}" for line in rest] + [""]
    out += [
        "| scenario × persona | base | new | Δ | customer diverges | flag |",
        "|---|---:|---:|---:|---|---|",
    ]
    for p in ordered(c.pairs):
        diverges = p.diverges_at
        out.append(
            f"| {md_cell(p.label)} | {score(p.base.score)} | {score(p.new.score)} | {delta(p.delta)} | "
            f"{'–' if diverges is None else f'turn {diverges}'} | {FLAG_MARKS.get(p.flag, p.flag)} |"
        )
    for side, dialogues in (("base", c.only_in_base), ("new", c.only_in_new)):
        if dialogues:
            names = ", ".join(md_cell(f"{d.scenario_id} × {d.persona_name}") for d in dialogues[:20])
            more = f" and {len(dialogues) - 20} more" if len(dialogues) > 20 else ""
            out += ["", f"Only in {side}: {names}{more}"]
    out += ["", f"_Pairs matched by scenario × persona; interval from {c.resamples} resamples, seed {c.seed}._", ""]
    return "\n".join(out)


def comparison_csv(c: Comparison) -> str:
    turns = max((max(p.base.turns, p.new.turns) for p in c.pairs), default=0)
    metrics = list(c.metric_deltas)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    # Scores are numbers, empty when unscored (the status columns say why), so a spreadsheet can sum them.
    head = ["scenario", "persona", "occurrence", "base_session", "new_session", "base_score", "new_score", "delta"]
    head += ["base_status", "new_status", "flag", "customer_diverges_at"]
    head += [f"{side}{t}" for t in range(1, turns + 1) for side in ("base_turn", "new_turn")]
    head += [f"{m}_delta" for m in metrics]
    writer.writerow(head)
    for p in ordered(c.pairs):
        scenario, persona, n = p.key
        row: list[object] = [scenario, persona, n, p.base.session_id, p.new.session_id]
        row += [_num(p.base.score), _num(p.new.score), _num(p.delta), p.base.status, p.new.status, p.flag]
        row.append(p.diverges_at or "")
        by_turn = {r.turn: r for r in p.turn_rows()}
        for t in range(1, turns + 1):
            r = by_turn.get(t)
            row += ["", ""] if r is None else [_num(r.base_score), _num(r.new_score)]
        row += [_num(p.metric_delta(m)) for m in metrics]
        writer.writerow([_cell(cell) for cell in row])
    for side, dialogues in (("only in base", c.only_in_base), ("only in new", c.only_in_new)):
        for d in dialogues:
            in_base = side == "only in base"
            row = [d.scenario_id, d.persona_name, "", d.session_id if in_base else "", "" if in_base else d.session_id]
            row += [_num(d.score) if in_base else "", "" if in_base else _num(d.score), ""]
            row += [d.status if in_base else "", "" if in_base else d.status, side]
            writer.writerow([_cell(cell) for cell in row])
    return buffer.getvalue()


def _num(value: float | None) -> float | str:
    """A score or delta rounded for reading; an empty cell when there is none."""
    return "" if value is None else round(value, 4)


def _cell(value: object) -> object:
    """Numbers stay numbers (a signed delta is no formula); any text is neutralised."""
    return value if isinstance(value, int | float) else safe_cell(value)

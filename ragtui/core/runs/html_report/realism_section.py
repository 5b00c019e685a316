"""The report's realism section (``ragtui report RUN --realism-against SIM_RUN``): RUN's customers
(REAL) beside SIM's — the table ``ragtui realism`` prints, its notes, and the blind test with
every pair's two messages. Customer messages and judge replies are stored text: every one goes
through ``esc``."""

from __future__ import annotations

from ...text.score_text import figure_text
from ..realism.blind_test import BlindTest, PairResult
from ..realism.figures import Figures
from ..realism.pairing import Pairing
from ..realism.report import APART_MARK, blind_summary, cell, n_text, notes, pairing_line
from .escape import esc


def realism_section(figures: Figures, pairing: Pairing | None, test: BlindTest | None) -> str:
    real, sim = figures.real, figures.sim
    out = [
        f'<h2 id="realism">Realism: REAL run {esc(real.run_id)} against SIM run {esc(sim.run_id)}</h2>',
        f'<div class="sub">REAL {len(real.conversations)} conversations, {len(real.messages)} customer messages · '
        f"SIM {len(sim.conversations)} conversations, {len(sim.messages)} customer messages</div>",
    ]
    head = "<tr><th>figure</th><th>REAL</th><th>n</th><th>SIM</th><th>n</th><th></th></tr>"
    rows = "".join(
        f"<tr><td>{esc(r.label)}</td><td class='n'>{esc(cell(r.real, r.kind))}</td><td class='n'>{n_text(r.real)}</td>"
        f"<td class='n'>{esc(cell(r.sim, r.kind))}</td><td class='n'>{n_text(r.sim)}</td>"
        f"<td>{APART_MARK if r.apart else ''}</td></tr>"
        for r in figures.rows
    )
    out.append(f'<div class="scroll"><table>{head}{rows}</table></div>')
    out.append("<ul>" + "".join(f"<li>{esc(line)}</li>" for line in notes(figures)) + "</ul>")
    out.append(_blind(pairing, test))
    return "".join(out)


def _blind(pairing: Pairing | None, test: BlindTest | None) -> str:
    if pairing is not None and test is None:
        return f'<p class="muted">Blind test: nothing to ask — {esc(pairing_line(pairing))}.</p>'
    if pairing is None or test is None:
        return (
            '<p class="muted">Blind test not run: <code>--realism-pairs N</code> asks the judge about N pairs, '
            "or run <code>ragtui realism</code>.</p>"
        )
    summary = "".join(f"<li>{esc(line)}</li>" for line in blind_summary(test, pairing))
    title = (
        f"Blind test (judge {test.model}, {test.language} prompt, seed {test.seed}): which did the real customer type?"
    )
    head = "<tr><th>REAL message</th><th>SIM message</th><th>paired by</th><th>outcome</th><th>P(real)</th></tr>"
    rows = "".join(_pair_row(r) for r in test.results)
    return f"<h3>{esc(title)}</h3><ul>{summary}</ul><div class='scroll'><table>{head}{rows}</table></div>"


def _pair_row(r: PairResult) -> str:
    p = r.pair
    how = f"{p.how} (openings {figure_text(p.similarity)}), {p.shown}"
    p_real = figure_text(r.p_real)
    return (
        f"<tr><td>{esc(p.real_message.text)}</td><td>{esc(p.sim_message.text)}</td><td>{esc(how)}</td>"
        f"<td>{esc(r.outcome)}</td><td class='n'>{p_real}</td></tr>"
    )

"""The report page: summary, charts, the regressions of a comparison, and every dialogue as a
folded transcript with its verdicts and a filter. Built as a list of strings joined once (a run
of a thousand dialogues is written in well under a second); every stored text goes through
``esc``; the filter keys in ``data-*`` attributes are indices and ragtui's own words."""

from __future__ import annotations

from ...registry import metric_views
from ...text.number_text import p_value_text
from ...text.score_text import mark_text, score_text
from ..compare import Comparison
from ..compare_report import expectation_lines, ordered, side_scores, summary_lines, trial_ordered
from ..compare_verdict import NOT_GATED, CompareVerdict
from ..trial_compare import BETTER, HIGHER_IN_NOISE, LOWER_IN_NOISE, REGRESSION, NoiseComparison, TrialPair
from . import charts
from .assets import SCRIPT, STYLE, content_security_policy
from .data import RunView
from .dialogue_list import dialogues
from .escape import esc
from .expectations_table import expectations_table
from .facts_table import facts_table
from .legend import heat_legend
from .trials_table import trials_table


def run_page(view: RunView, extra: tuple[str, ...] = ()) -> str:
    """``extra``: sections built elsewhere (the realism section), after the run's own."""
    return _document(f"ragtui report · run {view.run_id}", [*_run_sections(view), *extra])


def compare_page(comparison: Comparison, view: RunView, base_database: str) -> str:
    title = f"ragtui compare · {comparison.base_run} → {comparison.new_run}"
    sections = [*_compare_sections(comparison, base_database, view.database), *_run_sections(view, heading=True)]
    return _document(title, sections)


def _document(title: str, body: list[str]) -> str:
    return "".join(
        [
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{content_security_policy()}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            '<meta name="referrer" content="no-referrer">',
            f"<title>{esc(title)}</title><style>{STYLE}</style></head><body><main>",
            *body,
            f"</main><script>{SCRIPT}</script></body></html>\n",
        ]
    )


def _card(value: str, label: str) -> str:
    return f'<div class="card"><b>{esc(value)}</b><span>{esc(label)}</span></div>'


def _run_sections(view: RunView, *, heading: bool = False) -> list[str]:
    out = []
    if heading:
        out.append(f"<h2>Run {esc(view.run_id)} (new)</h2>")
    else:
        out.append(f"<h1>Run {esc(view.run_id)}</h1>")
    out.append(f'<div class="sub">{esc(view.database)} · {len(view.dialogues)} dialogue(s)</div>')
    cards = [
        _card(score_text(view.run_score, view.low), f"run score (threshold {mark_text(view.threshold)})"),
        _card(view.resolution_line.split(" (")[0].replace("resolution rate ", ""), view.resolution_line),
        _card(str(sum(1 for d in view.dialogues if d.outcome_kind == "passed")), "dialogues passed"),
        _card(
            str(sum(1 for d in view.dialogues if d.failed)),
            "dialogues failed the gate (under the threshold, unscored or in error)",
        ),
    ]
    skipped = sum(1 for d in view.dialogues if d.outcome_kind == "skipped")
    if skipped:  # did not pass, and not failed: scores the gate leaves out, unresolved, or not finished
        cards.append(
            _card(
                str(skipped),
                "dialogues that did not pass without failing the gate (a low-agreement judge's score, unresolved) "
                "or did not finish",
            )
        )
    out.append('<div class="cards">' + "".join(cards) + "</div>")
    if view.pass_k:
        out.append(f"<p><b>Trials:</b> {esc(view.pass_k)}</p>")
    if view.expectations:
        out.append(f"<p><b>Expectations:</b> {esc(view.expectations)}</p>")
    if view.agreement:
        out.append(f"<p><b>Judge agreement (labels):</b> {esc(view.agreement)}</p>")
    if view.measured:
        out.append(f"<p><b>Judge agreement (measured):</b> {esc('; '.join(view.measured))}</p>")
    if view.not_gated:
        out.append(f"<p><b>Not gated:</b> {esc(view.not_gated)}</p>")
    if view.shards:
        out.append(f"<p><b>Shards:</b> {esc(view.shards)}</p>")
    ok = view.gate_status == 0
    reasons = "".join(f"<li>{esc(r)}</li>" for r in view.gate_reasons[:8])
    more = f"<li>… and {len(view.gate_reasons) - 8} more</li>" if len(view.gate_reasons) > 8 else ""
    gate = "holds (exit 0)" if ok else f"fails (exit {view.gate_status})"
    ungated = view.not_gated_under_threshold
    if ungated:  # as plainly as the pass itself: these scores decided nothing
        reasons = (
            f"<li><b>{ungated} dialogue(s) scored under the threshold were not gated</b>: their judge agrees with "
            "people under the agreement floor, so their scores decide nothing (--gate-low-agreement gates them)</li>"
            + reasons
        )
    state = "warn" if ok and ungated else ("ok" if ok else "bad")
    out.append(f'<div class="gate {state}"><b>Gate:</b> {gate}<ul>{reasons}{more}</ul></div>')
    out.append(facts_table(view))
    out.append(_kinds_table(view))
    out.append(trials_table(view))
    out.append(expectations_table(view))
    out.append(_charts(view))
    out.append(dialogues(view))
    return out


def _kinds_table(view: RunView) -> str:
    if not view.kinds:
        return '<h2>Dialogue verdicts</h2><p class="muted">This run has no dialogue verdicts.</p>'
    rows = []
    for k in view.kinds:
        outcomes = ", ".join(f"{o.replace('_', ' ')} {n}" for o, n in sorted(k.outcomes.items()))
        meaning = metric_views.explanation(k.name)
        rows.append(
            f'<tr><td title="{esc(meaning)}">{esc(metric_views.label(k.name))}</td><td class="n">{k.count}</td><td class="n">{k.scored}</td>'
            f'<td class="n">{score_text(k.mean)}</td><td>{esc(outcomes)}</td></tr>'
        )
    head = "<tr><th>verdict</th><th>dialogues</th><th>scored</th><th>mean score</th><th>outcomes</th></tr>"
    return f'<h2>Dialogue verdicts</h2><div class="scroll"><table>{head}{"".join(rows)}</table></div>'


def _charts(view: RunView) -> str:
    scores = [d.session.score for d in view.dialogues if d.session.score is not None]
    # The heat map of hundreds of scenarios scrolls inside its figure instead of stretching the page.
    figures = [
        ("Score distribution", charts.histogram(scores, view.threshold, low=view.low), False),
        (
            "Scenario × persona (mean score)",
            heat_legend(view.threshold) + charts.heat_map(view.scenarios, view.personas, view.cells()),
            True,
        ),
    ]
    if view.trend:
        legend = "".join(
            f"<li>{esc(p.label)}{' (this run)' if p.current else ''}: {score_text(p.mean)}</li>" for p in view.trend
        )
        figures.append(
            ("Trend over the last runs (95% intervals)", charts.trend(view.trend) + f"<ol>{legend}</ol>", False)
        )
    body = "".join(
        f"<figure{TALL if tall else ''}><figcaption>{esc(c)}</figcaption>{svg}</figure>" for c, svg, tall in figures
    )
    return f'<h2>Charts</h2><div class="charts">{body}</div>'


TALL = ' class="tall"'


def _trial_regressions(c: Comparison, n: NoiseComparison) -> list[str]:
    """Pairs over their trials: those the verdict calls regressions (beyond noise — or, under
    ``--strict``, any drop — of their passes, resolution or an expectation), then those lower within
    noise, and apart from them the pairs that passed more: a rise is never listed as a drop."""
    verdict = c.verdict
    ranked = trial_ordered(n)
    regressions = [p for p in ranked if verdict.of(p.label).word in (REGRESSION, NOT_GATED)]
    lower = [p for p in ranked if p.verdict == LOWER_IN_NOISE and p not in regressions]
    higher = [p for p in ranked if p.verdict in (HIGHER_IN_NOISE, BETTER) and p not in regressions]
    which = "--strict: any drop" if c.strict else "beyond run-to-run noise"
    out = [f"<h2>Regressions {which} ({len(regressions)}); lower within noise ({len(lower)})</h2>"]
    shown = regressions + lower
    out.append(_trial_table(shown, verdict) if shown else '<p class="muted">No pair dropped.</p>')
    if higher:
        out += [
            f"<h2>Higher: beyond noise ({len(n.with_verdict(BETTER))}), within noise ({len(n.with_verdict(HIGHER_IN_NOISE))})</h2>"
        ]
        out.append(_trial_table(higher, verdict))
    return out


def _trial_table(pairs: list[TrialPair], verdict: CompareVerdict) -> str:
    rows = "".join(
        f'<tr><td>{esc(p.label)}</td><td>{esc(verdict.of(p.label).word)}</td><td class="n">{esc(p.cell("base"))}</td>'
        f'<td class="n">{esc(p.cell("new"))}</td><td class="n">{p_value_text(p.p_value)}</td><td>{esc(p.verdict)}</td>'
        f"<td>{esc('; '.join(d.line for d in verdict.of(p.label).drops))}</td></tr>"
        for p in pairs
    )
    head = (
        "<tr><th>scenario × persona</th><th>verdict</th><th>base passes</th><th>new passes</th><th>p (drop)</th>"
        "<th>change</th><th>what regressed</th></tr>"
    )
    return f'<div class="scroll"><table>{head}{rows}</table></div>'


def _compare_sections(c: Comparison, base_database: str, new_database: str) -> list[str]:
    verdict = c.verdict  # what the exit status, the terminal and every report say
    out = [f"<h1>Compare {esc(c.base_run)} → {esc(c.new_run)}</h1>"]
    out.append(f'<div class="sub">base: {esc(base_database)} · new: {esc(new_database)}</div>')
    lines = "".join(f"<li>{esc(line)}</li>" for line in [*summary_lines(c), *expectation_lines(c)])
    gate = "ok" if verdict.status == 0 else "bad"
    out.append(f'<div class="gate {gate}"><b>Comparison:</b> {esc(verdict.headline)}<ul>{lines}</ul></div>')
    if c.noise is not None:  # with trials: pairs over all their trials, a drop beyond noise
        out.extend(_trial_regressions(c, c.noise))
    else:
        regressed = [p for p in ordered(c.pairs) if verdict.of(p.label).word in (REGRESSION, NOT_GATED)]
        out.append(f"<h2>Regressions ({len(regressed)})</h2>")
        if regressed:
            rows = "".join(
                f"<tr><td>{esc(p.label)}</td><td>{esc(verdict.of(p.label).word)}</td>"
                f'<td class="n">{esc(side_scores(c, p)[0])}</td><td class="n">{esc(side_scores(c, p)[1])}</td>'
                f"<td>{esc(p.flag)}</td><td>{esc(p.dialogue_flag)}</td>"
                f"<td>{esc('; '.join(d.line for d in verdict.of(p.label).drops))}</td></tr>"
                for p in regressed
            )
            head = (
                "<tr><th>scenario × persona</th><th>verdict</th><th>base</th><th>new</th><th>score</th>"
                "<th>dialogue verdicts</th><th>what regressed</th></tr>"
            )
            out.append(f'<div class="scroll"><table>{head}{rows}</table></div>')
        else:
            out.append('<p class="muted">No pair regressed.</p>')
    changes = [(p.label, p.delta, verdict.for_pair(p).word == REGRESSION) for p in c.pairs if p.delta is not None]
    if changes:
        caption = "Change in score per pair" + (
            f" (the 60 largest drops of {len(changes)})" if len(changes) > 60 else ""
        )
        out.append(f"<figure><figcaption>{esc(caption)}</figcaption>{charts.deltas(changes)}</figure>")
    return out

"""A comparison as Markdown (fit for a pull-request comment), CSV (one row per pair) and JUnit
XML (one test case per pair: a score or resolution regression is a failing test case).

Every one of them states the comparison's verdict as ``Comparison.verdict`` decides it (each
pair's verdict, the failing cases, the headline; ``--strict`` included), and every score through
``score_text`` (``≈`` when its judge agrees with people under the floor)."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Protocol

from ..metrics import PRIMARY_METRIC
from ..registry import metric_views
from ..registry.metrics import EXPECTATION_RATE, RESOLUTION_RATE, gate_metric
from ..store.dialogue_verdicts import ResolutionRate
from ..store.export import safe_cell
from ..text.number_text import p_value_text, percent_text, setting_text
from ..text.score_text import delta_text, score_text
from ..types.agreement_floor import LOW_WORDS, trust_cell
from .compare import Comparison, Pair
from .compare_verdict import (
    EXPECTATION,
    IMPROVED,
    NOT_GATED,
    RESOLUTION,
    SCORE,
    CompareVerdict,
    Drop,
    kind_word,
    low_words,
)
from .dialogue_compare import verdict_metrics
from .dialogues import RunDialogue, VerdictScore
from .report_text import interval_text, md_cell
from .run_report import xml_safe
from .trial_compare import (
    BETTER,
    HIGHER_IN_NOISE,
    LOWER_IN_NOISE,
    REGRESSION,
    SAME,
    NoiseComparison,
    TrialPair,
    noise_lines,
)

FLAG_ORDER = {"regression": 0, "fixed": 1, "unscored in new": 2, "unscored in both": 3, "unscored in base": 4}
FLAG_MARKS = {"regression": "🔴 regression", "fixed": "🟢 fixed"}
VERDICT_MARKS = {REGRESSION: "🔴 regression", NOT_GATED: f"⚪ {NOT_GATED}", IMPROVED: "🟢 improved"}

__all__ = ["low_words"]  # read by the terminal from here, with the rest of the report's words


def ordered(pairs: list[Pair]) -> list[Pair]:
    """What needs attention first: regressions (of the score or the resolution), fixes,
    unscored, then the biggest drops."""

    def rank(p: Pair) -> int:
        return 0 if p.resolution_regression else FLAG_ORDER.get(p.flag, 9)

    return sorted(pairs, key=lambda p: (rank(p), p.delta if p.delta is not None else 0.0))


def verdict_cell(v: VerdictScore | None, low: bool = False) -> str:
    """One side's dialogue verdict: ``resolved 1.00``, ``≈0.50``, ``unscored``, ``skipped`` or ``missing``."""
    return "missing" if v is None else v.words(low)


def verdict_pair(c: Comparison, p: Pair, metric: str) -> str:
    """``resolved 1.00 → unresolved ≈0.00``: both sides' verdicts, each ``≈`` when its judge is low."""
    base, new = p.verdicts(metric)
    return f"{verdict_cell(base, c.dialogue_low(p.base, metric))} → {verdict_cell(new, c.dialogue_low(p.new, metric))}"


def side_scores(c: Comparison, p: Pair) -> tuple[str, str]:
    """A pair's two scores as text, each ``≈`` when its judge agrees with people under the floor."""
    return score_text(p.base.score, c.dialogue_low(p.base)), score_text(p.new.score, c.dialogue_low(p.new))


def trial_scores(c: Comparison, p: TrialPair) -> tuple[str, str]:
    """A pair's mean score over its trials on each side, ``≈`` as a run's is."""
    return (
        score_text(p.mean_score("base"), c.side_low(p.base)),
        score_text(p.mean_score("new"), c.side_low(p.new)),
    )


def rate_cell(rate: ResolutionRate) -> str:
    if rate.rate is None:
        return "unscored" + (f" ({rate.unscored} without a scored verdict)" if rate.unscored else "")
    text = f"{percent_text(rate.rate)} ({rate.successes}/{rate.scored})"
    return text + (f", {rate.unscored} unscored" if rate.unscored else "")


def resolution_lines(c: Comparison) -> list[str]:
    """The resolution rates of both runs and their paired difference; one line naming the run
    when a run has no dialogue verdicts at all."""
    r = c.resolution
    if r is None:
        return []
    if r.base_missing and r.new_missing:
        return ["resolution: neither run has dialogue verdicts (dialogue_metrics off, or runs older than them)"]
    for run_id, missing in ((c.base_run, r.base_missing), (c.new_run, r.new_missing)):
        if missing:
            return [
                f"resolution: run {run_id} has no dialogue verdicts, so its resolution is missing "
                f"(judge them with `ragtui judge-dialogue --run {run_id}`)"
            ]
    lines = [f"resolution rate {rate_cell(r.base)} → {rate_cell(r.new)}; {interval_text(r.interval)}"]
    if c.noise is not None:
        lines.append("resolution over each pair's trials: " + over_trials_counts(c.resolution_trials))
    # The expectations verdict is counted by expectation on its own line ("expectations: …"); a
    # second count of dialogues here would give one screen two different expectation figures.
    resolution, expectations = gate_metric(RESOLUTION_RATE), gate_metric(EXPECTATION_RATE)
    shown = [m for m in c.verdict_metrics if m != expectations and not (c.noise is not None and m == resolution)]
    up, down = ("higher", "lower") if c.noise is not None else ("fixed", "regression")
    counts = ", ".join(
        f"{metric_views.label(m)} {c.verdict_count(m, down)} {down if c.noise is not None else 'regression(s)'}"
        f" / {c.verdict_count(m, up)} {up}"
        for m in shown
    )
    if counts:
        lines.append(
            ("dialogue verdicts, trial against trial: " if c.noise is not None else "dialogue verdicts: ") + counts
        )
    return lines


class _Judged(Protocol):
    @property
    def verdict(self) -> str: ...


def over_trials_counts(changes: Sequence[_Judged]) -> str:
    """``0 regression(s) beyond noise, 1 lower and 2 higher within noise, 0 better`` — the words
    of every view for changes judged over trials."""

    def count(verdict: str) -> int:
        return sum(1 for v in changes if v.verdict == verdict)

    return (
        f"{count(REGRESSION)} regression(s) beyond noise, {count(LOWER_IN_NOISE)} lower and "
        f"{count(HIGHER_IN_NOISE)} higher within noise, {count(BETTER)} better"
    )


def agreement_lines(c: Comparison) -> list[str]:
    """``rubric judge agreement: base Spearman 0.61 (n=5) → new Spearman 0.10 (n=18) · low agreement``
    — for every scored metric and every dialogue verdict compared; a low-agreement verdict whose
    regressions therefore decide nothing says so."""
    lines = []
    for m in [*c.scored_metrics(), *c.verdict_metrics]:
        line = f"{m} judge agreement: base {trust_cell(c.agreement('base', m), c.floor)} → new {trust_cell(c.agreement('new', m), c.floor)}"
        if m in c.verdict_metrics and not c.verdict_gated(m):
            line += " — its regressions are shown, not gated (--gate-low-agreement gates them)"
        lines.append(line)
    return lines


def flag_words(c: Comparison, p: Pair) -> str:
    """A pair's flag, a score regression of a low-agreement judge marked as such."""
    return f"{p.flag} ≈ {LOW_WORDS}" if p.flag == "regression" and c.low() else p.flag


def _ungated(drops: list[Drop]) -> str:
    """`` not gated (low agreement)`` after a count of regressions none of which fails anything."""
    return f" not gated ({LOW_WORDS})" if drops and not any(d.gated for d in drops) else ""


def summary_lines(c: Comparison) -> list[str]:
    verdict = c.verdict
    counts = (
        f"{len(c.pairs)} pair(s): {c.regressions} regression(s){_ungated(verdict.drops(SCORE))}, {c.fixes} fixed, "
        f"{c.unscored} unscored in one or both; only in base {len(c.only_in_base)}, only in new {len(c.only_in_new)}"
    )
    if c.noise is not None:
        counts = _noise_counts(c.noise) + f"; only in base {len(c.only_in_base)}, only in new {len(c.only_in_new)}"
    lines = [
        f"run score {score_text(c.mean_score('base'), c.mean_low('base'))} → "
        f"{score_text(c.mean_score('new'), c.mean_low('new'))}; {interval_text(c.interval)}",
        *resolution_lines(c)[:1],
        counts,
        *(noise_lines(c.noise) if c.noise is not None else []),
        *resolution_lines(c)[1:],
    ]
    for metric, interval in c.metric_deltas.items():
        lines.append(f"{metric}: {interval_text(interval)}{low_words(c, metric)}")
    lines += agreement_lines(c)
    if c.noise is not None:
        if c.expectation_trials:
            lines.append("expectations over each pair's trials: " + over_trials_counts(c.expectation_trials))
        return lines
    regressed, fixed = c.expectation_regressions, c.expectation_fixes
    if regressed or fixed:
        lines.append(
            f"expectations: {len(regressed)} regression(s){_ungated(verdict.drops(EXPECTATION))}, {len(fixed)} fixed"
        )
    return lines


def outcome_line(c: Comparison) -> str:
    """The comparison's outcome in one line, as every view states it: what its exit status says
    and what decided it (``Comparison.verdict``, under its ``strict``)."""
    return c.verdict.headline


def expectation_lines(c: Comparison) -> list[str]:
    """One line per expectation that regressed (under ``--strict`` with trials, any that was met
    less often), naming its id, the pair and its text, and when it does not count, why (the
    text is the team's: callers print it as plain text or escape it)."""
    return [d.line for d in c.verdict.drops(EXPECTATION)]


def verdict_mark(word: str) -> str:
    """A pair's verdict for Markdown: 🔴 regression, ⚪ not gated, 🟢 improved, the word otherwise."""
    return VERDICT_MARKS.get(word, word)


def _noise_counts(n: NoiseComparison) -> str:
    return f"{len(n.pairs)} pair(s) over their trials: " + over_trials_counts(n.pairs)


TRIAL_MARKS = {"regression": "🔴 regression", "better": "🟢 better"}


def trial_ordered(n: NoiseComparison) -> list[TrialPair]:
    """Regressions first, then the most significant drops."""
    order = {REGRESSION: 0, LOWER_IN_NOISE: 1, HIGHER_IN_NOISE: 2, BETTER: 3, SAME: 4}
    return sorted(n.pairs, key=lambda p: (order.get(p.verdict, 9), p.p_value, p.label))


def _trials_markdown(c: Comparison, n: NoiseComparison) -> list[str]:
    """One row per pair over its trials: its verdict, then its passes and the change they show."""
    verdict = c.verdict
    out = [
        "",
        "| scenario × persona | verdict | base passes | new passes | base score | new score | p (drop) | change |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for p in trial_ordered(n):
        base, new = trial_scores(c, p)
        out.append(
            f"| {md_cell(p.label)} | {verdict_mark(verdict.of(p.label).word)} | {p.cell('base')} | {p.cell('new')} | "
            f"{base} | {new} | {p_value_text(p.p_value)} | {TRIAL_MARKS.get(p.verdict, p.verdict)} |"
        )
    return out


def trials_csv(c: Comparison) -> str:
    """One row per pair over its trials (``--csv`` when both runs have trials): its verdict, its
    passes, the change they show, and each side's rubric judge agreement."""
    n = c.noise
    assert n is not None
    verdict = c.verdict
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(
        ["scenario", "persona", "verdict", "base_passes", "base_trials", "new_passes", "new_trials"]
        + ["base_mean_score", "new_mean_score", "p_value", "change", "base_judge_agreement", "new_judge_agreement"]
    )
    for p in trial_ordered(n):
        counts = p.counts
        row: list[object] = [p.scenario_id, p.persona_name, verdict.of(p.label).word]
        row += [counts.base_passes, counts.base_trials, counts.new_passes, counts.new_trials]
        row += [_num(p.mean_score("base")), _num(p.mean_score("new")), _num(p.p_value), p.verdict]
        row += [_agreement_cell(c, p.base), _agreement_cell(c, p.new)]
        writer.writerow([_cell(cell) for cell in row])
    return buffer.getvalue()


def has_verdicts(c: Comparison) -> bool:
    return any(p.base.verdicts or p.new.verdicts for p in c.pairs)


def comparison_markdown(c: Comparison) -> str:
    verdict = c.verdict
    out = [f"### ragtui compare `{md_cell(c.base_run)}` → `{md_cell(c.new_run)}`", ""]
    out += [f"**{verdict.headline}**", ""] + [f"- {line}" for line in summary_lines(c)] + [""]
    expectations = verdict.drops(EXPECTATION)
    if expectations:
        out += [f"- {'🔴' if d.gated else '⚪'} {md_cell(d.line)}" for d in expectations] + [""]
    if c.noise is not None:
        out += ["Over the trials of each pair:", *_trials_markdown(c, c.noise), "", "Trial by trial:", ""]
    verdicts = has_verdicts(c)
    metrics = c.verdict_metrics
    extra_head = (
        "".join(f" {md_cell(metric_views.label(m))} |" for m in metrics) + " dialogue flag |" if verdicts else ""
    )
    # Trial against trial a row's change is a direction, never a verdict: the verdict is the pair's.
    head = "| scenario × persona | base | new | Δ | customer diverges | flag |"
    rule = "|---|---:|---:|---:|---|---|"
    if c.noise is None:
        head, rule = head.replace("persona |", "persona | verdict |", 1), rule.replace("|---|", "|---|---|", 1)
    out += [head + extra_head, rule + ("---|" * (len(metrics) + 1) if verdicts else "")]
    for p in ordered(c.pairs):
        diverges = p.diverges_at
        extra = ""
        if verdicts:
            cells = [verdict_pair(c, p, m) for m in metrics]
            extra = " " + " | ".join(cells) + f" | {_dialogue_mark(p.dialogue_flag)} |"
        base, new = side_scores(c, p)
        word = "" if c.noise is not None else f" {verdict_mark(verdict.of(p.label).word)} |"
        out.append(
            f"| {md_cell(p.label)} |{word} {base} | {new} | {delta_text(p.delta)} | "
            f"{'–' if diverges is None else f'turn {diverges}'} | {_flag_mark(c, p)} |{extra}"
        )
    for side, dialogues in (("base", c.only_in_base), ("new", c.only_in_new)):
        if dialogues:
            names = ", ".join(md_cell(f"{d.scenario_id} × {d.persona_name}") for d in dialogues[:20])
            more = f" and {len(dialogues) - 20} more" if len(dialogues) > 20 else ""
            out += ["", f"Only in {side}: {names}{more}"]
    out += ["", f"_Pairs matched by scenario × persona; interval from {c.resamples} resamples, seed {c.seed}._", ""]
    return "\n".join(out)


def _flag_mark(c: Comparison, p: Pair) -> str:
    """🔴 for a regression, but ⚪ when the judge's agreement with people is low."""
    if p.flag == "regression" and c.low():
        return f"⚪ {flag_words(c, p)}"
    return FLAG_MARKS.get(p.flag, p.flag)


def _dialogue_mark(flag: str) -> str:
    if flag.endswith("regression"):
        return f"🔴 {flag}"
    if flag.endswith("fixed"):
        return f"🟢 {flag}"
    return flag


def comparison_csv(c: Comparison) -> str:
    if c.noise is not None:  # with trials a row is a pair over its trials, not one dialogue against one
        return trials_csv(c)
    verdict = c.verdict
    turns = max((max(p.base.turns, p.new.turns) for p in c.pairs), default=0)
    metrics = list(c.metric_deltas)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    # Scores are numbers, empty when unscored (the status columns say why), so a spreadsheet can sum them.
    head = ["scenario", "persona", "occurrence", "base_session", "new_session", "base_score", "new_score", "delta"]
    head += ["base_status", "new_status", "flag", "verdict", "customer_diverges_at"]
    head += [f"{side}{t}" for t in range(1, turns + 1) for side in ("base_turn", "new_turn")]
    head += [f"{m}_delta" for m in metrics]
    # Dialogue verdicts: scores empty when unscored, skipped or missing (the flag says which).
    head += ["base_outcome", "new_outcome"]
    every = verdict_metrics()
    head += [f"{side}_{m}" for m in every for side in ("base", "new")] + [f"{m}_flag" for m in every]
    # How far each side's rubric judge agrees with people, and whether it is under the floor.
    head += ["base_judge_agreement", "new_judge_agreement"]
    writer.writerow(head)
    for p in ordered(c.pairs):
        scenario, persona, n = p.key
        row: list[object] = [scenario, persona, n, p.base.session_id, p.new.session_id]
        row += [_num(p.base.score), _num(p.new.score), _num(p.delta), p.base.status, p.new.status, p.flag]
        row += [verdict.of(p.label).word, p.diverges_at or ""]
        by_turn = {r.turn: r for r in p.turn_rows()}
        for t in range(1, turns + 1):
            r = by_turn.get(t)
            row += ["", ""] if r is None else [_num(r.base_score), _num(r.new_score)]
        row += [_num(p.metric_delta(m)) for m in metrics]
        base_res, new_res = p.verdicts(gate_metric(RESOLUTION_RATE))  # its outcome: the word the rate counts
        row += [_outcome(base_res), _outcome(new_res)]
        for m in every:
            base_v, new_v = p.verdicts(m)
            row += [_num(base_v.score if base_v else None), _num(new_v.score if new_v else None)]
        row += [p.verdict_flag(m) for m in every]
        row += [_agreement_cell(c, [p.base]), _agreement_cell(c, [p.new])]
        writer.writerow([_cell(cell) for cell in row])
    for side, dialogues in (("only in base", c.only_in_base), ("only in new", c.only_in_new)):
        for d in dialogues:
            in_base = side == "only in base"
            row = [d.scenario_id, d.persona_name, "", d.session_id if in_base else "", "" if in_base else d.session_id]
            row += [_num(d.score) if in_base else "", "" if in_base else _num(d.score), ""]
            row += [d.status if in_base else "", "" if in_base else d.status, side]
            writer.writerow([_cell(cell) for cell in row])
    return buffer.getvalue()


def _agreement_cell(c: Comparison, dialogues: Sequence[RunDialogue]) -> str:
    """``Spearman 0.10 [-0.39–0.54] (n=18) · low agreement`` or ``unmeasured``: the rubric judge's
    agreement of the first of ``dialogues`` (one dialogue, or a pair's trials) that carries one."""
    entry = next((d.agreement[PRIMARY_METRIC] for d in dialogues if PRIMARY_METRIC in d.agreement), None)
    return trust_cell({"agreement": entry} if entry is not None else {}, c.floor)


def _outcome(v: VerdictScore | None) -> str:
    if v is None:
        return "missing"
    return v.status if v.score is None else (v.outcome or "")


def _suite_counts(tests: int, failures: int, skipped: int) -> dict[str, str]:
    """A JUnit suite's counts, as attributes."""
    return {"tests": str(tests), "failures": str(failures), "errors": "0", "skipped": str(skipped), "time": "0.000"}


def _suite(
    c: Comparison, cases: int, failures: int, skipped: int, *extra: tuple[str, str]
) -> tuple[ET.Element, ET.Element]:
    """The JUnit root and its one suite, with the runs and each side's judge agreement per metric
    as the suite's properties (in both forms: dialogue against dialogue and over trials)."""
    attrs = _suite_counts(cases, failures, skipped)
    root = ET.Element("testsuites", {"name": "ragtui compare", **attrs})
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S")  # when compared; UTC without offset, as JUnit wants
    suite = ET.SubElement(
        root, "testsuite", {"name": xml_safe(f"ragtui compare {c.base_run} → {c.new_run}"), **attrs, "timestamp": now}
    )
    props = ET.SubElement(suite, "properties")
    for name, value in (("base_run", c.base_run), ("new_run", c.new_run), *extra):
        ET.SubElement(props, "property", {"name": name, "value": xml_safe(value)})
    if c.strict:
        ET.SubElement(props, "property", {"name": "strict", "value": "true"})
    for m in [*c.scored_metrics(), *c.verdict_metrics]:  # each side's judge agreement with people, per metric
        for side in ("base", "new"):
            value = trust_cell(c.agreement(side, m), c.floor)
            ET.SubElement(props, "property", {"name": f"{side}_{m}_judge_agreement", "value": xml_safe(value)})
    return root, suite


def _case(suite: ET.Element, scenario: str, name: str) -> ET.Element:
    return ET.SubElement(
        suite,
        "testcase",
        {"classname": xml_safe(f"ragtui.compare.{scenario}"), "name": xml_safe(name), "time": "0.000"},
    )


def _judged(case: ET.Element, drops: list[Drop], words: Callable[[Drop], str], detail: str) -> None:
    """A case's failure (its gated regressions, each in ``words``) or, with only ungated ones, its
    skip with the reason."""
    if any(d.gated for d in drops):
        message = "; ".join(words(d) + ("" if d.gated else " (not gated)") for d in drops)
        failure = ET.SubElement(case, "failure", {"message": xml_safe(message), "type": "regression"})
        failure.text = xml_safe(detail)
    elif drops:
        ET.SubElement(case, "skipped", {"message": xml_safe(f"not gated: {words(drops[0])}")})


def _one_trial_words(d: Drop) -> str:
    """Dialogue against dialogue: ``score regression 0.90 → 0.30``."""
    word = kind_word(d.kind)
    return f"{word} regression{d.what.removeprefix(word)}"


def _trial_words(d: Drop) -> str:
    """Over trials: ``regression beyond noise: passes 3/3 → 0/3, p=0.050 (regression)``."""
    why = "within noise, counted by --strict" if d.within_noise else "beyond noise"
    word = kind_word(d.kind)
    head = f"{word} " if d.kind == RESOLUTION else ""
    return f"{head}regression {why}: {d.what.removeprefix(f'{word}: ')}"


def _case_counts(verdict: CompareVerdict, labels: list[str]) -> tuple[int, int]:
    """Failing and skipped pair cases, as ``_judged`` marks them (expectations counted apart)."""
    drops = [verdict.of(label).of_kind(SCORE, RESOLUTION) for label in labels]
    failing = sum(1 for ds in drops if any(d.gated for d in ds))
    return failing, sum(1 for ds in drops if ds and not any(d.gated for d in ds))


def comparison_junit(c: Comparison) -> str:
    """One test case per pair; a failure when its score or its resolution regressed (as the
    comparison's verdict decides), with both sides' scores and verdicts in the message; skipped
    when only a low-agreement judge's regression, not gated."""
    if c.noise is not None:
        return _trials_junit(c, c.noise)
    verdict = c.verdict
    failing, skipped = _case_counts(verdict, [p.label for p in c.pairs])
    root, suite = _suite(c, len(c.pairs), failing, skipped)
    for p in c.pairs:
        case = _case(suite, p.key[0], p.label)
        detail = f"sessions #{p.base.session_id} → #{p.new.session_id}; " + "; ".join(
            f"{metric_views.label(m)} {verdict_pair(c, p, m)}" for m in verdict_metrics()
        )
        _judged(case, verdict.of(p.label).of_kind(SCORE, RESOLUTION), _one_trial_words, detail)
        base, new = side_scores(c, p)
        out = ET.SubElement(case, "system-out")
        out.text = xml_safe(
            f"score {base} → {new} ({flag_words(c, p)}) · "
            + " · ".join(
                f"{metric_views.label(m)} {verdict_pair(c, p, m)} ({p.verdict_flag(m)})" for m in verdict_metrics()
            )
        )
    _expectation_cases(c, root, suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _expectation_cases(c: Comparison, root: ET.Element, suite: ET.Element) -> None:
    """A test case per expectation that regressed (over trials, with trials; under ``--strict``,
    any met less often), failing as the verdict counts it, skipped when not gated."""
    drops = c.verdict.drops(EXPECTATION)
    for d in drops:
        change = d.expectation
        assert change is not None
        case = _case(suite, change.origin, f"{change.expectation_id} · {change.pair}")
        if d.gated:
            failure = ET.SubElement(case, "failure", {"message": xml_safe(d.line), "type": "expectation_regression"})
            failure.text = xml_safe(change.text)
        else:
            ET.SubElement(case, "skipped", {"message": xml_safe(f"not gated (low agreement): {change.line}")})
    for counted in ("failures", "skipped"):
        extra = sum(1 for d in drops if d.gated == (counted == "failures"))
        for element in (root, suite):
            element.set(counted, str(int(element.get(counted, "0")) + extra))
    for element in (root, suite):
        element.set("tests", str(int(element.get("tests", "0")) + len(drops)))


def _trials_junit(c: Comparison, n: NoiseComparison) -> str:
    """With trials: one test case per pair over its trials, failing as the verdict decides — on a
    regression beyond noise (when only the run's test finds one, the pairs that dropped, which make
    it up), of its passes or its resolution; under ``--strict``, on any drop."""
    verdict = c.verdict
    failing, skipped = _case_counts(verdict, [p.label for p in n.pairs])
    root, suite = _suite(c, len(n.pairs), failing, skipped, ("alpha", setting_text(n.alpha)))
    for p in n.pairs:
        case = _case(suite, p.scenario_id, p.label)
        drops = verdict.of(p.label).of_kind(SCORE, RESOLUTION)
        beyond = [d for d in drops if not d.within_noise]
        detail = (
            f"significant at alpha {setting_text(n.alpha)}"
            if beyond
            else "within run-to-run noise; --strict counts any drop as a regression"
        )
        _judged(case, drops, _trial_words, detail)
        ET.SubElement(case, "system-out").text = xml_safe(
            f"passes {p.cell('base')} → {p.cell('new')}, p={p_value_text(p.p_value)} ({p.verdict}) · verdict "
            f"{verdict.of(p.label).word}"
        )
    _expectation_cases(c, root, suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _num(value: float | None) -> float | str:
    """A score or delta rounded for reading; an empty cell when there is none."""
    return "" if value is None else round(value, 4)


def _cell(value: object) -> object:
    """Numbers stay numbers (a signed delta is no formula); any text is neutralised."""
    return value if isinstance(value, int | float) else safe_cell(value)

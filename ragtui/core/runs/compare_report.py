"""A comparison as Markdown (fit for a pull-request comment), CSV (one row per pair) and JUnit
XML (one test case per pair: a score or resolution regression is a failing test case)."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Protocol

from ..metrics import PRIMARY_METRIC
from ..registry import metric_views
from ..store.dialogue_verdicts import ResolutionRate
from ..store.export import safe_cell
from ..text.score_text import score_text
from ..types.agreement_floor import LOW_WORDS, floor_words, is_low, trust_cell
from .compare import Comparison, Pair
from .dialogue_compare import verdict_metrics
from .dialogues import RunDialogue, VerdictScore
from .report_text import delta, interval_text, md_cell
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


def ordered(pairs: list[Pair]) -> list[Pair]:
    """What needs attention first: regressions (of the score or the resolution), fixes,
    unscored, then the biggest drops."""

    def rank(p: Pair) -> int:
        return 0 if p.resolution_regression else FLAG_ORDER.get(p.flag, 9)

    return sorted(pairs, key=lambda p: (rank(p), p.delta if p.delta is not None else 0.0))


def verdict_cell(v: VerdictScore | None) -> str:
    """One side's dialogue verdict: ``resolved 1.00``, ``0.50``, ``unscored``, ``skipped`` or ``missing``."""
    return "missing" if v is None else v.words()


def verdict_pair(p: Pair, metric: str) -> str:
    base, new = p.verdicts(metric)
    return f"{verdict_cell(base)} → {verdict_cell(new)}"


def rate_cell(rate: ResolutionRate) -> str:
    if rate.rate is None:
        return "unscored" + (f" ({rate.unscored} without a scored verdict)" if rate.unscored else "")
    text = f"{rate.rate:.0%} ({rate.successes}/{rate.scored})"
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
    shown = [m for m in c.verdict_metrics if m != "expectations" and not (c.noise is not None and m == "resolution")]
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


def low_words(c: Comparison, metric: str = PRIMARY_METRIC) -> str:
    """`` (low agreement: Spearman 0.10 < floor 0.5)`` after a regression of a low-agreement
    metric; "" otherwise."""
    if not c.low(metric):
        return ""
    side = next(s for s in ("new", "base") if is_low(c.agreement(s, metric), c.floor))
    return f" ({LOW_WORDS}: {floor_words(c.agreement(side, metric), c.floor)})"


def flag_words(c: Comparison, p: Pair) -> str:
    """A pair's flag, a score regression of a low-agreement judge marked as such."""
    return f"{p.flag} ≈ {LOW_WORDS}" if p.flag == "regression" and c.low() else p.flag


def summary_lines(c: Comparison) -> list[str]:
    counts = (
        f"{len(c.pairs)} pair(s): {c.regressions} regression(s), {c.fixes} fixed, {c.unscored} unscored in one "
        f"or both; only in base {len(c.only_in_base)}, only in new {len(c.only_in_new)}"
    )
    if c.noise is not None:
        counts = _noise_counts(c.noise) + f"; only in base {len(c.only_in_base)}, only in new {len(c.only_in_new)}"
    lines = [
        f"run score {score_text(c.mean_score('base'))} → {score_text(c.mean_score('new'))}; {interval_text(c.interval)}",
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
        lines.append(f"expectations: {len(regressed)} regression(s), {len(fixed)} fixed")
    return lines


def outcome_line(c: Comparison, strict: bool = False) -> str:
    """The comparison's outcome in one line, as every view states it: what its exit status says
    and what decided it."""
    status = c.strict_exit_status if strict else c.exit_status
    decided = [
        f"{n} {what}"
        for n, what, metric in (
            (c.resolution_regressions, "resolution regression(s)", "resolution"),  # the verdicts that gate
            (len(c.expectation_regressions), "expectation regression(s)", "expectations"),  # they gate too
        )
        if n and c.verdict_gated(metric)
    ]
    if c.noise is not None:
        if c.noise.significant and c.scores_gated:
            decided.insert(0, "the pass rate")
        if status == 0:
            return "no regression: within noise"
        if strict and not decided:
            return f"--strict: {len(c.noise.dropped)} pair(s) dropped (within noise)"
        return "regression beyond run-to-run noise: " + ", ".join(decided or ["a drop within noise (--strict)"])
    if status == 0:
        ungated = (not c.scores_gated and c.regressions) or c.resolution_regressions or c.expectation_regressions
        return "no gated regression" if ungated else "no regression"
    resolution = c.resolution_regressions if c.verdict_gated("resolution") else 0  # only what gates
    expectations = len(c.expectation_regressions) if c.verdict_gated("expectations") else 0  # so do expectations
    return (
        f"{c.regressions if c.scores_gated else 0} score regression(s), {resolution} resolution "
        f"regression(s), {expectations} expectation regression(s)"
    )


def expectation_lines(c: Comparison) -> list[str]:
    """One line per expectation that regressed, naming its id, the pair and its text (the
    text is the team's: callers print it as plain text or escape it)."""
    return [change.line for change in c.expectation_regressions]


def _noise_counts(n: NoiseComparison) -> str:
    return f"{len(n.pairs)} pair(s) over their trials: " + over_trials_counts(n.pairs)


TRIAL_MARKS = {"regression": "🔴 regression", "better": "🟢 better"}


def trial_ordered(n: NoiseComparison) -> list[TrialPair]:
    """Regressions first, then the most significant drops."""
    order = {REGRESSION: 0, LOWER_IN_NOISE: 1, HIGHER_IN_NOISE: 2, BETTER: 3, SAME: 4}
    return sorted(n.pairs, key=lambda p: (order.get(p.verdict, 9), p.p_value, p.label))


def _trials_markdown(n: NoiseComparison) -> list[str]:
    out = [
        "",
        "| scenario × persona | base passes | new passes | base score | new score | p (drop) | verdict |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for p in trial_ordered(n):
        out.append(
            f"| {md_cell(p.label)} | {p.cell('base')} | {p.cell('new')} | {score_text(p.mean_score('base'))} | "
            f"{score_text(p.mean_score('new'))} | {p.p_value:.3f} | {TRIAL_MARKS.get(p.verdict, p.verdict)} |"
        )
    return out


def trials_csv(n: NoiseComparison) -> str:
    """One row per pair over its trials (``--csv`` when both runs have trials)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(
        ["scenario", "persona", "base_passes", "base_trials", "new_passes", "new_trials"]
        + ["base_mean_score", "new_mean_score", "p_value", "verdict"]
    )
    for p in trial_ordered(n):
        c = p.counts
        row: list[object] = [p.scenario_id, p.persona_name, c.base_passes, c.base_trials, c.new_passes, c.new_trials]
        row += [_num(p.mean_score("base")), _num(p.mean_score("new")), _num(p.p_value), p.verdict]
        writer.writerow([_cell(cell) for cell in row])
    return buffer.getvalue()


def has_verdicts(c: Comparison) -> bool:
    return any(p.base.verdicts or p.new.verdicts for p in c.pairs)


def comparison_markdown(c: Comparison) -> str:
    out = [f"### ragtui compare `{md_cell(c.base_run)}` → `{md_cell(c.new_run)}`", ""]
    out += [f"**{outcome_line(c)}**", ""] + [f"- {line}" for line in summary_lines(c)] + [""]
    if c.expectation_regressions:
        out += [f"- 🔴 {md_cell(line)}" for line in expectation_lines(c)] + [""]
    if c.noise is not None:
        out += ["Over the trials of each pair:", *_trials_markdown(c.noise), "", "Trial by trial:", ""]
    verdicts = has_verdicts(c)
    metrics = c.verdict_metrics
    extra_head = (
        "".join(f" {md_cell(metric_views.label(m))} |" for m in metrics) + " dialogue flag |" if verdicts else ""
    )
    out += [
        "| scenario × persona | base | new | Δ | customer diverges | flag |" + extra_head,
        "|---|---:|---:|---:|---|---|" + ("---|" * (len(metrics) + 1) if verdicts else ""),
    ]
    for p in ordered(c.pairs):
        diverges = p.diverges_at
        extra = ""
        if verdicts:
            cells = [verdict_pair(p, m) for m in metrics]
            extra = " " + " | ".join(cells) + f" | {_dialogue_mark(p.dialogue_flag)} |"
        out.append(
            f"| {md_cell(p.label)} | {score_text(p.base.score)} | {score_text(p.new.score)} | {delta(p.delta)} | "
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
        return trials_csv(c.noise)
    turns = max((max(p.base.turns, p.new.turns) for p in c.pairs), default=0)
    metrics = list(c.metric_deltas)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    # Scores are numbers, empty when unscored (the status columns say why), so a spreadsheet can sum them.
    head = ["scenario", "persona", "occurrence", "base_session", "new_session", "base_score", "new_score", "delta"]
    head += ["base_status", "new_status", "flag", "customer_diverges_at"]
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
        row.append(p.diverges_at or "")
        by_turn = {r.turn: r for r in p.turn_rows()}
        for t in range(1, turns + 1):
            r = by_turn.get(t)
            row += ["", ""] if r is None else [_num(r.base_score), _num(r.new_score)]
        row += [_num(p.metric_delta(m)) for m in metrics]
        base_res, new_res = p.verdicts("resolution")  # resolution's outcome: the word its rate and gate count
        row += [_outcome(base_res), _outcome(new_res)]
        for m in every:
            base_v, new_v = p.verdicts(m)
            row += [_num(base_v.score if base_v else None), _num(new_v.score if new_v else None)]
        row += [p.verdict_flag(m) for m in every]
        row += [_agreement_cell(c, d) for d in (p.base, p.new)]
        writer.writerow([_cell(cell) for cell in row])
    for side, dialogues in (("only in base", c.only_in_base), ("only in new", c.only_in_new)):
        for d in dialogues:
            in_base = side == "only in base"
            row = [d.scenario_id, d.persona_name, "", d.session_id if in_base else "", "" if in_base else d.session_id]
            row += [_num(d.score) if in_base else "", "" if in_base else _num(d.score), ""]
            row += [d.status if in_base else "", "" if in_base else d.status, side]
            writer.writerow([_cell(cell) for cell in row])
    return buffer.getvalue()


def _agreement_cell(c: Comparison, dialogue: RunDialogue) -> str:
    """``Spearman 0.10 [-0.39–0.54] (n=18) · low agreement`` or ``unmeasured``."""
    entry = dialogue.agreement.get(PRIMARY_METRIC)
    return trust_cell({"agreement": entry} if entry is not None else {}, c.floor)


def _outcome(v: VerdictScore | None) -> str:
    if v is None:
        return "missing"
    return v.status if v.score is None else (v.outcome or "")


def _suite_counts(tests: int, failures: int, skipped: int) -> dict[str, str]:
    """A JUnit suite's counts, as attributes."""
    return {"tests": str(tests), "failures": str(failures), "errors": "0", "skipped": str(skipped), "time": "0.000"}


def comparison_junit(c: Comparison) -> str:
    """One test case per pair; a failure when its score or its resolution regressed (the rule of
    the exit status), with both sides' scores and verdicts in the message."""
    if c.noise is not None:
        return _trials_junit(c, c.noise)
    # A score regression of a low-agreement judge is skipped with its reason unless gated (the
    # rule of the exit status); a resolution regression fails whatever the rubric's judge.
    resolution_gated = c.verdict_gated("resolution")  # resolution decides, when its judge is trusted
    failing = [
        p
        for p in c.pairs
        if (p.flag == "regression" and c.scores_gated) or (p.resolution_regression and resolution_gated)
    ]
    skipped = [p for p in c.pairs if (p.flag == "regression" or p.resolution_regression) and p not in failing]
    attrs = _suite_counts(len(c.pairs), len(failing), len(skipped))
    root = ET.Element("testsuites", {"name": "ragtui compare", **attrs})
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S")  # when compared; UTC without offset, as JUnit wants
    suite = ET.SubElement(
        root, "testsuite", {"name": xml_safe(f"ragtui compare {c.base_run} → {c.new_run}"), **attrs, "timestamp": now}
    )
    props = ET.SubElement(suite, "properties")
    for name, value in (("base_run", c.base_run), ("new_run", c.new_run)):
        ET.SubElement(props, "property", {"name": name, "value": xml_safe(value)})
    for m in [*c.scored_metrics(), *c.verdict_metrics]:  # each side's judge agreement with people, per metric
        for side in ("base", "new"):
            value = trust_cell(c.agreement(side, m), c.floor)
            ET.SubElement(props, "property", {"name": f"{side}_{m}_judge_agreement", "value": xml_safe(value)})
    for p in c.pairs:
        case = ET.SubElement(
            suite,
            "testcase",
            {"classname": xml_safe(f"ragtui.compare.{p.key[0]}"), "name": xml_safe(p.label), "time": "0.000"},
        )
        what = []
        if p.flag == "regression":
            what.append(f"score regression {score_text(p.base.score)} → {score_text(p.new.score)}{low_words(c)}")
        if p.resolution_regression:
            # Resolution's own rule: its regression fails the comparison, as its rate gates a run.
            what.append(f"resolution regression {verdict_pair(p, 'resolution')}")
        if p in skipped:
            ET.SubElement(case, "skipped", {"message": xml_safe(f"not gated: {what[0]}")})
        elif what:
            failure = ET.SubElement(case, "failure", {"message": xml_safe("; ".join(what)), "type": "regression"})
            failure.text = xml_safe(
                f"sessions #{p.base.session_id} → #{p.new.session_id}; "
                + "; ".join(f"{metric_views.label(m)} {verdict_pair(p, m)}" for m in verdict_metrics())
            )
        out = ET.SubElement(case, "system-out")
        out.text = xml_safe(
            f"score {score_text(p.base.score)} → {score_text(p.new.score)} ({flag_words(c, p)}) · "
            + " · ".join(
                f"{metric_views.label(m)} {verdict_pair(p, m)} ({p.verdict_flag(m)})" for m in verdict_metrics()
            )
        )
    _expectation_cases(c, root, suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _expectation_cases(c: Comparison, root: ET.Element, suite: ET.Element) -> None:
    """A failing test case per expectation that regressed (over trials, with trials), as the
    exit status counts them, in both JUnit forms; skipped when the expectations' judge is under the
    agreement floor and not gated."""
    gated = c.verdict_gated("expectations")  # the expectations verdict decides, when trusted
    for change in c.expectation_regressions:
        case = ET.SubElement(
            suite,
            "testcase",
            {
                "classname": xml_safe(f"ragtui.compare.{change.origin}"),
                "name": xml_safe(f"{change.expectation_id} · {change.pair}"),
                "time": "0.000",
            },
        )
        if gated:
            failure = ET.SubElement(
                case, "failure", {"message": xml_safe(change.line), "type": "expectation_regression"}
            )
            failure.text = xml_safe(change.text)
        else:
            ET.SubElement(case, "skipped", {"message": xml_safe(f"not gated (low agreement): {change.line}")})
    extra = len(c.expectation_regressions)
    if extra:
        counted = "failures" if gated else "skipped"
        for element in (root, suite):
            element.set("tests", str(int(element.get("tests", "0")) + extra))
            element.set(counted, str(int(element.get(counted, "0")) + extra))


def _trials_junit(c: Comparison, n: NoiseComparison) -> str:
    """With trials: one test case per pair over its trials, failing on a regression beyond noise;
    when only the run's test finds one, the pairs that dropped fail with it (they make it up)."""
    failing = {p.label for p in n.regressions} or ({p.label for p in n.dropped} if n.run_regression else set())
    skipped: set[str] = set()
    if not c.scores_gated:  # passes are the rubric's: a low-agreement judge's are shown, not gated
        failing, skipped = set(), failing
    # A resolution that regressed over the pair's trials fails its case whatever the rubric's judge,
    # as it fails the comparison.
    resolution = {v.pair.label: v for v in c.resolution_trials if v.verdict == REGRESSION}
    if not c.verdict_gated("resolution"):  # a low-agreement judge's resolution: shown, not gated
        resolution = {}
    skipped -= set(resolution)
    failing |= set(resolution)
    attrs = _suite_counts(len(n.pairs), len(failing), len(skipped))
    root = ET.Element("testsuites", {"name": "ragtui compare", **attrs})
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S")
    suite = ET.SubElement(
        root, "testsuite", {"name": xml_safe(f"ragtui compare {c.base_run} → {c.new_run}"), **attrs, "timestamp": now}
    )
    props = ET.SubElement(suite, "properties")
    for name, value in (("base_run", c.base_run), ("new_run", c.new_run), ("alpha", f"{n.alpha:g}")):
        ET.SubElement(props, "property", {"name": name, "value": xml_safe(value)})
    for p in n.pairs:
        case = ET.SubElement(
            suite,
            "testcase",
            {"classname": xml_safe(f"ragtui.compare.{p.scenario_id}"), "name": xml_safe(p.label), "time": "0.000"},
        )
        what = f"passes {p.cell('base')} → {p.cell('new')}, p={p.p_value:.3f} ({p.verdict})"
        if p.label in failing:
            kind = "pair" if p.verdict == "regression" else f"run (p={n.p_value:.3f})"
            message = f"regression beyond noise: {what}"
            if p.label in resolution:
                v = resolution[p.label]
                message = f"resolution regression beyond noise: resolved {v.cells} trials, p={v.p_value:.3f}"
                kind = "pair's resolution"
            failure = ET.SubElement(case, "failure", {"message": xml_safe(message), "type": "regression"})
            failure.text = xml_safe(f"significant at alpha {n.alpha:g} for the {kind}")
        elif p.label in skipped:
            ET.SubElement(case, "skipped", {"message": xml_safe(f"not gated: regression beyond noise{low_words(c)}")})
        ET.SubElement(case, "system-out").text = xml_safe(what)
    _expectation_cases(c, root, suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _num(value: float | None) -> float | str:
    """A score or delta rounded for reading; an empty cell when there is none."""
    return "" if value is None else round(value, 4)


def _cell(value: object) -> object:
    """Numbers stay numbers (a signed delta is no formula); any text is neutralised."""
    return value if isinstance(value, int | float) else safe_cell(value)

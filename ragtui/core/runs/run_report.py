"""A finished run for CI: JUnit XML (one test case per dialogue) and a Markdown summary.

JUnit follows the shape GitHub Actions (test-reporter actions), GitLab (``artifacts:reports:
junit``) and Jenkins (``junit`` step) read: ``testsuites`` > ``testsuite`` (name, tests,
failures, errors, skipped, time, timestamp) > ``testcase`` (classname, name, time) with at
most one ``failure``, ``error`` or ``skipped`` child. A dialogue under the threshold or with no
score is a failure whose message names the turns, their scores and the judge's conclusions;
so is one whose ``--metric`` metric fails its pass mark (the exit status's rule, ``gate``);
a dialogue that ended in error is an error; a cancelled one is skipped. With
``min_resolution_rate`` set, one more test case stands for the run's resolution rate.
Every test case's output carries the dialogue verdicts, one per dialogue metric (a plugin's too).
A dialogue with an ``expectations`` verdict adds one test case per expectation, named by its
id: a missed expectation or a broken policy is a failure, an unscored one skipped (the exit
status fails on them only with ``--fail-on-policy`` / ``min_expectation_rate``).
A dialogue's test case passes exactly when the dialogue passed (``passing``, docs/glossary.md). A
dialogue that did not pass without failing the gate is skipped, the reason saying so: one failing
only on scores whose judge agrees with people under ``[min_judge_agreement]`` (unless the gate
counts them, ``--gate-low-agreement``), or one left unresolved (resolution gates the run by its
rate). The Markdown summary counts the dialogues that passed by the same definition, names each
metric's judge agreement and marks such scores ``≈``.
In a run of K trials a pair (``ragtui run --repeat K``) each test case and table row names its
trial, and the Markdown summary gives pass^1 / pass^K.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from ..dialogue.progress import dialogue_label
from ..metrics import PRIMARY_METRIC
from ..registry import metric_views
from ..store.dialogue_verdicts import ResolutionRate
from ..text.number_text import percent_text, setting_text, timing_text
from ..text.score_text import score_text, under_mark
from ..types.agreement_floor import AgreementFloor, floor_words
from ..types.expectations import ExpectationResult
from ..types.stored import StoredSession
from .expectation_rate import rate_line, session_results
from .gate import GateResult, failing_low_scores, metric_means, metric_problems
from .gate_scope import scope_line
from .low_agreement import agreement_lines, left_out_line, low_metrics
from .pass_k import pass_k_line, run_pass_k
from .passing import read_pass
from .report_text import md_cell

# XML 1.0 forbids most control characters; a bot reply may contain them.
_XML_BAD = dict.fromkeys(c for c in range(32) if c not in (9, 10, 13))


def xml_safe(text: object) -> str:
    return str(text).translate(_XML_BAD)


@dataclass
class Outcome:
    kind: str  # passed | failure | error | skipped
    message: str
    detail: str


def _seconds(session: StoredSession) -> float:
    try:
        start, end = datetime.fromisoformat(session.created_at), datetime.fromisoformat(session.updated_at)
    except ValueError:
        return 0.0
    return max((end - start).total_seconds(), 0.0)


def _timestamp(sessions: list[StoredSession]) -> str:
    """The start in UTC without an offset: the stricter JUnit schemas allow no time zone."""
    if not sessions:
        return ""
    try:
        return datetime.fromisoformat(sessions[0].created_at).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return ""


def _trials(sessions: list[StoredSession]) -> int:
    """The most trials of a pair in the run: 1 unless it ran with ``--repeat``."""
    return max((s.trial for s in sessions), default=1)


def _label(session: StoredSession, trials: int) -> str:
    return dialogue_label(session.scenario_id, session.persona_name, session.trial, trials)


def dialogue_verdicts_line(session: StoredSession) -> str:
    """``resolution resolved 1.00 · retention 0.50 · repetition skipped``; "" without verdicts.
    Every dialogue metric the dialogue has a verdict of, a plugin's too."""
    latest = session.latest_dialogue_judgments()
    return " · ".join(
        f"{metric_views.label(m)} {metric_views.cell(latest[m])}" for m in metric_views.shown_metrics(set(latest))
    )


def outcome(
    session: StoredSession, thresholds: Mapping[str, float] | None = None, gate: GateResult | None = None
) -> Outcome:
    """The dialogue as a test case: ``passed`` exactly when it passed (``passing``, the one
    definition); else a ``failure`` when the gate fails it, ``error`` when it ended in one, and
    ``skipped`` when it did not pass without failing the gate (cancelled or not finished; failing
    only on a score whose judge agrees with people under the floor; left unresolved — resolution
    gates the run by its rate, a test case of its own)."""
    if session.stop_reason == "error":
        return Outcome("error", f"the dialogue ended in error at turn {session.turns}", session.error or "")
    if session.stop_reason == "cancelled" or session.status != "finished":
        return Outcome("skipped", f"the dialogue was {session.stop_reason or session.status}", "")
    latest = session.latest_judgments()
    bad: list[str] = []
    for (turn, metric), j in sorted(latest.items()):
        if metric != PRIMARY_METRIC:
            continue
        if j.score is None:
            bad.append(f"turn {turn}: unscored ({j.error or 'no usable verdict'})")
        elif j.score < session.threshold:
            conclusion = j.verdict.conclusion
            bad.append(f"turn {turn}: {under_mark(j.score, session.threshold)}: {conclusion}".rstrip(": "))
    exempt = gate.exempt(session) if gate is not None else set()
    metrics = metric_problems(session, thresholds or {}, exempt)
    if session.score is None:
        return Outcome("failure", "no turn could be scored", "\n".join(bad + metrics))
    rubric_low = PRIMARY_METRIC in exempt
    if session.score < session.threshold and not rubric_low:
        first = bad[0] if bad else ""
        return Outcome(
            "failure",
            f"score {under_mark(session.score, session.threshold)}; {first}".rstrip("; "),
            "\n".join(bad + metrics),
        )
    if metrics:
        return Outcome("failure", "; ".join(metrics), "\n".join(metrics + bad))
    reading = read_pass(session, thresholds=thresholds)
    if reading.passed:
        return Outcome("passed", "", "\n".join(bad))
    # It did not pass, and the gate does not fail it: neither passed nor failed, saying why.
    why = []
    left_out = _left_out(session, thresholds or {}, exempt, gate)
    if left_out:
        why.append(f"low judge agreement, not gated: {'; '.join(left_out)}")
    if reading.resolved is False:
        why.append("unresolved (resolution gates the run by its resolution rate, not each dialogue)")
    return Outcome("skipped", "did not pass: " + "; ".join(why or reading.reasons()), "\n".join(bad))


def _left_out(
    session: StoredSession, thresholds: Mapping[str, float], exempt: set[str], gate: GateResult | None
) -> list[str]:
    """``rubric 0.30 < 0.7 (Spearman 0.10 < floor 0.5)`` for each failing score left out of the gate."""
    if gate is None or not exempt:
        return []
    return [
        f"{i.metric} {under_mark(i.score, i.mark, low=True)} ({floor_words(i.details, gate.floor)})"
        for i in failing_low_scores(session, thresholds, gate.floor, session.threshold)
    ]


def junit_xml(
    run_id: str,
    sessions: list[StoredSession],
    thresholds: Mapping[str, float] | None = None,
    gate: GateResult | None = None,
) -> str:
    outcomes = [(s, outcome(s, thresholds, gate)) for s in sessions]
    rate_case = gate is not None and gate.min_resolution_rate > 0
    counts = {kind: sum(1 for _s, o in outcomes if o.kind == kind) for kind in ("failure", "error", "skipped")}
    if rate_case and gate is not None and gate.resolution_problem:
        counts["failure"] += 1
    expectations = {s.id: session_results(s) for s in sessions}
    every = [r for results in expectations.values() for r in results]
    counts["failure"] += sum(1 for r in every if r.passed is False)
    counts["skipped"] += sum(1 for r in every if r.passed is None)
    total_time = sum(_seconds(s) for s in sessions)
    attrs = {
        "tests": str(len(sessions) + (1 if rate_case else 0) + len(every)),
        "failures": str(counts["failure"]),
        "errors": str(counts["error"]),
        "skipped": str(counts["skipped"]),
        "time": timing_text(total_time),
    }
    root = ET.Element("testsuites", {"name": "ragtui", **attrs})
    suite = ET.SubElement(
        root,
        "testsuite",
        {"name": xml_safe(f"ragtui run {run_id}"), **attrs, "timestamp": _timestamp(sessions)},
    )
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", {"name": "run_id", "value": xml_safe(run_id)})
    trials = _trials(sessions)
    for session, result in outcomes:
        case = ET.SubElement(
            suite,
            "testcase",
            {
                "classname": xml_safe(f"ragtui.{session.scenario_id}"),
                "name": xml_safe(f"{_label(session, trials)} (session {session.id})"),
                "time": timing_text(_seconds(session)),
            },
        )
        if result.kind != "passed":
            child = ET.SubElement(case, result.kind, {"message": xml_safe(result.message)})
            if result.kind != "skipped":
                child.set("type", {"failure": "below_threshold", "error": "dialogue_error"}[result.kind])
                child.text = xml_safe(result.detail)
        out = ET.SubElement(case, "system-out")
        verdicts = dialogue_verdicts_line(session)
        out.text = xml_safe(
            f"score {score_text(session.score, threshold=session.threshold)} · stop {session.stop_reason} · {session.turns} turn(s) · "
            f"unscored turns {session.unscored_turns}" + (f"\ndialogue verdicts: {verdicts}" if verdicts else "")
        )
        for r in expectations[session.id]:
            _expectation_case(suite, session, r, trials)
    if rate_case and gate is not None:
        _rate_case(suite, run_id, gate)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _expectation_case(suite: ET.Element, session: StoredSession, r: ExpectationResult, trials: int) -> None:
    """One expectation of one dialogue: a failure when missed or broken, skipped when unscored."""
    e = r.expectation
    kind = "policy" if e.origin == "policy" else "expectation"
    case = ET.SubElement(
        suite,
        "testcase",
        {
            "classname": xml_safe(f"ragtui.{session.scenario_id}.{kind}"),
            "name": xml_safe(f"{e.id} · {_label(session, trials)} (session {session.id})"),
            "time": "0.000",
        },
    )
    at = f" at turn {r.turn}" if r.turn is not None else ""
    if r.passed is False:
        failure = ET.SubElement(case, "failure", {"message": xml_safe(f"{kind} {e.id} {r.status}{at}: {e.text}")})
        failure.set("type", "policy_broken" if e.origin == "policy" else f"expectation_{r.status}")
    elif r.passed is None:
        ET.SubElement(case, "skipped", {"message": xml_safe(f"{kind} {e.id} unscored: {r.error or ''}")})
    out = ET.SubElement(case, "system-out")
    out.text = xml_safe(f"{kind} {e.id} ({e.form}, {e.polarity}): {e.text} → {r.status}{at}")


def _rate_case(suite: ET.Element, run_id: str, gate: GateResult) -> None:
    """The run's resolution rate as one test case: it fails when the exit status fails on it."""
    rate = gate.resolution
    case = ET.SubElement(
        suite,
        "testcase",
        {"classname": "ragtui.run", "name": xml_safe(f"resolution rate of run {run_id}"), "time": "0.000"},
    )
    if gate.resolution_problem:
        failure = ET.SubElement(case, "failure", {"message": xml_safe(gate.resolution_problem)})
        failure.set("type", "below_min_resolution_rate")
    out = ET.SubElement(case, "system-out")
    out.text = xml_safe(f"{rate_words(rate)}; min_resolution_rate {setting_text(gate.min_resolution_rate)}")


def rate_words(rate: ResolutionRate | None) -> str:
    """``resolution rate 67% (2/3 resolved or handed over), 1 unscored``."""
    if rate is None:
        return "resolution rate: no dialogue verdicts"
    text = (
        "resolution rate unscored"
        if rate.rate is None
        else f"resolution rate {percent_text(rate.rate)} ({rate.successes}/{rate.scored} resolved or handed over)"
    )
    return text + (f", {rate.unscored} unscored" if rate.unscored else "")


def run_markdown(
    run_id: str,
    sessions: list[StoredSession],
    threshold: float,
    thresholds: Mapping[str, float] | None = None,
    gate: GateResult | None = None,
) -> str:
    scored = [s.score for s in sessions if s.score is not None]
    run_score = sum(scored) / len(scored) if scored else None
    results = [outcome(s, thresholds, gate) for s in sessions]
    passed = sum(1 for o in results if o.kind == "passed")
    verdicts = any(s.dialogue_judgments for s in sessions)
    # A column per dialogue metric some dialogue has a verdict of, in the registry's order.
    verdict_metrics = metric_views.shown_metrics({j.metric for s in sessions for j in s.dialogue_judgments})
    head = (
        f"**run score {score_text(run_score)}** (threshold {setting_text(threshold)}) · {passed}/{len(sessions)} passed · "
        f"{len(sessions) - len(scored)} unscored"
    )
    if gate is not None and (verdicts or gate.min_resolution_rate > 0):
        head += f" · {rate_words(gate.resolution)}"
        if gate.min_resolution_rate > 0:
            head += f" (min {percent_text(gate.min_resolution_rate)})"
    out = [f"### ragtui run `{md_cell(run_id)}`", "", head, ""]
    floor = gate.floor if gate is not None else AgreementFloor()
    # How far each metric's judge agrees with people, beside the scores it gave.
    out += [f"- {md_cell(line)}" for line in agreement_lines(sessions, floor)] + [""]
    if gate is not None and gate.left_out:
        out += [f"⚪ {md_cell(left_out_line(gate.left_out))}", ""]
    if gate is not None and gate.scope:  # which verdicts the exit status rests on
        out += [md_cell(scope_line(gate.scope)), ""]
    trials = _trials(sessions)
    if trials > 1:  # repeated trials: how often the bot gets a pair right every time, not just once
        out += [pass_k_line(run_pass_k(sessions, threshold)), ""]
    if gate is not None and gate.resolution_problem:
        out += [f"🔴 {md_cell(gate.resolution_problem)}", ""]
    if gate is not None and gate.expectations.dialogues:
        out += [md_cell(rate_line(gate.expectations)), ""]
        for f in gate.expectations.failures:
            mark = "🔴 policy" if f.result.expectation.origin == "policy" else "🟠"
            out.append(f"- {mark} {md_cell(f'#{f.session_id} {f.scenario_id} × {f.persona_name}: {f.label}')}")
        if gate.expectations.failures:
            out.append("")
    # The metrics asked for with --metric get a column each, as in the terminal's table.
    means = {s.id: metric_means(s, thresholds or {}) for s in sessions}
    metrics = sorted({m for per in means.values() for m in per})
    metric_heads = "".join(f" {md_cell(m)} |" for m in metrics)
    verdict_heads = "".join(f" {md_cell(metric_views.label(m))} |" for m in verdict_metrics)
    out += [
        f"| scenario × persona | turns | score |{metric_heads} stop |{verdict_heads} result |",
        "|---|---:|---:|" + "---:|" * len(metrics) + "---|" + "---:|" * len(verdict_metrics) + "---|",
    ]
    for s, o in zip(sessions, results, strict=True):
        result = "passed" if o.kind == "passed" else f"{o.kind}: {o.message}"
        low = low_metrics(s, floor)
        metric_cells = "".join(
            f" {score_text(means[s.id][m][0], m in low, means[s.id][m][1])} |" if m in means[s.id] else " – |"
            for m in metrics
        )
        latest = s.latest_dialogue_judgments()
        cells = "".join(f" {md_cell(metric_views.cell(latest.get(m)))} |" for m in verdict_metrics)
        out.append(
            f"| {md_cell(_label(s, trials))} | {s.turns} | {score_text(s.score, PRIMARY_METRIC in low, s.threshold)} |{metric_cells} "
            f"{md_cell(s.stop_reason or s.status)} |{cells} {md_cell(result[:200])} |"
        )
    return "\n".join(out) + "\n"

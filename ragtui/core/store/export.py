"""CSV export: one row per dialogue, in the seed spreadsheet's layout, plus plain columns.

Columns: ``config`` (JSON: date, persona, scenario, models), then ``user1, assistant1,
check1, user2, …`` up to the widest dialogue — the seed's columns in the seed's order — then
``score1…N`` (turn scores), ``score``, ``stop_reason``, ``unscored_turns``, ``session_id`` and
``cut_by_token_limit`` (the cells whose text the token limit cut, e.g. ``assistant2``: kept,
but a reader must know) and ``cut_at_reply_timeout`` (the bot answers ``reply_timeout`` stopped
while they were still streaming: kept as far as they got, and judged). Then plain columns a spreadsheet can filter and sort on: ``run``,
``scenario``, ``persona``, ``language``, ``date`` and each role's model (``customer_model``,
``bot_model``, ``judge_model``) and ``judge_agreement``: how far the rubric's judge agrees with
people as measured (``Spearman 0.10 (n=18)``, from the verdict's ``details["agreement"]``), or
``unmeasured``; empty when no turn was scored.

A ``checkN`` cell is short and readable: the newest rubric verdict's score and its one-line
conclusion (``0.80 (4.0/5): …``), or ``unscored: <why>``. The whole verdict as JSON — every
check, the judge's raw reply when it could not be read — is in ``checkN_json`` at the end.
After the plain columns, one column per other metric and turn, ``<metric><N>`` (e.g.
``faithfulness1``), holding its newest score, ``unscored`` or ``skipped``. When any exported
dialogue has dialogue verdicts: each dialogue metric's columns (its ``MetricInfo.columns``, written
by its ``csv_cells``): ``resolution``, ``outcome``, ``retention`` and ``repetition`` —
the newest verdict on the whole dialogue, one column each, the expectations verdict's
``expectations_met``, ``expectations_total``, ``policies_broken`` and ``expectations_missed``,
and a plugin's. ``checkN_json`` columns come last.

Every text cell is neutralised against spreadsheet formula injection: a cell that begins with
``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading apostrophe, which
spreadsheets display as text instead of evaluating. No cell carries a control character but
tab and newline: escape sequences and other controls in model text are written visibly
(``␛[31m``); the database keeps the raw text. Only complete messages are exported: a reply whose
stream never completed is a partial record and never appears as an answer.

``write_csv`` writes through the output guard (``core/output_file``): never over the database
being read or any SQLite file, and atomically, so a failed write keeps the old file.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from ..files.output_file import write_output
from ..registry import metric_views
from ..registry.metrics import DIALOGUE, PRIMARY_METRIC, TURN, metric_info, metric_names
from ..text.number_text import tenths_text
from ..text.score_text import score_text, verdict_text
from ..text.text_safety import csv_text
from ..types.agreement_floor import agreement_entry, short_agreement
from ..types.stored import StoredJudgment, StoredSession

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    text = "" if value is None else str(value)
    text = "'" + text if text.startswith(_FORMULA_STARTS) else text
    return csv_text(text)


CHECK_SUMMARY_CHARS = 200  # a cell a person reads in a spreadsheet row; the JSON column has it all


def check_summary(judgment: StoredJudgment | None) -> str:
    """The verdict in one short line: score (and the 1–5 overall) and the judge's conclusion."""
    if judgment is None:
        return ""
    if judgment.score is None:
        why = judgment.error or "the judge's reply could not be read"
        return _one_line(f"unscored: {why}")
    verdict = judgment.verdict
    scale = f" ({tenths_text(verdict.overall)}/5)" if verdict.overall is not None else ""
    conclusion = verdict.conclusion.strip()
    return _one_line(f"{score_text(judgment.score)}{scale}" + (f": {conclusion}" if conclusion else ""))


def _one_line(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= CHECK_SUMMARY_CHARS else flat[: CHECK_SUMMARY_CHARS - 1] + "…"


def check_cell(judgment: StoredJudgment | None) -> str:
    if judgment is None:
        return ""
    if judgment.score is None:
        return json.dumps(
            {
                "status": "unscored",
                "error": judgment.error,
                "raw_reply": judgment.raw_reply,
                "version": judgment.version,
            },
            ensure_ascii=False,
        )
    return json.dumps({**judgment.details, "score": judgment.score, "version": judgment.version}, ensure_ascii=False)


def metric_cell(judgment: StoredJudgment | None) -> str:
    if judgment is None:
        return ""
    return verdict_text(judgment.score, judgment.verdict.skipped)


def other_metrics(sessions: list[StoredSession]) -> list[str]:
    """The non-rubric metrics judged in any of ``sessions``, in the registry's order."""
    used = {j.metric for s in sessions for j in s.judgments if j.metric != PRIMARY_METRIC}
    known = metric_names(TURN)
    return [m for m in known if m in used] + sorted(used - set(known))


def dialogue_columns() -> list[str]:
    """Each dialogue metric's CSV columns, in the registry's order (resolution adds ``outcome``),
    each followed by its judge's agreement with people (``resolution_judge_agreement``)."""
    return [
        column
        for name in metric_names(DIALOGUE)
        for column in [*metric_views.csv_columns(name), f"{name}_judge_agreement"]
    ]


def metric_column(metric: str) -> str:
    """The stem of a turn metric's numbered columns (``faithfulness`` → ``faithfulness1``, …)."""
    info = metric_info(metric)
    return info.csv_columns[0] if info is not None else metric


# The record's role names → the column a spreadsheet user looks for.
MODEL_ROLES = {"customer_model": "user", "bot_model": "bot", "judge_model": "judge"}
PLAIN_COLUMNS = ("run", "scenario", "persona", "trial", "language", "date", *MODEL_ROLES, "judge_agreement")


def judge_agreement_cell(session: StoredSession) -> str:
    """The rubric judge's measured agreement with people, as its newest scored verdicts carry it."""
    scored = [j for (_, m), j in sorted(session.latest_judgments().items()) if m == PRIMARY_METRIC and j.scored]
    measured = next((j for j in scored if agreement_entry(j.details) is not None), None)
    return short_agreement((measured or scored[0]).details) if scored else ""


def dialogue_cells(session: StoredSession) -> list[str]:
    """Each dialogue metric's cells under its columns, as the metric writes them, then how far its
    judge agrees with people (as ``judge_agreement`` for the rubric; empty without a score)."""
    latest = session.latest_dialogue_judgments()
    cells: list[str] = []
    for name in metric_names(DIALOGUE):
        verdict = latest.get(name)
        cells += metric_views.csv_cells(name, verdict)
        scored = verdict is not None and verdict.score is not None
        cells.append(short_agreement(verdict.details) if scored and verdict is not None else "")
    return cells


def session_row(
    session: StoredSession, turns: int, metrics: list[str] | None = None, dialogue: bool = False
) -> list[str]:
    latest = session.latest_judgments()
    models: dict[str, str | None] = {role: info.get("model") for role, info in session.config.get("roles", {}).items()}
    config = {
        "date": session.created_at,
        "persona": session.persona_name,
        "scenario": session.scenario_id,
        "language": session.language,
        "models": models,
        "max_turns": session.max_turns,
        "threshold": session.threshold,
    }
    cells = [json.dumps(config, ensure_ascii=False)]
    scores: list[str] = []
    verdicts: list[str] = []
    for turn in range(1, turns + 1):
        user = next((m.text for m in session.messages if m.turn == turn and m.role == "user"), "")
        bot = next((m.text for m in session.messages if m.turn == turn and m.role == "bot"), "")
        judgment = latest.get((turn, PRIMARY_METRIC))
        cells += [user, bot, check_summary(judgment)]
        scores.append("" if judgment is None else score_text(judgment.score))
        verdicts.append(check_cell(judgment))
    cut = [
        f"{'user' if m.role == 'user' else 'assistant'}{m.turn}"
        for m in session.messages
        if m.cut_by_limit and 1 <= m.turn <= turns
    ]
    timed_out = [f"assistant{m.turn}" for m in session.messages if m.cut_at_reply_timeout and 1 <= m.turn <= turns]
    tail = [
        score_text(session.score),
        session.stop_reason or session.status,
        str(session.unscored_turns),
        str(session.id),
        " ".join(cut),
        " ".join(timed_out),
    ]
    plain = [session.run_id or "", session.scenario_id, session.persona_name, str(session.trial)]
    plain += [session.language, session.created_at]
    plain += [models.get(role) or "" for role in MODEL_ROLES.values()]
    plain.append(judge_agreement_cell(session))
    extra = [metric_cell(latest.get((turn, m))) for m in metrics or [] for turn in range(1, turns + 1)]
    if dialogue:
        extra += dialogue_cells(session)
    return [safe_cell(c) for c in cells + scores + tail + plain + extra + verdicts]


def header(turns: int, metrics: list[str] | None = None, dialogue: bool = False) -> list[str]:
    names = ["config"]
    for turn in range(1, turns + 1):
        names += [f"user{turn}", f"assistant{turn}", f"check{turn}"]
    names += [f"score{turn}" for turn in range(1, turns + 1)]
    names += ["score", "stop_reason", "unscored_turns", "session_id", "cut_by_token_limit", "cut_at_reply_timeout"]
    names += list(PLAIN_COLUMNS)
    names += [f"{metric_column(m)}{turn}" for m in metrics or [] for turn in range(1, turns + 1)]
    names += dialogue_columns() if dialogue else []
    return names + [f"check{turn}_json" for turn in range(1, turns + 1)]


def sessions_to_csv(sessions: list[StoredSession]) -> str:
    turns = max((max((m.turn for m in s.messages), default=0) for s in sessions), default=0)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    metrics = other_metrics(sessions)
    dialogue = any(s.dialogue_judgments for s in sessions)
    writer.writerow(header(turns, metrics, dialogue))
    for session in sessions:
        writer.writerow(session_row(session, turns, metrics, dialogue))
    return buffer.getvalue()


def write_csv(
    sessions: list[StoredSession], path: Path, database: Path | None = None, *, option: str = "--csv"
) -> Path:
    """Write the sessions' CSV through the output guard; return the path written."""
    # utf-8-sig: Excel opens Japanese text correctly only with the BOM.
    return write_output(path, sessions_to_csv(sessions), option=option, database=database, encoding="utf-8-sig")

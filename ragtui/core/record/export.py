"""CSV export: one row per dialogue, in the seed spreadsheet's layout.

Columns: ``config`` (JSON: date, persona, scenario, models), then ``user1, assistant1,
check1, user2, …`` up to the widest dialogue, then ``score1…N`` (turn scores), ``score``,
``stop_reason``, ``unscored_turns`` and ``session_id``. A ``checkN`` cell holds the newest
rubric verdict as JSON; an unscored one says so and keeps the judge's raw reply.
After those, one column per other metric and turn, ``<metric><N>`` (e.g. ``faithfulness1``),
holding its newest score, ``unscored`` or ``skipped``; the seed's columns keep their places.

Every text cell is neutralised against spreadsheet formula injection: a cell that begins with
``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading apostrophe, which
spreadsheets display as text instead of evaluating.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from ..errors import RagtuiError
from ..metrics import KNOWN_METRICS, PRIMARY_METRIC
from .store import StoredJudgment, StoredSession

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def format_score(score: float | None) -> str:
    return "unscored" if score is None else f"{score:.2f}"


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
    if judgment.score is None and judgment.details.get("skipped"):
        return "skipped"
    return format_score(judgment.score)


def other_metrics(sessions: list[StoredSession]) -> list[str]:
    """The non-rubric metrics judged in any of ``sessions``, in the registry's order."""
    used = {j.metric for s in sessions for j in s.judgments if j.metric != PRIMARY_METRIC}
    return [m for m in KNOWN_METRICS if m in used] + sorted(used - set(KNOWN_METRICS))


def session_row(session: StoredSession, turns: int, metrics: list[str] | None = None) -> list[str]:
    latest = session.latest_judgments()
    config = {
        "date": session.created_at,
        "persona": session.persona_name,
        "scenario": session.scenario_id,
        "language": session.language,
        "models": {role: info.get("model") for role, info in session.config.get("roles", {}).items()},
        "max_turns": session.max_turns,
        "threshold": session.threshold,
    }
    cells = [json.dumps(config, ensure_ascii=False)]
    scores: list[str] = []
    for turn in range(1, turns + 1):
        user = next((m.text for m in session.messages if m.turn == turn and m.role == "user"), "")
        bot = next((m.text for m in session.messages if m.turn == turn and m.role == "bot"), "")
        judgment = latest.get((turn, PRIMARY_METRIC))
        cells += [user, bot, check_cell(judgment)]
        scores.append("" if judgment is None else format_score(judgment.score))
    tail = [
        format_score(session.score),
        session.stop_reason or session.status,
        str(session.unscored_turns),
        str(session.id),
    ]
    extra = [metric_cell(latest.get((turn, m))) for m in metrics or [] for turn in range(1, turns + 1)]
    return [safe_cell(c) for c in cells + scores + tail + extra]


def header(turns: int, metrics: list[str] | None = None) -> list[str]:
    names = ["config"]
    for turn in range(1, turns + 1):
        names += [f"user{turn}", f"assistant{turn}", f"check{turn}"]
    names += [f"score{turn}" for turn in range(1, turns + 1)]
    names += ["score", "stop_reason", "unscored_turns", "session_id"]
    return names + [f"{m}{turn}" for m in metrics or [] for turn in range(1, turns + 1)]


def sessions_to_csv(sessions: list[StoredSession]) -> str:
    turns = max((max((m.turn for m in s.messages), default=0) for s in sessions), default=0)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    metrics = other_metrics(sessions)
    writer.writerow(header(turns, metrics))
    for session in sessions:
        writer.writerow(session_row(session, turns, metrics))
    return buffer.getvalue()


def write_csv(sessions: list[StoredSession], path: Path) -> None:
    text = sessions_to_csv(sessions)
    try:
        # utf-8-sig: Excel opens Japanese text correctly only with the BOM.
        path.write_text(text, encoding="utf-8-sig", newline="")
    except OSError as exc:
        raise RagtuiError(f"cannot write {path}: {exc.strerror}", "choose another path") from None

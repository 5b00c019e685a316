"""CSV export: one row per dialogue, in the seed spreadsheet's layout.

Columns: ``config`` (JSON: date, persona, scenario, models), then ``user1, assistant1,
check1, user2, …`` up to the widest dialogue, then ``score1…N`` (turn scores), ``score``,
``stop_reason``, ``unscored_turns``, ``session_id`` and ``cut_by_token_limit`` (the cells whose
text the token limit cut, e.g. ``assistant2``: kept, but a reader must know). A ``checkN`` cell holds the newest
rubric verdict as JSON; an unscored one says so and keeps the judge's raw reply.
After those, one column per other metric and turn, ``<metric><N>`` (e.g. ``faithfulness1``),
holding its newest score, ``unscored`` or ``skipped``; the seed's columns keep their places.
Last, when any exported dialogue has dialogue verdicts: ``resolution``, ``outcome``,
``retention`` and ``repetition`` — the newest verdict on the whole dialogue, one column each.

Every text cell is neutralised against spreadsheet formula injection: a cell that begins with
``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading apostrophe, which
spreadsheets display as text instead of evaluating. No cell carries a control character but
tab and newline: escape sequences and other controls in model text are written visibly
(``␛[31m``); the database keeps the raw text. Only complete messages are exported: a reply whose
stream never completed is a partial record and never appears as an answer.

``write_csv`` never destroys: it refuses to write over the database being read, or over any
SQLite file.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from ..errors import RagtuiError
from ..metrics import KNOWN_METRICS, PRIMARY_METRIC
from ..text_safety import csv_text
from .store import StoredJudgment, StoredSession

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    text = "" if value is None else str(value)
    text = "'" + text if text.startswith(_FORMULA_STARTS) else text
    return csv_text(text)


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


DIALOGUE_COLUMNS = ("resolution", "outcome", "retention", "repetition")


def dialogue_cells(session: StoredSession) -> list[str]:
    latest = session.latest_dialogue_judgments()
    cells = []
    for column in DIALOGUE_COLUMNS:
        if column == "outcome":
            resolution = latest.get("resolution")
            cells.append((resolution.outcome or "unscored") if resolution is not None else "")
            continue
        j = latest.get(column)
        cells.append("" if j is None else ("skipped" if j.skipped else format_score(j.score)))
    return cells


def session_row(
    session: StoredSession, turns: int, metrics: list[str] | None = None, dialogue: bool = False
) -> list[str]:
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
    cut = [
        f"{'user' if m.role == 'user' else 'assistant'}{m.turn}"
        for m in session.messages
        if m.cut_by_limit and 1 <= m.turn <= turns
    ]
    tail = [
        format_score(session.score),
        session.stop_reason or session.status,
        str(session.unscored_turns),
        str(session.id),
        " ".join(cut),
    ]
    extra = [metric_cell(latest.get((turn, m))) for m in metrics or [] for turn in range(1, turns + 1)]
    if dialogue:
        extra += dialogue_cells(session)
    return [safe_cell(c) for c in cells + scores + tail + extra]


def header(turns: int, metrics: list[str] | None = None, dialogue: bool = False) -> list[str]:
    names = ["config"]
    for turn in range(1, turns + 1):
        names += [f"user{turn}", f"assistant{turn}", f"check{turn}"]
    names += [f"score{turn}" for turn in range(1, turns + 1)]
    names += ["score", "stop_reason", "unscored_turns", "session_id", "cut_by_token_limit"]
    names += [f"{m}{turn}" for m in metrics or [] for turn in range(1, turns + 1)]
    return names + (list(DIALOGUE_COLUMNS) if dialogue else [])


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


SQLITE_MAGIC = b"SQLite format 3\x00"


def check_target(path: Path, database: Path | None) -> None:
    """Refuse an output path that would destroy a database: the one being read (or its WAL
    files), or any other SQLite file."""
    where = Path(path)
    if database is not None:
        db = Path(database)
        for name in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            if _same_file(where, name):
                raise RagtuiError(
                    f"refusing to write the CSV to {where}: that is the database being exported from",
                    "choose another --csv file; nothing was written",
                )
    try:
        with where.open("rb") as handle:
            magic = handle.read(len(SQLITE_MAGIC))
    except OSError:
        return  # missing (it will be created) or not a file (write_csv says why)
    if magic == SQLITE_MAGIC:
        raise RagtuiError(
            f"refusing to write the CSV to {where}: it is a SQLite database",
            "choose another --csv file; nothing was written",
        )


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and a.samefile(b)
    except OSError:
        return a.resolve() == b.resolve()


def write_csv(sessions: list[StoredSession], path: Path, database: Path | None = None) -> None:
    check_target(path, database)
    text = sessions_to_csv(sessions)
    try:
        # utf-8-sig: Excel opens Japanese text correctly only with the BOM.
        path.write_text(text, encoding="utf-8-sig", newline="")
    except OSError as exc:
        raise RagtuiError(f"cannot write {path}: {exc.strerror}", "choose another path") from None

"""The results of ``ragtui run``: the table of dialogues and the exit status that gates CI."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from ..core.metrics import PRIMARY_METRIC
from ..core.record.dialogue_verdicts import StoredDialogueJudgment
from ..core.record.store import StoredSession
from .dialogue_view import metric_cell, outcome_text
from .output import score_text, session_score_text, stop_text


def metric_means(session: StoredSession, thresholds: dict[str, float]) -> dict[str, tuple[float | None, float | None]]:
    """Per metric other than the rubric (``--metric``): the mean of its newest scored verdict
    per turn (None when no turn could be scored) and its pass mark. Skipped verdicts (not
    applicable to the turn) count neither way."""
    latest = session.latest_judgments()
    out: dict[str, tuple[float | None, float | None]] = {}
    for metric in session.metrics:
        if metric == PRIMARY_METRIC:
            continue
        verdicts = [j for (_, m), j in sorted(latest.items()) if m == metric and not j.details.get("skipped")]
        if not verdicts:
            continue
        scores = [j.score for j in verdicts if j.score is not None]
        mark = verdicts[-1].details.get("threshold", thresholds.get(metric))
        out[metric] = (sum(scores) / len(scores) if scores else None, mark)
    return out


def results_table(
    rows: list[StoredSession],
    thresholds: dict[str, float] | None = None,
    dialogue: dict[int, dict[str, StoredDialogueJudgment]] | None = None,
) -> Table:
    """One row per dialogue; with ``dialogue`` (its newest dialogue verdicts) the outcome,
    retention and repetition columns too."""
    thresholds = thresholds or {}
    verdict_columns = dialogue is not None and any(dialogue.values())
    means = {s.id: metric_means(s, thresholds) for s in rows}
    extra = sorted({m for per in means.values() for m in per})
    table = Table(title="Results")
    for name, justify in (
        ("id", "right"),
        ("scenario", "left"),
        ("persona", "left"),
        ("turns", "right"),
        ("unscored", "right"),
        ("score", "right"),
        *((m, "right") for m in extra),
        ("stop", "left"),
        *((("outcome", "left"), ("retain", "right"), ("repeat", "right")) if verdict_columns else ()),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for s in rows:
        cells = []
        for metric in extra:
            mean, mark = means[s.id].get(metric, (None, None))
            cells.append(score_text(mean, mark if mark is not None else 0.0) if metric in means[s.id] else Text("-"))
        table.add_row(
            str(s.id),
            Text(s.scenario_id),
            Text(s.persona_name),
            str(s.turns),
            str(s.unscored_turns),
            session_score_text(s),
            *cells,
            stop_text(s.stop_label),
            *(dialogue_cells((dialogue or {}).get(s.id, {})) if verdict_columns else ()),
        )
    return table


def dialogue_cells(verdicts: dict[str, StoredDialogueJudgment]) -> list[Text]:
    return [
        outcome_text(verdicts.get("resolution"), with_score=False),
        metric_cell(verdicts.get("retention")),
        metric_cell(verdicts.get("repetition")),
    ]


def exit_status(rows: list[StoredSession], threshold: float, thresholds: dict[str, float] | None = None) -> int:
    """2 if any dialogue ended in error, else 1 if any scored under the threshold or could
    not be scored at all (a gate must not pass without evidence) — the rubric or any other
    metric the run asked for (``--metric``) — else 0. Cancelled and interrupted dialogues
    count neither way: the run table and the resume hint show them."""
    if any(s.stop_reason == "error" for s in rows):
        return 2
    judged = [s for s in rows if s.status == "finished" and s.stop_reason != "cancelled"]
    if any(s.score is None or s.score < threshold for s in judged):
        return 1
    for s in judged:
        for mean, mark in metric_means(s, thresholds or {}).values():
            if mean is None or (mark is not None and mean < mark):
                return 1
    return 0

"""The results of ``ragtui run``: the table of dialogues (the gate itself is ``core.runs.gate``)."""

from __future__ import annotations

from collections.abc import Mapping

from rich.table import Table
from rich.text import Text

from ..core.registry.metrics import PRIMARY_METRIC
from ..core.runs.gate import metric_means
from ..core.runs.low_agreement import low_metrics
from ..core.store.dialogue_verdicts import StoredDialogueJudgment
from ..core.text.score_text import styled_score
from ..core.types.agreement_floor import AgreementFloor
from ..core.types.stored import StoredSession
from .dialogue_view import metric_cell, outcome_text
from .output import session_score_text, stop_text


def results_table(
    rows: list[StoredSession],
    thresholds: Mapping[str, float] | None = None,
    dialogue: dict[int, dict[str, StoredDialogueJudgment]] | None = None,
    floor: AgreementFloor | None = None,
) -> Table:
    """One row per dialogue; with ``dialogue`` (its newest dialogue verdicts) the outcome,
    retention and repetition columns too. A score whose judge agrees with people under
    ``floor`` is drawn neither red nor green, with ``≈``."""
    thresholds = thresholds or {}
    low = {s.id: low_metrics(s, floor or AgreementFloor()) for s in rows}
    verdict_columns = dialogue is not None and any(dialogue.values())
    # Retention is off by default: its column only when some dialogue has the verdict.
    with_retention = verdict_columns and any("retention" in v for v in (dialogue or {}).values())
    means = {s.id: metric_means(s, thresholds) for s in rows}
    extra = sorted({m for per in means.values() for m in per})
    # The trial of each dialogue when a pair ran more than once (`ragtui run --repeat K`).
    with_trial = any(s.trial > 1 for s in rows)
    table = Table(title="Results")
    for name, justify in (
        ("id", "right"),
        ("scenario", "left"),
        ("persona", "left"),
        *((("trial", "right"),) if with_trial else ()),
        ("turns", "right"),
        ("unscored", "right"),
        ("score", "right"),
        *((m, "right") for m in extra),
        ("stop", "left"),
        *((("outcome", "left"),) if verdict_columns else ()),
        *((("retain", "right"),) if with_retention else ()),
        *((("repeat", "right"),) if verdict_columns else ()),
    ):
        table.add_column(name, justify=justify)
    for s in rows:
        cells = []
        for metric in extra:
            mean, mark = means[s.id].get(metric, (None, None))
            cells.append(
                styled_score(mean, mark if mark is not None else 0.0, metric in low[s.id])
                if metric in means[s.id]
                else Text("-")
            )
        table.add_row(
            str(s.id),
            Text(s.scenario_id),
            Text(s.persona_name),
            *((str(s.trial),) if with_trial else ()),
            str(s.turns),
            str(s.unscored_turns),
            session_score_text(s, PRIMARY_METRIC in low[s.id]),
            *cells,
            stop_text(s.stop_label),
            *(dialogue_cells((dialogue or {}).get(s.id, {}), with_retention) if verdict_columns else ()),
        )
    return table


def dialogue_cells(verdicts: dict[str, StoredDialogueJudgment], with_retention: bool = True) -> list[Text]:
    return [
        outcome_text(verdicts.get("resolution"), with_score=False),
        *([metric_cell(verdicts.get("retention"))] if with_retention else []),
        metric_cell(verdicts.get("repetition")),
    ]

"""The results of ``ragtui run``: the table of dialogues (the gate itself is ``core.runs.gate``)."""

from __future__ import annotations

from collections.abc import Mapping

from rich.table import Table
from rich.text import Text

from ..core.registry import metric_views
from ..core.registry.metrics import PRIMARY_METRIC
from ..core.runs.gate import metric_means
from ..core.runs.low_agreement import low_metrics
from ..core.runs.passing import NOT_PASSED_MARK, PASSED_MARK, read_pass
from ..core.store.dialogue_verdicts import StoredDialogueJudgment
from ..core.text.fit_columns import NAME, WHOLE
from ..core.text.score_text import FAIL_STYLE, LOW_STYLE, PASS_STYLE, styled_score
from ..core.types.agreement_floor import AgreementFloor
from ..core.types.stored import StoredSession
from .output import session_score_text, stop_text

# How the results fit a narrow terminal (``print_table``): names shortened from the middle,
# never so far that two rows read the same; the stop reason and the figures whole.
RESULTS_FIT = {"scenario": NAME, "persona": NAME, "stop": WHOLE}


def results_table(
    rows: list[StoredSession],
    thresholds: Mapping[str, float] | None = None,
    dialogue: dict[int, dict[str, StoredDialogueJudgment]] | None = None,
    floor: AgreementFloor | None = None,
) -> Table:
    """One row per dialogue, with ✓ / ✗ for whether it passed; with ``dialogue`` (its newest dialogue verdicts) a column for each
    dialogue metric some dialogue has a verdict of, headed by its label. A score whose judge
    agrees with people under ``floor`` is drawn neither red nor green, with ``≈``."""
    thresholds = thresholds or {}
    low = {s.id: low_metrics(s, floor or AgreementFloor()) for s in rows}
    # A dialogue metric's column only when some dialogue has its verdict (retention is off by default).
    verdict_metrics = metric_views.shown_metrics({m for v in (dialogue or {}).values() for m in v})
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
        ("pass", "center"),
        *((m, "right") for m in extra),
        ("stop", "left"),
        *((metric_views.label(m), "right") for m in verdict_metrics),
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
            pass_mark(s, thresholds, PRIMARY_METRIC in low[s.id]),
            *cells,
            stop_text(s.stop_label),
            *dialogue_cells((dialogue or {}).get(s.id, {}), verdict_metrics),
        )
    return table


def pass_mark(session: StoredSession, thresholds: Mapping[str, float], low: bool = False) -> Text:
    """✓ when the dialogue passed (``passing``, docs/glossary.md), ✗ when it did not; in the
    colours of its score (dim when the score's judge agrees with people under the floor)."""
    passed = read_pass(session, thresholds=thresholds).passed
    style = LOW_STYLE if low else (PASS_STYLE if passed else FAIL_STYLE)
    return Text(PASSED_MARK if passed else NOT_PASSED_MARK, style=style)


def dialogue_cells(verdicts: Mapping[str, StoredDialogueJudgment], metrics: list[str]) -> list[Text]:
    """Each of ``metrics``' verdict as its cell: ``resolved 1.00``, ``0.50``, ``skipped``, ``–``."""
    return [
        metric_views.styled_cell(j, j.verdict.threshold if j is not None else None)
        for j in (verdicts.get(m) for m in metrics)
    ]

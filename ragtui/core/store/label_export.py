"""``ragtui labels export --jsonl FILE``: labelled turns in the format ``ragtui calibrate`` reads.

One JSON object per line with calibrate's fields — ``id``, ``language``, ``question``,
``response``, ``context`` (the passages the bot was given), ``reference`` and ``label`` — plus
where it came from (``metric``, ``session``, ``turn``, ``labeller``, ``note``, the person's
``score`` 1–5 and ``agree``, the ``judge_score`` and ``judgment_version`` they saw).

``label`` is on calibrate's 0–1 scale: for graded metrics the person's score / 5 (the rubric's
own scale, so a 4/5 label meets a 4/5 verdict at 0.8); for binary metrics (answerability,
trust) the pass / fail implied by agreeing or not with the verdict. Labels without that —
an agree-only label of a graded metric, a score-only label of a binary one — are left out and
counted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..files.output_file import write_output
from ..text.text_safety import json_line
from ..types.errors import RagtuiError
from .labelled_turns import LabelledTurn, labelled_turns
from .store import Store

BINARY = frozenset({"answerability", "trust"})  # as metrics.BINARY_METRICS; record must not import metrics


def export_record(turn: LabelledTurn) -> dict[str, Any] | None:
    label = turn.label
    if label.metric in BINARY:
        human = turn.human_pass()
        value: float | None = None if human is None else float(human)
    else:
        value = None if label.score is None else label.score / 5
    if value is None:
        return None
    seen = turn.labelled_verdict
    return {
        "id": f"s{label.session_id}-t{label.turn}-{label.labeller}",
        "language": turn.language,
        "question": turn.question,
        "response": turn.response,
        "context": turn.passages,
        "reference": turn.reference,
        "label": value,
        "metric": label.metric,
        "session": label.session_id,
        "turn": label.turn,
        "labeller": label.labeller,
        "note": label.note,
        "score": label.score,
        "agree": label.agree,
        "judge_score": seen.score if seen else None,
        "judgment_version": label.judgment_version,
    }


def write_labels_jsonl(
    store: Store,
    path: Path,
    *,
    metric: str | None = None,
    run_id: str | None = None,
    option: str = "--jsonl",
    database: Path | None = None,
) -> tuple[int, int]:
    """Write the file (whole or not at all); return (lines written, labels left out)."""
    metrics = [metric] if metric else _labelled_metrics(store)
    lines: list[str] = []
    left_out = 0
    for name in metrics:
        for turn in labelled_turns(store, name, run_id):
            record = export_record(turn)
            if record is None:
                left_out += 1
            else:
                lines.append(json_line(record))
    if not lines and not left_out:
        raise RagtuiError("no labels to export", "label turns first: `ragtui label SESSION TURN --score N`")
    write_output(path, "".join(line + "\n" for line in lines), option=option, database=database)
    return len(lines), left_out


def _labelled_metrics(store: Store) -> list[str]:
    return [row[0] for row in store._db.execute("SELECT DISTINCT metric FROM labels ORDER BY metric").fetchall()]

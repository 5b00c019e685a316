"""Labelled turns with what was judged: the texts of the turn and every verdict version of it.

Shared by ``ragtui calibrate METRIC --from-labels`` (agreement per judge model / prompt version)
and ``ragtui labels export`` (the JSONL that ``ragtui calibrate`` reads). Sessions are read once
each, so a run of thousands of labelled turns costs one query per session, not per label.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from ..registry.metrics import PRIMARY_METRIC
from ..types.stored import StoredJudgment, StoredSession
from .labels import Label, labels_where
from .store import Store


def prompt_version(judgment: StoredJudgment) -> str:
    """A short id of the judge's fixed instructions (its system messages) in ``judgment``.

    The per-turn material differs on every call; the instructions are what a prompt edit
    changes, so two verdicts with the same id came from the same prompt version.
    """
    fixed = [m.get("content", "") for m in judgment.prompt if m.get("role") == "system"]
    if not fixed:
        fixed = [m.get("content", "") for m in judgment.prompt[:-1]]
    return hashlib.sha256(json.dumps(fixed, ensure_ascii=False).encode()).hexdigest()[:8]


@dataclass
class LabelledTurn:
    label: Label
    language: str
    question: str
    response: str
    passages: list[str]
    reference: str | None
    threshold: float  # the session's pass mark for the rubric; the metric's own otherwise
    judgments: list[StoredJudgment] = field(default_factory=list)  # every version of label.metric

    @property
    def labelled_verdict(self) -> StoredJudgment | None:
        """The verdict version the person agreed or disagreed with."""
        return next((j for j in self.judgments if j.id == self.label.judgment_id), None)

    def human_pass(self) -> bool | None:
        """The person's pass / fail of the turn, implied by agreeing or not with a scored verdict."""
        verdict = self.labelled_verdict
        if self.label.agree is None or verdict is None or verdict.score is None:
            return None
        judge_pass = verdict.score >= self.threshold
        return judge_pass if self.label.agree else not judge_pass


def turn_texts(session: StoredSession, turn: int) -> tuple[str, str, list[str]]:
    """The customer message, the bot answer and its passages of ``turn``."""
    bot = next((m for m in reversed(session.messages) if m.role == "bot" and m.turn == turn), None)
    user = next((m for m in reversed(session.messages) if m.role == "user" and m.turn == turn), None)
    return (
        user.text if user else "",
        bot.text if bot else "",
        [p.text for p in bot.passages] if bot else [],
    )


def labelled_turns(
    store: Store, metric: str, run_id: str | None = None, thresholds: dict[str, float] | None = None
) -> list[LabelledTurn]:
    """Every label of ``metric`` (in ``run_id``, or everywhere) with its turn and verdicts."""
    sessions: dict[int, StoredSession] = {}
    out: list[LabelledTurn] = []
    for label in labels_where(store, metric, run_id):
        if label.session_id not in sessions:
            sessions[label.session_id] = store.session(label.session_id)
        session = sessions[label.session_id]
        question, response, passages = turn_texts(session, label.turn)
        threshold = session.threshold if metric == PRIMARY_METRIC else (thresholds or {}).get(metric, 0.5)
        judgments = sorted(
            (j for j in session.judgments if j.message_id == label.message_id and j.metric == metric),
            key=lambda j: j.version,
        )
        out.append(
            LabelledTurn(
                label=label,
                language=session.language,
                question=question,
                response=response,
                passages=passages,
                reference=session.scenario.get("reference"),
                threshold=threshold,
                judgments=judgments,
            )
        )
    return out

"""How far the judge agrees with people's labels of stored turns, per judge version.

A *judge version* is a (judge model, prompt version) pair. Re-judging a run with another model or
prompt adds verdict versions beside the old ones, so every labelled turn can carry verdicts from
several judge versions; each one's agreement with the same labels is reported, which shows which
judge agrees more with the people.

- Scores (a person's 1–5): Spearman with a 95% interval and the mean absolute error against the
  label on the rubric's scale (score / 5), from ``agreement``.
- Agree / disagree: the person's pass / fail is implied by agreeing or not with the verdict version
  they saw (a verdict passes at the threshold). Each judge version's pass / fail is compared with
  it: accuracy and Cohen's kappa. For the version the person saw, accuracy is their agreement rate.
- The turns each judge version disagreed with most: the largest gaps to a score label, then
  the pass / fail it got the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..store.labelled_turns import LabelledTurn, prompt_version
from ..types.stored import StoredJudgment
from . import agreement


@dataclass(frozen=True)
class TurnDisagreement:
    session_id: int
    turn: int
    labeller: str
    label: str  # "2/5" or "disagrees"
    score: float  # the judge's
    gap: float  # |score − label / 5|, or 1.0 for an opposite pass / fail
    note: str


@dataclass
class JudgeVersionAgreement:
    model: str
    prompt: str
    turns: int  # labelled turns this judge version gave a verdict for
    unscored: int
    score_pairs: int = 0
    spearman: float | None = None
    interval: tuple[float, float] | None = None
    mae: float | None = None
    pass_pairs: int = 0
    binary: agreement.BinaryAgreement | None = None
    worst: list[TurnDisagreement] = field(default_factory=list)


@dataclass
class LabelAgreementReport:
    metric: str
    labels: int
    score_labels: int
    agree_labels: int
    versions: list[JudgeVersionAgreement]


def _newest_per_version(turn: LabelledTurn) -> dict[tuple[str, str], StoredJudgment]:
    newest: dict[tuple[str, str], StoredJudgment] = {}
    for judgment in turn.judgments:  # sorted by version: a later one of the same judge wins
        newest[(judgment.model or "unknown", prompt_version(judgment))] = judgment
    return newest


def label_agreement(metric: str, turns: list[LabelledTurn], worst: int = 5) -> LabelAgreementReport:
    groups: dict[tuple[str, str], list[tuple[LabelledTurn, StoredJudgment]]] = {}
    for turn in turns:
        for key, judgment in _newest_per_version(turn).items():
            groups.setdefault(key, []).append((turn, judgment))
    versions = [_group_agreement(model, prompt, pairs, worst) for (model, prompt), pairs in groups.items()]
    versions.sort(key=lambda v: (-(v.turns), v.model, v.prompt))
    return LabelAgreementReport(
        metric=metric,
        labels=len(turns),
        score_labels=sum(1 for t in turns if t.label.score is not None),
        agree_labels=sum(1 for t in turns if t.label.agree is not None),
        versions=versions,
    )


def _group_agreement(
    model: str, prompt: str, pairs: list[tuple[LabelledTurn, StoredJudgment]], worst: int
) -> JudgeVersionAgreement:
    result = JudgeVersionAgreement(
        model=model, prompt=prompt, turns=len(pairs), unscored=sum(1 for _t, j in pairs if j.score is None)
    )
    scored = [(t, j) for t, j in pairs if j.score is not None]
    graded = [(t, j) for t, j in scored if t.label.score is not None]
    gaps: list[TurnDisagreement] = []
    if graded:
        # Every pair of graded has both scores; the filters only tell the type checker so.
        judge = [float(j.score) for _t, j in graded if j.score is not None]
        people = [t.label.score / 5 for t, _j in graded if t.label.score is not None]
        result.score_pairs = len(graded)
        result.spearman = agreement.spearman(judge, people)
        result.interval = agreement.spearman_interval(result.spearman, len(graded))
        result.mae = agreement.mean_absolute_error(judge, people)
        for (t, _j), s, p in zip(graded, judge, people, strict=True):
            gaps.append(_disagreement(t, f"{t.label.score}/5", s, abs(s - p)))
    passes = [(t, j, t.human_pass()) for t, j in scored]
    passes = [(t, j, h) for t, j, h in passes if h is not None]
    if passes:
        # Every verdict of passes is scored and every h is set; the filters only tell the type checker so.
        predicted = [int(float(j.score) >= t.threshold) for t, j, _h in passes if j.score is not None]
        human = [int(h) for _t, _j, h in passes if h is not None]
        result.pass_pairs = len(passes)
        result.binary = agreement.binary_agreement(predicted, human)
        for (t, j, _h), p, h in zip(passes, predicted, human, strict=True):
            if p != h and t.label.score is None and j.score is not None:
                verb = "pass" if h else "fail"
                gaps.append(_disagreement(t, f"says {verb}", float(j.score), 1.0))
    gaps.sort(key=lambda d: -d.gap)
    result.worst = [d for d in gaps if d.gap > 0][:worst]
    return result


def _disagreement(turn: LabelledTurn, label: str, score: float, gap: float) -> TurnDisagreement:
    return TurnDisagreement(
        turn.label.session_id, turn.label.turn, turn.label.labeller, label, score, gap, turn.label.note or ""
    )

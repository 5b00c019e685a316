"""With several trials of a pair on both sides, the verdicts that fail a comparison besides the
score — the resolution and each expectation — are judged over the trials too, by the same exact
test as the pair's passes (``trial_compare.classify``). One trial that resolved and one that did
not is run-to-run noise, not a regression; an expectation met in 3 of 3 trials before and 0 of 3
now is one. The tests of each kind share alpha (Bonferroni), as the pairs' tests do."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..registry.metrics import RESOLUTION_RATE, gate_metric
from ..text.number_text import p_value_text
from .dialogues import RunDialogue
from .expectation_compare import ExpectationChange
from .noise import Counts
from .trial_compare import TrialPair, classify

# The resolution rate's rule: a regression of the metric that makes it fails a comparison, as
# its rate gates a run. (A verdict's kind: this role, or an expectation's origin.)
RESOLUTION = RESOLUTION_RATE


@dataclass(frozen=True)
class VerdictOverTrials:
    """One pair's resolution, or one of its expectations, over the trials of each side."""

    pair: TrialPair
    kind: str  # RESOLUTION, or the expectation's origin: "scenario" | "policy"
    expectation_id: str  # "" for the resolution
    text: str  # the expectation's text ("" for the resolution)
    counts: Counts  # resolved (met, kept) trials of those with a verdict, each side
    p_value: float
    verdict: str

    @property
    def cells(self) -> str:
        c = self.counts
        return f"{c.base_passes}/{c.base_trials} → {c.new_passes}/{c.new_trials}"

    def as_expectation_change(self) -> ExpectationChange:
        """The change as the expectation views list it, over trials."""
        base, new = self.pair.base[0], self.pair.new[0]
        word = "kept" if self.kind == "policy" else "met"
        return ExpectationChange(
            self.pair.label,
            self.expectation_id,
            self.text,
            self.kind,
            base.expectations[self.expectation_id].status,
            new.expectations[self.expectation_id].status,
            base.session_id,
            new.session_id,
            over_trials=f"{word} in {self.cells} trials (p={p_value_text(self.p_value)})",
        )


def resolution_over_trials(pairs: Sequence[TrialPair], alpha: float) -> list[VerdictOverTrials]:
    """Per pair whose trials have a scored resolution on both sides: resolved trials compared."""
    return _judged(pairs, alpha, lambda _pair: [(RESOLUTION, "", "", _resolved)])


def expectations_over_trials(pairs: Sequence[TrialPair], alpha: float) -> list[VerdictOverTrials]:
    """Per pair and expectation id both sides checked: trials that met (kept) it compared."""

    def items(pair: TrialPair) -> list[tuple[str, str, str, Callable[[RunDialogue], bool | None]]]:
        ids = {e for d in pair.base for e in d.expectations} & {e for d in pair.new for e in d.expectations}
        out = []
        for eid in sorted(ids):
            outcome = next(d.expectations[eid] for d in pair.new if eid in d.expectations)
            out.append((outcome.origin, eid, outcome.text, _met(eid)))
        return out

    return _judged(pairs, alpha, items)


def _judged(
    pairs: Sequence[TrialPair],
    alpha: float,
    items: Callable[[TrialPair], Iterable[tuple[str, str, str, Callable[[RunDialogue], bool | None]]]],
) -> list[VerdictOverTrials]:
    found = []
    for pair in pairs:
        for kind, eid, text, passed in items(pair):
            base = [v for v in map(passed, pair.base) if v is not None]
            new = [v for v in map(passed, pair.new) if v is not None]
            if base and new:
                found.append((pair, kind, eid, text, Counts(sum(base), len(base), sum(new), len(new))))
    out = []
    for pair, kind, eid, text, counts in found:
        p_value, verdict = classify(counts, alpha / len(found))
        out.append(VerdictOverTrials(pair, kind, eid, text, counts, p_value, verdict))
    return out


def _resolved(d: RunDialogue) -> bool | None:
    verdict = d.verdicts.get(gate_metric(RESOLUTION_RATE))
    if verdict is None or verdict.status not in ("pass", "fail"):
        return None  # missing, unscored or skipped: no evidence either way
    return verdict.status == "pass"


def _met(expectation_id: str) -> Callable[[RunDialogue], bool | None]:
    def met(d: RunDialogue) -> bool | None:
        outcome = d.expectations.get(expectation_id)
        return None if outcome is None else outcome.passed

    return met


def count(changes: Iterable[VerdictOverTrials], verdict: str) -> int:
    return sum(1 for c in changes if c.verdict == verdict)

"""What a comparison concludes, decided in one place: each pair's verdict and the comparison's
(its exit status and its headline), for the flag ``--strict``.

The exit status, the terminal, the Markdown, the JUnit, the CSV, the HTML report and the TUI all
read ``decide``'s answer, so none of them can say "no regression" beside an exit status of 1 (as
the Markdown, the HTML and the JUnit once did under ``--strict``). The words are defined once, in
docs/compare.md#regression:

- ``regression``: a change that fails the comparison (exit 1) — a pair that passed in BASE and
  does not pass in NEW (score or resolution) or an expectation met in BASE and missed in NEW;
  with trials on both sides, a drop beyond run-to-run noise; under ``--strict``, any drop;
- ``regression, not gated``: a regression of a judge whose agreement with people is under the
  floor — shown, not counted, unless ``--gate-low-agreement``;
- ``improved``: fixed, or better beyond noise, and nothing regressed;
- ``within noise``: with trials, passes that moved by less than the test can tell from chance;
- ``unscored``: no score to compare on one side or both, and nothing else changed;
- ``same``: nothing changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..metrics import PRIMARY_METRIC
from ..registry import metric_views
from ..registry.metrics import EXPECTATION_RATE, RESOLUTION_RATE, gate_metric
from ..text.number_text import p_value_text
from ..text.score_text import score_text
from ..types.agreement_floor import LOW_WORDS, AgreementFloor, floor_words, is_low
from .dialogues import RunDialogue, VerdictScore
from .expectation_compare import ExpectationChange
from .trial_compare import BETTER, HIGHER_IN_NOISE, LOWER_IN_NOISE, REGRESSION, NoiseComparison
from .verdicts_over_trials import VerdictOverTrials


class Pair(Protocol):
    """What is decided of a matched pair (``compare.Pair``, named by shape so that ``compare`` can
    use this module without the two importing each other)."""

    @property
    def base(self) -> RunDialogue: ...
    @property
    def new(self) -> RunDialogue: ...
    @property
    def label(self) -> str: ...
    @property
    def pair_label(self) -> str: ...
    @property
    def over_trials(self) -> bool: ...
    @property
    def flag(self) -> str: ...
    @property
    def resolution_regression(self) -> bool: ...
    def verdict_flag(self, metric: str) -> str: ...
    def verdicts(self, metric: str) -> tuple[VerdictScore | None, VerdictScore | None]: ...


class Comparison(Protocol):
    """What is decided of a comparison (``compare.Comparison``, by shape)."""

    @property
    def pairs(self) -> Sequence[Pair]: ...
    @property
    def noise(self) -> NoiseComparison | None: ...
    @property
    def floor(self) -> AgreementFloor: ...
    @property
    def resolution_trials(self) -> list[VerdictOverTrials]: ...
    @property
    def expectation_trials(self) -> list[VerdictOverTrials]: ...
    @property
    def expectation_regressions(self) -> list[ExpectationChange]: ...
    @property
    def expectation_fixes(self) -> list[ExpectationChange]: ...
    @property
    def scores_gated(self) -> bool: ...
    def verdict_gated(self, metric: str) -> bool: ...
    def low(self, metric: str = PRIMARY_METRIC) -> bool: ...
    def agreement(self, side: str, metric: str = PRIMARY_METRIC) -> dict[str, object]: ...
    def dialogue_low(self, dialogue: RunDialogue, metric: str = PRIMARY_METRIC) -> bool: ...


# A pair's verdict: the same words in every view.
NOT_GATED = "regression, not gated"
IMPROVED = "improved"
WITHIN_NOISE = "within noise"
UNSCORED = "unscored"
SAME = "same"
WORDS = (REGRESSION, NOT_GATED, IMPROVED, WITHIN_NOISE, UNSCORED, SAME)

# What regressed: the score, or the verdicts of a metric with a gate role — the gate's rule, not
# a view's choice: the metric that makes the resolution rate, and the one that makes the
# expectation rate (each read from the registry by its role).
SCORE, RESOLUTION, EXPECTATION = "score", RESOLUTION_RATE, EXPECTATION_RATE


def kind_word(kind: str) -> str:
    """What a drop of ``kind`` is called: ``score``, the resolution metric's label, ``expectation``."""
    if kind == RESOLUTION:
        return metric_views.label(gate_metric(RESOLUTION_RATE))
    return "expectation" if kind == EXPECTATION else kind


@dataclass(frozen=True)
class Drop:
    """One regression of a pair: what dropped, in words, and whether it fails the comparison."""

    kind: str  # SCORE | RESOLUTION | EXPECTATION
    what: str  # "score 0.90 → 0.30", "passes 4/4 → 3/4, p=0.500 (lower, within noise)"
    gated: bool  # counts toward the exit status: its judge is trusted, or gated anyway
    within_noise: bool = False  # a drop within run-to-run noise, counted because of --strict
    expectation: ExpectationChange | None = None

    @property
    def line(self) -> str:
        """``what`` with why it does or does not count."""
        line = self.what + (" — within noise, counted by --strict" if self.within_noise else "")
        return line if self.gated else f"{line} (not gated)"


@dataclass(frozen=True)
class PairVerdict:
    label: str
    word: str  # one of WORDS
    drops: tuple[Drop, ...] = ()

    @property
    def fails(self) -> bool:
        return any(d.gated for d in self.drops)

    def of_kind(self, *kinds: str) -> list[Drop]:
        return [d for d in self.drops if d.kind in kinds]


@dataclass(frozen=True)
class CompareVerdict:
    strict: bool
    pairs: dict[str, PairVerdict]  # by the pair's label (with trials: scenario × persona)
    status: int  # 0 no regression, 1 at least one
    headline: str

    def of(self, label: str) -> PairVerdict:
        return self.pairs.get(label, PairVerdict(label, SAME))

    def for_pair(self, p: Pair) -> PairVerdict:
        """The verdict of the pair a dialogue row belongs to: with trials, its scenario × persona's
        over all its trials (one trial against another is no verdict)."""
        return self.of(p.pair_label if p.over_trials else p.label)

    def drops(self, *kinds: str) -> list[Drop]:
        return [d for v in self.pairs.values() for d in v.of_kind(*kinds)]

    @property
    def not_gated(self) -> list[Drop]:
        return [d for v in self.pairs.values() for d in v.drops if not d.gated]


def decide(c: Comparison, strict: bool) -> CompareVerdict:
    """Each pair's verdict and the comparison's, as every view states them."""
    pairs = _over_trials(c, strict) if c.noise is not None else _one_trial(c)
    status = 1 if any(v.fails for v in pairs.values()) else 0
    verdict = CompareVerdict(strict, pairs, status, "")
    return CompareVerdict(strict, pairs, status, _headline(c, verdict))


# Each verdict's style in the terminal and the TUI (Rich style names): a regression red, one not
# gated dim (neither red nor green, as a low-agreement score), an improvement green.
VERDICT_STYLES = {
    REGRESSION: "bold red",
    NOT_GATED: "dim",
    IMPROVED: "bold green",
    WITHIN_NOISE: "yellow",
    UNSCORED: "yellow",
    SAME: "dim",
}


def low_words(c: Comparison, metric: str = PRIMARY_METRIC) -> str:
    """`` (low agreement: Spearman 0.10 < floor 0.5)`` after a regression of a low-agreement
    metric; "" otherwise."""
    if not c.low(metric):
        return ""
    side = next(s for s in ("new", "base") if is_low(c.agreement(s, metric), c.floor))
    return f" ({LOW_WORDS}: {floor_words(c.agreement(side, metric), c.floor)})"


def _word(drops: list[Drop], improved: bool, noise: bool, unscored: bool) -> str:
    if any(d.gated for d in drops):
        return REGRESSION
    if drops:
        return NOT_GATED
    if improved:
        return IMPROVED
    if noise:
        return WITHIN_NOISE
    return UNSCORED if unscored else SAME


def _one_trial(c: Comparison) -> dict[str, PairVerdict]:
    """Dialogue against dialogue: any drop of the score, the resolution or an expectation."""
    regressed = _by_pair(c.expectation_regressions)
    fixed = _by_pair(c.expectation_fixes)
    # Read once: each is a pass over the pairs.
    low, scores_gated = low_words(c), c.scores_gated
    resolution, expectations = gate_metric(RESOLUTION_RATE), gate_metric(EXPECTATION_RATE)
    resolution_gated, expectations_gated = c.verdict_gated(resolution), c.verdict_gated(expectations)
    out = {}
    for p in c.pairs:
        drops = []
        if p.flag == REGRESSION:
            base, new = (score_text(d.score, c.dialogue_low(d)) for d in (p.base, p.new))
            drops.append(Drop(SCORE, f"score {base} → {new}{low}", scores_gated))
        if p.resolution_regression:
            drops.append(Drop(RESOLUTION, f"{kind_word(RESOLUTION)} {_verdicts(c, p)}", resolution_gated))
        drops += [Drop(EXPECTATION, e.line, expectations_gated, expectation=e) for e in regressed.get(p.label, [])]
        improved = "fixed" in (p.flag, p.verdict_flag(resolution)) or p.label in fixed
        out[p.label] = PairVerdict(p.label, _word(drops, improved, False, p.flag.startswith("unscored")), tuple(drops))
    return out


def _verdicts(c: Comparison, p: Pair) -> str:
    metric = gate_metric(RESOLUTION_RATE)
    base, new = p.verdicts(metric)
    cells = ("missing" if v is None else v.words(c.dialogue_low(d, metric)) for v, d in ((base, p.base), (new, p.new)))
    return " → ".join(cells)


def _by_pair(changes: list[ExpectationChange]) -> dict[str, list[ExpectationChange]]:
    out: dict[str, list[ExpectationChange]] = {}
    for change in changes:
        out.setdefault(change.pair, []).append(change)
    return out


def _over_trials(c: Comparison, strict: bool) -> dict[str, PairVerdict]:
    """Each pair over its trials: a drop beyond noise (of its passes — by its own test, or as one
    of the pairs that make up the run's —, its resolution or an expectation); with ``strict``, any
    drop. A low-agreement judge's drops are shown, not gated."""
    n = c.noise
    assert n is not None
    beyond = {p.label for p in n.regressions} or ({p.label for p in n.dropped} if n.run_regression else set())
    by_pair: dict[int, list[VerdictOverTrials]] = {}  # each pair's resolution and expectations, read once
    for v in (*c.resolution_trials, *c.expectation_trials):
        by_pair.setdefault(id(v.pair), []).append(v)
    low, scores_gated = low_words(c), c.scores_gated  # read once: each is a pass over the pairs
    out = {}
    for tp in n.pairs:
        drops = []
        passes = f"passes {tp.cell('base')} → {tp.cell('new')}, p={p_value_text(tp.p_value)} ({tp.verdict})"
        if tp.label in beyond:
            of_run = "" if tp.verdict == REGRESSION else f", one of the drops of the run (p={p_value_text(n.p_value)})"
            drops.append(Drop(SCORE, passes + of_run + low, scores_gated))
        elif strict and tp.verdict == LOWER_IN_NOISE:
            drops.append(Drop(SCORE, passes + low, scores_gated, within_noise=True))
        verdicts = by_pair.get(id(tp), [])
        for v in verdicts:
            if v.verdict == REGRESSION or (strict and v.verdict == LOWER_IN_NOISE):
                drops.append(_verdict_drop(c, v))
        improved = BETTER in (tp.verdict, *(v.verdict for v in verdicts))
        noise = bool({LOWER_IN_NOISE, HIGHER_IN_NOISE} & {tp.verdict, *(v.verdict for v in verdicts)})
        out[tp.label] = PairVerdict(tp.label, _word(drops, improved, noise, False), tuple(drops))
    return out


def _verdict_drop(c: Comparison, v: VerdictOverTrials) -> Drop:
    within = v.verdict == LOWER_IN_NOISE
    if v.kind == RESOLUTION:
        what = f"{kind_word(RESOLUTION)}: resolved {v.cells} trials, p={p_value_text(v.p_value)} ({v.verdict})"
        return Drop(RESOLUTION, what, c.verdict_gated(gate_metric(RESOLUTION_RATE)), within_noise=within)
    change = v.as_expectation_change()
    gated = c.verdict_gated(gate_metric(EXPECTATION_RATE))
    return Drop(EXPECTATION, change.line, gated, within_noise=within, expectation=change)


def _headline(c: Comparison, v: CompareVerdict) -> str:
    """The comparison's outcome in one line: what its exit status says and what decided it."""
    if v.status == 0:
        if v.not_gated:
            return "no gated regression"
        return "no regression: within noise" if c.noise is not None else "no regression"

    def count(kind: str, within: bool) -> int:
        return sum(1 for d in v.drops(kind) if d.gated and d.within_noise == within)

    if c.noise is None:
        return (
            f"{count(SCORE, False)} score regression(s), {count(RESOLUTION, False)} resolution "
            f"regression(s), {count(EXPECTATION, False)} expectation regression(s)"
        )
    beyond = [
        what
        for n, what in (
            (count(SCORE, False), "the pass rate"),
            (count(RESOLUTION, False), f"{count(RESOLUTION, False)} resolution regression(s)"),
            (count(EXPECTATION, False), f"{count(EXPECTATION, False)} expectation regression(s)"),
        )
        if n
    ]
    within = [
        what
        for n, what in (
            (count(SCORE, True), f"{count(SCORE, True)} pair(s) passing fewer trials"),
            (count(RESOLUTION, True), f"{count(RESOLUTION, True)} resolution(s) lower"),
            (count(EXPECTATION, True), f"{count(EXPECTATION, True)} expectation(s) met less often"),
        )
        if n
    ]
    strict = f"{', '.join(within)}, within noise" if within else ""
    if not beyond:
        return f"regression under --strict: {strict}"
    return (
        "regression beyond run-to-run noise: "
        + ", ".join(beyond)
        + (f"; under --strict also {strict}" if strict else "")
    )

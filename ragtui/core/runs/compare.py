"""Two runs side by side: dialogues matched by scenario × persona, deltas, flags, a summary.

Flags, per pair:
- ``regression``: passed in BASE and does not pass in NEW (scored under its threshold, or
  unscored: a gate must not pass without evidence);
- ``fixed``: did not pass in BASE (failed or unscored) and passes in NEW;
- ``unscored in base`` / ``unscored in new`` / ``unscored in both``: no score to compare, when
  neither of the above applies.
A pair with a flag of neither kind is "same": both pass or both fail.

Dialogue verdicts (resolution, retention, repetition) get flags of their own per pair
(``dialogue_compare``); a resolution regression fails the comparison like a score regression.

With several trials of a pair on both sides, one trial against another is run-to-run noise: the
trial rows say ``lower`` / ``higher`` instead, and the pair's passes, its resolution and each of
its expectations are judged over all its trials (``trial_compare``, ``verdicts_over_trials``).

Each side's judge agreement with people is carried per metric (``agreement``); a metric whose
judge on either side is measured under the floor (``[min_judge_agreement]``) is ``low``, and
the reports mark its regressions so.

What the comparison concludes — each pair's verdict, the exit status and the headline, under
``strict`` — is decided once (``verdict``, from ``compare_verdict.decide``) and read by every view.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..metrics import KNOWN_METRICS, PRIMARY_METRIC
from ..registry import metric_views
from ..registry.metrics import RESOLUTION_RATE, gate_metric
from ..store.store import Store
from ..types.agreement_floor import AgreementFloor, is_low
from ..types.errors import RagtuiError
from .compare_verdict import CompareVerdict, decide
from .dialogue_compare import ResolutionComparison, compare_resolution, verdict_flag
from .dialogues import PairKey, RunDialogue, VerdictScore, by_pair, keyed, load_run
from .expectation_compare import ExpectationChange, expectation_changes
from .next_turn_compare import by_turn, tested_turns
from .paired_bootstrap import RESAMPLES, SEED, Interval, paired_bootstrap
from .scoring_read import check_comparable, run_reading
from .trial_compare import (
    BETTER,
    DEFAULT_ALPHA,
    REGRESSION,
    NoiseComparison,
    compare_trials,
    has_trials,
)
from .verdicts_over_trials import VerdictOverTrials, expectations_over_trials, resolution_over_trials


@dataclass
class TurnRow:
    turn: int
    base_score: float | None
    new_score: float | None
    same_customer: bool  # both customers said exactly the same at this turn

    @property
    def delta(self) -> float | None:
        if self.base_score is None or self.new_score is None:
            return None
        return self.new_score - self.base_score


# A dialogue's change against its counterpart when both runs have trials: a direction, never a
# verdict (the verdict is the pair's, over its trials).
TRIAL_WORDS = {"regression": "lower", "fixed": "higher"}


@dataclass
class Pair:
    key: PairKey
    base: RunDialogue
    new: RunDialogue
    over_trials: bool = False  # both runs have trials: this is one trial of a pair judged over all

    @property
    def label(self) -> str:
        scenario, persona, n = self.key
        return f"{scenario} × {persona}" + (f" #{n}" if n > 1 else "")

    @property
    def pair_label(self) -> str:
        """The scenario × persona, without which of its dialogues this is."""
        return f"{self.key[0]} × {self.key[1]}"

    @property
    def delta(self) -> float | None:
        if self.base.score is None or self.new.score is None:
            return None
        return self.new.score - self.base.score

    @property
    def flag(self) -> str:
        base, new = self.base.status, self.new.status
        if base == "pass" and new != "pass":
            return self._word("regression")
        if base != "pass" and new == "pass":
            return self._word("fixed")
        if base == "unscored" or new == "unscored":
            return "unscored in both" if base == new else f"unscored in {'base' if base == 'unscored' else 'new'}"
        return "same"

    @property
    def diverges_at(self) -> int | None:
        """The first turn where the two customers said different things (None: never, as in a
        replay); from there on the dialogues are no longer the same conversation."""
        for turn in range(1, max(self.base.turns, self.new.turns, 0) + 1):
            if self.base.customer.get(turn) != self.new.customer.get(turn):
                return turn
        return None

    def turn_rows(self) -> list[TurnRow]:
        turns = sorted(set(self.base.customer) | set(self.new.customer) | set(self.base.bot) | set(self.new.bot))
        return [
            TurnRow(
                t,
                self.base.turn_score(t),
                self.new.turn_score(t),
                self.base.customer.get(t) == self.new.customer.get(t),
            )
            for t in turns
        ]

    def metric_delta(self, metric: str) -> float | None:
        base, new = self.base.metric_mean(metric), self.new.metric_mean(metric)
        return None if base is None or new is None else new - base

    def verdicts(self, metric: str) -> tuple[VerdictScore | None, VerdictScore | None]:
        return self.base.verdicts.get(metric), self.new.verdicts.get(metric)

    def verdict_flag(self, metric: str) -> str:
        return self._word(verdict_flag(*self.verdicts(metric)))

    def _word(self, flag: str) -> str:
        return TRIAL_WORDS.get(flag, flag) if self.over_trials else flag

    def dialogue_flags(self) -> dict[str, str]:
        """Per dialogue metric present in either run, its flag (``same`` ones included)."""
        return {m: self.verdict_flag(m) for m in metric_views.shown_metrics({*self.base.verdicts, *self.new.verdicts})}

    @property
    def dialogue_flag(self) -> str:
        """One word for the pair's dialogue verdicts: the resolution's flag first, then any other
        metric's regression or fix (``retention regression``); ``missing`` with no verdict at all."""
        flags = self.dialogue_flags()
        if not flags:
            return "missing"
        # The resolution rate's metric first: its regression fails a comparison (the gate's rule).
        metric = gate_metric(RESOLUTION_RATE)
        resolution = flags.get(metric, "missing in both")
        if resolution in ("regression", "fixed", *TRIAL_WORDS.values()):
            return f"{metric_views.label(metric)} {resolution}"
        for metric, flag in flags.items():
            if flag in ("regression", "fixed", *TRIAL_WORDS.values()):
                return f"{metric_views.label(metric)} {flag}"
        return resolution if resolution != "same" else "same"

    @property
    def resolution_regression(self) -> bool:
        return self.verdict_flag(gate_metric(RESOLUTION_RATE)) == "regression"  # the gate's rule


@dataclass
class Comparison:
    base_run: str
    new_run: str
    language: str
    pairs: list[Pair]
    only_in_base: list[RunDialogue]
    only_in_new: list[RunDialogue]
    interval: Interval | None  # mean delta of the run score over pairs scored in both
    metric_deltas: dict[str, Interval | None] = field(default_factory=dict)
    resolution: ResolutionComparison | None = None
    seed: int = SEED
    resamples: int = RESAMPLES
    # Both runs have several trials of a pair: regressions are judged over trials, against noise.
    noise: NoiseComparison | None = None
    floor: AgreementFloor = field(default_factory=AgreementFloor)
    # A score regression of a low-agreement judge is shown, but fails the comparison only when
    # the team asks (``gate_low_agreement``), as in ``ragtui run``'s gate.
    gate_low_agreement: bool = False
    # ``--strict``: any drop is a regression, noise or not — in every view, not only the exit status.
    strict: bool = False
    # With trials (``noise``): each pair's resolution and expectations over its trials.
    resolution_trials: list[VerdictOverTrials] = field(default_factory=list)
    expectation_trials: list[VerdictOverTrials] = field(default_factory=list)
    # Worked out once, read by every view of a comparison of a thousand pairs: which metrics' judges
    # are low, and the verdict under each (strict, gate_low_agreement) asked.
    _low: dict[str, bool] = field(default_factory=dict, repr=False, compare=False)
    _verdicts: dict[tuple[bool, bool], CompareVerdict] = field(default_factory=dict, repr=False, compare=False)

    def agreement(self, side: str, metric: str = PRIMARY_METRIC) -> dict[str, Any]:
        """One side's judge agreement for ``metric``, shaped as a verdict's details (``{}`` when
        unmeasured), from the first of its dialogues that carries one."""
        dialogues = [getattr(p, side) for p in self.pairs]
        entry = next((d.agreement[metric] for d in dialogues if metric in d.agreement), None)
        return {"agreement": entry} if entry is not None else {}

    def scored_metrics(self) -> list[str]:
        """The rubric, then every other metric compared."""
        return [PRIMARY_METRIC, *self.metric_deltas]

    def low(self, metric: str = PRIMARY_METRIC) -> bool:
        """The judge of ``metric`` agrees with people under the floor on either side."""
        if metric not in self._low:
            self._low[metric] = any(is_low(self.agreement(side, metric), self.floor) for side in ("base", "new"))
        return self._low[metric]

    def count(self, flag: str) -> int:
        return sum(1 for p in self.pairs if p.flag == flag)

    @property
    def verdict_metrics(self) -> tuple[str, ...]:
        """The dialogue metrics some pair has a verdict of (retention is off by default)."""
        present = {m for p in self.pairs for m in (*p.base.verdicts, *p.new.verdicts)}
        return tuple(metric_views.shown_metrics(present))

    def verdict_count(self, metric: str, flag: str) -> int:
        return sum(1 for p in self.pairs if p.verdict_flag(metric) == flag)

    @property
    def resolution_regressions(self) -> int:
        if self.noise is not None:  # over each pair's trials, beyond noise
            return sum(1 for v in self.resolution_trials if v.verdict == REGRESSION)
        return self.verdict_count(gate_metric(RESOLUTION_RATE), "regression")  # the gate's rule

    @property
    def expectation_regressions(self) -> list[ExpectationChange]:
        """Expectations met (policies kept) in base and missed (broken) in new, by id; with
        trials, met in fewer of a pair's trials beyond noise."""
        if self.noise is not None:
            return [v.as_expectation_change() for v in self.expectation_trials if v.verdict == REGRESSION]
        return expectation_changes(self.pairs, "regression")

    @property
    def expectation_fixes(self) -> list[ExpectationChange]:
        if self.noise is not None:
            return [v.as_expectation_change() for v in self.expectation_trials if v.verdict == BETTER]
        return expectation_changes(self.pairs, "fixed")

    @property
    def regressions(self) -> int:
        return self.count("regression")

    @property
    def fixes(self) -> int:
        return self.count("fixed")

    @property
    def unscored(self) -> int:
        return sum(1 for p in self.pairs if p.flag.startswith("unscored"))

    @property
    def verdict(self) -> CompareVerdict:
        """Each pair's verdict and the comparison's, under this comparison's ``strict`` — what
        every view and the exit status state (``compare_verdict.decide``)."""
        key = (self.strict, self.gate_low_agreement)
        if key not in self._verdicts:
            self._verdicts[key] = decide(self, self.strict)
        return self._verdicts[key]

    @property
    def exit_status(self) -> int:
        """0 no regression, 1 at least one (the caller maps errors to 2): ``verdict.status``."""
        return self.verdict.status

    @property
    def strict_exit_status(self) -> int:
        """The exit status under ``--strict``: 1 on any drop, noise or not."""
        return decide(self, True).status

    @property
    def scores_gated(self) -> bool:
        """Score regressions count toward the exit status: the rubric's judge is not under the
        agreement floor on either side, or the team gates low-agreement scores anyway."""
        return self.gate_low_agreement or not self.low()

    def verdict_gated(self, metric: str) -> bool:
        """A dialogue verdict's regressions count toward the exit status: its judge is not under
        the agreement floor on either side, or the team gates low-agreement verdicts anyway (the
        same floor as the rubric's, as in ``ragtui run``'s gate)."""
        return self.gate_low_agreement or not self.low(metric)

    def dialogue_low(self, dialogue: RunDialogue, metric: str = PRIMARY_METRIC) -> bool:
        """``dialogue``'s ``metric`` comes from a judge under the floor: its score reads ``≈``."""
        entry = dialogue.agreement.get(metric)
        return is_low({"agreement": entry} if entry is not None else {}, self.floor)

    def side_low(self, dialogues: Iterable[RunDialogue]) -> bool:
        """A mean over ``dialogues`` (a run's score, a pair's over its trials) comes from a judge
        under the floor: every scored one of them is low, as ``ragtui runs`` marks a run."""
        scored = [d for d in dialogues if d.score is not None]
        return bool(scored) and all(self.dialogue_low(d) for d in scored)

    def mean_score(self, side: str) -> float | None:
        scores = [getattr(p, side).score for p in self.pairs if getattr(p, side).score is not None]
        return sum(scores) / len(scores) if scores else None

    def mean_low(self, side: str) -> bool:
        """The run score of ``side`` over the matched pairs reads ``≈``."""
        return self.side_low(getattr(p, side) for p in self.pairs)


def _language(dialogues: list[RunDialogue], run_id: str) -> str:
    languages = sorted({d.language for d in dialogues})
    if len(languages) != 1:
        raise RagtuiError(f"run {run_id} mixes languages ({', '.join(languages)})", "compare runs of one language")
    return languages[0]


def compare_runs(
    store: Store,
    base_run: str,
    new_run: str,
    *,
    seed: int = SEED,
    alpha: float = DEFAULT_ALPHA,
    new_store: Store | None = None,
    floor: AgreementFloor | None = None,
) -> Comparison:
    """Compare two resolved run ids; RagtuiError when they cannot be compared meaningfully.
    When both runs have several trials of a pair, pairs are also compared over their trials.
    ``new_store``: the database NEW is in, when it is not BASE's (``base.db:last new.db:last``)."""
    base_dialogues, new_dialogues = load_run(store, base_run), load_run(new_store or store, new_run)
    # An N+1 run on either side: both read turn by turn, each tested turn beside the original's.
    base_dialogues, new_dialogues = by_turn(
        base_dialogues, tested_turns(store, base_run), new_dialogues, tested_turns(new_store or store, new_run)
    )
    for run_id, dialogues in ((base_run, base_dialogues), (new_run, new_dialogues)):
        if not dialogues:
            raise RagtuiError(f"run {run_id} has no dialogues", "list runs with `ragtui runs`")
    base_language, new_language = _language(base_dialogues, base_run), _language(new_dialogues, new_run)
    if base_language != new_language:
        raise RagtuiError(
            f"runs {base_run} ({base_language}) and {new_run} ({new_language}) are in different languages",
            "compare runs of the same language: their customers and judges are not comparable",
        )
    # Probability-read and sampled scores are on different scales: refused, like two languages.
    check_comparable(run_reading(store, base_run), run_reading(new_store or store, new_run))
    base_keyed, new_keyed = keyed(base_dialogues), keyed(new_dialogues)
    base_pairs, new_pairs = by_pair(base_dialogues), by_pair(new_dialogues)
    trials = has_trials(base_pairs) and has_trials(new_pairs)
    pairs = [Pair(k, base_keyed[k], new_keyed[k], over_trials=trials) for k in base_keyed if k in new_keyed]
    if not pairs:
        raise RagtuiError(
            f"runs {base_run} and {new_run} have no scenario × persona in common",
            "compare runs of the same scenarios and personas (see `ragtui runs`)",
        )
    deltas = [p.delta for p in pairs if p.delta is not None]
    metrics = sorted(
        {m for p in pairs for m in p.base.metrics & p.new.metrics if m != PRIMARY_METRIC},
        key=lambda m: (KNOWN_METRICS.index(m) if m in KNOWN_METRICS else len(KNOWN_METRICS), m),
    )
    # Half the resamples for the secondary metrics: with every metric enabled they would
    # otherwise multiply the cost of a compare by six, for intervals nobody gates on.
    metric_deltas = {
        m: paired_bootstrap(
            [d for p in pairs if (d := p.metric_delta(m)) is not None], seed=seed, resamples=RESAMPLES // 2
        )
        for m in metrics
    }
    resolution = compare_resolution(
        [p.base for p in pairs],
        [p.new for p in pairs],
        base_missing=not any(d.verdicts for d in base_dialogues),
        new_missing=not any(d.verdicts for d in new_dialogues),
        seed=seed,
    )
    noise = None
    resolution_trials: list[VerdictOverTrials] = []
    expectation_trials: list[VerdictOverTrials] = []
    if trials:
        noise = compare_trials(base_pairs, new_pairs, alpha, seed=seed)
        resolution_trials = resolution_over_trials(noise.pairs, alpha)
        expectation_trials = expectations_over_trials(noise.pairs, alpha)
        # Trials beyond the other run's K are compared in `noise`; only a pair missing from the
        # other run altogether is "only in" one of them.
        only_in_base = [d for k, d in base_keyed.items() if k[:2] not in new_pairs]
        only_in_new = [d for k, d in new_keyed.items() if k[:2] not in base_pairs]
    else:
        only_in_base = [d for k, d in base_keyed.items() if k not in new_keyed]
        only_in_new = [d for k, d in new_keyed.items() if k not in base_keyed]
    return Comparison(
        base_run=base_run,
        new_run=new_run,
        language=base_language,
        pairs=pairs,
        only_in_base=only_in_base,
        only_in_new=only_in_new,
        interval=paired_bootstrap(deltas, seed=seed),
        metric_deltas=metric_deltas,
        resolution=resolution,
        seed=seed,
        noise=noise,
        floor=floor or AgreementFloor(),
        resolution_trials=resolution_trials,
        expectation_trials=expectation_trials,
    )

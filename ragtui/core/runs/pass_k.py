"""pass^k of a run with repeated trials (``ragtui run --repeat K``): how often the bot gets a
scenario × persona right *every time*, not just once.

The simulated customer is sampled, so one dialogue per pair is one draw: the same bot passes a
pair in one run and fails it in the next. With K trials per pair, pass^k is the chance that k
trials of a pair, drawn at random, all pass — averaged over pairs. Per pair it is estimated
without bias from its n trials of which c passed as C(c, k) / C(n, k) (the estimator of
τ-bench/τ²-bench), so pass^1 is the plain pass rate and pass^k falls as k grows unless the bot
is consistent.

A trial *passes* as every output reads "passed" (``passing.dialogue_passed``, docs/glossary.md):
its score at or above the threshold, each ``--metric`` at its pass mark and, when it has a scored
resolution verdict, the outcome resolved or handed over. A dialogue with no score never passes (a
gate never passes without evidence); cancelled, interrupted and failed dialogues are not trials
at all (the run's gate and resume hint report them). The interval resamples *pairs*, not dialogues: trials of one pair are not
independent draws of the run, the pairs are. It is seeded, so the same data prints the same
figures.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from ..text.score_text import figure_text
from ..types.stored import StoredSession
from .paired_bootstrap import RESAMPLES, SEED, Interval, paired_bootstrap
from .passing import dialogue_passed, read_pass

PASS_MARK, FAIL_MARK = "●", "○"


def marks(trials: Iterable[Trial]) -> str:
    """A pair's trials in trial order as one mark each: ● passed, ○ did not (``●●○``)."""
    return "".join(PASS_MARK if t.passed else FAIL_MARK for t in trials)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate of pass^k from ``n`` trials of which ``c`` passed: C(c, k) / C(n, k).
    ``k`` must be 1 … n: k trials cannot be drawn from fewer."""
    if not 0 <= c <= n:
        raise ValueError(f"passes must be 0 … {n}, got {c}")
    if not 1 <= k <= n:
        raise ValueError(f"pass^{k} needs at least {k} trial(s) of a pair; it has {n}")
    return math.comb(c, k) / math.comb(n, k)


@dataclass(frozen=True)
class Trial:
    """One counted dialogue of a pair: what pass^k needs of it, nothing more."""

    scenario_id: str
    persona_name: str
    trial: int
    score: float | None
    threshold: float
    resolved: bool | None = None  # None: no scored resolution verdict (no evidence either way)
    metrics_hold: bool = True  # every ``--metric`` metric at its pass mark

    @property
    def passed(self) -> bool:
        return dialogue_passed(True, self.score, self.threshold, self.resolved, self.metrics_hold)


def trial_of(session: StoredSession, threshold: float | None = None) -> Trial | None:
    """The session as a trial (at ``threshold``, else the one it ran with); None when it does
    not count (cancelled, interrupted, in error, still running)."""
    reading = read_pass(session, threshold)
    if not reading.ended:
        return None
    return Trial(
        session.scenario_id,
        session.persona_name,
        session.trial,
        session.score,
        reading.threshold,
        reading.resolved,
        reading.metrics_hold,
    )


@dataclass(frozen=True)
class PairTrials:
    """A scenario × persona over its trials."""

    scenario_id: str
    persona_name: str
    trials: tuple[Trial, ...]  # in trial order

    @property
    def n(self) -> int:
        return len(self.trials)

    @property
    def passes(self) -> int:
        return sum(t.passed for t in self.trials)

    @property
    def mean_score(self) -> float | None:
        scores = [t.score for t in self.trials if t.score is not None]
        return statistics.fmean(scores) if scores else None

    @property
    def spread(self) -> float | None:
        """The sample standard deviation of the scores (None under two scored trials)."""
        scores = [t.score for t in self.trials if t.score is not None]
        return statistics.stdev(scores) if len(scores) >= 2 else None

    def pass_k(self, k: int) -> float:
        return pass_hat_k(self.n, self.passes, k)

    @property
    def marks(self) -> str:
        return marks(self.trials)

    def marks_line(self) -> str:
        """``●●○ pass^3 0.00``: the pair's trials and pass^k over all of them."""
        return f"{self.marks} pass^{self.n} {figure_text(self.pass_k(self.n))}"


@dataclass(frozen=True)
class RunPassK:
    """pass^k of a run, for k = 1 … its most trials of a pair."""

    pairs: tuple[PairTrials, ...]

    @property
    def trials(self) -> int:
        """The most trials any pair has (K of ``--repeat K`` when none is missing)."""
        return max((p.n for p in self.pairs), default=0)

    @property
    def even(self) -> bool:
        """Every pair has the same number of trials."""
        return len({p.n for p in self.pairs}) <= 1

    def values(self, k: int) -> list[float]:
        """Each pair's pass^k, over the pairs with at least k trials."""
        return [p.pass_k(k) for p in self.pairs if p.n >= k]

    def estimate(self, k: int) -> float | None:
        values = self.values(k)
        return sum(values) / len(values) if values else None

    def pair(self, scenario_id: str, persona_name: str) -> PairTrials | None:
        return next((p for p in self.pairs if (p.scenario_id, p.persona_name) == (scenario_id, persona_name)), None)

    def interval(self, k: int, *, resamples: int = RESAMPLES, seed: int = SEED) -> Interval | None:
        """The 95% bootstrap interval of the mean over pairs, resampling pairs."""
        return paired_bootstrap(self.values(k), resamples=resamples, seed=seed)


def group_trials(trials: Iterable[Trial]) -> RunPassK:
    """Trials grouped by scenario × persona. Pairs are sorted, so the seeded interval is the
    same whatever order the trials were read in."""
    grouped: dict[tuple[str, str], list[Trial]] = {}
    for t in trials:
        grouped.setdefault((t.scenario_id, t.persona_name), []).append(t)
    return RunPassK(
        tuple(PairTrials(s, p, tuple(sorted(ts, key=lambda t: t.trial))) for (s, p), ts in sorted(grouped.items()))
    )


def run_pass_k(sessions: Iterable[StoredSession], threshold: float | None = None) -> RunPassK:
    """pass^k of the counted dialogues of ``sessions``."""
    return group_trials(t for s in sessions if (t := trial_of(s, threshold)) is not None)


# Up to this many trials the summary line gives pass^k for every k (how fast it falls shows how
# consistent the bot is); past it, pass^1, pass^2 and pass^K, so the line stays one line.
EVERY_K_UP_TO = 5


def shown_ks(trials: int) -> list[int]:
    """The k the summary line gives for runs of ``trials`` trials a pair."""
    if trials <= EVERY_K_UP_TO:
        return list(range(1, trials + 1))
    return [1, 2, trials]


def pass_k_line(result: RunPassK) -> str:
    """``pass^1 0.67 [0.50, 0.83] · pass^2 0.50 [0.33, 0.67] · pass^3 0.33 [0.17, 0.50] (2 pairs × 3 trials)``."""
    parts = []
    for k in shown_ks(result.trials):
        interval = result.interval(k)
        if interval is not None:
            parts.append(
                f"pass^{k} {figure_text(interval.mean)} [{figure_text(interval.low)}, {figure_text(interval.high)}]"
            )
    up_to = "" if result.even else "up to "
    return " · ".join(parts) + f" ({len(result.pairs)} pairs × {up_to}{result.trials} trials)"

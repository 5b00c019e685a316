"""``ragtui compare`` over trials, measured by simulation: does it keep its promises?

1. A/A: N comparisons of two equal bots (P pairs × K trials a side, each pair's pass probability
   drawn uniformly): the share the run's test calls a regression — the false-alarm rate —
   as a ratio to the nominal alpha.
2. Planted drop: the mean "smallest detectable change" printed on those A/A comparisons is
   planted on every pair of N more comparisons: the share detected — the power — as a ratio to
   the nominal 80%.
3. The old rule on the A/A comparisons: the share in which some pair passes fewer trials in NEW
   (what `--strict` fails on).

Pure Python and seeded: the same arguments print the same figures. Nothing here asserts: it
prints figures (tests/store/test_compare_noise.py asserts on a smaller run). Usage:
``python bench/bench_compare_noise.py [--comparisons 2000] [--pairs 20] [--trials 5] [--alpha 0.05]``.
"""

from __future__ import annotations

import argparse
import random
import time

from ragtui.core.runs.noise import POWER
from stand_ins.noise_simulation import check_noise, simulated_counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--comparisons", type=int, default=2000)
    parser.add_argument("--pairs", type=int, nargs="+", default=[20])
    parser.add_argument("--trials", type=int, nargs="+", default=[5])
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.comparisons} comparisons per setting, alpha {args.alpha:g}, nominal power {POWER:.0%}")
    head = "pairs × trials | false alarms (× alpha) | promised drop | power (× 0.8) | any pair dropped | seconds"
    print(head)
    print("-" * len(head))
    for pairs in args.pairs:
        for trials in args.trials:
            started = time.perf_counter()
            check = check_noise(
                pairs=pairs, trials=trials, comparisons=args.comparisons, alpha=args.alpha, seed=args.seed
            )
            rng = random.Random(args.seed + 1)
            strict = sum(any(c.drop > 0 for c in simulated_counts(rng, pairs, trials)) for _ in range(args.comparisons))
            print(
                f"{pairs:>5} × {trials:<6} | {check.false_alarm_rate:.3f} ({check.false_alarm_rate / args.alpha:.2f}×)"
                f"{'':>8} | {check.promised_drop:.3f}{'':>8} | {check.power:.3f} ({check.power / POWER:.2f}×)"
                f"{'':>2} | {strict / args.comparisons:.3f}{'':>11} | {time.perf_counter() - started:.1f}"
            )


if __name__ == "__main__":
    main()

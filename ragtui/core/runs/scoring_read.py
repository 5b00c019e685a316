"""How a run's verdicts were read: from the judge's token probabilities, or sampled.

A score read from probabilities is an expected level (3.6 of 5); a sampled one is a whole level
(4 of 5, or yes = 1). The same answers read the two ways land on different scales, so a run whose
judge stopped giving probabilities part-way (an endpoint that rejected the option) has two kinds of
score in one table, and two runs read differently cannot be compared pair by pair as if alike.
Each verdict records its reading in ``details["read"]`` (``records.judgments.how_read``); this
module counts them for the run summary and for ``compare``'s refusal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..store import run_reads
from ..store.store import Store
from ..types.errors import RagtuiError
from ..types.judgments import READ_MIXED, READ_PROBABILITY, READ_SAMPLED, how_read

WORDS = {READ_PROBABILITY: "read from probabilities", READ_SAMPLED: "sampled", READ_MIXED: "partly sampled"}


@dataclass(frozen=True)
class RunReading:
    """Verdicts of one run by how they were read (the newest version of each)."""

    run_id: str
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def kind(self) -> str | None:
        """The one way every verdict was read; ``mixed`` when not one way; None when no verdict says."""
        kinds = [k for k, n in self.counts.items() if n]
        if not kinds:
            return None
        return kinds[0] if len(kinds) == 1 else READ_MIXED

    @property
    def changed(self) -> bool:
        """The run's scoring is not one kind: some verdicts were sampled, others not."""
        return self.kind == READ_MIXED

    def describe(self) -> str:
        parts = [
            f"{self.counts[k]} {WORDS[k]}" for k in (READ_PROBABILITY, READ_SAMPLED, READ_MIXED) if self.counts.get(k)
        ]
        return ", ".join(parts) or "no verdict says how it was read"

    def summary_line(self) -> str | None:
        """The run summary's warning when the scoring changed during the run; None otherwise."""
        if not self.changed:
            return None
        return (
            f"scoring changed during run {self.run_id}: {self.describe()} verdict(s) — the endpoint stopped "
            "giving token probabilities for some calls, and sampled scores are not on the same scale"
        )


def run_reading(store: Store, run_id: str) -> RunReading:
    """Count the newest turn and dialogue verdicts of ``run_id`` by ``details["read"]``."""
    counts: dict[str, int] = {}
    for text in run_reads.newest_verdict_details(store, run_id):
        try:
            details = json.loads(text) if text else {}
        except ValueError:
            continue
        read = how_read(details)
        if read is not None:
            counts[read] = counts.get(read, 0) + 1
    return RunReading(run_id, counts)


def check_comparable(base: RunReading, new: RunReading) -> None:
    """Raise when the two runs' scores were read differently (or either changed mid-run): a drop
    between a probability-read 0.29 and a sampled 0.20 is the reading, not the bot. Runs whose
    verdicts do not say (stored before verdicts recorded it) are compared as before."""
    if base.kind is None or new.kind is None or (base.kind == new.kind != READ_MIXED):
        return
    raise RagtuiError(
        f"runs {base.run_id} ({base.describe()}) and {new.run_id} ({new.describe()}) were not scored the same way; "
        "probability-read and sampled scores are not comparable",
        "re-judge the runs on one endpoint that gives token probabilities (`ragtui rejudge --run RUN`), "
        "or compare runs scored alike",
    )

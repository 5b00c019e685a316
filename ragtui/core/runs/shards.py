"""``ragtui run --shard I/N``: one CI job's deterministic slice of a run's plan.

Shards are 1-based, as Playwright's ``--shard=1/3``: shard I of N runs the planned dialogues at
positions I-1, I-1+N, I-1+2N, … of the whole plan (trials included), so N jobs given the same
choices run every planned dialogue exactly once between them. The plan is ordered pair by pair
with a pair's trials together, so round-robin spreads the trials of a costly pair over the
shards instead of giving one job all of them. The shards share one ``--run-id``, so once their
databases are merged (``ragtui merge``) they are one run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeVar

from ..store.run_shards import StoredShard
from ..types.errors import RagtuiError

T = TypeVar("T")

# A run id a person gives: what `ragtui` itself makes (20261201-075556-e9e8) and what CI
# variables hold (ci-1234, main.42); never a run reference word, a path, a space, or a colon
# (`base.db:RUN` names a run in another database).
_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_REFERENCE_WORDS = ("last", "previous")


@dataclass(frozen=True)
class Shard:
    index: int  # I, 1-based
    count: int  # N

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def positions(self, planned: int) -> list[int]:
        """The places in a plan of ``planned`` dialogues this shard runs."""
        return list(range(self.index - 1, planned, self.count))

    def slice(self, items: list[T]) -> list[T]:
        return [items[p] for p in self.positions(len(items))]


def parse_shard(value: str) -> Shard:
    """``"I/N"`` with 1 ≤ I ≤ N → Shard; anything else one RagtuiError naming the value."""
    index, slash, count = value.strip().partition("/")
    if not slash or not index.strip().isdigit() or not count.strip().isdigit():
        raise RagtuiError(f"--shard must be I/N with whole numbers (1/3 is the first of 3 shards), got {value!r}")
    i, n = int(index), int(count)
    if n < 1 or not 1 <= i <= n:
        raise RagtuiError(
            f"--shard {value}: I must be from 1 to N (shards are 1-based: 1/{max(n, 1)} … {max(n, 1)}/{max(n, 1)})"
        )
    return Shard(i, n)


def check_run_id(value: str) -> str:
    """A run id given with ``--run-id``; RagtuiError when it could not name a run unambiguously."""
    if value in _REFERENCE_WORDS or not _RUN_ID.fullmatch(value):
        raise RagtuiError(
            f"--run-id {value!r} is not a usable run id",
            "use up to 64 letters, digits and . _ - (not `last` or `previous`), e.g. --run-id ci-$GITHUB_RUN_ID",
        )
    return value


def shard_summary(run_id: str, shards: list[StoredShard]) -> str | None:
    """One line saying which shards of ``run_id`` this database holds; None for a whole run."""
    if not shards:
        return None
    count, planned = shards[0].shards, shards[0].planned
    present = [s.shard for s in shards]
    missing = [i for i in range(1, count + 1) if i not in present]
    names = ", ".join(f"{i}/{count}" for i in present)
    if len(present) == 1 and missing:
        ran = len(Shard(present[0], count).positions(planned))
        return (
            f"shard {names} of run {run_id}: {ran} of the plan's {planned} dialogue(s); "
            "`ragtui merge` brings the shards' databases together"
        )
    if not missing:
        return f"run {run_id} merged from all {count} shards ({planned} planned dialogue(s))"
    lost = sum(len(Shard(i, count).positions(planned)) for i in missing)
    gone = ", ".join(f"{i}/{count}" for i in missing)
    return (
        f"run {run_id} holds shards {names}; missing shard(s) {gone}: {lost} planned dialogue(s) not in this database"
    )

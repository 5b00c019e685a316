"""Has a generated scenario's source moved since it was generated? Its passage is looked up by
hash in the knowledge folder as it is now: found, the scenario still stands on it; not found, the
passage was edited (its file is still there) or vanished with its file — either way a person
should look at the scenario again before trusting its reference."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..types.knowledge import SourcedPassage
from ..types.scenarios import Scenario


def source_problems(scenarios: Iterable[Scenario], passages: Sequence[SourcedPassage], folder: str) -> list[str]:
    """One line per generated scenario whose source passage changed or vanished."""
    hashes = {p.content_hash for p in passages}
    files = {p.doc_id for p in passages}
    problems = []
    for scenario in scenarios:
        follow = scenario.follow_up
        if follow is not None and follow.passage_hash and follow.passage_hash not in hashes:
            problems.append(
                f"scenario {scenario.id!r}: the passage its follow-up's reference comes from has changed or gone "
                "since it was generated; check the follow-up, then generate it again or edit it"
            )
        source = scenario.source
        if source is None or source.passage_hash in hashes:
            continue
        if source.file in files:
            what = f"its source passage in {source.file} has changed since it was generated"
        else:
            what = f"its source file {source.file} is no longer in {folder}"
        problems.append(
            f"scenario {scenario.id!r}: {what}; check its reference and expectations, then generate it again or edit it"
        )
    return problems

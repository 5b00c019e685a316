"""Has a generated scenario's source moved since it was generated? Its passage is looked up by
hash in the knowledge folder as it is now: found, the scenario still stands on it; not found, the
passage was edited (its file is still there) or vanished with its file — either way a person
should look at the scenario again before trusting its reference. Found, the scenario must still
say the truth about it: its ``file`` is the passage's file, and its ``quote`` is in the passage
(a quote edited by hand, or a file name, that the source does not bear out is a problem too)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..types.knowledge import SourcedPassage
from ..types.scenarios import Scenario
from .quote_check import find_quote


def source_problems(scenarios: Iterable[Scenario], passages: Sequence[SourcedPassage], folder: str) -> list[str]:
    """One line per generated scenario whose source passage changed or vanished, whose source file
    is not there, or whose quote is not in its passage."""
    by_hash: dict[str, list[SourcedPassage]] = {}
    for p in passages:
        by_hash.setdefault(p.content_hash, []).append(p)  # two files may share a passage word for word
    files = {p.doc_id for p in passages}
    problems = []
    for scenario in scenarios:
        named = f"scenario {scenario.id!r}"
        follow = scenario.follow_up
        if follow is not None and follow.passage_hash:
            passage = next(iter(by_hash.get(follow.passage_hash, ())), None)
            if passage is None:
                problems.append(
                    f"{named}: the passage its follow-up's reference comes from has changed or gone "
                    "since it was generated; check the follow-up, then generate it again or edit it"
                )
            elif follow.quote and find_quote(follow.quote, passage.text) is None:
                problems.append(f"{named}: its follow-up's quote is not in its source passage in {passage.doc_id}")
        source = scenario.source
        if source is None or source.from_conversation:
            continue  # a conversation's source is in the database, not the knowledge folder
        found = by_hash.get(source.passage_hash, [])
        passage = next((p for p in found if p.doc_id == source.file), found[0] if found else None)
        if passage is None:
            if source.file in files:
                what = f"its source passage in {source.file} has changed since it was generated"
            else:
                what = f"its source file {source.file} is no longer in {folder}"
            problems.append(f"{named}: {what}; check its reference and expectations, then generate it again or edit it")
        elif source.file not in files:
            problems.append(f"{named}: its source file {source.file} does not exist in {folder}")
        elif source.file != passage.doc_id:
            problems.append(f"{named}: its source file is {source.file}, but its passage is in {passage.doc_id}")
        elif find_quote(source.quote, passage.text) is None:
            problems.append(
                f"{named}: its quote is not in its source passage in {source.file}: "
                f"{_brief(source.quote)}; quote the passage as it is, or generate it again"
            )
    return problems


def _brief(quote: str, limit: int = 60) -> str:
    flat = " ".join(quote.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")

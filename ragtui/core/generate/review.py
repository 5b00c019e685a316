"""A person's review of generated scenarios: each draft beside its source passage, accepted,
edited (the code checks run again) or rejected, and the scenario file written back.

The file is rewritten whole from its parsed tables (atomically): a file ``scenarios generate``
wrote keeps everything it said; comments in a hand-written file of mixed scenarios are not kept.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from ..files.atomic import atomic_write_text
from ..text.exact_match import says_exactly
from ..text.script import in_language
from ..types.errors import ConfigError
from ..types.knowledge import SourcedPassage
from ..types.scenarios import ACCEPTED, Scenario
from .quote_check import QuoteMatch, find_quote
from .toml_out import HEADER


@dataclass(frozen=True)
class Reviewed:
    """A generated scenario as a reviewer sees it: its passage as the knowledge folder holds it
    now (None when it changed or vanished) and where its quote is in it."""

    scenario: Scenario
    passage: SourcedPassage | None
    quote: QuoteMatch | None


def reviewable(
    scenarios: list[Scenario], passages: list[SourcedPassage] | tuple[SourcedPassage, ...]
) -> list[Reviewed]:
    """The generated scenarios (those with a source, and probes), in file order: a reviewer's
    place in the list stays put as items are accepted or edited."""
    by_hash = {p.content_hash: p for p in passages}
    out = []
    for scenario in scenarios:
        if scenario.source is None and scenario.kind != "out_of_scope":
            continue  # hand-written: nothing generated to review
        passage = by_hash.get(scenario.source.passage_hash) if scenario.source is not None else None
        quote = find_quote(scenario.source.quote, passage.text) if passage is not None and scenario.source else None
        out.append(Reviewed(scenario, passage, quote))
    return out


def edit_problems(reviewed: Reviewed, question: str, reference: str) -> list[str]:
    """The code checks an edit must pass again: a question in the scenario's language, and a
    reference that still states the facts its ``contains`` expectations check."""
    problems = []
    if not question.strip():
        problems.append("the question is empty")
    elif not in_language(question, reviewed.scenario.language):
        problems.append(f"the question is not in {reviewed.scenario.language}")
    if reviewed.scenario.kind != "out_of_scope":
        if not reference.strip():
            problems.append("the reference is empty")
        for expectation in reviewed.scenario.expectations:
            if expectation.form == "contains" and not says_exactly(reference, expectation.text):
                problems.append(f"the reference no longer says {expectation.text!r}, which an expectation checks")
    return problems


def write_review(
    path: Path,
    scenario_id: str,
    *,
    status: str | None = None,
    question: str | None = None,
    reference: str | None = None,
    reject: bool = False,
) -> None:
    """Accept, edit or reject one scenario of the file at ``path``; the rest stays as it was. A
    rejected scenario is removed and its id kept in the file's ``rejected`` list."""
    data = _read(path)
    entries: list[dict[str, Any]] = data.get("scenario") or []
    index = next((i for i, e in enumerate(entries) if e.get("id") == scenario_id), None)
    if index is None:
        raise ConfigError(f"{path}: no scenario {scenario_id!r} to review", "the file changed since it was opened")
    if reject:
        del entries[index]
        # Remembered, so generating again onto this file does not bring it back (drafts_file).
        rejected = [str(i) for i in data.get("rejected") or []]
        data["rejected"] = rejected if scenario_id in rejected else [*rejected, scenario_id]
    else:
        entry = entries[index]
        if status is not None:
            entry["status"] = status
        if question is not None:
            entry["question"] = question.strip()
        if reference is not None:
            entry["reference"] = reference.strip()
    data["scenario"] = entries
    atomic_write_text(path, HEADER + tomli_w.dumps(data))


def accept(path: Path, scenario_id: str) -> None:
    write_review(path, scenario_id, status=ACCEPTED)


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read scenario file {path}: {exc}") from None

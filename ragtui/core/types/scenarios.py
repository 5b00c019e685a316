"""A scenario: the customer's opening question, with an optional reference answer, tags and
the team's expectations of the bot's answers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .expectations import Expectation


@dataclass(frozen=True)
class ScenarioSource:
    """Where a generated scenario came from: the knowledge file, the heading path and page of its
    passage, the sentence(s) that support its reference, and the passage's hash when generated
    (``scenarios --check`` tells a passage that changed or vanished since)."""

    file: str
    heading: str
    quote: str
    passage_hash: str
    page: int | None = None
    # Mined from a real conversation (``scenarios from-conversations``) instead of a passage: the
    # imported run and session, the conversation's id and where it starts in ``file`` (its line or
    # row); ``quote`` is then the answer in it that resolved the need, ``passage_hash`` empty.
    run: str = ""
    session: int | None = None
    conversation: str = ""
    line: int | None = None
    unit: str = ""

    @property
    def from_conversation(self) -> bool:
        return bool(self.run)

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"file": self.file, "heading": self.heading, "quote": self.quote}
        if self.page is not None:
            data["page"] = self.page
        data["passage_hash"] = self.passage_hash
        if self.from_conversation:
            data |= {"run": self.run, "session": self.session, "conversation": self.conversation}
            data |= {"line": self.line, "unit": self.unit}
            data = {k: v for k, v in data.items() if v is not None}
        return data


@dataclass(frozen=True)
class FollowUp:
    """A planned second customer message: asked as turn 2 as written (the persona speaks from
    turn 3 on), judged against its own reference. A generated one keeps the passage and the
    sentence(s) its reference comes from, as ``ScenarioSource`` does for the first question."""

    question: str
    reference: str = ""
    quote: str = ""
    passage_hash: str = ""
    heading: str = ""

    def to_dict(self) -> dict[str, object]:
        data = {"question": self.question, "reference": self.reference, "quote": self.quote}
        data |= {"passage_hash": self.passage_hash, "heading": self.heading}
        return {k: v for k, v in data.items() if v}


DRAFT = "draft"  # generated and not yet accepted by a person: `ragtui run --include-drafts` runs it
ACCEPTED = "accepted"


@dataclass(frozen=True)
class Scenario:
    id: str
    question: str
    language: str
    reference: str | None = None
    tags: tuple[str, ...] = field(default_factory=tuple)
    # ``expect`` then ``expect_not`` of the scenario file, in file order
    expectations: tuple[Expectation, ...] = field(default_factory=tuple)
    status: str = ACCEPTED  # a hand-written scenario is accepted; a generated one starts as a draft
    kind: str = ""  # a generated scenario's kind: factual, procedural, …, out_of_scope
    source: ScenarioSource | None = None  # a generated scenario's provenance (never shown to the bot)
    follow_up: FollowUp | None = None  # the customer's planned turn 2

    @property
    def draft(self) -> bool:
        return self.status == DRAFT

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "question": self.question,
            "language": self.language,
            "reference": self.reference,
            "tags": list(self.tags),
            "expectations": [e.to_dict() for e in self.expectations],
            # A generated scenario's kind and source; a hand-written one's snapshot is as it was.
            **({"kind": self.kind} if self.kind else {}),
            **({"source": self.source.to_dict()} if self.source is not None else {}),
            **({"status": self.status} if self.status != ACCEPTED else {}),
            **({"follow_up": self.follow_up.to_dict()} if self.follow_up is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Scenario:
        """A stored snapshot (``to_dict``), including one from before expectations existed."""
        return cls(
            id=str(data["id"]),
            question=str(data["question"]),
            language=str(data["language"]),
            reference=data.get("reference"),
            tags=tuple(data.get("tags") or ()),
            expectations=expectations_of(data),
            status=str(data.get("status") or ACCEPTED),
            kind=str(data.get("kind") or ""),
            source=ScenarioSource(**data["source"]) if isinstance(data.get("source"), dict) else None,
            follow_up=FollowUp(**data["follow_up"]) if isinstance(data.get("follow_up"), dict) else None,
        )


def expectations_of(snapshot: dict[str, Any] | None) -> tuple[Expectation, ...]:
    """The expectations a stored scenario snapshot holds (none for sessions older than them)."""
    items = (snapshot or {}).get("expectations") or []
    return tuple(Expectation.from_dict(e) for e in items if isinstance(e, dict))

"""A scenario: the customer's opening question, with an optional reference answer, tags and
the team's expectations of the bot's answers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .expectations import Expectation


@dataclass(frozen=True)
class Scenario:
    id: str
    question: str
    language: str
    reference: str | None = None
    tags: tuple[str, ...] = field(default_factory=tuple)
    # ``expect`` then ``expect_not`` of the scenario file, in file order
    expectations: tuple[Expectation, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "question": self.question,
            "language": self.language,
            "reference": self.reference,
            "tags": list(self.tags),
            "expectations": [e.to_dict() for e in self.expectations],
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
        )


def expectations_of(snapshot: dict[str, Any] | None) -> tuple[Expectation, ...]:
    """The expectations a stored scenario snapshot holds (none for sessions older than them)."""
    items = (snapshot or {}).get("expectations") or []
    return tuple(Expectation.from_dict(e) for e in items if isinstance(e, dict))

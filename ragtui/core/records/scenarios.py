"""A scenario: the customer's opening question, with an optional reference answer and tags."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Scenario:
    id: str
    question: str
    language: str
    reference: str | None = None
    tags: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "question": self.question,
            "language": self.language,
            "reference": self.reference,
            "tags": list(self.tags),
        }

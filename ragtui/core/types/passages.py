"""A passage of the knowledge base: what a bot retrieved and the judge reads as context."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Passage:
    doc_id: str  # file path relative to the knowledge folder
    title: str
    text: str
    score: float = 0.0

    def to_dict(self) -> dict[str, object]:
        return {"doc_id": self.doc_id, "title": self.title, "text": self.text, "score": round(self.score, 4)}

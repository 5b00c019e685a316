"""A simulated customer: how they talk, how long they wait, what counts as solved for them."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Persona:
    name: str
    language: str
    persona: str  # behaviour text given to the simulator
    temperature: float = 0.7
    description: str = ""
    # Bot answers this customer waits for before giving up (stop reason ``gave_up``); None: no limit.
    patience: int | None = None
    # What counts as solved for this customer; the simulator is told it and ``resolution`` checks it.
    goal: str = ""

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

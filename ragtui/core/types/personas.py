"""A simulated customer: how they talk, how long they wait, what counts as solved for them.

``Persona`` is the one declaration of a persona: its fields, their types and defaults. A persona
file is checked against a model derived from it (``core/content/personas.py``, built on first
use), read once into a ``Persona``, and that object is what the engine, the simulator's prompt
and the store are given. Its dict form (``to_dict``) is only how it is written down: a file, a
record in the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any


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

    def to_dict(self) -> dict[str, Any]:
        """The persona as written down (the database's JSON, a file's keys)."""
        return asdict(self)

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> Persona:
        """A persona as a record holds it. Never refused: a record is history, and one written by
        another version of ragtui may lack a key (the default stands in) or hold one this version
        does not know (left out)."""
        known = {f.name: data[f.name] for f in fields(cls) if f.name in data}
        return cls(**{"name": "", "language": "", "persona": "", **known})

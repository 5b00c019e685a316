"""The side-by-side figures of ``ragtui realism``: what REAL's and SIM's customers do, each with
its 95% interval and its n (docs/realism.md says what each means).

Means are over messages (or conversations) with the conversation bootstrap of ``stats``; shares
of conversations carry Wilson intervals. The opening row compares the sides with each other:
each conversation's opening is matched to its closest opening on the *other* side (character
trigram Dice, ``text.text_similarity``) — for SIM, how near a real customer's opening each
simulated one is; for REAL, how near a simulated opening each real need came.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .conversations import Conversation, Side
from .cues import PERSONAL_KINDS, UNITS, asks_for_human, gives_up, length, personal_data, questions
from .similarity import dice_matrix
from .stats import Estimate, apart, cluster_mean, share


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    real: Estimate
    sim: Estimate
    kind: str  # "mean" | "share" | "similarity"

    @property
    def apart(self) -> bool:
        return apart(self.real, self.sim)


@dataclass(frozen=True)
class Figures:
    real: Side
    sim: Side
    rows: list[Row]
    units: tuple[str, str]  # REAL's and SIM's unit of length
    personal_kinds: dict[str, tuple[int, int]] = field(default_factory=dict)  # kind → conversations (REAL, SIM)

    @property
    def same_unit(self) -> bool:
        return self.units[0] == self.units[1]

    def row(self, key: str) -> Row:
        return next(r for r in self.rows if r.key == key)


def _per_conversation(side: Side, value: Callable[[Conversation], list[float]], seed: int) -> Estimate:
    return cluster_mean([value(c) for c in side.conversations], seed=seed)


def _share(side: Side, hit: Callable[[Conversation], bool]) -> Estimate:
    return share(sum(1 for c in side.conversations if hit(c)), len(side.conversations))


def _best_matches(side: Side, other: Side) -> list[list[float]]:
    """Per conversation of ``side``, the Dice of its opening with the closest opening of ``other``."""
    matrix = dice_matrix([c.opening.text for c in side.conversations], [c.opening.text for c in other.conversations])
    return [[max(row)] for row in matrix]


def compute(real: Side, sim: Side, *, seed: int) -> Figures:
    units = (UNITS.get(real.language, "words"), UNITS.get(sim.language, "words"))
    unit = units[0] if units[0] == units[1] else "length"

    def lengths(side: Side, pick: Callable[[Conversation], list[str]]) -> Estimate:
        return _per_conversation(side, lambda c: [float(length(t, side.language)) for t in pick(c)], seed)

    def both(key: str, label: str, kind: str, measure: Callable[[Side], Estimate]) -> Row:
        return Row(key, label, measure(real), measure(sim), kind)

    rows = [
        both(
            "messages",
            "messages per conversation",
            "mean",
            lambda s: _per_conversation(s, lambda c: [float(len(c.messages))], seed),
        ),
        both("length", f"{unit} per message", "mean", lambda s: lengths(s, lambda c: [m.text for m in c.messages])),
        both("length_opening", f"{unit} per opening", "mean", lambda s: lengths(s, lambda c: [c.opening.text])),
        both("length_reply", f"{unit} per reply", "mean", lambda s: lengths(s, lambda c: [m.text for m in c.replies])),
        both(
            "questions",
            "questions per message",
            "mean",
            lambda s: _per_conversation(s, lambda c: [float(questions(m.text)) for m in c.messages], seed),
        ),
        both(
            "human",
            "asks for a person",
            "share",
            lambda s: _share(s, lambda c: any(asks_for_human(m.text) for m in c.messages)),
        ),
        both("give_up", "gives up", "share", lambda s: _share(s, lambda c: any(gives_up(m.text) for m in c.messages))),
        both(
            "personal",
            "volunteers personal data",
            "share",
            lambda s: _share(s, lambda c: any(personal_data(m.text) for m in c.messages)),
        ),
        Row(
            "opening_match",
            "opening's closest match",
            cluster_mean(_best_matches(real, sim), seed=seed),
            cluster_mean(_best_matches(sim, real), seed=seed),
            "similarity",
        ),
    ]
    kinds = {kind: (_volunteering(real, kind), _volunteering(sim, kind)) for kind in PERSONAL_KINDS}
    return Figures(real, sim, rows, units, kinds)


def _volunteering(side: Side, kind: str) -> int:
    """How many of the side's conversations volunteer personal data of ``kind``."""
    return sum(1 for c in side.conversations if any(kind in personal_data(m.text) for m in c.messages))

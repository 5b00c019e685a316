"""Expectations of two runs side by side: an expectation met (or a policy kept) in the base run
and missed (broken) in the new one is a regression, named by its id.

Expectations line up by id within a matched scenario × persona pair; an expectation only one
side has (added or renamed since) and an unscored one on either side are no evidence of a
change, so neither is a regression nor a fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .dialogues import RunDialogue


class PairedDialogues(Protocol):
    """What is compared: a matched pair's label and its two dialogues (``compare.Pair``, named
    by shape so that compare can use this module without the two importing each other)."""

    base: RunDialogue
    new: RunDialogue

    @property
    def label(self) -> str: ...


@dataclass(frozen=True)
class ExpectationChange:
    pair: str  # the pair's label, ``refund × Aiko``
    expectation_id: str
    text: str
    origin: str
    base_status: str
    new_status: str
    base_session: int
    new_session: int
    new_turn: int | None = None
    over_trials: str = ""  # with trials: "met in 3/3 → 0/3 trials (p=0.050)"

    @property
    def line(self) -> str:
        kind = "policy" if self.origin == "policy" else "expectation"
        if self.over_trials:
            return f"{kind} {self.expectation_id} regressed in {self.pair} over its trials: {self.over_trials}: {self.text}"
        at = f" at turn {self.new_turn}" if self.new_turn is not None else ""
        return (
            f"{kind} {self.expectation_id} regressed in {self.pair}: {self.base_status} → {self.new_status}{at} "
            f"(sessions #{self.base_session} → #{self.new_session}): {self.text}"
        )


def expectation_changes(pairs: Sequence[PairedDialogues], want: str = "regression") -> list[ExpectationChange]:
    """Per pair and expectation id: ``regression`` passed in base, failed in new; ``fixed`` the
    other way round."""
    out = []
    for p in pairs:
        for eid, base in p.base.expectations.items():
            new = p.new.expectations.get(eid)
            if new is None or base.passed is None or new.passed is None or base.passed == new.passed:
                continue
            if (want == "regression") == bool(base.passed):
                out.append(
                    ExpectationChange(
                        p.label,
                        eid,
                        new.text,
                        new.origin,
                        base.status,
                        new.status,
                        p.base.session_id,
                        p.new.session_id,
                        new.turn,
                    )
                )
    return out

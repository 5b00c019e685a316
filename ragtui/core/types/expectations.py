"""What a team says its bot must (or must never) say, and what the judge found.

An *expectation* belongs to a scenario (``expect`` / ``expect_not`` in the scenario file); a
*policy* belongs to the team's config (``[[policy]]``) and is a prohibition checked on every bot
answer of the scenarios its tags select. Both become ``Expectation`` records here:

- ``polarity="must"``: met when some bot answer of the dialogue meets it (``expect``);
- ``polarity="must_not"``: broken when any bot answer does it (``expect_not`` and policies).

``form`` says how it is decided: ``"judged"`` (a yes/no question to the judge, read as P(yes)),
or one of the deterministic forms decided in code with no model call — ``"contains"``,
``"regex"``, ``"not_contains"`` — on Unicode-normalised (NFKC, casefolded) text.

The dialogue verdict ``expectations`` stores one ``ExpectationResult`` per expectation in its
details (``{"results": [result.to_dict(), ...]}``), with every check's prompt, reply and P, so
results line up by ``id`` across runs and re-judging adds a version like any other verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .calls import CallUsage

Form = Literal["judged", "contains", "regex", "not_contains"]
Polarity = Literal["must", "must_not"]
Origin = Literal["scenario", "policy"]
# met / missed for "must"; kept / broken for "must_not"; unscored when a check could not be read
Status = Literal["met", "missed", "kept", "broken", "unscored"]
DETERMINISTIC_FORMS: tuple[str, ...] = ("contains", "regex", "not_contains")


@dataclass(frozen=True)
class Proof:
    """How a generated expectation proved itself before it was written (``checked`` in the
    scenario file): the judge's P on the item's reference answer — P(met) for an ``expect``,
    P(it does the act) for an ``expect_not`` — and on the wrong answer it caught: for an
    ``expect`` P(met) on the answer that failed it, for an ``expect_not`` P(act) on the answer
    that broke it. None in a file written before prohibitions were proven on a breaking answer."""

    reference: float
    wrong: float | None = None

    def to_dict(self) -> dict[str, float]:
        return {"reference": self.reference, **({"wrong": self.wrong} if self.wrong is not None else {})}


@dataclass(frozen=True)
class Expectation:
    id: str  # stable across runs: the file's ``id``, else derived from the text
    text: str  # what a person reads: the sentence, or the pattern for deterministic forms
    form: Form = "judged"
    polarity: Polarity = "must"
    origin: Origin = "scenario"
    tags: tuple[str, ...] = field(default_factory=tuple)  # a policy's scenario tags (empty: all)
    # A generated expectation's proof (``scenarios generate``); None for a hand-written one. Not
    # part of what it asks: two expectations differing only here are the same expectation.
    checked: Proof | None = field(default=None, compare=False)

    @property
    def deterministic(self) -> bool:
        return self.form in DETERMINISTIC_FORMS

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "form": self.form,
            "polarity": self.polarity,
            "origin": self.origin,
            "tags": list(self.tags),
            **({"checked": self.checked.to_dict()} if self.checked is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Expectation:
        checked = data.get("checked")
        return cls(
            id=str(data["id"]),
            text=str(data["text"]),
            form=data.get("form", "judged"),
            polarity=data.get("polarity", "must"),
            origin=data.get("origin", "scenario"),
            tags=tuple(data.get("tags") or ()),
            checked=Proof(float(checked["reference"]), checked.get("wrong")) if isinstance(checked, dict) else None,
        )


@dataclass
class ExpectationCheck:
    """One question about one bot answer (or one deterministic test of it)."""

    turn: int
    p_yes: float | None  # P(the answer meets / does the expectation); None: unreadable
    read: str  # "probability" | "sampled" | "code" | "none"
    prompt: list[dict[str, str]] = field(default_factory=list)
    reply: str = ""
    error: str | None = None
    # What its model calls cost (None: decided in code); recorded in the verdict's token
    # columns, not in its details.
    usage: CallUsage | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "p_yes": self.p_yes,
            "read": self.read,
            "prompt": self.prompt,
            "reply": self.reply,
            "error": self.error,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExpectationCheck:
        return cls(
            turn=int(data["turn"]),
            p_yes=data.get("p_yes"),
            read=str(data.get("read", "none")),
            prompt=list(data.get("prompt") or []),
            reply=str(data.get("reply", "")),
            error=data.get("error"),
        )


@dataclass
class ExpectationResult:
    expectation: Expectation
    status: Status
    turn: int | None = None  # the turn that met or broke it
    checks: list[ExpectationCheck] = field(default_factory=list)
    error: str | None = None  # why it is unscored

    @property
    def passed(self) -> bool | None:
        """True when met or kept, False when missed or broken, None when unscored."""
        if self.status == "unscored":
            return None
        return self.status in ("met", "kept")

    def to_dict(self) -> dict[str, Any]:
        return {
            "expectation": self.expectation.to_dict(),
            "status": self.status,
            "turn": self.turn,
            "checks": [c.to_dict() for c in self.checks],
            "error": self.error,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExpectationResult:
        return cls(
            expectation=Expectation.from_dict(data["expectation"]),
            status=data["status"],
            turn=data.get("turn"),
            checks=[ExpectationCheck.from_dict(c) for c in data.get("checks") or []],
            error=data.get("error"),
        )


def results_from_details(details: dict[str, Any]) -> list[ExpectationResult]:
    """The results a stored ``expectations`` verdict holds (empty for any other verdict)."""
    return [ExpectationResult.from_dict(r) for r in details.get("results") or []]

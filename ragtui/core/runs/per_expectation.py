"""Each expectation (and policy) over a run: in how many dialogues it was met or kept, in which
it was missed or broken. Read from the same results as the run's expectation rate
(``expectation_rate.session_results``: each dialogue's newest ``expectations`` verdict), so the
rows add up to that rate; an unscored check counts neither way, as there."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..types.expectations import Expectation
from ..types.stored import StoredSession
from .expectation_rate import Failure, session_results


@dataclass
class ExpectationTally:
    expectation: Expectation
    passed: int = 0  # dialogues where it was met (must) or kept (must not)
    unscored: int = 0
    failures: list[Failure] = field(default_factory=list)  # missed or broken, in session order

    @property
    def checked(self) -> int:
        return self.passed + len(self.failures)

    @property
    def kind(self) -> str:
        """``policy``, ``expect not`` or ``expect``: as a config or a scenario file names it."""
        e = self.expectation
        if e.origin == "policy":
            return "policy"
        return "expect not" if e.polarity == "must_not" else "expect"

    @property
    def words(self) -> tuple[str, str]:
        """What passing and failing it is called: met / missed, or kept / broken."""
        return ("kept", "broken") if self.expectation.polarity == "must_not" else ("met", "missed")


def per_expectation(sessions: Iterable[StoredSession]) -> list[ExpectationTally]:
    """One tally per expectation, the most often failed (as a share of its checks) first. Keyed
    by id *and* text: two scenarios may each give an expectation the same id."""
    tallies: dict[tuple[str, str, str], ExpectationTally] = {}
    for s in sessions:
        for r in session_results(s):
            e = r.expectation
            tally = tallies.setdefault((e.origin, e.id, e.text), ExpectationTally(e))
            if r.passed is None:
                tally.unscored += 1
            elif r.passed:
                tally.passed += 1
            else:
                tally.failures.append(Failure(s.id, s.scenario_id, s.persona_name, r))
    return sorted(
        tallies.values(),
        key=lambda t: (-len(t.failures) / t.checked if t.checked else 0.0, t.expectation.id, t.expectation.text),
    )

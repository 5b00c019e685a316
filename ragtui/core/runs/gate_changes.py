"""What gates differently from the previous run: printed by the run it affects, never silent.

A verdict's judge can move between gating and shown-only when the judge card changes (a new
measurement, a new prompt), when the floor changes, or when the judge model does. The run
compares each verdict kind and language with the previous run in the same database — read from
the agreement entry each stored verdict carried when it was judged (``sessions_as_judged``) — and
names every kind whose gate moved, with the figure it now carries and the one it carried before.
Only a verdict whose gate is on can move: one that is shown only whatever its judge (``repetition``,
"not a gate"; resolution with ``min_resolution_rate`` 0; expectations without a minimum or
``--fail-on-policy``) gates in neither run, and no line is printed for it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from ..store.store import Store
from ..types.agreement_floor import AgreementFloor, short_agreement, trust_level
from ..types.stored import StoredSession


def sessions_as_judged(store: Store, run_id: str) -> list[StoredSession]:
    """A run's sessions with each verdict's agreement as it was when judged — what that run gated
    on — rather than the card's figure now, which every view shows."""
    lookup, store.agreement_lookup = store.agreement_lookup, None
    try:
        return store.run_sessions(run_id)
    finally:
        store.agreement_lookup = lookup


@dataclass(frozen=True)
class Standing:
    gates: bool  # measured or unmeasured (gated), or low agreement (shown only)
    figure: str  # "Spearman 0.10 [-0.39–0.54] (n=18)" or "unmeasured"


def _verdicts(session: StoredSession) -> list[tuple[str, float | None, dict[str, Any]]]:
    turn = [(m, j.score, j.details) for (_t, m), j in sorted(session.latest_judgments().items())]
    return turn + [(m, j.score, j.details) for m, j in sorted(session.latest_dialogue_judgments().items())]


def standings(
    sessions: list[StoredSession], floor: AgreementFloor, gate_low: bool = False, gate_off: Collection[str] = ()
) -> dict[tuple[str, str], Standing]:
    """(metric, language) → how its first scored verdict in ``sessions`` stands against the floor.
    ``gate_off``: the verdicts whose gate is off (``gate_scope.gate_off``): whatever their judge,
    they do not gate, so they have no standing to move."""
    out: dict[tuple[str, str], Standing] = {}
    for s in sessions:
        for metric, score, details in _verdicts(s):
            key = (metric, s.language)
            if score is None or key in out or metric in gate_off:
                continue
            gates = gate_low or trust_level(details, floor) != "low"
            out[key] = Standing(gates, short_agreement(details))
    return out


def gate_changes(
    before: dict[tuple[str, str], Standing], now: dict[tuple[str, str], Standing], previous_run: str
) -> list[str]:
    """One line per verdict kind and language that gates in one run and not in the other."""
    lines = []
    for (metric, language), standing in sorted(now.items()):
        old = before.get((metric, language))
        if old is None or old.gates == standing.gates:
            continue
        verb = "now gates" if standing.gates else "no longer gates (low agreement)"
        lines.append(
            f"{metric} ({language}) {verb} since run {previous_run}: judge {standing.figure}, was {old.figure}"
        )
    return lines

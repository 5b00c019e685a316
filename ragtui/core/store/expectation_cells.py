"""The CSV cells of a dialogue's ``expectations`` verdict.

``expectations_met`` (met or kept), ``expectations_total``, ``policies_broken`` and
``expectations_missed`` — a readable cell naming each missed expectation and broken policy
with its id, the turn that broke it and its text (the export's writer makes every cell safe).
A dialogue without the verdict has empty cells; an unscored one says so.
"""

from __future__ import annotations

from ..types.expectations import ExpectationResult, results_from_details
from ..types.stored import StoredDialogueJudgment

COLUMNS = ("expectations_met", "expectations_total", "policies_broken", "expectations_missed")


def failed_label(result: ExpectationResult) -> str:
    """``card-number (broken at turn 2): asks for the full card number``."""
    at = f" at turn {result.turn}" if result.turn is not None else ""
    return f"{result.expectation.id} ({result.status}{at}): {result.expectation.text}"


def expectation_cells(verdict: StoredDialogueJudgment | None) -> dict[str, str]:
    if verdict is None:
        return dict.fromkeys(COLUMNS, "")
    results = results_from_details(verdict.details)
    if not results:  # a failed verdict (the judge unreachable): no result to count
        return {**dict.fromkeys(COLUMNS[:3], ""), "expectations_missed": "unscored"}
    failed = [r for r in results if r.passed is False]
    unscored = [r for r in results if r.passed is None]
    missed = "; ".join(failed_label(r) for r in failed)
    if unscored:
        missed += (
            ("; " if missed else "") + f"{len(unscored)} unscored: " + ", ".join(r.expectation.id for r in unscored)
        )
    return {
        "expectations_met": str(sum(1 for r in results if r.passed)),
        "expectations_total": str(len(results)),
        "policies_broken": str(sum(1 for r in failed if r.expectation.origin == "policy")),
        "expectations_missed": missed,
    }

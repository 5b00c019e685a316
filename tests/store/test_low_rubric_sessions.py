"""Which sessions the lists mark as low agreement (``low_rubric_sessions``, one query): those whose
newest scored rubric verdicts all come from a judge under the floor. A re-judged turn counts by
its newest version only, and an unscored newest version counts as no score. Real SQLite."""

from __future__ import annotations

from ragtui.core.runs.low_agreement import low_rubric_sessions
from ragtui.core.store.store import Store
from ragtui.core.types.agreement_floor import AgreementFloor
from ragtui.core.types.judgments import Judgment
from ragtui.core.types.personas import Persona


def entry(value: float) -> dict[str, object]:
    return {
        "metric": "rubric", "language": "en", "model": "fake-judge", "fingerprint": "f", "figure": "spearman",
        "value": value, "n": 18, "on": "labels.jsonl", "source": "calibrate",
    }  # fmt: skip


def session_with(store: Store, *verdicts: tuple[float | None, float]) -> int:
    """A one-turn session whose rubric verdicts (score, agreement) are stored in order, as re-judging does."""
    session = store.create_session(
        scenario={"id": "s", "question": "Q?", "language": "en"},
        persona=Persona("calm", "en", "- polite"),
        config={},
        language="en",
        max_turns=1,
        threshold=0.7,
        metrics=["rubric"],
    )
    store.add_message(session, 1, "user", "scenario", "Q?")
    bot = store.add_message(session, 1, "bot", "bot", "A.")
    for score, agreement in verdicts:
        error = None if score is not None else "judge failed"
        store.add_judgment(
            session, bot, 1, Judgment("rubric", score, details={"agreement": entry(agreement)}, error=error)
        )
    return session


def test_the_newest_scored_verdict_decides(store: Store) -> None:
    floor = AgreementFloor()
    low = session_with(store, (0.9, 0.10))
    rejudged_by_a_measured_judge = session_with(store, (0.9, 0.10), (0.4, 0.80))
    rejudged_by_a_low_one = session_with(store, (0.9, 0.80), (0.4, 0.10))
    newest_unscored = session_with(store, (0.9, 0.10), (None, 0.10))
    ids = [low, rejudged_by_a_measured_judge, rejudged_by_a_low_one, newest_unscored]
    assert low_rubric_sessions(store, ids, floor) == {low, rejudged_by_a_low_one}
    assert low_rubric_sessions(store, [], floor) == set()

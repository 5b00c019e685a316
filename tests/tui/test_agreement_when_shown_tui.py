"""The TUI shows a verdict's agreement as the judge card says when it is shown: a session judged
while its judge was unmeasured reads "low agreement" once ``judge-card`` measures that judge and
prompt — also in a TUI that was already open (another process wrote the card). Pilot, real SQLite."""

from __future__ import annotations

from ragtui.core.judge_quality.card_entry import CardEntry
from ragtui.core.judge_quality.card_store import save_entry
from ragtui.core.store.store import Store
from ragtui.core.types.judge_key import JUDGE_KEY, judge_key

from .conftest import SIZE, settle
from .test_low_agreement_pane import stored_session, verdict_block


def judged_unmeasured(store: Store) -> int:
    """A session whose rubric verdict names its judge (model, prompt fingerprint) and no agreement."""
    return stored_session(store, 0.4, 0.0, {"conclusion": "thin", JUDGE_KEY: judge_key("fake-judge", "f")})


async def test_a_tui_open_before_the_measurement_shows_it_on_the_next_read(make_app, store: Store):
    session = judged_unmeasured(store)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.screen.open_session(session)
        await settle(pilot)
        assert "low agreement" not in str(verdict_block(app))

        other = Store.open(store.path)  # `ragtui judge-card --measure` in another terminal
        try:
            measured = CardEntry(
                "rubric", "en", "fake-judge", "f", "spearman", 0.2, 30, "labels", "measured", -0.17, 0.52
            )
            save_entry(other, measured)
        finally:
            other.close()

        app.screen.open_session(session)
        await settle(pilot)
        block = str(verdict_block(app))
        assert "low agreement" in block and "Spearman 0.20" in block
